// A creature as the client poses it (asherons-call-dat-container.md section 6, "Setup +
// Animation -> skeleton"): a Setup's parts as joints under a root that carries the object frame,
// the rest pose from its placement frames, and a motion table's animations as clips whose part
// frames replace the placement pose (object space, absolute per part), exported with the
// page's axis map (AC Z-up, +Y forward -> glTF Y-up, +Z forward).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "animkit/asherons_call/motion_table.h"
#include "animkit/asherons_call/sequence.h"
#include "animkit/asherons_call/setup.h"
#include "animkit/core/registry.h"

namespace animkit::asherons_call {

// Container page 6, "Axes": (x, y, z) -> (-x, z, y); (w, x, y, z) -> glTF [-x, z, y, w]. A
// proper rotation, so it commutes with frame composition; the inverse is the same map.
Vec3 to_gltf_axes(Vec3 v);
Quat to_gltf_axes(Quat q);
Vec3 from_gltf_axes(Vec3 v);
Quat from_gltf_axes(Quat q);
AFrame to_gltf_axes(const AFrame& f);
AFrame from_gltf_axes(const AFrame& f);

// How the parts hang in the glTF (container page 6): "flat" (every part under the root, the
// client's own composition) or "parents" (parent_index, made parent-relative per pose).
enum class Rig : uint8_t { kFlat, kParents };

struct CreatureOptions {
  Rig rig = Rig::kParents;  // falls back to flat when the Setup has no valid parent forest
};

// The rig actually used for a Setup: -1 for a part hung under the root, else its parent part.
// Parents only when the Setup has them and they form an acyclic forest, in any order (an index
// past the parts or 0xFFFFFFFF is a root); otherwise every part is -1.
std::vector<int> rig_parents(const Setup& setup, Rig rig);

// Issue 28: the glTF joint of each part under `parents` (rig_parents): parents before children,
// smallest part first, so part order (part i = joint i + 1) whenever every parent precedes its
// child; a forest whose parent comes after its child ([2, -1, 1, 1]) is reordered. Empty when
// the parents hold a cycle.
std::vector<int> part_joints(const std::vector<int>& parents);

// The joint names: "root", then "part_<i>" for part i.
std::string part_joint_name(size_t part);

// Joint 0 "root" (the object frame), then one joint per part; rest = the rest placement
// (101 Resting, else 0 Default, else identity), parent-relative under `parents`.
Skeleton creature_skeleton(const Setup& setup, const std::vector<int>& parents);

// One displayed frame of a clip: the animation frame, the object frame (root motion) and the
// time it is shown from.
struct ShownFrame {
  uint32_t anim_id = 0;
  int64_t frame = 0;
  const AnimationFrame* pose = nullptr;
  AFrame root;
  float time = 0;
};

// The frames a MotionData shows when played once from an empty sequence, as the client's
// CSequence plays them (asherons-call-runtime.md 1.1, 1.4): each node from its starting frame
// at |framerate| (high to low for a negative rate), a pos frame combined as its frame is left
// (subtracted backwards), the next node's starting pos frame combined on entry (fr > 0). Nodes
// without a loadable animation or with |framerate| <= EPS are skipped. `end` gets the time the
// last frame stops showing.
std::vector<ShownFrame> shown_frames(const MotionData& md, const AnimationStore& store,
                                     float* end);

// The part frames in force at a shown frame (object space): the animation's part frames for
// i < min(N, pose count), the previous ones (starting from the rest placement) past it.
void apply_pose(std::vector<AFrame>& parts, const AnimationFrame& pose);
std::vector<AFrame> rest_parts(const Setup& setup);

// Every cycle, modifier and link of the table as one clip over the creature (step keys).
Animated creature_to_neutral(const Setup& setup, const MotionTable* table,
                             const AnimationStore& store, const CreatureOptions& options = {});
// One animation over the creature: frames 0..n-1 at `rate` frames a second.
Animated creature_animation_to_neutral(const Setup& setup, const Animation& animation,
                                       float rate = 30.0f, const CreatureOptions& options = {});

}  // namespace animkit::asherons_call
