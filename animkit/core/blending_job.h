// Blends N weighted layers of local transforms, each optionally masked per joint (a subtree
// mask is per-joint weights of 0 and 1). Rotations are summed on one hemisphere and normalised.
// Where the layers' total weight for a joint is below `threshold`, the rest pose makes up the
// difference, so a joint no layer drives settles to rest instead of collapsing.
#pragma once

#include <span>

#include "animkit/core/math.h"

namespace animkit {

struct BlendingLayer {
  std::span<const Transform> transforms;
  float weight = 1;
  std::span<const float> joint_weights;  // optional: multiplies `weight` per joint
};

struct BlendingJob {
  std::span<const BlendingLayer> layers;
  std::span<const Transform> rest;
  float threshold = 0.1f;
  std::span<Transform> output;

  bool validate() const;
  bool run() const;
};

}  // namespace animkit
