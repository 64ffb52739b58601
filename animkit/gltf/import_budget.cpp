#include "animkit/gltf/import_budget.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "animkit/core/error.h"
#include "animkit/core/limits.h"

namespace animkit::gltf {

namespace {

template <class T>
uint64_t track_bytes(const Track<T>& t) {
  return t.size() * track_key_bytes(sizeof(T), t.interpolation == Interpolation::kHermite);
}

// The rate the format's writer samples the clip at: its own, else --frame-rate, else the clip's.
double sample_rate(const ImportRequest& request, const Format& format, const Clip& clip) {
  if (format.import_frame_rate > 0) return format.import_frame_rate;
  if (auto it = request.options.find("frame-rate"); it != request.options.end()) {
    try {
      const double r = std::stod(it->second);
      if (r > 0 && std::isfinite(r)) return r;
    } catch (const std::exception&) {
    }  // the writer refuses it with its own message
  }
  return clip.frame_rate;
}

}  // namespace

uint64_t clip_key_bytes(const Clip& clip) {
  uint64_t bytes = 0;
  for (const JointTracks& jt : clip.joints) {
    bytes += track_bytes(jt.translation) + track_bytes(jt.rotation) + track_bytes(jt.scale);
  }
  return bytes;
}

void check_import_budget(const ImportRequest& request, const Format& format, const std::string& file,
                         uint64_t max_memory) {
  const uint64_t max = max_memory ? max_memory : limits().max_memory;
  uint64_t held = 0;
  for (const Clip& clip : request.source.clips) held += clip_key_bytes(clip);
  for (const Clip& clip : request.source.clips) {
    if (!request.clip.empty() && clip.name != request.clip) continue;
    uint64_t animated = 0;
    for (const JointTracks& jt : clip.joints) {
      animated += !jt.translation.empty() || !jt.rotation.empty() || !jt.scale.empty();
    }
    if (animated == 0 || format.import_joint_frame_bytes == 0) continue;
    const double rate = sample_rate(request, format, clip);
    const double frames_d = std::floor(static_cast<double>(clip.duration) * rate) + 1;
    // Past 2^53 frames (or a NaN) no clip fits any budget: saturate rather than convert.
    uint64_t frames = UINT64_MAX;
    if (frames_d < 9e15) frames = frames_d >= 1 ? static_cast<uint64_t>(frames_d) : 1;
    const std::optional<uint64_t> samples = mul_u64(frames, animated);
    const std::optional<uint64_t> bytes =
        samples ? mul_u64(*samples, format.import_joint_frame_bytes) : std::nullopt;
    if (!bytes || *bytes > max - std::min(held, max)) {
      const std::string need = bytes ? fmt::format("{} bytes", *bytes + held) : "over 2^64 bytes";
      throw Error(fmt::format("import --as {}: animation '{}' ({} s at {} frames per second: {} "
                              "frames x {} animated joints x {} bytes the format samples, and {} "
                              "bytes of keys) needs {}, over the memory limit of {} bytes "
                              "(--max-memory)",
                              format.name, clip.name, clip.duration, rate,
                              frames == UINT64_MAX ? std::string("over 2^53") : std::to_string(frames),
                              animated, format.import_joint_frame_bytes, held, need, max),
                  std::nullopt, file);
    }
    held += *bytes;
  }
  if (held > max) {  // the keys alone (a format that samples nothing)
    throw Error(fmt::format("import --as {}: the clips' keys hold {} bytes, over the memory limit of "
                            "{} bytes (--max-memory)", format.name, held, max),
                std::nullopt, file);
  }
}

}  // namespace animkit::gltf
