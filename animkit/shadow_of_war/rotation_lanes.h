// The crowd sampler's rotations, one SIMD lane per joint (issue 29, item 4): the per-joint nlerp
// of SamplingJob and the full-weight layer's +0 and second normalisation, 8 joints at a time on
// AVX2 (4 on SSE4; Highway picks the target at the first call, as the core's SoA kernels do).
// Every lane does the scalar code's operations in its order, each rounded on its own (the file
// is compiled without fused multiply-adds), so the floats are math.h's nlerp / normalize bit for
// bit (test KeySampler.BitIdenticalToSamplingJob).
#pragma once

#include <cstddef>

#include "animkit/core/math.h"

namespace animkit::shadow_of_war {

// Joints per pass: the lanes' inputs live on the sampler's stack.
inline constexpr size_t kRotationChunk = 64;
inline constexpr size_t kRotationLanePad = 8;  // the widest vector (AVX2: 8 floats)

// Quaternions are 4 floats x, y, z, w per lane. For each lane j < round_up(count,
// kRotationLanePad) (the padding lanes must be set too): out[j] = held[j] != 0 ? a[j] :
// nlerp(a[j], b[j], s[j]); then, when `full_layer`, out[j] = normalize(0 + out[j]) per component
// (blend_layer at weight 1 without a set). b and s must be set in held lanes too (any value).
// out[j] is the 4 floats at out + j * stride (stride >= 4: a pose's rotations in place); only
// lanes j < count are written.
void rotation_lanes(const float* a, const float* b, const float* s, const float* held, size_t count,
                    bool full_layer, float* out, size_t stride = 4);

// Blocks of lanes whose a and b are read from a clip's key rows instead (ClipLayout): for lane j
// of a block whose bit is set in `blocks` (bit j / kRotationLanePad), a[j] = a_row[j],
// b[j] = b_row[j], s[j] = s and held[j] = held; the other blocks read the per-lane arrays. Same
// floats as rotation_lanes() given those inputs.
struct RotationRows {
  const float* a_row;
  const float* b_row;
  float s, held;
  uint64_t blocks;
};
void rotation_lanes(const float* a, const float* b, const float* s, const float* held, size_t count,
                    bool full_layer, float* out, size_t stride, const RotationRows& rows);

}  // namespace animkit::shadow_of_war
