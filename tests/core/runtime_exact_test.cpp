// The exact runtime clip (RuntimePrecision::kExact, issue 16 item 3): the SoA sampler's output is
// bit for bit SamplingJob's, on every Highway target this CPU runs and in the scalar reference,
// over random clips mixing every interpolation (non-unit rotation keys included: a held key is
// returned as stored), played forward, at random times, at key times exactly, before the first
// and after the last key, at NaN and infinities.
#include <gtest/gtest.h>

#include <hwy/targets.h>

#include <bit>
#include <cmath>
#include <limits>
#include <random>
#include <string>

#include "animkit/core/sampling_job.h"
#include "animkit/core/soa_jobs.h"
#include "animkit/core/synthetic.h"

namespace animkit {
namespace {

template <class F>
void on_every_target(F body) {
  for (int64_t t : {int64_t{HWY_AVX2}, int64_t{HWY_SSE4}, int64_t{HWY_SCALAR}}) {
    if (!(hwy::SupportedTargets() & t)) continue;
    hwy::SetSupportedTargetsForTest(t);
    SCOPED_TRACE(soa_simd_target());
    body();
  }
  hwy::SetSupportedTargetsForTest(0);
}

constexpr Interpolation kAll[] = {Interpolation::kStep, Interpolation::kLinear, Interpolation::kNlerp,
                                  Interpolation::kSlerp, Interpolation::kHermite};

// Key times: the clip's frames (shared by many tracks) or a track's own.
std::vector<float> key_times(std::mt19937& rng, bool frames, size_t count) {
  std::vector<float> times;
  std::uniform_real_distribution<float> gap(0.001f, 0.4f);
  float t = frames ? 0.f : gap(rng) - 0.1f;
  for (size_t k = 0; k < count; ++k) {
    times.push_back(frames ? k / 30.f : t);
    t += gap(rng);
  }
  return times;
}

template <class T, class Make>
void fill(std::mt19937& rng, Track<T>& track, Make make) {
  const size_t count = rng() % 6 == 0 ? 0 : 1 + rng() % 12;
  track.interpolation = kAll[rng() % 5];
  for (const float t : key_times(rng, rng() % 2, count)) {
    if (track.interpolation == Interpolation::kHermite) {
      track.add(t, make(), make(), make());
    } else {
      track.add(t, make());
    }
  }
}

Clip random_clip(std::mt19937& rng, size_t joints) {
  std::uniform_real_distribution<float> u(-3, 3);
  std::normal_distribution<float> g;
  Clip c;
  c.name = "random";
  c.duration = 2;
  c.joints.resize(joints);
  for (JointTracks& jt : c.joints) {
    const bool unit = rng() % 4 != 0;  // some tracks keep non-unit keys, as files may
    fill(rng, jt.translation, [&] { return Vec3{u(rng), u(rng), u(rng)}; });
    fill(rng, jt.rotation, [&] {
      const Quat q{g(rng), g(rng), g(rng), g(rng)};
      return unit ? normalize(q) : q;
    });
    fill(rng, jt.scale, [&] { return Vec3{1 + u(rng) / 4, 1 + u(rng) / 4, 1 + u(rng) / 4}; });
  }
  return c;
}

std::vector<Transform> random_rest(std::mt19937& rng, size_t n) {
  std::uniform_real_distribution<float> u(-1, 1);
  std::vector<Transform> rest(n);
  for (Transform& r : rest) {
    r = {{u(rng), u(rng), u(rng)}, normalize(Quat{u(rng), u(rng), u(rng), 1}), {1, 1, 1}};
  }
  return rest;
}

void expect_bits(const SoaPose& soa, std::span<const Transform> neutral, float time) {
  for (size_t j = 0; j < neutral.size(); ++j) {
    const Transform s = soa.get(j), n = neutral[j];
    const float a[10] = {s.translation.x, s.translation.y, s.translation.z, s.rotation.x, s.rotation.y,
                         s.rotation.z,    s.rotation.w,    s.scale.x,       s.scale.y,    s.scale.z};
    const float b[10] = {n.translation.x, n.translation.y, n.translation.z, n.rotation.x, n.rotation.y,
                         n.rotation.z,    n.rotation.w,    n.scale.x,       n.scale.y,    n.scale.z};
    for (int c = 0; c < 10; ++c) {
      ASSERT_EQ(std::bit_cast<uint32_t>(a[c]), std::bit_cast<uint32_t>(b[c]))
          << "joint " << j << " component " << c << " at " << time << ": " << a[c] << " vs " << b[c];
    }
  }
}

// Samples `times` in order through both paths (one cursor each, kept across the times).
void compare(const Clip& clip, std::span<const Transform> rest, const std::vector<float>& times,
             bool scalar) {
  const RuntimeClip runtime(clip, rest, RuntimePrecision::kExact);
  const size_t n = clip.joints.size();
  SamplingCursor neutral_cursor;
  RuntimeCursor cursor;
  std::vector<Transform> neutral(n);
  std::vector<uint8_t> neutral_default(n), soa_default(n);
  SoaPose soa(n);
  for (const float t : times) {
    ASSERT_TRUE((SamplingJob{&clip, t, &neutral_cursor, rest, neutral, neutral_default}.run()));
    const SoaSamplingJob job{&runtime, t, &cursor, &soa, soa_default};
    ASSERT_TRUE(scalar ? job.run_scalar() : job.run());
    expect_bits(soa, neutral, t);
    ASSERT_EQ(soa_default, neutral_default);
  }
}

std::vector<float> interesting_times(std::mt19937& rng, const Clip& clip) {
  std::vector<float> times;
  for (float t = -0.2f; t < 3.f; t += 1.f / 60) times.push_back(t);  // forward, past the end
  std::uniform_real_distribution<float> u(-0.5f, 3.5f);
  for (int i = 0; i < 200; ++i) times.push_back(u(rng));  // random access
  for (const JointTracks& jt : clip.joints) {  // at keys exactly, and around them
    for (const float k : jt.rotation.times) {
      times.insert(times.end(), {k, std::nextafter(k, -1.f), std::nextafter(k, 9.f)});
    }
    for (const float k : jt.translation.times) times.push_back(k);
  }
  const float inf = std::numeric_limits<float>::infinity();
  times.insert(times.end(), {std::nanf(""), 0.f, inf, -inf, 0.5f, std::nanf(""), 1e30f, -1e30f});
  return times;
}

TEST(RuntimeExact, SimdSamplingIsBitIdenticalToSamplingJob) {
  std::mt19937 rng(16);
  on_every_target([&] {
    for (size_t n : {1, 3, 8, 9, 17, 40}) {
      for (int round = 0; round < 6; ++round) {
        const Clip clip = random_clip(rng, n);
        ASSERT_EQ(clip.validate(n), "");
        compare(clip, random_rest(rng, n), interesting_times(rng, clip), false);
      }
    }
  });
}

TEST(RuntimeExact, ScalarReferenceIsBitIdenticalToSamplingJob) {
  std::mt19937 rng(61);
  for (size_t n : {1, 5, 16, 33}) {
    for (int round = 0; round < 6; ++round) {
      const Clip clip = random_clip(rng, n);
      compare(clip, random_rest(rng, n), interesting_times(rng, clip), true);
    }
  }
}

TEST(RuntimeExact, HermiteAndSlerpTracksAreFallbacksEverythingElseStreams) {
  const Animated arm = synthetic_arm();  // wave: slerp rotations; bend: nlerp, a Hermite lift
  const RuntimeClip wave(arm.clips[0], arm.skeleton.rest, RuntimePrecision::kExact);
  const RuntimeClip bend(arm.clips[1], arm.skeleton.rest, RuntimePrecision::kExact);
  EXPECT_TRUE(wave.exact());
  ASSERT_EQ(wave.fallbacks().size(), 3u);  // the three slerp rotations
  for (const RuntimeClip::Fallback& f : wave.fallbacks()) {
    EXPECT_EQ(f.channel, 1);
    EXPECT_EQ(f.quat, &arm.clips[0].joints[f.joint].rotation);
  }
  ASSERT_EQ(bend.fallbacks().size(), 1u);  // the Hermite lift; the nlerp rotations stream
  EXPECT_EQ(bend.fallbacks()[0].joint, 0u);
  EXPECT_EQ(bend.fallbacks()[0].channel, 0);
  EXPECT_EQ(bend.fallbacks()[0].vec3, &arm.clips[1].joints[0].translation);
  // The compact form quantises; the exact one keeps the float32 keys.
  const RuntimeClip compact(arm.clips[1], arm.skeleton.rest);
  EXPECT_FALSE(compact.exact());
  EXPECT_TRUE(compact.exact_rotations().stream.empty());
  EXPECT_TRUE(bend.rotations().stream.empty());
  for (const auto& key : bend.exact_rotations().stream) {
    const Track<Quat>& t = arm.clips[1].joints[key.track].rotation;
    if (t.empty()) continue;
    bool found = false;
    for (const Quat& q : t.values) found |= q.x == key.v[0] && q.y == key.v[1] && q.z == key.v[2] && q.w == key.v[3];
    EXPECT_TRUE(found) << "track " << key.track;
  }
}

TEST(RuntimeExact, TheBenchWorkloadToo) {
  const Animated a = synthetic_workload(16, 2.f, 30.f);
  std::mt19937 rng(3);
  on_every_target([&] { compare(a.clips[0], a.skeleton.rest, interesting_times(rng, a.clips[0]), false); });
}

}  // namespace
}  // namespace animkit
