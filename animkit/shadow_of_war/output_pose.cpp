#include "animkit/shadow_of_war/output_pose.h"

namespace animkit::shadow_of_war {

namespace {
// 1.f == x holds for the one float 1.0 only, so leaving such a scale out loses no bit.
bool unit(const Vec3& s) { return s.x == 1.f && s.y == 1.f && s.z == 1.f; }

void prefetch_bytes(const void* p, size_t bytes) {
  const char* c = static_cast<const char*>(p);
  for (size_t at = 0; at < bytes; at += 64) __builtin_prefetch(c + at, 1);
}
}  // namespace

void OutputPose::assign(std::span<const Transform> pose) {
  const size_t n = pose.size();
  translation_.resize(n);
  rotation_.resize(n);
  bool all_unit = true;
  for (size_t j = 0; j < n; ++j) {
    translation_[j] = pose[j].translation;
    rotation_[j] = pose[j].rotation;
    all_unit &= unit(pose[j].scale);
  }
  if (all_unit) {
    scale_.clear();  // keeps its capacity
    return;
  }
  scale_.resize(n);
  for (size_t j = 0; j < n; ++j) scale_[j] = pose[j].scale;
}

std::vector<Transform> OutputPose::transforms() const {
  std::vector<Transform> out(size());
  for (size_t j = 0; j < out.size(); ++j) out[j] = (*this)[j];
  return out;
}

void OutputPose::prefetch() const {
  prefetch_bytes(translation_.data(), translation_.size() * sizeof(Vec3));
  prefetch_bytes(rotation_.data(), rotation_.size() * sizeof(Quat));
}

}  // namespace animkit::shadow_of_war
