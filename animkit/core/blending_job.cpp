#include "animkit/core/blending_job.h"

#include <algorithm>

namespace animkit {

bool BlendingJob::validate() const {
  const size_t n = output.size();
  if (rest.size() < n || !(threshold > 0.f)) return false;
  for (const BlendingLayer& l : layers) {
    if (l.transforms.size() < n) return false;
    if (!l.joint_weights.empty() && l.joint_weights.size() < n) return false;
    if (!(l.weight >= 0.f)) return false;
  }
  return true;
}

namespace {

// Per-joint accumulators for one block of joints (on the stack: no allocation per run).
constexpr size_t kBlock = 64;
struct Accumulator {
  Vec3 t[kBlock];
  Vec3 s[kBlock];
  Quat q[kBlock];
  float total[kBlock];
};

// Adds one weighted transform. A rotation is flipped onto the hemisphere of what has been summed
// so far (the first contribution sets it, since the sum starts at zero).
inline void accumulate(Accumulator& acc, size_t i, const Transform& x, float w) {
  const Quat r = x.rotation;
  const Quat& sum = acc.q[i];
  const float signed_w = dot(sum, r) < 0.f ? -w : w;
  acc.t[i] = acc.t[i] + x.translation * w;
  acc.s[i] = acc.s[i] + x.scale * w;
  acc.q[i] = {sum.x + r.x * signed_w, sum.y + r.y * signed_w, sum.z + r.z * signed_w,
              sum.w + r.w * signed_w};
  acc.total[i] += w;
}

}  // namespace

bool BlendingJob::run() const {
  if (!validate()) return false;
  const size_t n = output.size();
  Accumulator acc;
  // Layer-major over blocks of joints: each inner loop streams one layer's contiguous data.
  for (size_t base = 0; base < n; base += kBlock) {
    const size_t m = std::min(kBlock, n - base);
    std::fill_n(acc.t, m, Vec3{});
    std::fill_n(acc.s, m, Vec3{});
    std::fill_n(acc.q, m, Quat{0, 0, 0, 0});
    std::fill_n(acc.total, m, 0.f);
    for (const BlendingLayer& l : layers) {
      if (!(l.weight > 0.f)) continue;
      const Transform* x = l.transforms.data() + base;
      if (l.joint_weights.empty()) {
        for (size_t i = 0; i < m; ++i) accumulate(acc, i, x[i], l.weight);
      } else {
        const float* jw = l.joint_weights.data() + base;
        for (size_t i = 0; i < m; ++i) {
          const float w = l.weight * jw[i];
          if (w > 0.f) accumulate(acc, i, x[i], w);
        }
      }
    }
    for (size_t i = 0; i < m; ++i) {
      // Below the threshold, the rest pose makes up the difference.
      if (acc.total[i] < threshold) accumulate(acc, i, rest[base + i], threshold - acc.total[i]);
      const float inv = 1.f / acc.total[i];
      output[base + i] = {acc.t[i] * inv, normalize(acc.q[i]), acc.s[i] * inv};
    }
  }
  return true;
}

}  // namespace animkit
