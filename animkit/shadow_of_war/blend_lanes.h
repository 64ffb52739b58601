// The pose job's layering on SIMD lanes (issue 29, item 4): blend_layer's per-joint rule
// (layer_blend.h: core BlendSum on {pose, 1 - a} and {layer, a}) for 8 joints at a time on AVX2
// (4 on SSE4; Highway picks the target at the first call, as rotation_lanes does). Each lane
// does BlendSum's operations in its order, each rounded on its own (the file is compiled without
// fused multiply-adds), so the floats are the scalar rule's bit for bit (test
// PoseBlend.LaneBlendIsBitIdenticalToBlendSum).
#pragma once

#include <cstddef>

#include "animkit/core/math.h"

namespace animkit::shadow_of_war {

// For j < count: pose[j] = the sums of {pose[j], 1 - a[j]} (added when 1 - a[j] > 0) and
// {layer[j], a[j]} (when a[j] > 0), the rest pose making up a total below `threshold`, then the
// weighted mean (rotation normalised). a[j] is the joint's clamped layer weight.
void blend_lanes(Transform* pose, const Transform* layer, const Transform* rest, const float* a,
                 size_t count, float threshold);

}  // namespace animkit::shadow_of_war
