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

}  // namespace
}  // namespace animkit::warriors
