// A pose: one local transform per joint, and per joint a "default" flag set when the value was
// filled from a reference pose rather than sampled from a clip (engines blend such values
// differently, e.g. The Warriors' Pose_BlendPartial).
#pragma once

#include <cstdint>
#include <vector>

#include "animkit/core/math.h"

namespace animkit {

struct Pose {
  std::vector<Transform> locals;
  std::vector<uint8_t> is_default;

  Pose() = default;
  explicit Pose(size_t joints) : locals(joints), is_default(joints, 1) {}
  size_t num_joints() const { return locals.size(); }
  void resize(size_t joints) {
    locals.resize(joints);
    is_default.resize(joints, 1);
  }
};

}  // namespace animkit
