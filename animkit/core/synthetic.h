// Synthetic skeletons and clips built in code, for the demo, the tests and the benchmarks
// (fixtures are made, never copied from a game).
#pragma once

#include "animkit/core/registry.h"

namespace animkit {

// A five-joint arm (root, shoulder, elbow, wrist, tip) with two 1 s clips at 30 keys/s:
// "wave" (slerp rotations about z, an event at 0.5 s) and "bend" (Hermite translation of the
// root and nlerp rotations about x).
Animated synthetic_arm();

// A chain-and-branch skeleton of `joints` joints, and one clip of `seconds` keyed at
// `keys_per_second` with translation, rotation and scale keys on every joint (the benchmark's
// workload; deterministic).
Animated synthetic_workload(int joints, float seconds, float keys_per_second);

}  // namespace animkit
