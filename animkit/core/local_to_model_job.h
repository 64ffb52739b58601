// Local transforms -> model-space matrices down the parent table (parents come first).
#pragma once

#include <span>

#include "animkit/core/skeleton.h"

namespace animkit {

struct LocalToModelJob {
  const Skeleton* skeleton = nullptr;
  std::span<const Transform> input;  // local transforms, one per joint
  const Mat4* root = nullptr;        // optional: the model's placement, applied to every root
  std::span<Mat4> output;            // model-space matrices, one per joint

  bool validate() const;
  bool run() const;
};

}  // namespace animkit
