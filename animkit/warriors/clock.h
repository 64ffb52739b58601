// The clip clock (warriors.txt, "When a clip ends"): float32 time summed with every add and
// multiply rounded toward zero (the PS2 FPU's mode, inferred by the spec). clock.cpp derives each
// toward-zero result from the round-to-nearest one (exactly, without switching the mode; in
// another mode it switches with fesetround(FE_TOWARDZERO) and restores the caller's mode).
#pragma once

#include <bit>
#include <cfenv>
#include <cstdint>
#if defined(__SSE__) || defined(__x86_64__)
#include <xmmintrin.h>
#endif

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
inline ClockStep clock_try_step(float t, float s, float duration, uint32_t frame_count);
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

// The clock's hot operations inline (a cursor steps every update), derived from round-to-nearest
// as clock.cpp's comment says; the rare cases (far-apart operands, huge times, NaN, another
// rounding mode) go to clock.cpp.
namespace clock_detail {
// Whether the thread rounds to nearest (then the derived toward-zero results hold).
inline bool rounds_to_nearest() {
#if defined(__SSE__) || defined(__x86_64__)
  return (_mm_getcsr() & 0x6000u) == 0;  // MXCSR RC bits: 00 = nearest (fegetround reads more)
#else
  return std::fegetround() == FE_TONEAREST;
#endif
}
// A round-to-nearest result r that lies beyond the exact value (`away`, farther from zero) steps
// one float toward zero: r is then neither zero nor NaN, so that is its bits less one (an
// infinity from finite operands so becomes FLT_MAX, the smallest subnormal a zero of its sign),
// which is nextafter(r, 0) without the call.
inline float toward_zero_from(float r, bool away) {
  return away ? std::bit_cast<float>(std::bit_cast<uint32_t>(r) - 1u) : r;
}
float add_two_sum(float a, float b);    // TwoSum, any operands (clock.cpp)
uint32_t frame_by_operations(float time);  // uint(tz(tz(t x 30) + 0.5)) (clock.cpp)
// a + b toward zero, in round-to-nearest. The sum of two floats is exact in a double unless
// their exponents lie more than 29 apart; then d lies within a factor 2 of the larger operand,
// so d less that one is exact (Sterbenz) and is not the smaller one: the two tests hold exactly
// when d is the exact sum. Exact, its float r lies beyond it when |r| > |d| (an overflow to
// infinity included: that steps to FLT_MAX). Infinities and NaN fail the tests. Else TwoSum.
inline float add(float a, float b) {
  const double da = static_cast<double>(a), db = static_cast<double>(b);
  const double d = da + db;
  if (d - da == db && d - db == da) {
    const float r = static_cast<float>(d);
    return toward_zero_from(r, (r < 0 ? -static_cast<double>(r) : static_cast<double>(r)) >
                                   (d < 0 ? -d : d));
  }
  return add_two_sum(a, b);
}
// uint(tz(tz(t x 30) + 0.5)) in round-to-nearest: floor(t x 30 + 0.5) of the exact product p (a
// double holds it, and p + 0.5, exactly) while p < 2^23: toward zero gives the largest float at
// or below the exact value, and every half-integer and integer below 2^23 is a float, so neither
// rounding can cross the n - 0.5 or the n that decides the floor. Below zero the rounded sum is
// at most +0, which uint() maps to 0 (as it does p in [0, 0.5)). Larger times and NaN take the
// two operations (tests: WarriorsClock.FrameShortcutIsTheTwoOperations).
inline uint32_t frame(float time) {
  const double p = static_cast<double>(time) * 30.0;
  if (p < 8388608.0) return p > 0.0 ? static_cast<uint32_t>(p + 0.5) : 0u;
  return frame_by_operations(time);
}
ClockStep try_step_switched(float t, float s, float duration, uint32_t frame_count);
}  // namespace clock_detail

inline ClockStep clock_try_step(float t, float s, float duration, uint32_t frame_count) {
  if (!clock_detail::rounds_to_nearest()) {
    return clock_detail::try_step_switched(t, s, duration, frame_count);
  }
  const float ts = clock_detail::add(t, s);
  ClockStep out{ts, clock_detail::frame(ts), false, 0.0f};
  if (out.frame >= frame_count) {
    out.reached_end = true;
    out.overshoot = clock_overshoot(ts, duration);
  }
  return out;
}

}  // namespace animkit::warriors
