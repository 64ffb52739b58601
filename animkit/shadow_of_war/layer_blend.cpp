#include "animkit/shadow_of_war/layer_blend.h"

#include <algorithm>

#include "animkit/core/blending_job.h"
#include "animkit/shadow_of_war/blend_lanes.h"

namespace animkit::shadow_of_war {

namespace {
// a = 1 on every joint (weight >= 1, no set): the pose's share 1 - a = 0 is skipped and BlendSum
// holds the layer alone: 0 + x * 1 per component (the sign test on the zero sum never flips:
// 0 * r is +-0 or NaN, neither below 0), total 1, so the result is x + 0 (-0 -> +0, the rest
// unchanged) and the rotation normalised. The same floats, without the general path's per-joint
// weights, clamps and dot products: the crowd's usual BLEND (the state tracker over the base's
// reference pose, issue 29 item 4).
Vec3 plus_zero(Vec3 v) { return {0.f + v.x, 0.f + v.y, 0.f + v.z}; }
}  // namespace

void blend_full_layer(std::span<Transform> pose, std::span<const Transform> layer) {
  for (size_t j = 0; j < pose.size(); ++j) {
    const Transform& x = layer[j];
    const Quat& r = x.rotation;
    pose[j] = {plus_zero(x.translation), normalize({0.f + r.x, 0.f + r.y, 0.f + r.z, 0.f + r.w}),
               plus_zero(x.scale)};
  }
}

void blend_layer(std::span<Transform> pose, std::span<const Transform> layer,
                 std::span<const Transform> rest, float weight, std::span<const float> weight_set) {
  if (weight >= 1.f && weight_set.empty()) {
    blend_full_layer(pose, layer);
    return;
  }
  // Per joint: a = the clamped layer weight; BlendSum of {pose, 1 - a} and {layer, a}, each
  // added only when its weight is positive (a NaN weight is skipped), the rest pose making up a
  // total below the threshold. On SIMD lanes, a chunk of joints at a time (blend_lanes.h).
  constexpr size_t kChunk = 64;
  float a[kChunk];
  for (size_t base = 0; base < pose.size(); base += kChunk) {
    const size_t m = std::min(kChunk, pose.size() - base);
    for (size_t i = 0; i < m; ++i)
      a[i] = std::clamp(layer_weight(weight, weight_set, base + i), 0.f, 1.f);
    blend_lanes(pose.data() + base, layer.data() + base, rest.data() + base, a, m,
                kBlendThreshold);
  }
}

}  // namespace animkit::shadow_of_war
