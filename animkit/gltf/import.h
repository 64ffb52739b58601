// glTF 2.0 (.glb / .gltf) -> neutral skeleton + clips: the first half of `animkit import`
// (issue 17). tinygltf parses the container; this reads what an animation tool puts in it:
//
// - the skeleton is the first skin's joints (or, with no skin, every node of the scene), kept in
//   the file's order when parents come before children, else reordered depth first; the rest
//   pose is each node's TRS (a matrix is decomposed), with the rest of the non-joint nodes
//   between a joint and its joint parent (an armature node) folded into its rest and keys, and,
//   when the skin's inverse bind matrices disagree with the nodes, the bind pose they give
//   (issue 32: the file's own rest, which fit_to_template relates to a template's); a joint path
//   no channel drives then keeps its node's transform as a constant channel (one key at 0), as
//   glTF poses it, with a note naming the joint;
// - each animation becomes a clip: LINEAR rotations slerp, LINEAR translations / scales lerp,
//   STEP holds, CUBICSPLINE becomes Hermite keys with the file's tangents (units per second, as
//   glTF and the neutral clip both define them);
// - the clip's duration, frame rate, looping flag and events come from the animation's `extras`
//   as `animkit export` writes them ({"duration", "frame_rate", "looping", "events": [{"time",
//   "name", "payload"}]}); without them the duration is the last key time, the frame rate 30.
//
// Every accessor is bounds-checked against its buffer view and buffer; a malformed file is an
// animkit::Error, never a crash. Hostile files (issue 32, item 5): the JSON's nesting is held to
// 512 levels before tinygltf parses (its extras copy recurses per level); the node walks are
// linear; a (0, 0, 0, 0) rotation (a node's or a key's) and a singular node matrix are errors
// naming the node or channel; every accessor is checked against its buffer, and the keys'
// memory bounded by --max-memory, before any key is decoded (import_budget.h).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "animkit/core/registry.h"

namespace animkit::gltf {

struct ImportOptions {
  std::string clip;  // only the animation of this name (empty: every animation)
  // Out, when set: the names of the animations that carry no animkit extras (neither `duration`
  // nor `events`: another tool wrote them), for fit_to_template (template_fit.h).
  std::vector<std::string>* untimed = nullptr;
  // Out, when set: what the reader itself noted (a fold, a reorder, the bind pose taken as the
  // rest, a kept node transform), which `animkit import` prints; the notes the file carries from
  // its export (`asset.extras.notes`) are not among them.
  std::vector<std::string>* notes = nullptr;
  // The decode bound (import_budget.h, check 1); 0: limits().max_memory (--max-memory).
  uint64_t max_memory = 0;
};

// Reads glTF bytes (GLB when they start with "glTF", else JSON text). `path` names the file in
// errors and locates external buffers (relative URIs resolve against its folder).
Animated read(const std::filesystem::path& path, Bytes bytes, const ImportOptions& options = {});
Animated read(const std::filesystem::path& path, const ImportOptions& options = {});

}  // namespace animkit::gltf
