// Clip trackers (spec: "Clip trackers", "Per frame" step 1): one 0xA0-byte tracker per active
// clip on the model animation instance; tracker 0 is always the clip base.
#pragma once

#include <cstdint>
#include <span>

#include "animkit/core/clip.h"
#include "animkit/shadow_of_war/key_sampler.h"

namespace animkit::shadow_of_war {

enum TrackerFlag : uint32_t {
  kTrackerAdvance = 1u << 0,  // spec: advanced only with flag bit 0 and a non-zero rate
  kTrackerLoop = 1u << 1,     // wraps at the clip's end (else holds the last key); README
};

struct Tracker {
  const Clip* clip = nullptr;  // nullptr: the model's base (reference) pose
  float time = 0;              // seconds
  float rate = 0;              // 0: not engine-advanced, the graph writes `time`
  float weight = 0;
  std::span<const float> weight_set;  // per-joint weight mask; empty: every joint 1
  uint32_t flags = 0;
  KeyCursor cursor;  // the pose job's key hint for `clip` (not the spec's: 4 bytes of padding)
};

// 0x17620C: skip unless flag bit 0 and rate != 0; then time += dt * rate, and 0x17674C wraps a
// looping clip or holds the last key (time clamped to [0, duration]).
void advance(Tracker& tracker, float dt);

}  // namespace animkit::shadow_of_war
