// The clip clock (warriors.txt, "When a clip ends"): float32 time summed with every add and
// multiply rounded toward zero (the PS2 FPU's mode, inferred by the spec). clock.cpp derives each
// toward-zero result from the round-to-nearest one (exactly, without switching the mode; in
// another mode it switches with fesetround(FE_TOWARDZERO) and restores the caller's mode).
#pragma once

#include <cstdint>

namespace animkit::warriors {

inline constexpr float kDt = 0.033333335f;        // 0x005102cc, 1/30 s
inline constexpr float kSixtieth = 1.0f / 60.0f;  // the 1/60 of D - 1/60, a constant

// s = dt x rate, rounded toward zero.
float clock_step_size(float dt, float rate);
// uint(D x 30 + 0.5): the frame count F.
uint32_t clock_frame_count(float duration);
// uint(t x 30 + 0.5): the frame a time shows.
uint32_t clock_frame(float time);
// t + s.
float clock_add(float t, float s);
// (t + s) - (D - 1/60), given ts = t + s.
float clock_overshoot(float ts, float duration);
// The whole of AnimCursor_Advance's arithmetic under one mode switch: ts = t + s, the frame
// uint(ts x 30 + 0.5), and when that frame reaches `frame_count` the overshoot
// ts - (D - 1/60) (else 0).
struct ClockStep {
  float time;
  uint32_t frame;
  bool reached_end;
  float overshoot;
};
ClockStep clock_try_step(float t, float s, float duration, uint32_t frame_count);
// time / duration x other_duration (the gait's shared normalised time).
float clock_rescale(float time, float duration, float other_duration);

// The single operations rounded toward zero: derived from round-to-nearest (no mode switch)
// when the thread rounds to nearest, else through fesetround; the *_fenv forms always switch
// the mode (the reference the derived results are tested against).
namespace toward_zero {
float mul(float a, float b);
float add(float a, float b);
float div(float a, float b);
float mul_fenv(float a, float b);
float add_fenv(float a, float b);
float div_fenv(float a, float b);
}  // namespace toward_zero

}  // namespace animkit::warriors
