// The SIMD kernels behind the SoA jobs (soa_jobs.h), one entry point each; Highway picks the
// best compiled target of this CPU at the first call (SSE4: 4 lanes, AVX2: 8; EMU128 elsewhere).
// Internal to the core: call the jobs, which validate their inputs first.
#pragma once

#include <cstddef>
#include <cstdint>

#include "animkit/core/math.h"

namespace animkit {
struct SoaBlendingLayer;
}

namespace animkit::soa_kernels {

// One channel of a runtime cursor's cache (rows `stride` floats apart: left time, 1 / span, the
// left value's `dim` components, the right value's) interpolated at `time` for `padded` joints
// into `dim` output rows starting at `out`, `stride` floats apart. dim 4 is a rotation: nlerp
// (normalised).
void sample_channel(const float* cache, size_t stride, size_t padded, int dim, float time, float* out);
// The same for a kExact clip: SamplingJob's arithmetic (the cache's span and mode rows too).
void sample_channel_exact(const float* cache, size_t stride, size_t padded, int dim, float time,
                          float* out);

// The usual blend, gathered by SoaBlendingJob while it validates: at most kFewLayers weighing
// layers with no joint weights, plus the rest pose as one more when it makes up the weight
// (its share threshold - total). `inv_total` is 1 / the weights' sum, added in layer order.
inline constexpr size_t kFewLayers = 4;
struct FewPoses {
  const float* pose[kFewLayers + 1];
  float weight[kFewLayers + 1];
  size_t count = 0;  // 1 .. kFewLayers + 1
  float inv_total = 0;
};
void blend_few(const FewPoses& few, float* out, size_t padded, size_t stride);

// Any number of layers (SoaBlendingJob has checked them), one pass over the joints.
void blend(const SoaBlendingLayer* layers, size_t count, const float* rest, float threshold, float* out,
           size_t num_joints, size_t padded, size_t stride);

void local_to_model(const float* locals, size_t num_joints, size_t stride, const int16_t* parents,
                    const Mat4* root, Mat4* out);

// The Highway target the kernels run on ("AVX2", "SSE4", "EMU128", ...).
const char* target_name();
// The Highway targets compiled into the kernels (HWY_* bits), runnable on this CPU or not.
int64_t compiled_targets();

}  // namespace animkit::soa_kernels
