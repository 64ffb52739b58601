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

#include <bit>
#include <cfenv>
#include <cfloat>
#include <cmath>
#include <type_traits>
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

using clock_detail::rounds_to_nearest;
using clock_detail::toward_zero_from;

// uint(x), saturating for values the u32 cannot hold (and NaN) so bad clips cannot overflow.
uint32_t to_uint(float x) {
  if (!(x >= 0.0f)) return 0;
  if (x >= 4294967040.0f) return 0xFFFFFFFFu;
  return static_cast<uint32_t>(x);
}

// The toward-zero operations derived from round-to-nearest (valid only in that mode), inlined
// into the clock's functions, which read the mode once each.
struct Derived {
  // The product of two floats is exact in a double (24 + 24 bits, no under- or overflow there).
  static float mul(float a, float b) {
    const double exact = static_cast<double>(a) * static_cast<double>(b);
    const float r = static_cast<float>(exact);
    return toward_zero_from(r, std::fabs(static_cast<double>(r)) > std::fabs(exact));
  }
  // The double sum when exact, else TwoSum (clock_detail::add, clock.h).
  static float add(float a, float b) { return clock_detail::add(a, b); }
  // TwoSum (Knuth): e = (a + b) - r exactly, for any finite a, b whose rounded sum is finite.
  static float add_two_sum(float a, float b) {
    const float r = a + b;
    if (!std::isfinite(r)) {
      // An overflow of finite operands: toward zero gives the largest finite float.
      return std::isfinite(a) && std::isfinite(b) ? std::copysign(FLT_MAX, r) : r;
    }
    const float bv = r - a;
    const float av = r - bv;
    const float e = (a - av) + (b - bv);
    if (!std::isfinite(e)) return toward_zero::add_fenv(a, b);  // an intermediate overflowed
    // e != 0 means r is inexact (and not 0); it was rounded away when e's sign is not r's.
    return toward_zero_from(r, e != 0.0f && (e < 0.0f) != (r < 0.0f));
  }
  // q = a / b rounded to nearest; q x b is exact in a double, so |q x b| > |a| says q lies
  // beyond the exact quotient.
  static float div(float a, float b) {
    const float q = a / b;
    // An infinite or NaN operand or b = 0 makes `back` NaN or infinite as q: q is kept.
    const double back = static_cast<double>(q) * static_cast<double>(b);
    return toward_zero_from(q, std::fabs(back) > std::fabs(static_cast<double>(a)));
  }
};
// The same through the mode switch, in any other mode.
struct Switched {
  static float mul(float a, float b) { return toward_zero::mul_fenv(a, b); }
  static float add(float a, float b) { return toward_zero::add_fenv(a, b); }
  static float div(float a, float b) { return toward_zero::div_fenv(a, b); }
};

template <class Op>
uint32_t frame_of(float time) {
  if constexpr (std::is_same_v<Op, Derived>) return clock_detail::frame(time);  // the shortcut
  return to_uint(Op::add(Op::mul(time, 30.0f), 0.5f));
}
template <class Op>
float overshoot(float ts, float duration) {
  return Op::add(ts, -Op::add(duration, -kSixtieth));
}
template <class Op>
ClockStep try_step(float t, float s, float duration, uint32_t frame_count) {
  const float ts = Op::add(t, s);
  ClockStep out{ts, frame_of<Op>(ts), false, 0.0f};
  if (out.frame >= frame_count) {
    out.reached_end = true;
    out.overshoot = overshoot<Op>(ts, duration);
  }
  return out;
}
template <class Op>
float rescale(float time, float duration, float other_duration) {
  if (!(duration > 0.0f)) return 0.0f;
  return Op::mul(Op::div(time, duration), other_duration);
}
}  // namespace

namespace toward_zero {

float mul(float a, float b) { return rounds_to_nearest() ? Derived::mul(a, b) : mul_fenv(a, b); }
float add(float a, float b) { return rounds_to_nearest() ? Derived::add(a, b) : add_fenv(a, b); }
float div(float a, float b) { return rounds_to_nearest() ? Derived::div(a, b) : div_fenv(a, b); }

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

float clock_step_size(float dt, float rate) { return toward_zero::mul(dt, rate); }

uint32_t clock_frame_count(float duration) { return clock_frame(duration); }

uint32_t clock_frame(float time) {
  return rounds_to_nearest() ? frame_of<Derived>(time) : frame_of<Switched>(time);
}

float clock_add(float t, float s) { return toward_zero::add(t, s); }

float clock_overshoot(float ts, float duration) {
  return rounds_to_nearest() ? overshoot<Derived>(ts, duration) : overshoot<Switched>(ts, duration);
}

namespace clock_detail {
float add_two_sum(float a, float b) { return Derived::add_two_sum(a, b); }
uint32_t frame_by_operations(float time) {
  return to_uint(Derived::add(Derived::mul(time, 30.0f), 0.5f));
}
ClockStep try_step_switched(float t, float s, float duration, uint32_t frame_count) {
  return rounds_to_nearest() ? try_step<Derived>(t, s, duration, frame_count)
                             : try_step<Switched>(t, s, duration, frame_count);
}
}  // namespace clock_detail

float clock_rescale(float time, float duration, float other_duration) {
  return rounds_to_nearest() ? rescale<Derived>(time, duration, other_duration)
                             : rescale<Switched>(time, duration, other_duration);
}

}  // namespace animkit::warriors
