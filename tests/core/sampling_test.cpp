#include "animkit/core/sampling_job.h"

#include <gtest/gtest.h>

#include <random>

#include "animkit/core/synthetic.h"

namespace animkit {
namespace {

Clip TwoKeys(Interpolation interpolation) {
  Clip c;
  c.duration = 1;
  c.joints.resize(1);
  Track<Vec3>& t = c.joints[0].translation;
  t.interpolation = interpolation;
  if (interpolation == Interpolation::kHermite) {
    t.add(0, {0, 0, 0}, {0, 0, 0}, {2, 0, 0});
    t.add(1, {1, 0, 0}, {-1, 0, 0}, {0, 0, 0});
  } else {
    t.add(0, {0, 0, 0});
    t.add(1, {1, 0, 0});
  }
  return c;
}

Vec3 SampleTranslation(const Clip& c, float time) {
  const Transform rest[1] = {Transform{{9, 9, 9}, {}, {1, 1, 1}}};
  Transform out[1];
  SamplingCursor cursor;
  EXPECT_TRUE((SamplingJob{&c, time, &cursor, rest, out, {}}.run()));
  return out[0].translation;
}

TEST(FindKey, KeyInForce) {
  const std::vector<float> times{0, 1, 2, 3};
  EXPECT_EQ(find_key(times, -1, 0), 0u);
  EXPECT_EQ(find_key(times, 0, 0), 0u);
  EXPECT_EQ(find_key(times, 0.99f, 0), 0u);
  EXPECT_EQ(find_key(times, 1, 0), 1u);
  EXPECT_EQ(find_key(times, 2.5f, 3), 2u);  // backwards from a later hint
  EXPECT_EQ(find_key(times, 99, 0), 3u);
  EXPECT_EQ(find_key(std::vector<float>{5}, 7, 0), 0u);
}

TEST(Sampling, LinearStepAndHold) {
  EXPECT_FLOAT_EQ(SampleTranslation(TwoKeys(Interpolation::kLinear), 0.25f).x, 0.25f);
  EXPECT_FLOAT_EQ(SampleTranslation(TwoKeys(Interpolation::kStep), 0.75f).x, 0.f);
  EXPECT_FLOAT_EQ(SampleTranslation(TwoKeys(Interpolation::kLinear), -3).x, 0.f);  // before: first
  EXPECT_FLOAT_EQ(SampleTranslation(TwoKeys(Interpolation::kLinear), 5).x, 1.f);   // after: last
}

TEST(Sampling, HermiteUsesOutSlopeOfLeftAndInSlopeOfRight) {
  // p(s) = h00*0 + h10*2 + h01*1 + h11*(-1) at s = 0.5: 0.125*2 + 0.5 - (-0.125)*1 = 0.875.
  EXPECT_NEAR(SampleTranslation(TwoKeys(Interpolation::kHermite), 0.5f).x, 0.875f, 1e-6f);
}

TEST(Sampling, SingleKeyTrackHolds) {
  Clip c;
  c.joints.resize(1);
  c.joints[0].translation.add(0.3f, {4, 5, 6});
  EXPECT_EQ(SampleTranslation(c, 0), (Vec3{4, 5, 6}));
  EXPECT_EQ(SampleTranslation(c, 10), (Vec3{4, 5, 6}));
}

TEST(Sampling, ChannelsWithoutKeysComeFromRestAndFlagDefault) {
  Clip c;
  c.joints.resize(2);
  c.joints[1].rotation.add(0, axis_angle({0, 1, 0}, 0.5f));
  const Transform rest[2] = {Transform{{1, 2, 3}, axis_angle({1, 0, 0}, 0.1f), {2, 2, 2}},
                             Transform{{7, 8, 9}, {}, {3, 3, 3}}};
  Transform out[2];
  uint8_t defaults[2] = {9, 9};
  SamplingCursor cursor;
  ASSERT_TRUE((SamplingJob{&c, 0, &cursor, rest, out, defaults}.run()));
  EXPECT_EQ(out[0], rest[0]);
  EXPECT_EQ(out[1].translation, rest[1].translation);
  EXPECT_EQ(out[1].scale, rest[1].scale);
  EXPECT_EQ(defaults[0], 1);
  EXPECT_EQ(defaults[1], 0);
}

TEST(Sampling, EmptyAndZeroDurationClipsGiveTheRestPose) {
  Clip empty;
  empty.joints.resize(1);
  EXPECT_EQ(SampleTranslation(empty, 0.5f), (Vec3{9, 9, 9}));
  Clip zero;
  zero.joints.resize(1);
  zero.joints[0].translation.add(0, {1, 2, 3});
  EXPECT_EQ(SampleTranslation(zero, 0), (Vec3{1, 2, 3}));
  EXPECT_EQ(SampleTranslation(zero, std::nanf("")), (Vec3{1, 2, 3}));  // a NaN time holds key 0
}

TEST(Sampling, ValidateRejectsShortBuffers) {
  Clip c;
  c.joints.resize(3);
  Transform rest[3], out[2];
  SamplingCursor cursor;
  EXPECT_FALSE((SamplingJob{&c, 0, &cursor, rest, out, {}}.validate()));
  EXPECT_FALSE((SamplingJob{&c, 0, nullptr, rest, rest, {}}.validate()));
}

// The cursor is a cache: forward, backward and random sampling must equal a fresh search.
TEST(Sampling, CursorEqualsFreshSearchInAnyOrder) {
  const Animated w = synthetic_workload(8, 2, 30);
  const Clip& clip = w.clips[0];
  std::vector<Transform> a(8), b(8);
  SamplingCursor kept;
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> any(-0.5f, 2.5f);
  for (int i = 0; i < 400; ++i) {
    const float t = i < 200 ? i / 97.f : any(rng);
    SamplingCursor fresh;
    ASSERT_TRUE((SamplingJob{&clip, t, &kept, w.skeleton.rest, a, {}}.run()));
    ASSERT_TRUE((SamplingJob{&clip, t, &fresh, w.skeleton.rest, b, {}}.run()));
    for (int j = 0; j < 8; ++j) ASSERT_EQ(a[j], b[j]) << "t=" << t << " joint " << j;
  }
}

TEST(Sampling, RotationInterpolations) {
  Track<Quat> t;
  t.add(0, Quat::identity());
  t.add(1, axis_angle({0, 0, 1}, 2.0f));
  t.interpolation = Interpolation::kSlerp;
  const Quat s = evaluate(t, 0.25f, 0);
  EXPECT_NEAR(s.z, std::sin(0.25f), 1e-6f);
  t.interpolation = Interpolation::kNlerp;
  const Quat n = evaluate(t, 0.25f, 0);
  EXPECT_NEAR(n.x * n.x + n.y * n.y + n.z * n.z + n.w * n.w, 1.f, 1e-6f);
  EXPECT_GT(std::fabs(n.z - s.z), 1e-3f);  // nlerp is not slerp over a wide arc
}

// The cursor keeps a slot only for a channel whose key in force can change (two keys or more):
// a crowd's cursors are what each update streams through memory.
TEST(Sampling, CursorHoldsSlotsOnlyForAnimatedChannels) {
  Clip c;
  c.joints.resize(4);
  c.joints[0].translation.add(0, {1, 2, 3});  // one key: no slot
  c.joints[0].rotation.add(0, Quat::identity());
  c.joints[0].rotation.add(1, axis_angle({0, 1, 0}, 1.f));  // a slot
  c.joints[2].scale.add(0, {1, 1, 1});
  c.joints[2].scale.add(0.5f, {2, 2, 2});  // a slot
  c.joints[3].translation.add(0, {0, 0, 0});
  c.joints[3].translation.add(2, {4, 0, 0});  // a slot
  std::vector<Transform> rest(4), out(4);
  rest[1].translation = {9, 9, 9};
  SamplingCursor cursor;
  ASSERT_TRUE((SamplingJob{&c, 0.25f, &cursor, rest, out, {}}.run()));
  EXPECT_EQ(cursor.slot_count(), 3u);
  EXPECT_EQ(out[0].translation, (Vec3{1, 2, 3}));
  EXPECT_EQ(out[1].translation, (Vec3{9, 9, 9}));
  EXPECT_EQ(out[2].scale, (Vec3{1.5f, 1.5f, 1.5f}));
  EXPECT_EQ(out[3].translation, (Vec3{0.5f, 0, 0}));
}

// A clip given more animated channels in place (same joint count) rebinds the cursor instead of
// reading past its slots: the pose equals a fresh cursor's.
TEST(Sampling, CursorRebindsWhenAClipGainsAnimatedChannels) {
  Clip c;
  c.joints.resize(2);
  c.joints[1].rotation.add(0, Quat::identity());
  c.joints[1].rotation.add(1, axis_angle({0, 0, 1}, 1.f));
  std::vector<Transform> rest(2), a(2), b(2);
  SamplingCursor kept;
  ASSERT_TRUE((SamplingJob{&c, 0.5f, &kept, rest, a, {}}.run()));
  EXPECT_EQ(kept.slot_count(), 1u);
  c.joints[0].translation.add(0, {0, 0, 0});
  c.joints[0].translation.add(1, {2, 0, 0});
  c.joints[1].translation.add(0, {0, 0, 0});
  c.joints[1].translation.add(1, {0, 4, 0});
  ASSERT_TRUE((SamplingJob{&c, 0.5f, &kept, rest, a, {}}.run()));
  SamplingCursor fresh;
  ASSERT_TRUE((SamplingJob{&c, 0.5f, &fresh, rest, b, {}}.run()));
  EXPECT_EQ(kept.slot_count(), 3u);
  for (int j = 0; j < 2; ++j) EXPECT_EQ(a[j], b[j]) << j;
  EXPECT_EQ(a[0].translation, (Vec3{1, 0, 0}));
}

}  // namespace
}  // namespace animkit
