#include "animkit/shadow_of_war/output_pose.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace animkit::shadow_of_war {

namespace {
// The bits of 1.0f: x == 1.f holds for this float only, so a scale left out loses no bit.
constexpr uint32_t kOne = 0x3f800000u;

void prefetch_bytes(const void* p, size_t bytes) {
  const char* c = static_cast<const char*>(p);
  for (size_t at = 0; at < bytes; at += 64) __builtin_prefetch(c + at, 1);
}
}  // namespace

void OutputPose::assign(std::span<const Transform> pose) {
  static_assert(offsetof(Transform, rotation) == sizeof(Vec3) &&
                offsetof(Transform, scale) == sizeof(Joint));
  const size_t n = pose.size();
  joints_.resize(n);
  uint32_t other = 0;  // non-zero: some scale component is not 1
  for (size_t j = 0; j < n; ++j) {
    joints_[j] = {pose[j].translation, pose[j].rotation};
    uint32_t s[3];
    std::memcpy(s, &pose[j].scale, sizeof s);
    other |= (s[0] ^ kOne) | (s[1] ^ kOne) | (s[2] ^ kOne);
  }
  if (!other) {
    scale_.clear();  // keeps its capacity
    return;
  }
  scale_.resize(n);
  for (size_t j = 0; j < n; ++j) scale_[j] = pose[j].scale;
}

void OutputPose::set_scales(size_t first, const float* xyz, size_t count) {
  if (scale_.empty())
    scale_.assign(joints_.size(), Vec3{1, 1, 1});  // allocates the first time only
  for (size_t i = 0; i < count; ++i)
    scale_[first + i] = {xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2]};
}

std::vector<Transform> OutputPose::transforms() const {
  std::vector<Transform> out(size());
  for (size_t j = 0; j < out.size(); ++j) out[j] = (*this)[j];
  return out;
}

void OutputPose::prefetch() const {
  prefetch_bytes(joints_.data(), joints_.size() * sizeof(Joint));
}

}  // namespace animkit::shadow_of_war
