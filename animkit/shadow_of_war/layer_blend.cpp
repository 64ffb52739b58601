#include "animkit/shadow_of_war/layer_blend.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "animkit/core/blending_job.h"

namespace animkit::shadow_of_war {
namespace {

constexpr size_t kBlock = 16;  // joints summed, then normalised together

// A block's rotation sums and totals, lane per joint: the normalisation and the division by the
// total are one loop the compiler turns into packed sqrt / div (this file is built with
// -fno-math-errno -fno-trapping-math). Packed and scalar IEEE sqrt, div and mul round alike, so
// the result is BlendSum::result's bit for bit.
struct Block {
  alignas(16) float x[kBlock], y[kBlock], z[kBlock], w[kBlock], total[kBlock];
  alignas(16) float inv_total[kBlock];
};

void normalise(Block& b, size_t m) {
  for (size_t i = 0; i < m; ++i) {
    // normalize(): identity for a zero or non-finite squared norm, else q · (1 / sqrt(n2)).
    const float n2 = b.x[i] * b.x[i] + b.y[i] * b.y[i] + b.z[i] * b.z[i] + b.w[i] * b.w[i];
    const bool unit = (n2 > 0.f) & (n2 < std::numeric_limits<float>::infinity());  // no branch
    const float inv = 1.f / std::sqrt(unit ? n2 : 1.f);
    // Every lane computes; the selects pick (no branch for the vectoriser).
    const float x = b.x[i] * inv, y = b.y[i] * inv, z = b.z[i] * inv, w = b.w[i] * inv;
    b.x[i] = unit ? x : 0.f;
    b.y[i] = unit ? y : 0.f;
    b.z[i] = unit ? z : 0.f;
    b.w[i] = unit ? w : 1.f;
    b.inv_total[i] = 1.f / b.total[i];
  }
}

}  // namespace

void blend_layer(std::span<Transform> pose, std::span<const Transform> layer,
                 std::span<const Transform> rest, float weight, std::span<const float> weight_set) {
  Block b;
  BlendSum sums[kBlock];
  for (size_t base = 0; base < pose.size(); base += kBlock) {
    const size_t m = std::min(kBlock, pose.size() - base);
    for (size_t i = 0; i < m; ++i) {
      const size_t j = base + i;
      const float a = std::clamp(layer_weight(weight, weight_set, j), 0.f, 1.f);
      const float keep = 1.f - a;
      BlendSum& sum = sums[i];
      sum = BlendSum{};
      // Layer weight 1 times the joint weight, skipped unless positive (a NaN weight is skipped).
      if (keep > 0.f) sum.add(pose[j], keep);
      if (a > 0.f) sum.add(layer[j], a);
      if (sum.total < kBlendThreshold) sum.add(rest[j], kBlendThreshold - sum.total);
      b.x[i] = sum.rotation.x, b.y[i] = sum.rotation.y, b.z[i] = sum.rotation.z;
      b.w[i] = sum.rotation.w, b.total[i] = sum.total;
    }
    normalise(b, m);
    for (size_t i = 0; i < m; ++i) {
      const float inv = b.inv_total[i];
      pose[base + i] = {sums[i].translation * inv, Quat{b.x[i], b.y[i], b.z[i], b.w[i]},
                        sums[i].scale * inv};
    }
  }
}

}  // namespace animkit::shadow_of_war
