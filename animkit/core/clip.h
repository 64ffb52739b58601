// The neutral clip: the hub every engine converts into and glTF export reads. Per joint, tracks
// of translation / rotation / scale keys, each with its interpolation; events with a payload.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "animkit/core/math.h"

namespace animkit {

enum class Interpolation : uint8_t {
  kStep,     // the key in force holds until the next key
  kLinear,   // component lerp (rotations: lerp then normalise, no sign flip)
  kNlerp,    // rotations: lerp with the sign flip, then normalise
  kSlerp,    // rotations: spherical, shorter arc
  kHermite,  // cubic Hermite with per-key out / in slopes (units per second)
};
const char* to_string(Interpolation i);

// Keys in structure-of-arrays form: times (seconds, ascending), values, and for kHermite one
// incoming and one outgoing slope per key.
template <class T>
struct Track {
  Interpolation interpolation = Interpolation::kLinear;
  std::vector<float> times;
  std::vector<T> values;
  std::vector<T> in_slopes;
  std::vector<T> out_slopes;

  size_t size() const { return times.size(); }
  bool empty() const { return times.empty(); }
  void add(float time, const T& value) {
    times.push_back(time);
    values.push_back(value);
  }
  void add(float time, const T& value, const T& in_slope, const T& out_slope) {
    add(time, value);
    in_slopes.push_back(in_slope);
    out_slopes.push_back(out_slope);
  }
};

struct JointTracks {
  Track<Vec3> translation;
  Track<Quat> rotation;
  Track<Vec3> scale;
};

struct Event {
  float time = 0;       // seconds
  std::string name;
  std::string payload;  // JSON text (an object), "{}" when there is nothing more
};

struct Clip {
  std::string name;
  float duration = 0;      // seconds
  float frame_rate = 30;   // the engine's key rate; glTF export resamples Hermite tracks at it
  bool looping = false;
  std::vector<JointTracks> joints;  // one per skeleton joint; empty tracks use the rest pose
  std::vector<Event> events;

  // Empty when well formed; else what is wrong: a track whose sizes differ, times out of order or
  // not finite, non-finite values, a joint count other than `num_joints`.
  std::string validate(size_t num_joints) const;
};

}  // namespace animkit
