// The clip clock and the end rule (warriors.txt, "When a clip ends").
#include "animkit/warriors/clock.h"

#include <gtest/gtest.h>

#include <cfenv>
#include <bit>
#include <cfloat>
#include <cmath>
#include <random>
#include <vector>

#include "animkit/warriors/cursor.h"

namespace animkit::warriors {
namespace {

// warriors.txt "When a clip ends": the measured table (F x rate -> updates).
TEST(WarriorsClock, ClipLengthTable) {
  EXPECT_EQ(clip_length_updates(21 / 30.f, 0.8f), 26);   // 19 SSS3
  EXPECT_EQ(clip_length_updates(26 / 30.f, 0.8f), 32);   // 20 SSS3_HOLD
  EXPECT_EQ(clip_length_updates(27 / 30.f, 0.8f), 34);   // 17 SSX3
  EXPECT_EQ(clip_length_updates(24 / 30.f, 0.8f), 30);   // 11 X1, 14 XS2
  EXPECT_EQ(clip_length_updates(16 / 30.f, 0.8f), 20);   // 15 SX2
  EXPECT_EQ(clip_length_updates(19 / 30.f, 0.75f), 25);  // 389
}

// The ties at 0.75 end one update late: 26 frames -> 25.5 / 0.75 = 34, measured 35 (36).
TEST(WarriorsClock, TiesEndLate) {
  EXPECT_EQ(clip_length_updates(26 / 30.f, 0.75f), 35);
  // Summed with round-to-nearest the tie would be exact and end at 34.
}

// The one exact tie: F = 2 at 0.75 gives an overshoot of exactly 0.0 and never ends.
TEST(WarriorsClock, TwoFramesAtThreeQuartersNeverEnds) {
  EXPECT_EQ(clip_length_updates(2 / 30.f, 0.75f), -1);
}

TEST(WarriorsClock, RestoresRoundingMode) {
  ASSERT_EQ(std::fegetround(), FE_TONEAREST);
  (void)clock_add(0.1f, 0.2f);
  EXPECT_EQ(std::fegetround(), FE_TONEAREST);
}

TEST(WarriorsClock, RoundsTowardZero) {
  // 1/3 is not a float: toward zero gives the float below the nearest one.
  const float nearest = 1.0f / 3.0f;
  volatile float one = 1.0f;
  const float s = clock_step_size(one, nearest);
  EXPECT_EQ(s, nearest);
  const float sum = clock_add(0.1f, 0.2f);
  EXPECT_LE(sum, 0.1f + 0.2f);
  EXPECT_EQ(clock_add(0.1f, 0.2f), std::nextafter(0.1f + 0.2f, 0.0f));
}

// The reasons a clip never ends are told apart: rate 0, the 2-frame clip's overshoot of exactly
// 0.0 at 0.75, the float32 time that stops growing (found without stepping every update), the
// iteration cap. The fast-forward gives the same counts as stepping one by one.
TEST(WarriorsClock, NeverEndsReasons) {
  using End = ClipLength::End;
  EXPECT_EQ(clip_length(21 / 30.f, 0.0f).end, End::kRateZero);
  EXPECT_EQ(clip_length(21 / 30.f, 0.8f, 0.0f).end, End::kRateZero);
  EXPECT_EQ(clip_length(0.0f, 0.0f).end, End::kEnds);  // F = 0 ends on the first update
  EXPECT_EQ(clip_length(2 / 30.f, 0.75f).end, End::kZeroOvershoot);
  const ClipLength stall = clip_length(3000 / 30.f, 0.000001f);
  EXPECT_EQ(stall.end, End::kTimeStalls);
  EXPECT_GT(stall.updates, 8000000);
  EXPECT_GT(stall.stall_time, 0.25f);
  EXPECT_LT(stall.stall_time, 1.0f);
  EXPECT_EQ(clip_length(3000 / 30.f, 0.000001f, kDt, 1000).end, End::kCap);
  // 680 frames (the longest clip on the disc) at 0.75: the count against a plain loop.
  for (float rate : {0.75f, 0.8f, 0.9f, 1.0f, 0.01f}) {
    const float d = 680 / 30.f, s = clock_step_size(kDt, rate);
    float t = 0;
    int k = 1;
    for (;; ++k) {
      const ClockStep c = clock_try_step(t, s, d, clock_frame_count(d));
      if (c.reached_end) break;
      t = c.time;
    }
    EXPECT_EQ(clip_length(d, rate).updates, k) << rate;
  }
}

// clock.cpp derives each toward-zero result from round-to-nearest (no mode switch): it must equal
// the FPU's own toward-zero result bit for bit, for the clock's operands and for any floats
// (subnormals, the overflow to FLT_MAX, signed zeros, infinities, NaN).
bool same_float(float a, float b) {
  return (std::isnan(a) && std::isnan(b)) || std::bit_cast<uint32_t>(a) == std::bit_cast<uint32_t>(b);
}
void expect_toward_zero_ops(float a, float b) {
  using namespace toward_zero;
  ASSERT_TRUE(same_float(add(a, b), add_fenv(a, b))) << a << " + " << b;
  ASSERT_TRUE(same_float(add(a, -b), add_fenv(a, -b))) << a << " - " << b;
  ASSERT_TRUE(same_float(mul(a, b), mul_fenv(a, b))) << a << " x " << b;
  ASSERT_TRUE(same_float(div(a, b), div_fenv(a, b))) << a << " / " << b;
}

TEST(WarriorsClock, TowardZeroWithoutModeSwitchIsExact) {
  ASSERT_EQ(std::fegetround(), FE_TONEAREST);
  std::vector<float> edge = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, 30.0f, kDt, kSixtieth, 0.75f, 0.8f,
                             0.9f, 26 / 30.f, 2 / 30.f, 680 / 30.f, 1e-7f, 3.0e38f, FLT_MAX,
                             FLT_MIN, FLT_TRUE_MIN, 1e-40f, INFINITY, -INFINITY, NAN, 16777216.0f,
                             1e9f};
  for (size_t i = 0, n = edge.size(); i < n; ++i) {
    edge.push_back(std::nextafter(edge[i], INFINITY));
    edge.push_back(std::nextafter(edge[i], -INFINITY));
  }
  for (float a : edge) {
    for (float b : edge) expect_toward_zero_ops(a, b);
  }
  std::mt19937 rng(14);
  std::uniform_real_distribution<float> time(0.0f, 100.0f), rate(0.0f, 2.0f);
  for (int i = 0; i < 200000; ++i) {
    expect_toward_zero_ops(time(rng), rate(rng));  // the clock's own operands
    expect_toward_zero_ops(time(rng), time(rng));
    expect_toward_zero_ops(std::bit_cast<float>(static_cast<uint32_t>(rng())),
                           std::bit_cast<float>(static_cast<uint32_t>(rng())));
  }
  // Sums whose operands' exponents lie 20-40 apart, either sign: the derived add's exact double
  // sum (gaps up to 29) and its fallback (wider gaps) on both sides of the boundary.
  std::uniform_real_distribution<float> mantissa(1.0f, 2.0f);
  for (int gap = 20; gap <= 40; ++gap) {
    for (int i = 0; i < 2000; ++i) {
      const float a = mantissa(rng) * (i % 2 ? -1.0f : 1.0f);
      const float b = std::ldexp(mantissa(rng), -gap) * (i % 4 < 2 ? -1.0f : 1.0f);
      expect_toward_zero_ops(a, b);
      expect_toward_zero_ops(b, a);
      expect_toward_zero_ops(std::ldexp(a, 100), std::ldexp(b, 100));  // near FLT_MAX's binade
      expect_toward_zero_ops(std::ldexp(a, -110), std::ldexp(b, -110));  // into the subnormals
    }
  }
  // The clock steps themselves: a clip's time summed update by update at the runtime rates.
  for (float r : {0.75f, 0.8f, 0.9f, 1.0f}) {
    float t = 0;
    const float s = toward_zero::mul_fenv(kDt, r);
    ASSERT_EQ(clock_step_size(kDt, r), s);
    for (int k = 0; k < 20000; ++k) {
      const float next = toward_zero::add_fenv(t, s);
      ASSERT_EQ(clock_add(t, s), next);
      ASSERT_EQ(clock_frame(next), static_cast<uint32_t>(toward_zero::add_fenv(
                                       toward_zero::mul_fenv(next, 30.0f), 0.5f)));
      t = next;
    }
  }
}

// clock_frame without the two toward-zero operations (clock.cpp, below 2^23 frames) against
// them through the mode switch: at every frame boundary n - 0.5 of the first 200,000 frames
// (the float times around it), far beyond 2^23 frames, below zero, and at random bits.
TEST(WarriorsClock, FrameShortcutIsTheTwoOperations) {
  ASSERT_EQ(std::fegetround(), FE_TONEAREST);
  const auto by_fenv = [](float t) {
    const float r = toward_zero::add_fenv(toward_zero::mul_fenv(t, 30.0f), 0.5f);
    if (!(r >= 0.0f)) return 0u;
    if (r >= 4294967040.0f) return 0xFFFFFFFFu;
    return static_cast<uint32_t>(r);
  };
  const auto check = [&](float t) { ASSERT_EQ(clock_frame(t), by_fenv(t)) << t; };
  for (float t : {0.0f, -0.0f, -1.0f, -1e-30f, -0.5f / 30, 0.5f / 30, FLT_TRUE_MIN, FLT_MAX,
                  -FLT_MAX, INFINITY, -INFINITY, NAN, 8388608.0f / 30, 1e9f}) {
    check(t);
    check(std::nextafter(t, INFINITY));
    check(std::nextafter(t, -INFINITY));
  }
  for (int n = -3; n < 200000; n += n < 2000 ? 1 : 7) {
    float t = static_cast<float>((n - 0.5) / 30.0);
    for (int i = 0; i < 3; ++i) t = std::nextafter(t, -INFINITY);
    for (int i = 0; i < 7; ++i, t = std::nextafter(t, INFINITY)) check(t);
  }
  for (float t = 8388608.0f / 30 * 0.999f; t < 8388608.0f / 30 * 1.001f; t = std::nextafter(t, INFINITY)) {
    check(t);
  }
  std::mt19937 rng(25);
  for (int i = 0; i < 50000; ++i) check(std::bit_cast<float>(static_cast<uint32_t>(rng())));
}

// In another rounding mode the clock switches the mode itself (and restores the caller's).
TEST(WarriorsClock, TowardZeroInAnotherModeSwitches) {
  ASSERT_EQ(std::fesetround(FE_UPWARD), 0);
  const float sum = toward_zero::add(1.0f, 1e-10f);
  const float frames = static_cast<float>(clock_frame_count(26 / 30.f));
  EXPECT_EQ(std::fegetround(), FE_UPWARD);
  std::fesetround(FE_TONEAREST);
  EXPECT_EQ(sum, 1.0f);  // upward would give the next float above 1
  EXPECT_EQ(frames, 26.0f);
}

}  // namespace
}  // namespace animkit::warriors
