// The pose a character hands to its consumer (op 3 OUTPUT; issue 29, item 4): the evaluated
// local transforms as one array of {translation, rotation} (float32) and the scales, in a second
// array, only when some joint's scale is not exactly (1, 1, 1). Every float is the pose job's, bit
// for bit; a crowd character writes 28 bytes per joint instead of a 40-byte Transform (the crowd is
// memory-bound: what each character streams per frame is what a frame costs at 20,000).
#pragma once

#include <cstring>
#include <span>
#include <vector>

#include "animkit/core/math.h"

namespace animkit::shadow_of_war {

class OutputPose {
 public:
  // Takes the pose (allocates only while the joint count grows, or the first time a scale is
  // not 1).
  void assign(std::span<const Transform> pose);
  size_t size() const { return joints_.size(); }
  Transform operator[](size_t j) const {
    return {joints_[j].translation, joints_[j].rotation,
            scale_.empty() ? Vec3{1, 1, 1} : scale_[j]};
  }
  std::vector<Transform> transforms() const;
  // The scales are all exactly 1 (none stored).
  bool unit_scale() const { return scale_.empty(); }
  // The bytes the last assign() wrote.
  size_t bytes() const { return joints_.size() * sizeof(Joint) + scale_.size() * sizeof(Vec3); }
  // Asks for the arrays' memory ahead of a write.
  void prefetch() const;

  // Direct writes (the pose job's one live sample, written in place: no pose to copy). start(n)
  // sizes the pose and forgets the scales; then every joint's translation and rotation is set,
  // and set_scales() is called for each run of joints holding a scale that is not exactly 1
  // (the scales of the joints it is not called for are 1).
  void start(size_t n) {
    joints_.resize(n);  // allocates only while the joint count grows
    scale_.clear();
  }
  void set_translation(size_t j, Vec3 t) { joints_[j].translation = t; }
  void set_rotation(size_t j, const float* xyzw) {
    std::memcpy(static_cast<void*>(&joints_[j].rotation), xyzw, sizeof(Quat));
  }
  void set_scales(size_t first, const float* xyz, size_t count);  // 3 floats per joint

  // A joint as stored; after start(n), joint_data() is where the n joints are written in place.
  struct Joint {
    Vec3 translation;
    Quat rotation;
  };
  static_assert(sizeof(Joint) == 28);
  Joint* joint_data() { return joints_.data(); }

 private:
  std::vector<Joint> joints_;
  std::vector<Vec3> scale_;  // empty: every scale is (1, 1, 1)
};

}  // namespace animkit::shadow_of_war
