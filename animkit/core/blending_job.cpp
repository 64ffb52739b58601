#include "animkit/core/blending_job.h"

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

bool BlendingJob::run() const {
  if (!validate()) return false;
  const size_t n = output.size();
  for (size_t j = 0; j < n; ++j) {
    Vec3 t{}, s{};
    Quat q{0, 0, 0, 0};
    float total = 0;
    bool first = true;
    Quat ref{};
    for (const BlendingLayer& l : layers) {
      const float w = l.joint_weights.empty() ? l.weight : l.weight * l.joint_weights[j];
      if (!(w > 0.f)) continue;
      const Transform& x = l.transforms[j];
      Quat r = x.rotation;
      if (first) {
        ref = r;
        first = false;
      } else if (dot(ref, r) < 0.f) {
        r = -r;
      }
      t = t + x.translation * w;
      s = s + x.scale * w;
      q = {q.x + r.x * w, q.y + r.y * w, q.z + r.z * w, q.w + r.w * w};
      total += w;
    }
    if (total < threshold) {
      const float w = threshold - total;
      const Transform& x = rest[j];
      Quat r = x.rotation;
      if (!first && dot(ref, r) < 0.f) r = -r;
      t = t + x.translation * w;
      s = s + x.scale * w;
      q = {q.x + r.x * w, q.y + r.y * w, q.z + r.z * w, q.w + r.w * w};
      total = threshold;
    }
    const float inv = 1.f / total;
    output[j] = {t * inv, normalize(q), s * inv};
  }
  return true;
}

}  // namespace animkit
