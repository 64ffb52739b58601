// Playback (monster-hunter.txt, "How the engine plays a clip"; notes 5): the Hermite formula, key
// selection, Euler order Rz * Ry * Rx, location replacing the bind offset, FK, bind_world.
#include <gtest/gtest.h>

#include <cmath>

#include "animkit/monster_hunter/playback.h"

namespace animkit::monster_hunter {
namespace {

constexpr float kPi = 3.14159265358979323846f;

// Hand-worked: t0 0, x0 0, out0 2; t1 4, x1 8, in1 -1; t = 1: s = 0.25, d = 1:
// 0 + 8 (3/16 - 2/64) + 2 * 1 * 0.5625 + (-1) * 1 * (0.0625 - 0.25) = 1.25 + 1.125 + 0.1875.
TEST(MhHermite, HandWorkedWithNonZeroEases) {
  EXPECT_FLOAT_EQ(hermite(1, 0, 0, 2, 4, 8, -1), 2.5625f);
  // t = 3: s = 0.75, d = 3: 8 (27/16 - 54/64) + 2 * 3 * 0.0625 + (-1) * 3 * (0.5625 - 0.75)
  //      = 6.75 + 0.375 + 0.5625.
  EXPECT_FLOAT_EQ(hermite(3, 0, 0, 2, 4, 8, -1), 7.6875f);
  // Only the ease terms: x0 = x1 = 0, t = 2 of 0..4: d = 2, s = 0.5 -> out0 * 0.5 + in1 * -0.5.
  EXPECT_FLOAT_EQ(hermite(2, 0, 0, 4, 4, 0, 0), 2.0f);
  EXPECT_FLOAT_EQ(hermite(2, 0, 0, 0, 4, 0, 4), -2.0f);
}

// notes 5: spline(t0 3, x0 1, m0 9; t1 7, x1 5, m1 -9) is 1 at t = 3 and 5 at t = 7; t1 <= t0 is
// x0.
TEST(MhHermite, EndpointsAndDegenerateSpan) {
  EXPECT_FLOAT_EQ(hermite(3, 3, 1, 9, 7, 5, -9), 1.0f);
  EXPECT_FLOAT_EQ(hermite(7, 3, 1, 9, 7, 5, -9), 5.0f);
  EXPECT_FLOAT_EQ(hermite(5, 7, 1, 9, 7, 5, -9), 1.0f);
  EXPECT_FLOAT_EQ(hermite(5, 7, 1, 9, 3, 5, -9), 1.0f);
}

// notes 5: LOC_Y keys (0, 0, in 0, out 160), (10, 1600, in 160, out 0) give 25.0 units at 2.5.
TEST(MhSample, LocationVectorIsAStraightLine) {
  const ChannelCurve c = make_curve({bits::kLocY, {{0, 0, 0, 160}, {1600, 10, 160, 0}}});
  EXPECT_FLOAT_EQ(sample(c, 2.5f), 25.0f);
  EXPECT_FLOAT_EQ(sample(c, 5.0f), 50.0f);
}

TEST(MhSample, HoldsOutsideAndStepsOnEqualFrames) {
  const ChannelCurve c =
      make_curve({bits::kLocX, {{16, 2, 0, 0}, {32, 6, 0, 0}, {64, 6, 0, 0}, {80, 8, 0, 0}}});
  EXPECT_FLOAT_EQ(sample(c, -5), 1.0f);  // before the first key: holds
  EXPECT_FLOAT_EQ(sample(c, 2), 1.0f);
  EXPECT_FLOAT_EQ(sample(c, 6), 2.0f);  // two keys on frame 6: t equal to it gives the first
  EXPECT_FLOAT_EQ(sample(c, 7), hermite(7, 6, 4, 0, 8, 5, 0));  // later t starts from the second
  EXPECT_FLOAT_EQ(sample(c, 100), 5.0f);                        // after the last: holds
}

TEST(MhSample, UnsortedKeysAreSortedStably) {
  const ChannelCurve c = make_curve({bits::kLocX, {{32, 10, 0, 0}, {16, 0, 0, 0}}});
  EXPECT_EQ(c.frames, (std::vector<float>{0, 10}));
  EXPECT_FLOAT_EQ(sample(c, 0), 1.0f);
}

TEST(MhSample, CursorGivesTheSameValuesForwardAndBack) {
  const ChannelCurve c = make_curve(
      {bits::kRotX, {{0, 0, 10, 20}, {500, 7, -30, 40}, {-200, 13, 5, 0}, {900, 30, 0, 0}}});
  uint32_t cursor = 0;
  for (float t = -2; t < 35; t += 0.37f) EXPECT_EQ(sample(c, t, &cursor), sample(c, t)) << t;
  for (float t = 35; t > -2; t -= 1.3f) EXPECT_EQ(sample(c, t, &cursor), sample(c, t)) << t;
}

// notes 5, "Pose" 2: +90 degrees about Z turns +X into +Y.
TEST(MhEuler, NinetyAboutZTurnsXIntoY) {
  const Mat4 m = euler_matrix({0, 0, kPi / 2}, {});
  const Vec3 v = transform_point(m, {1, 0, 0});
  EXPECT_NEAR(v.x, 0, 1e-6);
  EXPECT_NEAR(v.y, 1, 1e-6);
  EXPECT_NEAR(v.z, 0, 1e-6);
}

// R = Rz * Ry * Rx: X applies first. Check against the single-axis matrices and the quaternion.
TEST(MhEuler, OrderIsRzRyRx) {
  const Vec3 e{0.3f, -0.7f, 1.1f};
  const Mat4 rx = euler_matrix({e.x, 0, 0}, {}), ry = euler_matrix({0, e.y, 0}, {}),
             rz = euler_matrix({0, 0, e.z}, {});
  const Mat4 expected = rz * ry * rx;
  const Mat4 m = euler_matrix(e, {});
  for (int i = 0; i < 16; ++i) EXPECT_NEAR(m.m[i], expected.m[i], 1e-6) << i;
  const Mat4 wrong = rx * ry * rz;
  float diff = 0;
  for (int i = 0; i < 16; ++i) diff += std::abs(m.m[i] - wrong.m[i]);
  EXPECT_GT(diff, 0.1f);
  const Quat q = euler_quat(e);
  const Vec3 p{0.2f, 0.5f, -0.9f};
  const Vec3 a = rotate(q, p), b = transform_point(m, p);
  EXPECT_NEAR(a.x, b.x, 1e-5);
  EXPECT_NEAR(a.y, b.y, 1e-5);
  EXPECT_NEAR(a.z, b.z, 1e-5);
}

Skeleton chain3() {
  Skeleton s;
  s.params = {0, 3};
  for (int i = 0; i < 3; ++i) {
    Bone b;
    b.index = i;
    b.parent = i - 1;
    b.bind_position = {i == 0 ? 0.f : 2.f, i == 0 ? 5.f : 0.f, 0, 1};
    s.bones.push_back(b);
  }
  link_children(s);
  return s;
}

// mhfu_port.fk.bind_world: the sum of the offsets up the chain.
TEST(MhFk, BindWorld) {
  const auto w = bind_world(chain3());
  EXPECT_EQ(w[0], (Vec3{0, 5, 0}));
  EXPECT_EQ(w[1], (Vec3{2, 5, 0}));
  EXPECT_EQ(w[2], (Vec3{4, 5, 0}));
}

// FK over a 3-level chain: world = parent world x local; the root turned 90 degrees about Z, the
// middle joint 90 more: the tip ends at (-2, 7, 0).
TEST(MhFk, ThreeLevelChain) {
  const Skeleton s = chain3();
  Clip c;
  c.tracks.resize(3);
  c.tracks[0].channels.push_back({bits::kRotZ, {{4096, 0, 0, 0}}});
  c.tracks[1].channels.push_back({bits::kRotZ, {{4096, 0, 0, 0}}});
  c.tracks[2].channels.push_back({bits::kRotX, {{0, 0, 0, 0}}});
  const Rig rig = make_rig(s);
  const Motion m = prepare(c, 3);
  std::vector<JointPose> local(3);
  std::vector<Mat4> world(3);
  ASSERT_TRUE((PoseJob{&rig, &m, 0, nullptr, local, world}.run()));
  const Vec3 mid = world[1].translation(), tip = world[2].translation();
  EXPECT_NEAR(mid.x, 0, 1e-5);
  EXPECT_NEAR(mid.y, 7, 1e-5);
  EXPECT_NEAR(tip.x, -2, 1e-5);
  EXPECT_NEAR(tip.y, 7, 1e-5);
  // Without a motion: the bind pose.
  ASSERT_TRUE((PoseJob{&rig, nullptr, 0, nullptr, local, world}.run()));
  EXPECT_EQ(world[2].translation(), (Vec3{4, 5, 0}));
}

// notes 5, "Pose" 1: a location channel replaces the offset on its axis; other axes keep it;
// scale channels are not played.
TEST(MhFk, LocationReplacesBindOffsetPerAxis) {
  const Skeleton s = chain3();
  Clip c;
  c.tracks.resize(2);
  c.tracks[1].channels.push_back({bits::kLocY, {{48, 0, 0, 0}}});
  c.tracks[1].channels.push_back({bits::kSclX, {{512, 0, 0, 0}}});
  const Rig rig = make_rig(s);
  const Motion m = prepare(c, 3);
  std::vector<JointPose> local(3);
  ASSERT_TRUE((PoseJob{&rig, &m, 0, nullptr, local, {}}.run()));
  EXPECT_EQ(local[1].translation, (Vec3{2, 3, 0}));
  EXPECT_EQ(local[0].translation, (Vec3{0, 5, 0}));
}

// "A clip runs to its last keyframe; a nonzero loop loops it."
TEST(MhClock, LoopRestartsAtLoopStart) {
  Clip c;
  c.loop = 1;
  c.loop_start = 10;
  c.tracks.push_back({{{bits::kRotX, {{0, 0, 0, 0}, {100, 30, 0, 0}}}}});
  Motion m = prepare(c, 1);
  EXPECT_EQ(m.end, 30);
  EXPECT_FLOAT_EQ(clip_frame(m, 20), 20);
  EXPECT_FLOAT_EQ(clip_frame(m, 30), 30);
  EXPECT_FLOAT_EQ(clip_frame(m, 35), 15);
  m.loop = 0;
  EXPECT_FLOAT_EQ(clip_frame(m, 35), 35);
}

TEST(MhFk, CyclesAndOutsideParentsAreRoots) {
  const std::vector<int> parents{1, 0, 9};
  const std::vector<Vec3> offsets{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  const Rig rig = make_rig(parents, offsets);
  EXPECT_EQ(rig.order.size(), 3u);
  EXPECT_EQ(rig.parents[2], -1);
  EXPECT_TRUE(rig.parents[0] == -1 || rig.parents[1] == -1);
}

}  // namespace
}  // namespace animkit::monster_hunter
