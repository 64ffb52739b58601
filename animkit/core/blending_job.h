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

// One joint's weighted sums, the rule every blend here shares (BlendingJob, SoaBlendingJob's
// scalar reference, Shadow of War's in-place layering): the sums start at zero, and a rotation
// is flipped onto the hemisphere of what has been summed so far (so the first one sets it).
struct BlendSum {
  Vec3 translation{}, scale{};
  Quat rotation{0, 0, 0, 0};
  float total = 0;

  void add(const Transform& x, float w) {
    const Quat r = x.rotation;
    const Quat& q = rotation;
    const float signed_w = dot(q, r) < 0.f ? -w : w;
    translation = translation + x.translation * w;
    scale = scale + x.scale * w;
    rotation = {q.x + r.x * signed_w, q.y + r.y * signed_w, q.z + r.z * signed_w,
                q.w + r.w * signed_w};
    total += w;
  }
  // Below `threshold` the rest pose makes up the difference; then the weighted mean.
  Transform result(const Transform& rest, float threshold) {
    if (total < threshold) add(rest, threshold - total);
    const float inv = 1.f / total;
    return {translation * inv, normalize(rotation), scale * inv};
  }
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
