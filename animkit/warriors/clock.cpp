// Compiled with -frounding-math (CMakeLists.txt) so the compiler honours the dynamic mode.
#include "animkit/warriors/clock.h"

#include <cfenv>
#include <cmath>

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

// uint(x), saturating for values the u32 cannot hold (and NaN) so bad clips cannot overflow.
uint32_t to_uint(float x) {
  if (!(x >= 0.0f)) return 0;
  if (x >= 4294967040.0f) return 0xFFFFFFFFu;
  return static_cast<uint32_t>(x);
}
}  // namespace

float clock_step_size(float dt, float rate) {
  TowardZero rz;
  volatile float s = dt * rate;
  return s;
}

uint32_t clock_frame_count(float duration) {
  TowardZero rz;
  volatile float a = duration * 30.0f;
  volatile float b = a + 0.5f;
  return to_uint(b);
}

uint32_t clock_frame(float time) {
  TowardZero rz;
  volatile float a = time * 30.0f;
  volatile float b = a + 0.5f;
  return to_uint(b);
}

float clock_add(float t, float s) {
  TowardZero rz;
  volatile float r = t + s;
  return r;
}

float clock_overshoot(float ts, float duration) {
  TowardZero rz;
  volatile float end = duration - kSixtieth;
  volatile float r = ts - end;
  return r;
}

ClockStep clock_try_step(float t, float s, float duration, uint32_t frame_count) {
  TowardZero rz;
  volatile float ts = t + s;
  volatile float a = ts * 30.0f;
  volatile float b = a + 0.5f;
  ClockStep out{ts, to_uint(b), false, 0.0f};
  if (out.frame >= frame_count) {
    out.reached_end = true;
    volatile float end = duration - kSixtieth;
    volatile float over = ts - end;
    out.overshoot = over;
  }
  return out;
}

float clock_rescale(float time, float duration, float other_duration) {
  if (!(duration > 0.0f)) return 0.0f;
  TowardZero rz;
  volatile float n = time / duration;
  volatile float r = n * other_duration;
  return r;
}

}  // namespace animkit::warriors
