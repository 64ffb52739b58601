// The 34-bone pose and its rules (warriors.txt, "The pose", "Bone transforms", "The reference
// pose", "Blending"): two translations and 34 rotations, each tagged "default" by the lowest bit
// of its y word as the original does; Pose_BlendPartial; Instance_BuildBoneMatrices.
#pragma once

#include <array>
#include <bit>
#include <cstdint>

#include "animkit/core/math.h"
#include "animkit/warriors/clip.h"

namespace animkit::warriors {

// Skeleton_InitParents (0x00101120): bone -> parent.
extern const std::array<int8_t, kNumBones> kParents;
// Pose_InitReference (0x00100200), the spec's four-place values normalised.
const std::array<Quat, kNumBones>& reference_pose();
const char* bone_name(int bone);

// The tag: the lowest bit of the y word (| 1 on the second float), warriors.txt "The pose".
inline bool is_tagged(float y) { return (std::bit_cast<uint32_t>(y) & 1u) != 0; }
inline float with_tag(float y, bool tag) {
  const uint32_t b = std::bit_cast<uint32_t>(y);
  return std::bit_cast<float>(tag ? (b | 1u) : (b & ~1u));
}
inline bool is_tagged(const Vec3& v) { return is_tagged(v.y); }
inline bool is_tagged(const Quat& q) { return is_tagged(q.y); }
template <class T>
inline T tagged(T v, bool tag) {
  v.y = with_tag(v.y, tag);
  return v;
}

// A sampled pose (0x240 bytes in the original).
struct WarPose {
  Vec3 root_velocity;     // section A x rate (the motion channel)
  Vec3 root_translation;  // section B, the pelvis, bind height added to z
  std::array<Quat, kNumBones> rotations;
  friend bool operator==(const WarPose&, const WarPose&) = default;

  bool velocity_default() const { return is_tagged(root_velocity); }
  bool translation_default() const { return is_tagged(root_translation); }
  bool rotation_default(int bone) const { return is_tagged(rotations[bone]); }
};

// The instance's default pose: every value from the reference pose and tagged; bone 0 the
// identity; the translations (0, 0, 0) unless given.
WarPose default_pose(Vec3 root_translation = {});

// Pose_BlendPartial (0x00105158): `lower` and `upper` mixed with `weight` as upper's share.
// Bones 1-33 and the root translation: two tagged values keep the lower pose's, otherwise slerp
// (lerp), even when one side is a default. The motion channels (root velocity, bone 0): a tagged
// side gives way to the other. With `bone` >= 0 only that bone's subtree is blended.
void pose_blend_partial(const WarPose& lower, const WarPose& upper, float weight, WarPose& out,
                        int bone = -1);

// Which values of a pose are not tagged (sampled or blended, not defaults): bit b (0-33) for
// rotation b, kVelocityBit for the root velocity, kTranslationBit for the root translation.
// The sampler and the blends keep it beside each pose, so a blend visits only the values one
// side has and passes the rest (two tagged keep the lower's) without reading them.
inline constexpr int kVelocityBit = kNumBones, kTranslationBit = kNumBones + 1;
inline constexpr uint64_t kAllPoseValues = (uint64_t{1} << (kNumBones + 2)) - 1;
uint64_t untagged_mask(const WarPose& pose);
// pose_blend_partial with both poses' untagged_mask() given (they must be exact); returns out's.
// The same floats as pose_blend_partial; in place (out == lower) only the mixed values are
// written.
uint64_t pose_blend_masked(const WarPose& lower, uint64_t lower_mask, const WarPose& upper,
                           uint64_t upper_mask, float weight, WarPose& out, int bone = -1);

// One {position, rotation} per bone in model space (Instance_BuildBoneMatrices, 0x00104630).
struct BoneTransform {
  Vec3 position;
  Quat rotation;
};
// Entry 0 is motion (root velocity, bone 0's turn; zero / identity when tagged), entry 1 the
// pelvis absolute (root translation, bone 1 as is), bones 2-33 composed down the parent table.
void build_bone_matrices(const WarPose& pose, const std::array<Vec3, kNumBones>& offsets,
                         std::array<BoneTransform, kNumBones>& out);
// The offsets as the bone transforms' four-bone steps read them (a step's four x, then y, then
// z side by side), made once per offsets table (CharacterInstance keeps them beside its offsets).
struct BoneOffsetLanes {
  alignas(16) std::array<std::array<float, 12>, kNumBones> steps{};
};
BoneOffsetLanes bone_offset_lanes(const std::array<Vec3, kNumBones>& offsets);
// The same transforms with `lanes` == bone_offset_lanes(offsets).
void build_bone_matrices(const WarPose& pose, const std::array<Vec3, kNumBones>& offsets,
                         const BoneOffsetLanes& lanes, std::array<BoneTransform, kNumBones>& out);
// Unit offsets (1, 0, 0) for every bone: the fallback when no 0x28 chunk is given.
std::array<Vec3, kNumBones> unit_offsets();

}  // namespace animkit::warriors
