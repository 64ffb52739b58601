// The crowd's sampler (key_sampler.h) against core SamplingJob, bit for bit: clips whose tracks
// share their key times and clips whose tracks do not, every interpolation, one-key and empty
// channels, times before, at, between and after the keys, NaN and infinite times, duplicate key
// times, and playback forwards, backwards and jumping, with cursors carried from sample to sample.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "animkit/core/sampling_job.h"
#include "animkit/shadow_of_war/key_sampler.h"
#include "animkit/shadow_of_war/layer_blend.h"
#include "animkit/shadow_of_war/output_pose.h"
#include "animkit/shadow_of_war/scenario.h"

namespace animkit::shadow_of_war {
namespace {

bool same_bits(const std::vector<Transform>& a, const std::vector<Transform>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(Transform)) == 0;
}

// A clip of `joints` joints: `shared` makes every track keyed at one set of times (a resampled
// clip); otherwise each track has its own count and times (some duplicated).
Clip random_clip(std::mt19937& rng, size_t joints, bool shared) {
  std::uniform_real_distribution<float> u(-2.f, 2.f);
  const Interpolation vec_kinds[] = {Interpolation::kLinear, Interpolation::kStep,
                                     Interpolation::kHermite};
  const Interpolation quat_kinds[] = {Interpolation::kNlerp, Interpolation::kLinear,
                                      Interpolation::kStep, Interpolation::kSlerp,
                                      Interpolation::kHermite};
  std::vector<float> common;
  for (int k = 0, n = 2 + static_cast<int>(rng() % 30); k < n; ++k) common.push_back(0.05f * k);
  auto times = [&] {
    if (shared) return common;
    std::vector<float> t;
    float at = -0.2f + 0.1f * u(rng);
    for (int k = 0, n = static_cast<int>(rng() % 12); k < n; ++k) {
      t.push_back(at);
      if (rng() % 6) at += 0.01f + 0.2f * std::abs(u(rng));  // else a duplicate time
    }
    return t;
  };
  Clip c;
  c.name = "random";
  c.duration = 1.5f;
  c.joints.resize(joints);
  for (JointTracks& jt : c.joints) {
    auto fill_vec = [&](Track<Vec3>& t) {
      if (rng() % 4 == 0) return;  // no keys: the rest pose
      t.interpolation = vec_kinds[rng() % 3];
      for (float at : times()) {
        const Vec3 v{u(rng), u(rng), u(rng)};
        if (t.interpolation == Interpolation::kHermite)
          t.add(at, v, {u(rng), u(rng), u(rng)}, {u(rng), u(rng), u(rng)});
        else
          t.add(at, v);
      }
    };
    fill_vec(jt.translation);
    if (rng() % 5) {
      jt.rotation.interpolation = quat_kinds[rng() % 5];
      for (float at : times()) {
        const Quat q = normalize({u(rng), u(rng), u(rng), u(rng)});
        if (jt.rotation.interpolation == Interpolation::kHermite)
          jt.rotation.add(at, q, {u(rng), u(rng), u(rng), u(rng)}, {u(rng), u(rng), u(rng), u(rng)});
        else
          jt.rotation.add(at, q);
      }
    }
    if (rng() % 3 == 0) fill_vec(jt.scale);
  }
  return c;
}

TEST(KeySampler, BitIdenticalToSamplingJob) {
  std::mt19937 rng(29);
  std::uniform_real_distribution<float> u(-0.5f, 2.f);
  const float special[] = {0.f,   -0.f, 0.05f, 0.1f, 1.45f, -1.f, 100.f,
                           std::numeric_limits<float>::quiet_NaN(),
                           std::numeric_limits<float>::infinity(),
                           -std::numeric_limits<float>::infinity()};
  size_t samples = 0;
  for (int round = 0; round < 300; ++round) {
    const size_t joints = 1 + rng() % 12;
    const Clip clip = random_clip(rng, joints, round % 2 == 0);
    std::vector<Transform> rest(joints + 2);
    for (Transform& r : rest) r.translation = {u(rng), u(rng), u(rng)};
    SamplingCursor core_cursor;
    KeyCursor cursor;
    float time = 0;
    for (int step = 0; step < 40; ++step) {
      switch (rng() % 4) {
        case 0: time = special[rng() % std::size(special)]; break;  // jump
        case 1: time = u(rng); break;
        default: time += 1.f / 60; break;  // forward playback
      }
      std::vector<Transform> want(joints + 2), got(joints + 2);
      SamplingJob s;
      s.clip = &clip;
      s.time = time;
      s.cursor = &core_cursor;
      s.rest = rest;
      s.output = want;
      ASSERT_TRUE(s.run());
      sample_keys(clip, time, cursor, rest, got);
      ASSERT_TRUE(same_bits(want, got)) << "round " << round << " time " << time;
      // The full-weight layer: blend_layer over any pose at weight 1 without a set.
      std::vector<Transform> layered = want, fused(joints + 2);
      blend_full_layer(std::span(layered).first(joints), std::span(want).first(joints));
      sample_keys(clip, time, cursor, rest, fused, SampleStore::kFullLayer);
      fused[joints] = layered[joints];
      fused[joints + 1] = layered[joints + 1];
      ASSERT_TRUE(same_bits(layered, fused)) << "round " << round << " time " << time;
      ++samples;
    }
  }
  EXPECT_EQ(samples, 300u * 40u);
}

// The crowd's clips (every joint keyed at one set of times) through the crowd's sampler.
TEST(KeySampler, SyntheticClipIsBitIdentical) {
  const Skeleton sk = synthetic_skeleton(34);
  const Clip clip = synthetic_clip("run", sk, 0.8f, true, 0.5f, 2);
  SamplingCursor core_cursor;
  KeyCursor cursor;
  for (int f = 0; f < 200; ++f) {
    const float time = std::fmod(f / 60.f, 0.8f);
    std::vector<Transform> want(34), got(34);
    SamplingJob{&clip, time, &core_cursor, sk.rest, want, {}}.run();
    sample_keys(clip, time, cursor, sk.rest, got);
    ASSERT_TRUE(same_bits(want, got)) << "frame " << f;
  }
}

// The output pose keeps every bit: scales of exactly 1 are left out and come back as 1, any
// other scale (-0, 1 + 1 ulp, -1) is kept.
TEST(OutputPose, KeepsEveryBit) {
  std::vector<Transform> pose(5);
  for (size_t j = 0; j < 5; ++j) {
    pose[j].translation = {0.1f * j, -0.f, 3};
    pose[j].rotation = normalize({0.1f, 0.2f * j, -0.3f, 1});
  }
  OutputPose out;
  out.assign(pose);
  EXPECT_TRUE(out.unit_scale());
  EXPECT_EQ(out.bytes(), 5 * 28u);
  EXPECT_TRUE(same_bits(out.transforms(), pose));
  for (const Vec3 odd : {Vec3{1, 1, -0.f}, Vec3{1, std::nextafter(1.f, 2.f), 1}, Vec3{-1, 1, 1}}) {
    pose[3].scale = odd;
    out.assign(pose);
    EXPECT_FALSE(out.unit_scale());
    EXPECT_EQ(out.bytes(), 5 * 40u);
    EXPECT_TRUE(same_bits(out.transforms(), pose));
  }
  pose[3].scale = {1, 1, 1};
  out.assign(pose);
  EXPECT_TRUE(out.unit_scale());
  EXPECT_TRUE(same_bits(out.transforms(), pose));
}

}  // namespace
}  // namespace animkit::shadow_of_war
