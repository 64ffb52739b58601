// The pose job's layering (op 1 BLEND, a later REFERENCE POSE, a first SAMPLE below full weight):
// pose = pose · (1 - a) + layer · a per joint, a = clamp(weight · weight_set[j], 0, 1). It is core
// BlendingJob's rule on the two layers {pose, 1 - a} and {layer, a} with threshold 1e-6 (the rest
// pose fills a joint whose weights sum below it), computed joint by joint in place: no weight
// arrays, no third pose, one pass. Every operation is BlendingJob's, in its order, so the result
// is the same bit for bit (test PoseBlend.LayerBlendIsBitIdenticalToBlendingJob).
#pragma once

#include <span>

#include "animkit/core/math.h"

namespace animkit::shadow_of_war {

inline constexpr float kBlendThreshold = 1e-6f;

// The layer weight of joint j: an empty set weighs every joint 1, a joint past the set 0.
inline float layer_weight(float weight, std::span<const float> weight_set, size_t j) {
  if (weight_set.empty()) return weight;
  return weight * (j < weight_set.size() ? weight_set[j] : 0.f);
}

// blend_layer at weight >= 1 without a weight set: the layer alone, each component + 0 and the
// rotation normalised again (the pose is not read).
void blend_full_layer(std::span<Transform> pose, std::span<const Transform> layer);

// `pose`, `layer` and `rest` hold the same number of joints (pose's size is used).
void blend_layer(std::span<Transform> pose, std::span<const Transform> layer,
                 std::span<const Transform> rest, float weight, std::span<const float> weight_set);

}  // namespace animkit::shadow_of_war
