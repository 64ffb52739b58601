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
constexpr size_t kBlock = 64;  // joints summed at a time (on the stack: no allocation per run)
}  // namespace

bool BlendingJob::run() const {
  if (!validate()) return false;
  const size_t n = output.size();
  BlendSum acc[kBlock];
  // Layer-major over blocks of joints: each inner loop streams one layer's contiguous data.
  for (size_t base = 0; base < n; base += kBlock) {
    const size_t m = std::min(kBlock, n - base);
    std::fill_n(acc, m, BlendSum{});
    for (const BlendingLayer& l : layers) {
      if (!(l.weight > 0.f)) continue;
      const Transform* x = l.transforms.data() + base;
      if (l.joint_weights.empty()) {
        for (size_t i = 0; i < m; ++i) acc[i].add(x[i], l.weight);
      } else {
        const float* jw = l.joint_weights.data() + base;
        for (size_t i = 0; i < m; ++i) {
          const float w = l.weight * jw[i];
          if (w > 0.f) acc[i].add(x[i], w);
        }
      }
    }
    for (size_t i = 0; i < m; ++i) output[base + i] = acc[i].result(rest[base + i], threshold);
  }
  return true;
}

}  // namespace animkit
