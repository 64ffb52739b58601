// The clip clock and the end rule (warriors.txt, "When a clip ends").
#include "animkit/warriors/clock.h"

#include <gtest/gtest.h>

#include <cfenv>
#include <cmath>

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

}  // namespace
}  // namespace animkit::warriors
