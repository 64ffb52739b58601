#include "animkit/core/clip.h"

#include <fmt/format.h>

namespace animkit {

const char* to_string(Interpolation i) {
  switch (i) {
    case Interpolation::kStep: return "step";
    case Interpolation::kLinear: return "linear";
    case Interpolation::kNlerp: return "nlerp";
    case Interpolation::kSlerp: return "slerp";
    case Interpolation::kHermite: return "hermite";
  }
  return "?";
}

namespace {

bool finite(float v) { return std::isfinite(v); }
bool finite(Vec3 v) { return finite(v.x) && finite(v.y) && finite(v.z); }
bool finite(Quat q) { return finite(q.x) && finite(q.y) && finite(q.z) && finite(q.w); }

template <class T>
std::string check_track(const Track<T>& t, size_t joint, const char* what) {
  const auto where = [&] { return fmt::format("joint {} {}", joint, what); };
  if (t.values.size() != t.times.size()) {
    return fmt::format("{}: {} times but {} values", where(), t.times.size(), t.values.size());
  }
  if (t.interpolation == Interpolation::kHermite &&
      (t.in_slopes.size() != t.times.size() || t.out_slopes.size() != t.times.size())) {
    return fmt::format("{}: Hermite track needs one in and one out slope per key", where());
  }
  for (size_t k = 0; k < t.times.size(); ++k) {
    if (!finite(t.times[k]) || !finite(t.values[k])) {
      return fmt::format("{}: key {} is not finite", where(), k);
    }
    if (k > 0 && !(t.times[k] > t.times[k - 1])) {
      return fmt::format("{}: key {} at {} s does not follow key {} at {} s", where(), k,
                         t.times[k], k - 1, t.times[k - 1]);
    }
  }
  return {};
}

}  // namespace

std::string Clip::validate(size_t num_joints) const {
  if (!finite(duration) || duration < 0) return fmt::format("clip duration {} is invalid", duration);
  if (!(frame_rate > 0) || !finite(frame_rate)) return fmt::format("frame rate {} is invalid", frame_rate);
  if (joints.size() != num_joints) {
    return fmt::format("clip has tracks for {} joints, the skeleton has {}", joints.size(),
                       num_joints);
  }
  for (size_t j = 0; j < joints.size(); ++j) {
    for (const std::string& e : {check_track(joints[j].translation, j, "translation"),
                                 check_track(joints[j].rotation, j, "rotation"),
                                 check_track(joints[j].scale, j, "scale")}) {
      if (!e.empty()) return e;
    }
  }
  for (const Event& e : events) {
    if (!finite(e.time)) return fmt::format("event '{}' has a non-finite time", e.name);
  }
  return {};
}

}  // namespace animkit
