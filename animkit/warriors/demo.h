// The module's part of `animkit demo` and the synthetic clips it shares with the tests and the
// benchmarks.
#pragma once

#include <string>

#include "animkit/core/registry.h"
#include "animkit/warriors/clip.h"

namespace animkit::warriors {

// A synthetic locomotion cycle: `frames` long, legs swinging `swing` radians, the root moving at
// `speed` m/s (section A), the pelvis bobbing (section B). Bone 2 is left out (the reference pose
// fills it), and an event of type 0x0b (a footstep sound) sits at each foot contact.
AnmClip synthetic_gait_clip(const std::string& name, int frames, float swing, float speed);
// A standing idle: 60 frames of slow breathing on the spine, no root motion.
AnmClip synthetic_idle_clip();

void run_demo(DemoContext& ctx);

}  // namespace animkit::warriors
