// The pose job's in-place layering (layer_blend.h) against core BlendingJob on the same two layers
// {pose, 1 - a}, {layer, a}: bit for bit, over random poses and weights including 0, -0, 1,
// weights past [0, 1], NaN, weight sets shorter than the skeleton, and rotations of either sign.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "animkit/core/blending_job.h"
#include "animkit/shadow_of_war/layer_blend.h"

namespace animkit::shadow_of_war {
namespace {

// BlendingJob as the pose job called it before the in-place blend.
std::vector<Transform> blending_job(const std::vector<Transform>& pose,
                                    const std::vector<Transform>& layer,
                                    const std::vector<Transform>& rest, float weight,
                                    std::span<const float> weight_set) {
  const size_t n = pose.size();
  std::vector<float> keep(n), take(n);
  for (size_t j = 0; j < n; ++j) {
    float a = weight_set.empty() ? weight : weight * (j < weight_set.size() ? weight_set[j] : 0.f);
    a = std::clamp(a, 0.f, 1.f);
    take[j] = a;
    keep[j] = 1.f - a;
  }
  const BlendingLayer layers[] = {{pose, 1.f, keep}, {layer, 1.f, take}};
  std::vector<Transform> out(n);
  BlendingJob b;
  b.layers = layers;
  b.rest = rest;
  b.threshold = kBlendThreshold;
  b.output = out;
  EXPECT_TRUE(b.run());
  return out;
}

bool same_bits(const Transform& a, const Transform& b) { return std::memcmp(&a, &b, sizeof a) == 0; }

TEST(PoseBlend, LayerBlendIsBitIdenticalToBlendingJob) {
  std::mt19937 rng(15);
  std::uniform_real_distribution<float> u(-2.f, 2.f);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float special[] = {0.f, -0.f, 1.f, 0.5f, 1e-7f, 1.5f, -0.25f, nan, 0.999999f};
  auto transform = [&] {
    Transform t;
    t.translation = {u(rng), u(rng), u(rng)};
    t.rotation = normalize(Quat{u(rng), u(rng), u(rng), u(rng)});
    t.scale = {1.f + 0.1f * u(rng), 1.f, 1.f - 0.1f * u(rng)};
    return t;
  };
  size_t joints_checked = 0;
  for (int round = 0; round < 2000; ++round) {
    const size_t n = 1 + rng() % 40;
    std::vector<Transform> pose(n), layer(n), rest(n);
    for (size_t j = 0; j < n; ++j) pose[j] = transform(), layer[j] = transform(), rest[j] = transform();
    const float weight = round % 3 == 0 ? special[rng() % std::size(special)] : u(rng);
    std::vector<float> set;
    if (round % 2) {
      set.resize(rng() % (n + 3));
      for (float& w : set) w = rng() % 4 == 0 ? special[rng() % std::size(special)] : u(rng);
    }
    const std::vector<Transform> expected = blending_job(pose, layer, rest, weight, set);
    blend_layer(pose, layer, rest, weight, set);
    for (size_t j = 0; j < n; ++j, ++joints_checked)
      ASSERT_TRUE(same_bits(pose[j], expected[j]))
          << "round " << round << " joint " << j << " weight " << weight;
  }
  EXPECT_GT(joints_checked, 20000u);
}

// The general layering runs on SIMD lanes (blend_lanes.h), 8 joints at a time with a scalar
// tail: BlendSum's floats on every lane, on the values where lanes could go wrong: -0, NaN and
// infinite components, zero, non-finite and unnormalised rotations of either sign, per-joint
// weights of 0, -0, NaN, tiny (the rest pose makes up the total), 1 and past it, and joint
// counts on and off a vector's width.
TEST(PoseBlend, LaneBlendIsBitIdenticalToBlendSum) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  const float values[] = {0.f, -0.f, 1.f, -2.5f, 0.3f, nan, inf, -inf, 1e-30f, -1e30f, 7.f};
  const float weights[] = {0.f, -0.f, nan, 1e-7f, 0.25f, 0.5f, 0.999999f, 1.f, 2.f, -1.f, inf};
  std::mt19937 rng(2929);
  size_t joints_checked = 0;
  for (int round = 0; round < 400; ++round) {
    const size_t n = 1 + rng() % 35;
    std::vector<Transform> pose(n), layer(n), rest(n);
    auto pick = [&] { return values[rng() % std::size(values)]; };
    auto transform = [&] {
      Transform t;
      t.translation = {pick(), pick(), pick()};
      t.rotation = rng() % 3 ? normalize(Quat{pick(), pick(), pick(), pick()})
                             : Quat{pick(), pick(), pick(), pick()};
      t.scale = {pick(), pick(), pick()};
      return t;
    };
    for (size_t j = 0; j < n; ++j) pose[j] = transform(), layer[j] = transform(), rest[j] = transform();
    std::vector<float> set(n);
    for (float& w : set) w = weights[rng() % std::size(weights)];
    const float weight = round % 4 ? 1.f : 0.5f;
    const std::vector<Transform> expected = blending_job(pose, layer, rest, weight, set);
    blend_layer(pose, layer, rest, weight, set);
    for (size_t j = 0; j < n; ++j, ++joints_checked)
      ASSERT_TRUE(same_bits(pose[j], expected[j])) << "round " << round << " joint " << j;
  }
  EXPECT_GT(joints_checked, 5000u);
}

// The full-weight layer (weight >= 1, no set: the crowd's usual BLEND) takes a shorter path; it
// must still be BlendingJob's float for float, on the values where a shortcut could go wrong:
// -0 (BlendingJob's sum starts at +0), NaN and infinite components, zero and non-finite
// rotations (the identity), rotations of either sign, and weights 1, 1.5 and +inf.
TEST(PoseBlend, FullWeightLayerIsBitIdenticalToBlendingJob) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  const float values[] = {0.f, -0.f, 1.f, -2.5f, nan, inf, -inf, 1e-30f, -1e30f};
  std::mt19937 rng(29);
  size_t joints_checked = 0;
  for (int round = 0; round < 300; ++round) {
    const size_t n = 1 + rng() % 40;
    std::vector<Transform> pose(n), layer(n), rest(n);
    auto pick = [&] { return values[rng() % std::size(values)]; };
    for (size_t j = 0; j < n; ++j) {
      pose[j].translation = {pick(), pick(), pick()};
      layer[j].translation = {pick(), pick(), pick()};
      layer[j].rotation = rng() % 2 ? Quat{pick(), pick(), pick(), pick()}
                                    : normalize(Quat{-0.3f, 0.1f * float(j), -0.f, -0.9f});
      layer[j].scale = {pick(), pick(), pick()};
      rest[j].translation = {pick(), 1.f, 2.f};
    }
    const float weights[] = {1.f, 1.5f, inf};
    const float weight = weights[round % 3];
    const std::vector<Transform> expected = blending_job(pose, layer, rest, weight, {});
    blend_layer(pose, layer, rest, weight, {});
    for (size_t j = 0; j < n; ++j, ++joints_checked)
      ASSERT_TRUE(same_bits(pose[j], expected[j])) << "round " << round << " joint " << j;
  }
  EXPECT_GT(joints_checked, 3000u);
}

// A weight at or past 1 without a set gives the layer (normalised), whatever the pose was: the
// rule the pose job's skipped operations rely on.
TEST(PoseBlend, FullWeightGivesTheLayerAlone) {
  std::vector<Transform> pose(3), layer(3), rest(3);
  for (size_t j = 0; j < 3; ++j) {
    pose[j].translation = {float(j), 7.f, -1.f};
    layer[j].translation = {2.f, float(j), 5.f};
    layer[j].rotation = normalize(Quat{0.1f * float(j), 0.2f, 0.3f, 0.9f});
  }
  blend_layer(pose, layer, rest, 1.f, {});
  for (size_t j = 0; j < 3; ++j) {
    EXPECT_EQ(pose[j].translation, layer[j].translation);
    EXPECT_NEAR(pose[j].rotation.x, layer[j].rotation.x, 1e-7f);
  }
}

}  // namespace
}  // namespace animkit::shadow_of_war
