#include "animkit/core/blending_job.h"

#include <gtest/gtest.h>

namespace animkit {
namespace {

TEST(Blending, WeightedAverageOfTwoLayers) {
  const Transform a[1] = {{{0, 0, 0}, Quat::identity(), {1, 1, 1}}};
  const Transform b[1] = {{{4, 0, 0}, axis_angle({0, 0, 1}, 1.0f), {3, 3, 3}}};
  const Transform rest[1] = {};
  Transform out[1];
  const BlendingLayer layers[] = {{a, 3, {}}, {b, 1, {}}};
  BlendingJob job;
  job.layers = layers;
  job.rest = rest;
  job.output = out;
  ASSERT_TRUE(job.run());
  EXPECT_FLOAT_EQ(out[0].translation.x, 1.f);
  EXPECT_FLOAT_EQ(out[0].scale.x, 1.5f);
  // Normalised weighted sum of unit quaternions (nlerp at 0.25).
  const Quat expected = nlerp(Quat::identity(), axis_angle({0, 0, 1}, 1.0f), 0.25f);
  EXPECT_NEAR(out[0].rotation.z, expected.z, 1e-6f);
}

TEST(Blending, OppositeHemisphereIsFlipped) {
  const Transform a[1] = {{{}, axis_angle({0, 1, 0}, 0.2f), {1, 1, 1}}};
  const Transform b[1] = {{{}, -axis_angle({0, 1, 0}, 0.4f), {1, 1, 1}}};
  const Transform rest[1] = {};
  Transform out[1];
  const BlendingLayer layers[] = {{a, 1, {}}, {b, 1, {}}};
  BlendingJob job;
  job.layers = layers;
  job.rest = rest;
  job.output = out;
  ASSERT_TRUE(job.run());
  EXPECT_NEAR(out[0].rotation.y, std::sin(0.15f), 1e-4f);
  EXPECT_GT(out[0].rotation.w, 0.9f);
}

TEST(Blending, SubtreeMaskLimitsALayer) {
  const Transform a[2] = {{{1, 0, 0}, {}, {1, 1, 1}}, {{1, 0, 0}, {}, {1, 1, 1}}};
  const Transform b[2] = {{{5, 0, 0}, {}, {1, 1, 1}}, {{5, 0, 0}, {}, {1, 1, 1}}};
  const float mask[2] = {0, 1};
  const Transform rest[2] = {};
  Transform out[2];
  const BlendingLayer layers[] = {{a, 1, {}}, {b, 1, mask}};
  BlendingJob job;
  job.layers = layers;
  job.rest = rest;
  job.output = out;
  ASSERT_TRUE(job.run());
  EXPECT_FLOAT_EQ(out[0].translation.x, 1.f);
  EXPECT_FLOAT_EQ(out[1].translation.x, 3.f);
}

TEST(Blending, UndrivenJointSettlesToRest) {
  const Transform a[1] = {{{8, 0, 0}, {}, {1, 1, 1}}};
  const Transform rest[1] = {{{2, 0, 0}, {}, {1, 1, 1}}};
  Transform out[1];
  const BlendingLayer layers[] = {{a, 0, {}}};
  BlendingJob job;
  job.layers = layers;
  job.rest = rest;
  job.output = out;
  ASSERT_TRUE(job.run());
  EXPECT_EQ(out[0].translation, (Vec3{2, 0, 0}));
}

TEST(Blending, ValidateRejectsBadInput) {
  const Transform a[1] = {};
  Transform out[2];
  const Transform rest[2] = {};
  const BlendingLayer layers[] = {{a, 1, {}}};
  BlendingJob job;
  job.layers = layers;
  job.rest = rest;
  job.output = out;
  EXPECT_FALSE(job.validate());  // layer shorter than the output
  const BlendingLayer negative[] = {{rest, -1, {}}};
  job.layers = negative;
  EXPECT_FALSE(job.validate());
}

}  // namespace
}  // namespace animkit
