// fit.h (issue 17, item 2): Euler Rz * Ry * Rx from a rotation, and Hermite keys fitted to a
// channel sampled per clip frame, quantised half to even, within the tolerance at every frame.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "animkit/monster_hunter/fit.h"
#include "animkit/monster_hunter/playback.h"

namespace animkit::monster_hunter {
namespace {

constexpr double kPi = std::numbers::pi;

TEST(MhFit, EulerOfGivesBackTheEngineRotation) {
  // Angles on both sides of the branch cut, recovered as the same rotation and, with the original
  // as reference, as the same angles.
  for (double x : {-2.9, -0.7, 0.0, 0.4, 3.0})
    for (double y : {-1.4, -0.2, 0.0, 0.9, 1.5})
      for (double z : {-3.1, -1.0, 0.3, 2.2}) {
        const Quat q = euler_quat({static_cast<float>(x), static_cast<float>(y), static_cast<float>(z)});
        const std::array<double, 3> e = euler_of(q, {x, y, z});
        EXPECT_NEAR(e[0], x, 1e-5);
        EXPECT_NEAR(e[1], y, 1e-5);
        EXPECT_NEAR(e[2], z, 1e-5);
        const Quat back = euler_quat({static_cast<float>(e[0]), static_cast<float>(e[1]),
                                      static_cast<float>(e[2])});
        EXPECT_LT(rotation_angle(q, back), 1e-5);
      }
}

TEST(MhFit, EulerOfKeepsTurnsAndBranchOfTheReference) {
  // 4 pi is the s16 range's end on rotation (notes 5: rot 4pi -> 32767): whole turns are kept
  // near the reference, and the other branch (x + pi, pi - y, z + pi) is taken when it is nearer.
  const Quat q = euler_quat({0.5f, 0.25f, -0.5f});
  const std::array<double, 3> turned = euler_of(q, {0.5 + 4 * kPi, 0.25, -0.5 - 2 * kPi});
  EXPECT_NEAR(turned[0], 0.5 + 4 * kPi, 1e-5);
  EXPECT_NEAR(turned[1], 0.25, 1e-5);
  EXPECT_NEAR(turned[2], -0.5 - 2 * kPi, 1e-5);
  const std::array<double, 3> other = euler_of(q, {0.5 + kPi, kPi - 0.25, -0.5 + kPi});
  EXPECT_NEAR(other[0], 0.5 + kPi, 1e-5);
  EXPECT_NEAR(other[1], kPi - 0.25, 1e-5);
  EXPECT_NEAR(other[2], -0.5 + kPi, 1e-5);
}

TEST(MhFit, EulerOfInGimbalLockKeepsTheReferenceX) {
  const Quat q = euler_quat({0.3f, static_cast<float>(kPi / 2), 0.1f});
  const std::array<double, 3> e = euler_of(q, {0.3, 1.5, 0.0});
  EXPECT_NEAR(e[0], 0.3, 1e-9);
  const Quat back =
      euler_quat({static_cast<float>(e[0]), static_cast<float>(e[1]), static_cast<float>(e[2])});
  EXPECT_LT(rotation_angle(q, back), 2e-3);  // float32 input near the lock
  const Quat down = euler_quat({-0.2f, static_cast<float>(-kPi / 2), 0.6f});
  const std::array<double, 3> d = euler_of(down, {1.0, -1.5, 0.0});
  EXPECT_NEAR(d[0], 1.0, 1e-9);
  EXPECT_LT(rotation_angle(down, euler_quat({static_cast<float>(d[0]), static_cast<float>(d[1]),
                                              static_cast<float>(d[2])})),
            2e-3);
}

TEST(MhFit, RotationAngle) {
  EXPECT_NEAR(rotation_angle(Quat{}, euler_quat({0, 0, 0.5f})), 0.5, 1e-6);
  // Either sign of a quaternion is the same rotation.
  const Quat q = euler_quat({0.2f, 0.1f, 0});
  EXPECT_NEAR(rotation_angle(q, -q), 0, 1e-6);
}

// The engine's value of the keys at every frame, and the largest error against the samples.
double worst(uint16_t bit, const std::vector<Keyframe>& keys, const std::vector<double>& y) {
  return channel_error({bit, keys}, y);
}

TEST(MhFit, ConstantAndStraightLinesTakeTwoKeys) {
  const double step = kPi / 8192;
  std::vector<double> flat(61, 100 * step);
  std::vector<Keyframe> keys = fit_channel(bits::kRotX, flat, step);
  ASSERT_EQ(keys.size(), 2u);
  EXPECT_EQ(keys[0], (Keyframe{100, 0, 0, 0}));
  EXPECT_EQ(keys[1], (Keyframe{100, 60, 0, 0}));
  // notes 5's vector: LOC_Y (0, 0, in 0, out 160) .. (10, 1600, in 160) is a straight line.
  std::vector<double> line(11);
  for (int f = 0; f <= 10; ++f) line[f] = 10.0 * f;
  keys = fit_channel(bits::kLocY, line, 1.0 / 32);
  ASSERT_EQ(keys.size(), 2u);
  EXPECT_EQ(keys[0], (Keyframe{0, 0, 0, 160}));
  EXPECT_EQ(keys[1], (Keyframe{1600, 10, 160, 0}));
}

TEST(MhFit, OneSampleIsOneKey) {
  const std::vector<double> one{0.03125 * 3};  // 1.5 raw: half to even -> 2
  const std::vector<Keyframe> keys = fit_channel(bits::kLocX, one, 1);
  ASSERT_EQ(keys.size(), 1u);
  EXPECT_EQ(keys[0], (Keyframe{2, 0, 0, 0}));
}

TEST(MhFit, CurvesStayWithinTheToleranceAtEveryFrame) {
  const double step = kPi / 8192;
  std::vector<double> wave(241);
  for (size_t f = 0; f < wave.size(); ++f)
    wave[f] = 0.8 * std::sin(f * 0.07) + 0.3 * std::cos(f * 0.31) + (f > 120 ? 0.2 : 0.0);
  size_t keys_at_32 = 0;
  for (double tol_steps : {0.5, 1.0, 4.0, 32.0}) {
    const std::vector<Keyframe> keys = fit_channel(bits::kRotY, wave, tol_steps * step);
    EXPECT_LE(worst(bits::kRotY, keys, wave), tol_steps * step * (1 + 1e-6)) << tol_steps;
    EXPECT_EQ(keys.front().frame, 0);
    EXPECT_EQ(keys.back().frame, 240);
    for (size_t i = 1; i < keys.size(); ++i) EXPECT_LT(keys[i - 1].frame, keys[i].frame);
    keys_at_32 = keys.size();
  }
  EXPECT_LT(keys_at_32, 40u);  // the Hermite carries the smooth parts in few keys
}

TEST(MhFit, KeysAtTheTemplatesFramesRecoverItsValuesAndSlopes) {
  // A channel as a game stores it; the engine's curve sampled per frame; fitted at the same key
  // frames, the values and both slopes of every segment come back (the first key's ease_in and
  // the last key's ease_out are never played: zero here).
  const Channel original{bits::kRotZ, {{-300, 0, 0, 45}, {900, 10, -20, 31}, {120, 25, 7, 0}}};
  const ChannelCurve curve = make_curve(original);
  std::vector<double> y(26);
  for (int f = 0; f <= 25; ++f) y[f] = sample(curve, static_cast<float>(f));
  const std::vector<int> frames{0, 10, 25};
  const auto keys = fit_at_frames(bits::kRotZ, y, kPi / 8192 / 3, frames);
  ASSERT_TRUE(keys.has_value());
  EXPECT_EQ(*keys, original.keys);
  // Frames the curve cannot follow between: no fit.
  std::vector<double> bumpy = y;
  bumpy[5] += 0.05;
  EXPECT_FALSE(fit_at_frames(bits::kRotZ, bumpy, kPi / 8192, frames).has_value());
  // Frames outside the samples or out of order: no fit.
  EXPECT_FALSE(fit_at_frames(bits::kRotZ, y, 1, std::vector<int>{0, 30}).has_value());
  EXPECT_FALSE(fit_at_frames(bits::kRotZ, y, 1, std::vector<int>{10, 0}).has_value());
}

TEST(MhFit, ExtraPointsAreKeptWithinTheTolerance) {
  // A looping part replays at fractional frames: those points are checked as well.
  std::vector<double> y(21);
  for (int f = 0; f <= 20; ++f) y[f] = 0.01 * f;
  std::vector<CurvePoint> extra;
  for (int i = 0; i < 15; ++i) extra.push_back({4.5 + i, 0.01 * (4.5 + i) + (i == 3 ? 0.004 : 0.0)});
  const double tol = 3 * kPi / 8192;
  const std::vector<Keyframe> keys = fit_channel(bits::kRotX, y, tol, extra);
  EXPECT_LE(channel_error({bits::kRotX, keys}, y, extra), tol);
  EXPECT_GT(channel_error({bits::kRotX, fit_channel(bits::kRotX, y, tol)}, y, extra), tol);
}

TEST(MhFit, ValuesAreQuantisedHalfToEven) {
  // 2.5 and 3.5 raw: round half to even gives 2 and 4 (notes 5: loc 0.03125 -> 0, 0.09375 -> 2).
  const std::vector<double> y{2.5 / 16, 3.5 / 16};
  const std::vector<Keyframe> keys = fit_channel(bits::kLocZ, y, 1.0 / 32);
  ASSERT_EQ(keys.size(), 2u);
  EXPECT_EQ(keys[0].value, 2);
  EXPECT_EQ(keys[1].value, 4);
}

}  // namespace
}  // namespace animkit::monster_hunter
