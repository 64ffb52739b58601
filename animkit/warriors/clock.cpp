// Compiled with -frounding-math (CMakeLists.txt) so the compiler honours the dynamic mode.
//
// Each operation rounds toward zero (warriors.txt, "When a clip ends"). Switching the FPU mode
// with fesetround costs more than the rest of an update (it writes both the x87 control word and
// MXCSR, twice per call), so in the usual round-to-nearest mode the toward-zero result is derived
// from the round-to-nearest one: an error-free transformation gives the exact error of the
// rounded result, and when that result was rounded away from zero it is stepped one float toward
// zero. This is the toward-zero result bit for bit (clock_test.cpp compares it with the
// fesetround path on edge and random operands). In any other mode the fesetround path runs.
#include "animkit/warriors/clock.h"

#include <cfenv>
#include <cfloat>
#include <cmath>
#if defined(__SSE__) || defined(__x86_64__)
#include <xmmintrin.h>
#endif

namespace animkit::warriors {

namespace {
// Rounds toward zero for its lifetime, as the PS2's FPU (warriors.txt, "When a clip ends").
class TowardZero {
 public:
  TowardZero() : saved_(std::fegetround()) { std::fesetround(FE_TOWARDZERO); }
  ~TowardZero() { std::fesetround(saved_); }
  TowardZero(const TowardZero&) = delete;
  TowardZero& operator=(const TowardZero&) = delete;

 private:
  int saved_;
};

// Whether the thread rounds to nearest (then the derived toward-zero results hold).
bool rounds_to_nearest() {
#if defined(__SSE__) || defined(__x86_64__)
  return (_mm_getcsr() & 0x6000u) == 0;  // MXCSR RC bits: 00 = nearest (fegetround reads more)
#else
  return std::fegetround() == FE_TONEAREST;
#endif
}

// A round-to-nearest result r that lies beyond the exact value (`away`, farther from zero) steps
// one float toward zero; an infinity from finite operands so becomes FLT_MAX.
float toward_zero_from(float r, bool away) { return away ? std::nextafter(r, 0.0f) : r; }

// uint(x), saturating for values the u32 cannot hold (and NaN) so bad clips cannot overflow.
uint32_t to_uint(float x) {
  if (!(x >= 0.0f)) return 0;
  if (x >= 4294967040.0f) return 0xFFFFFFFFu;
  return static_cast<uint32_t>(x);
}
}  // namespace

namespace toward_zero {

// The product of two floats is exact in a double (24 + 24 bits, no under- or overflow there).
float mul(float a, float b) {
  if (!rounds_to_nearest()) return mul_fenv(a, b);
  const double exact = static_cast<double>(a) * static_cast<double>(b);
  const float r = static_cast<float>(exact);
  return toward_zero_from(r, std::fabs(static_cast<double>(r)) > std::fabs(exact));
}

// TwoSum (Knuth): e = (a + b) - r exactly, for any finite a, b whose rounded sum is finite.
float add(float a, float b) {
  if (!rounds_to_nearest()) return add_fenv(a, b);
  const float r = a + b;
  if (!std::isfinite(r)) {
    // An overflow of finite operands: toward zero gives the largest finite float.
    return std::isfinite(a) && std::isfinite(b) ? std::copysign(FLT_MAX, r) : r;
  }
  const float bv = r - a;
  const float av = r - bv;
  const float e = (a - av) + (b - bv);
  if (!std::isfinite(e)) return add_fenv(a, b);  // an intermediate overflowed (near FLT_MAX)
  // e != 0 means r is inexact (and not 0); it was rounded away when e's sign is not r's.
  return toward_zero_from(r, e != 0.0f && (e < 0.0f) != (r < 0.0f));
}

// q = a / b rounded to nearest; q x b is exact in a double, so |q x b| > |a| says q lies
// beyond the exact quotient.
float div(float a, float b) {
  if (!rounds_to_nearest()) return div_fenv(a, b);
  const float q = a / b;
  // An infinite or NaN operand or b = 0 makes `back` NaN or infinite as q: q is kept.
  const double back = static_cast<double>(q) * static_cast<double>(b);
  return toward_zero_from(q, std::fabs(back) > std::fabs(static_cast<double>(a)));
}

// The reference: the same operations with the FPU switched to round toward zero.
float mul_fenv(float a, float b) {
  TowardZero rz;
  volatile float r = a * b;
  return r;
}
float add_fenv(float a, float b) {
  TowardZero rz;
  volatile float r = a + b;
  return r;
}
float div_fenv(float a, float b) {
  TowardZero rz;
  volatile float r = a / b;
  return r;
}

}  // namespace toward_zero

using toward_zero::add;
using toward_zero::div;
using toward_zero::mul;

float clock_step_size(float dt, float rate) { return mul(dt, rate); }

uint32_t clock_frame_count(float duration) { return to_uint(add(mul(duration, 30.0f), 0.5f)); }

uint32_t clock_frame(float time) { return to_uint(add(mul(time, 30.0f), 0.5f)); }

float clock_add(float t, float s) { return add(t, s); }

float clock_overshoot(float ts, float duration) { return add(ts, -add(duration, -kSixtieth)); }

ClockStep clock_try_step(float t, float s, float duration, uint32_t frame_count) {
  const float ts = add(t, s);
  ClockStep out{ts, to_uint(add(mul(ts, 30.0f), 0.5f)), false, 0.0f};
  if (out.frame >= frame_count) {
    out.reached_end = true;
    out.overshoot = clock_overshoot(ts, duration);
  }
  return out;
}

float clock_rescale(float time, float duration, float other_duration) {
  if (!(duration > 0.0f)) return 0.0f;
  return mul(div(time, duration), other_duration);
}

}  // namespace animkit::warriors
