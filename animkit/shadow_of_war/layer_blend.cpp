#include "animkit/shadow_of_war/layer_blend.h"

#include <algorithm>

namespace animkit::shadow_of_war {
namespace {

// One joint's weighted sums, as BlendingJob keeps them (the sums start at zero).
struct Sum {
  Vec3 t{}, s{};
  Quat q{0, 0, 0, 0};
  float total = 0;

  // BlendingJob's accumulate: the rotation is flipped onto the hemisphere of the sum so far.
  void add(const Transform& x, float w) {
    const Quat r = x.rotation;
    const float signed_w = dot(q, r) < 0.f ? -w : w;
    t = t + x.translation * w;
    s = s + x.scale * w;
    q = {q.x + r.x * signed_w, q.y + r.y * signed_w, q.z + r.z * signed_w, q.w + r.w * signed_w};
    total += w;
  }
};

}  // namespace

void blend_layer(std::span<Transform> pose, std::span<const Transform> layer,
                 std::span<const Transform> rest, float weight, std::span<const float> weight_set) {
  for (size_t j = 0; j < pose.size(); ++j) {
    const float a = std::clamp(layer_weight(weight, weight_set, j), 0.f, 1.f);
    const float keep = 1.f - a;
    Sum sum;
    // Layer weight 1 times the joint weight, skipped unless positive (a NaN weight is skipped).
    if (keep > 0.f) sum.add(pose[j], keep);
    if (a > 0.f) sum.add(layer[j], a);
    if (sum.total < kBlendThreshold) sum.add(rest[j], kBlendThreshold - sum.total);
    const float inv = 1.f / sum.total;
    pose[j] = {sum.t * inv, normalize(sum.q), sum.s * inv};
  }
}

}  // namespace animkit::shadow_of_war
