#include "animkit/shadow_of_war/layer_blend.h"

#include <algorithm>

#include "animkit/core/blending_job.h"

namespace animkit::shadow_of_war {

void blend_layer(std::span<Transform> pose, std::span<const Transform> layer,
                 std::span<const Transform> rest, float weight, std::span<const float> weight_set) {
  for (size_t j = 0; j < pose.size(); ++j) {
    const float a = std::clamp(layer_weight(weight, weight_set, j), 0.f, 1.f);
    const float keep = 1.f - a;
    BlendSum sum;
    // Layer weight 1 times the joint weight, skipped unless positive (a NaN weight is skipped).
    if (keep > 0.f) sum.add(pose[j], keep);
    if (a > 0.f) sum.add(layer[j], a);
    pose[j] = sum.result(rest[j], kBlendThreshold);
  }
}

}  // namespace animkit::shadow_of_war
