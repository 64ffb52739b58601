// `animkit import CLIP.glb --as cod-xanim` (issue 17, item 3): one glTF animation -> an xanim v14
// file (cod-xanim-format.md §1) that the loader decodes back to the glTF's keys.
//
// - Parts are the glTF joints, named as the joints, in skeleton order (with --template: the
//   template's parts, in its order, matched by name). A first joint `root` / `root (delta)` that
//   is the parent of every other joint (the shape `animkit export` writes) carries the delta
//   motion and is not a part.
// - A track whose keys lie on frames (time x frame rate whole) keeps exactly those keys (the
//   game lerps between them); any other track (STEP, CUBICSPLINE, keys between frames) is sampled
//   at every frame. Keys inside runs of equal keys are dropped (sparse), a stream of one value
//   is a constant, a stream with a key on every frame is dense.
// - Rotations are quantised through the loader's decode (xanim_quantise.h): sign bit, continuity
//   pass, the 2-component form for a part whose every key is yaw-only. Translations are float32:
//   the joint's local translation minus its rest translation (the game adds the model's base
//   translation, §2.3).
// - Notetracks from the clip's events (frame = round(time x rate)); the implicit `end` is not
//   written. The looped flag from the clip.
// - What glTF does not carry comes from the template: other header flag bits, unused bit-set
//   bits, the form of each part, key layouts that still fit, bytes after the notetracks, and the
//   delta streams when the glTF has no delta joint.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "animkit/call_of_duty/xanim_file.h"
#include "animkit/core/registry.h"

namespace animkit::call_of_duty {

struct XAnimImportSettings {
  std::string clip;                     // the animation to write (empty: the only one)
  std::optional<double> frame_rate;     // --frame-rate (whole, 1..32767)
  // --tolerance (radians): where the game's lerp between a LINEAR rotation's keys departs from
  // the glTF's slerp by more than this, the frames between are keys too. None: the keys as given.
  std::optional<double> tolerance;
  const XAnimFile* original = nullptr;  // --template
  std::string name = "import";          // the asset name messages use
};

struct XAnimImport {
  XAnimFile file;              // as written (stored lanes, frames, bits, notes)
  std::vector<uint8_t> bytes;  // write_xanim(file)
  // Per joint, the largest error at any frame of the decoded file against the glTF as glTF
  // defines it (a LINEAR rotation slerps): rotation angle in radians, translation distance.
  Json report;
  std::vector<std::string> notes;
};

// Throws animkit::Error when the animation does not fit an xanim (joint names against the
// template, more than 128 parts or 255 notetracks, too many frames, a bad frame rate).
XAnimImport import_xanim(const Animated& source, const XAnimImportSettings& settings);

// Format::import_gltf of `cod-xanim`: options "frame-rate" and "tolerance", the template read from
// its path.
ImportResult import_xanim_gltf(const ImportRequest& request);

}  // namespace animkit::call_of_duty
