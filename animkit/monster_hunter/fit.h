// Curves back into keys (issue 17, item 2): a rotation as the engine's Euler angles Rz * Ry * Rx
// (monster-hunter.txt, "How the engine plays a clip", Pose), and a channel sampled once per clip
// frame as Hermite keyframes quantised with round-half-to-even (notes 5) whose engine evaluation
// stays within a tolerance at every frame.
#pragma once

#include <array>
#include <optional>
#include <span>
#include <vector>

#include "animkit/core/math.h"
#include "animkit/monster_hunter/clip.h"
#include "animkit/core/rotation_angle.h"

namespace animkit::monster_hunter {

// Euler angles (x, y, z), radians, with R(q) = Rz(z) Ry(y) Rx(x). Of the two solutions
// (x, y, z) and (x + pi, pi - y, z + pi), each angle shifted by whole turns, the one nearest
// `reference` (per-axis distance summed); in gimbal lock (cos y = 0) x stays at the reference's
// and z takes the rest.
std::array<double, 3> euler_of(Quat q, const std::array<double, 3>& reference);

// (The angle between two rotations is the core's rotation_angle, math.h: issue 32, item 4.)

// Keys for a channel of `bit` whose value at clip frame f is samples[f] (f = 0..n, the channel's
// unit: radians or location units), such that the engine's Hermite of the quantised keys is
// within `tolerance` of every sample whenever tolerance >= half a step (a one-frame segment only
// carries its two quantised ends). Greedy: each segment [a, b] is the longest from a whose two
// slopes, fitted by least squares to the samples inside it (pulled lightly towards the chord)
// and quantised, keep every frame within tolerance; values are the samples quantised.
//
// `extra` are more points the engine will evaluate, at any clip frame in [0, n] (sorted by
// frame): a looping part shorter than its entry replays from loop_start at fractional frames.
// They join the least squares and the check, not the key choice.
struct CurvePoint {
  double frame = 0;
  double value = 0;
};
std::vector<Keyframe> fit_channel(uint16_t bit, std::span<const double> samples, double tolerance,
                                  std::span<const CurvePoint> extra = {});

// Keys at the given frames (ascending, within 0..n: a template channel's key frames), values
// quantised from the samples and each segment's slopes fitted as fit_channel does; nullopt when
// they do not keep every frame within tolerance (the value holds before the first key and after
// the last). An edited channel keeps its key layout where it can.
std::optional<std::vector<Keyframe>> fit_at_frames(uint16_t bit, std::span<const double> samples,
                                                   double tolerance, std::span<const int> frames,
                                                   std::span<const CurvePoint> extra = {});

// The largest |engine value - sample| over the frames 0..n and the extra points of a channel's
// keys (no keys: value 0).
double channel_error(const Channel& channel, std::span<const double> samples,
                     std::span<const CurvePoint> extra = {});

}  // namespace animkit::monster_hunter
