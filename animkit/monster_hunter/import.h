// `animkit import CLIP.glb --as mh-pac|mh-pack --template ORIGINAL` (issue 17, item 2): glTF
// clips written back into a Monster Hunter pack. An MHFU clip becomes an entry across the parts
// (entries.h `put`, motion.put); an MHP3rd clip a slot of the pack (clip id stream * 100 + slot,
// its records mapped to bones as records.for_monster does). Each joint's rotation becomes Euler
// angles Rz * Ry * Rx and its translation location channels (monster-hunter.txt, "How the engine
// plays a clip"), fitted as Hermite keys (fit.h) quantised with round-half-to-even (notes 5).
// Where the template's own keys already reproduce the glTF within the tolerance they are kept as
// they are, so importing an unchanged export gives back the original bytes.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "animkit/core/registry.h"
#include "animkit/monster_hunter/pack.h"
#include "animkit/monster_hunter/skeleton.h"

namespace animkit::monster_hunter {

// Clip frames per second: a clip frame is 1/30 s (the export's rate, notes 5).
constexpr double kClipRate = 30;

struct ImportSettings {
  // In raw engine steps: a rotation within tolerance * pi/8192 rad (the angle between the
  // engine's rotation and the glTF's), a translation within tolerance / 16 units (the distance).
  double tolerance = 2;
  bool refit = false;        // fit every channel anew, never keeping the template's keys
  std::optional<int> entry;  // the MHFU entry / MHP3rd clip id (else from the clip's name)
  std::optional<int> em;     // MHP3rd: the species' record offset and skipped bones
};

// The largest error of one joint over a clip's frames.
struct JointError {
  double rotation = 0;     // radians
  double translation = 0;  // location units
  double steps = 0;        // max(rotation / (pi/8192), translation * 16): the tolerance's unit
};

struct ClipImport {
  std::string name;  // the glTF animation
  int target = 0;    // the MHFU entry or the MHP3rd clip id
  int frames = 0;    // the last clip frame compared (the glTF's duration * 30, rounded)
  int kept_channels = 0, fitted_channels = 0, keys = 0;
  std::map<std::string, JointError> joints;  // by joint name, every joint of the skeleton
  double worst = 0;                          // the largest steps over the joints
};

// Writes every clip of `source` into `pack` (in place; the skeleton's joint names match the
// glTF's, match_joints). Throws animkit::Error on a joint mismatch, a clip whose target cannot
// be told or does not exist, or a part the pack has no slot for. The errors are measured on the
// written pack as the engine plays it (each MHFU part on its own clip and clock), against the
// glTF sampled at every clip frame.
std::vector<ClipImport> import_clips(const Animated& source, const Skeleton& skeleton,
                                     AnimPack& pack, const ImportSettings& settings,
                                     std::vector<std::string>* notes = nullptr);

// Format::import_gltf of mh-pac (`as_pac`: the template is a model PAC, written back with its
// pack entry replaced) and mh-pack (the pack alone; the template a pack with --skeleton, or a
// PAC). Refuses (animkit::Error) when a joint misses the tolerance (not in a dry run) or the
// result breaks an engine rule (the rule's code, message and fix).
ImportResult import_gltf(const ImportRequest& request, bool as_pac);

}  // namespace animkit::monster_hunter
