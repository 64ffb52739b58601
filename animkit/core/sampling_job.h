// Samples a neutral clip into local transforms at a time (ozz-style job: inputs, outputs,
// validate(), run()). A SamplingCursor per playing clip remembers each animated track's key so
// forward playback steps instead of searching; a jump backwards or far ahead binary-searches.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "animkit/core/clip.h"

namespace animkit {

class SamplingCursor {
 public:
  // Binds the cursor to a clip (allocates once per clip, never per sample).
  void reset(const Clip& clip);
  const Clip* clip() const { return clip_; }
  // One slot per channel with two keys or more, in joint then T, R, S order: a channel without
  // keys or with one key needs no search, and a crowd's cursors are what each update streams
  // through memory (Shadow of War, issue 15).
  size_t slot_count() const { return slots_.size(); }
  // Asks for the slots' memory ahead of a sample (a crowd samples one character after another).
  void prefetch() const {
    const char* p = reinterpret_cast<const char*>(slots_.data());
    for (size_t at = 0; at < slots_.size() * sizeof(Slot); at += 64) __builtin_prefetch(p + at);
  }

  // The key pair in force for one channel: [t0, t1) and 1 / (t1 - t0), or inv == 0 while a key
  // holds (before the first, after the last, a single key). Playing inside the pair needs no
  // search and no division.
  struct Slot {
    uint32_t key = 0;
    float t0 = 0, t1 = 0, inv = 0;
  };

 private:
  friend struct SamplingJob;
  const Clip* clip_ = nullptr;
  size_t joints_ = 0;        // the clip's joint count when bound
  std::vector<Slot> slots_;  // the animated channels'
};

struct SamplingJob {
  const Clip* clip = nullptr;
  float time = 0;                      // seconds; clamped to the keys (the first / last key holds)
  SamplingCursor* cursor = nullptr;    // reset to `clip` by run() when bound to another clip
  std::span<const Transform> rest;     // fills each channel that has no key
  std::span<Transform> output;         // one per joint
  std::span<uint8_t> output_default;   // optional: 1 for a joint with no key in any channel

  bool validate() const;
  bool run() const;

 private:
  bool sample_joints() const;
};

// The key in force at `time`: the last key whose time is <= `time` (0 before the first key).
// `hint` is where to start looking; forward moves of a few keys are stepped, others searched.
uint32_t find_key(std::span<const float> times, float time, uint32_t hint);

// Evaluates one track at `time` given the key in force (exposed for the plot and the tests).
Vec3 evaluate(const Track<Vec3>& track, float time, uint32_t key);
Quat evaluate(const Track<Quat>& track, float time, uint32_t key);

}  // namespace animkit
