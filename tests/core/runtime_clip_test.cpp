#include "animkit/core/runtime_clip.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <random>
#include <utility>

#include "animkit/core/error.h"
#include "animkit/core/sampling_job.h"
#include "animkit/core/soa_jobs.h"
#include "animkit/core/synthetic.h"

namespace animkit {
namespace {

static_assert(RuntimeClip::kRotationBound <= 1e-4f, "issue 16: rotations within 1e-4 at every key");
static_assert(sizeof(RuntimeClip::QuatKey) == 16 && sizeof(RuntimeClip::Vec3Key) == 20);

float max_diff(Vec3 a, Vec3 b) {
  return std::max({std::fabs(a.x - b.x), std::fabs(a.y - b.y), std::fabs(a.z - b.z)});
}
// Up to sign: q and -q are one rotation (the runtime keeps keys on one hemisphere).
float max_diff(Quat a, Quat b) {
  if (dot(a, b) < 0) b = -b;
  return std::max({std::fabs(a.x - b.x), std::fabs(a.y - b.y), std::fabs(a.z - b.z),
                   std::fabs(a.w - b.w)});
}

Quat random_rotation(std::mt19937& rng) {
  std::normal_distribution<float> g;
  return normalize({g(rng), g(rng), g(rng), g(rng)});
}

// A random clip of `joints` joints: per channel a random interpolation, random key counts
// (0 = the rest holds, 1 = a single key) at random ascending times, rotations in either sign.
Clip random_clip(std::mt19937& rng, size_t joints, bool curves) {
  std::uniform_real_distribution<float> u(-2, 2), gap(0.01f, curves ? 1.f / 30 : 0.3f);
  std::uniform_int_distribution<int> keys(0, 12);
  const Interpolation kinds[] = {Interpolation::kStep, Interpolation::kLinear, Interpolation::kNlerp,
                                 Interpolation::kSlerp, Interpolation::kHermite};
  std::uniform_int_distribution<int> kind(curves ? 0 : 0, curves ? 4 : 2);
  Clip c;
  c.name = "random";
  c.duration = 4;
  c.joints.resize(joints);
  const auto fill_vec3 = [&](Track<Vec3>& t) {
    t.interpolation = kinds[kind(rng)];
    float time = u(rng) * 0.25f;
    for (int k = keys(rng); k > 0; --k, time += gap(rng)) {
      const Vec3 v{u(rng), u(rng), u(rng)};
      if (t.interpolation == Interpolation::kHermite) {
        t.add(time, v, {u(rng), u(rng), u(rng)}, {u(rng), u(rng), u(rng)});
      } else {
        t.add(time, v);
      }
    }
  };
  for (JointTracks& jt : c.joints) {
    fill_vec3(jt.translation);
    fill_vec3(jt.scale);
    Track<Quat>& r = jt.rotation;
    r.interpolation = kinds[kind(rng)];
    float time = u(rng) * 0.25f;
    for (int k = keys(rng); k > 0; --k, time += gap(rng)) {
      const Quat q = random_rotation(rng);
      if (r.interpolation == Interpolation::kHermite) {
        r.add(time, q, Quat{u(rng), u(rng), u(rng), u(rng)}, Quat{u(rng), u(rng), u(rng), u(rng)});
      } else {
        r.add(time, q);
      }
    }
  }
  return c;
}

std::vector<Transform> random_rest(std::mt19937& rng, size_t joints) {
  std::uniform_real_distribution<float> u(-1, 1);
  std::vector<Transform> rest(joints);
  for (Transform& t : rest) t = {{u(rng), u(rng), u(rng)}, random_rotation(rng), {1 + u(rng) * 0.5f, 1, 1}};
  return rest;
}

// Samples both forms at `time`: per joint the translation / rotation / scale difference.
struct Diff {
  float t = 0, r = 0, s = 0;
};
std::vector<Diff> compare_joints(const Clip& clip, std::span<const Transform> rest,
                                 const RuntimeClip& rc, float time, bool simd) {
  std::vector<Transform> expected(clip.joints.size());
  SamplingCursor sc;
  EXPECT_TRUE((SamplingJob{&clip, time, &sc, rest, expected, {}}.run()));
  SoaPose pose(clip.joints.size());
  RuntimeCursor rcur;
  const SoaSamplingJob job{&rc, time, &rcur, &pose, {}};
  EXPECT_TRUE(simd ? job.run() : job.run_scalar());
  std::vector<Diff> d(clip.joints.size());
  for (size_t j = 0; j < clip.joints.size(); ++j) {
    const Transform got = pose.get(j);
    d[j] = {max_diff(got.translation, expected[j].translation),
            max_diff(got.rotation, expected[j].rotation), max_diff(got.scale, expected[j].scale)};
  }
  return d;
}
// The largest difference over all joints.
Diff compare(const Clip& clip, std::span<const Transform> rest, const RuntimeClip& rc, float time,
             bool simd) {
  Diff worst;
  for (const Diff& d : compare_joints(clip, rest, rc, time, simd)) {
    worst = {std::max(worst.t, d.t), std::max(worst.r, d.r), std::max(worst.s, d.s)};
  }
  return worst;
}

// Issue 16, item 1: rotations and translations within 1e-4 of the neutral clip at every key, for
// every interpolation (RuntimeClip::kRotationBound; translations and scales are float32).
TEST(RuntimeClip, WithinTheBoundAtEveryKey) {
  std::mt19937 rng(7);
  float worst_r = 0, worst_t = 0;
  for (int round = 0; round < 20; ++round) {
    const size_t joints = 1 + rng() % 20;
    const Clip clip = random_clip(rng, joints, true);
    const std::vector<Transform> rest = random_rest(rng, joints);
    const RuntimeClip rc(clip, rest);
    for (size_t j = 0; j < joints; ++j) {
      const JointTracks& jt = clip.joints[j];
      for (bool simd : {false, true}) {
        for (float t : jt.rotation.times) {
          worst_r = std::max(worst_r, compare_joints(clip, rest, rc, t, simd)[j].r);
        }
        for (float t : jt.translation.times) {
          worst_t = std::max(worst_t, compare_joints(clip, rest, rc, t, simd)[j].t);
        }
        for (float t : jt.scale.times) {
          worst_t = std::max(worst_t, compare_joints(clip, rest, rc, t, simd)[j].s);
        }
      }
    }
  }
  EXPECT_LE(worst_r, RuntimeClip::kRotationBound);
  EXPECT_LE(worst_t, 1e-6f);
}

TEST(RuntimeClip, RotationKeysAloneMeetTheQuantisationBound) {
  // Linear-family tracks only, sampled exactly at their own keys: quantisation is all that differs.
  std::mt19937 rng(11);
  for (int round = 0; round < 30; ++round) {
    Clip clip;
    clip.joints.resize(3);
    for (JointTracks& jt : clip.joints) {
      jt.rotation.interpolation = Interpolation::kNlerp;
      for (int k = 0; k < 8; ++k) jt.rotation.add(0.1f * k, random_rotation(rng));
    }
    const std::vector<Transform> rest(3);
    const RuntimeClip rc(clip, rest);
    for (int k = 0; k < 8; ++k) {
      EXPECT_LE(compare(clip, rest, rc, 0.1f * k, true).r, RuntimeClip::kRotationBound);
    }
  }
}

TEST(RuntimeClip, BetweenKeysFollowsTheNeutralInterpolation) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> any(-0.5f, 4.f);
  for (int round = 0; round < 10; ++round) {
    const size_t joints = 1 + rng() % 12;
    const Clip clip = random_clip(rng, joints, true);
    const std::vector<Transform> rest = random_rest(rng, joints);
    const RuntimeClip rc(clip, rest);
    for (int i = 0; i < 50; ++i) {
      const Diff d = compare(clip, rest, rc, any(rng), true);
      EXPECT_LE(d.r, 2e-4f);
      EXPECT_LE(std::max(d.t, d.s), 2e-4f);
    }
  }
}

TEST(RuntimeClip, HermiteSegmentsAreSubdivided) {
  Clip clip;
  clip.joints.resize(1);
  Track<Vec3>& t = clip.joints[0].translation;
  t.interpolation = Interpolation::kHermite;
  t.add(0, {0, 0, 0}, {0, 0, 0}, {20, 0, 0});
  t.add(1, {1, 0, 0}, {-20, 0, 0}, {0, 0, 0});
  const Transform rest[1] = {};
  const RuntimeClip rc(clip, rest);
  // 2 keys + the hold would be 3; the curve needs more.
  EXPECT_GT(rc.translations().stream.size(), 3u);
  for (float time = 0; time <= 1; time += 1.f / 64) {
    EXPECT_LE(compare(clip, rest, rc, time, true).t, 1e-4f) << time;
  }
}

TEST(RuntimeClip, StreamIsInTheOrderKeysAreNeeded) {
  std::mt19937 rng(5);
  const Clip clip = random_clip(rng, 9, true);
  const std::vector<Transform> rest = random_rest(rng, 9);
  const RuntimeClip rc(clip, rest);
  const auto& ch = rc.rotations();
  ASSERT_EQ(ch.track_begin.size(), 10u);
  for (size_t p = 0; p < 18; ++p) EXPECT_EQ(ch.need[p], -INFINITY) << p;  // two keys per track
  EXPECT_TRUE(std::is_sorted(ch.need.begin(), ch.need.end()));
  for (uint32_t j = 0; j < 9; ++j) {
    const uint32_t b = ch.track_begin[j], e = ch.track_begin[j + 1];
    ASSERT_GE(e - b, 2u);
    for (uint32_t i = b; i < e; ++i) {
      const auto& key = ch.stream[ch.by_track_key[i]];
      EXPECT_EQ(key.track, j);
      EXPECT_EQ(key.time, ch.by_track_time[i]);
      const uint32_t same = ch.same_times[j];
      ASSERT_LE(same, j);
      EXPECT_EQ(ch.by_track_time[ch.track_begin[same] + (i - b)], ch.by_track_time[i]);
      // Side by side with the first track keyed at these times.
      EXPECT_EQ(ch.by_track_key[i], ch.by_track_key[ch.track_begin[same] + (i - b)] + ch.rank_in_same[j]);
      if (i >= b + 2) {
        EXPECT_EQ(ch.need[ch.by_track_key[i]], ch.by_track_time[i - 1]);
      }
    }
  }
}

TEST(RuntimeClip, TracksOnTheSameTimesShareASearch) {
  std::mt19937 rng(8);
  Clip clip = random_clip(rng, 12, false);
  // Joints 4-7 take joint 3's rotation times (and keep their own values): one search for 3-7.
  for (int j = 4; j < 8; ++j) {
    Track<Quat>& r = clip.joints[j].rotation;
    r = clip.joints[3].rotation;
    for (Quat& q : r.values) q = random_rotation(rng);
  }
  const std::vector<Transform> rest = random_rest(rng, 12);
  const RuntimeClip rc(clip, rest);
  const bool keyed = !clip.joints[3].rotation.empty();
  for (uint32_t j = 4; j < 8; ++j) EXPECT_EQ(rc.rotations().same_times[j], keyed ? 3u : rc.rotations().same_times[3]);
  // Forward play, then random jumps, each equal to a fresh seek and within the bound.
  RuntimeCursor forward;
  SoaPose p0(12), p1(12);
  std::uniform_real_distribution<float> any(-1, 4);
  for (int i = 0; i < 300; ++i) {
    const float t = i < 150 ? i / 50.f : any(rng);
    ASSERT_TRUE((SoaSamplingJob{&rc, t, &forward, &p0, {}}.run()));
    RuntimeCursor fresh;
    ASSERT_TRUE((SoaSamplingJob{&rc, t, &fresh, &p1, {}}.run()));
    ASSERT_EQ(p0.data, p1.data) << t;
    EXPECT_LE(compare(clip, rest, rc, t, true).r, 2e-4f) << t;  // between far-apart keys: 2e-4
  }
}

// The cursor played forward gives exactly what a seek to the same time gives.
void ForwardPlayEqualsSeekAt(RuntimePrecision precision);

// 13 joints keyed alike: one run per channel, so a seek copies the run's stored values row by
// row (issue 34, item 2), while forward play decodes stream keys one by one: both precisions.
TEST(RuntimeClip, ForwardPlayEqualsSeek) {
  for (RuntimePrecision precision : {RuntimePrecision::kCompact, RuntimePrecision::kExact}) {
    SCOPED_TRACE(precision == RuntimePrecision::kExact ? "exact" : "compact");
    ForwardPlayEqualsSeekAt(precision);
  }
}

void ForwardPlayEqualsSeekAt(RuntimePrecision precision) {
  const Animated a = synthetic_workload(13, 2, 30);
  const RuntimeClip rc(a.clips[0], a.skeleton.rest, precision);
  RuntimeCursor forward;
  SoaPose p0(13), p1(13);
  for (float t = -0.1f; t < 2.2f; t += 1.f / 60) {
    ASSERT_TRUE((SoaSamplingJob{&rc, t, &forward, &p0, {}}.run()));
    RuntimeCursor fresh;
    ASSERT_TRUE((SoaSamplingJob{&rc, t, &fresh, &p1, {}}.run()));
    ASSERT_EQ(p0.data, p1.data) << t;
  }
  // Jumps back and far ahead seek.
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> any(-1, 3);
  for (int i = 0; i < 200; ++i) {
    const float t = any(rng);
    ASSERT_TRUE((SoaSamplingJob{&rc, t, &forward, &p0, {}}.run()));
    RuntimeCursor fresh;
    ASSERT_TRUE((SoaSamplingJob{&rc, t, &fresh, &p1, {}}.run()));
    ASSERT_EQ(p0.data, p1.data) << t;
  }
}

// After a seek, forward steps read the stream from the position the seek derived (issue 34:
// no longer a search of the stream): every step equals a fresh seek, on clips mixing tracks
// keyed alike, apart, singly and not at all.
TEST(RuntimeClip, StepsAfterASeekEqualFreshSeeks) {
  std::mt19937 rng(21);
  std::uniform_real_distribution<float> any(-0.5f, 4.5f);
  for (int round = 0; round < 12; ++round) {
    const size_t joints = 1 + rng() % 24;
    Clip clip = random_clip(rng, joints, round % 2 == 0);
    for (size_t j = 1; j + 1 < joints; j += 3) {  // pairs keyed alike
      clip.joints[j + 1].rotation = clip.joints[j].rotation;
      clip.joints[j + 1].translation = clip.joints[j].translation;
    }
    const std::vector<Transform> rest = random_rest(rng, joints);
    for (RuntimePrecision precision : {RuntimePrecision::kCompact, RuntimePrecision::kExact}) {
      const RuntimeClip rc(clip, rest, precision);
      RuntimeCursor cursor;
      SoaPose p0(joints), p1(joints);
      for (int jump = 0; jump < 20; ++jump) {
        float t = any(rng);
        for (int step = 0; step < 8; ++step, t += 0.013f * step) {
          ASSERT_TRUE((SoaSamplingJob{&rc, t, &cursor, &p0, {}}.run()));
          RuntimeCursor fresh;
          ASSERT_TRUE((SoaSamplingJob{&rc, t, &fresh, &p1, {}}.run()));
          ASSERT_EQ(p0.data, p1.data) << t;
        }
      }
    }
  }
}

// The time index (issue 34, item 4) on times far from even: a cluster of keys in one bucket, a
// lone key far away, times at and between the keys and past both ends; every seek finds the key
// SamplingJob finds.
TEST(RuntimeClip, TimeIndexFindsTheKeyOnUnevenTimes) {
  Clip clip;
  clip.joints.resize(3);
  std::vector<float> times;
  for (int k = 0; k < 40; ++k) times.push_back(k * 1e-4f);
  times.push_back(0.5f);
  times.push_back(1000.f);
  for (JointTracks& jt : clip.joints) {
    jt.translation.interpolation = Interpolation::kStep;  // the key in force, exactly
    for (size_t k = 0; k < times.size(); ++k) jt.translation.add(times[k], {static_cast<float>(k), 0, 0});
  }
  const Transform rest[3] = {};
  const RuntimeClip rc(clip, rest);
  std::vector<float> probes = {-1.f, -1e-9f, 0.3f, 0.5f, 0.50001f, 999.f, 1000.f, 2000.f, 3e38f, -3e38f, NAN};
  for (float t : times) {
    probes.push_back(t);
    probes.push_back(std::nextafter(t, -INFINITY));
    probes.push_back(std::nextafter(t, INFINITY));
  }
  for (float t : probes) {
    EXPECT_EQ(compare(clip, rest, rc, t, true).t, 0.f) << t;
  }
}

TEST(RuntimeClip, HoldsAndRest) {
  Clip clip;
  clip.joints.resize(3);
  clip.joints[0].translation.interpolation = Interpolation::kStep;
  clip.joints[0].translation.add(1, {1, 0, 0});
  clip.joints[0].translation.add(2, {2, 0, 0});
  clip.joints[1].translation.add(0.5f, {7, 0, 0});  // a single key holds everywhere
  // joint 2: no key at all, the rest holds and the joint is a default
  const Transform rest[3] = {{{0, 0, 0}, {}, {1, 1, 1}}, {}, {{5, 6, 7}, axis_angle({0, 1, 0}, 0.3f), {2, 2, 2}}};
  const RuntimeClip rc(clip, rest);
  SoaPose pose(3);
  uint8_t defaults[3] = {9, 9, 9};
  RuntimeCursor cur;
  const auto at = [&](float t, size_t j) {
    EXPECT_TRUE((SoaSamplingJob{&rc, t, &cur, &pose, defaults}.run()));
    return pose.get(j);
  };
  EXPECT_EQ(at(0, 0).translation.x, 1.f);      // before the first key: it holds
  EXPECT_EQ(at(1.5f, 0).translation.x, 1.f);   // a step holds its key
  EXPECT_EQ(at(1.999f, 0).translation.x, 1.f);
  EXPECT_EQ(at(2, 0).translation.x, 2.f);      // at the next key's own time, the next key
  EXPECT_EQ(at(9, 0).translation.x, 2.f);      // after the last key: it holds
  EXPECT_EQ(at(NAN, 0).translation.x, 1.f);    // NaN: before the first key
  EXPECT_EQ(at(INFINITY, 0).translation.x, 2.f);
  EXPECT_EQ(at(-INFINITY, 1).translation.x, 7.f);
  EXPECT_EQ(at(3, 1).translation.x, 7.f);
  const Transform r = at(1, 2);
  EXPECT_EQ(r.translation, rest[2].translation);
  EXPECT_EQ(r.scale, rest[2].scale);
  EXPECT_LE(max_diff(r.rotation, rest[2].rotation), RuntimeClip::kRotationBound);
  EXPECT_EQ(defaults[0], 0);
  EXPECT_EQ(defaults[1], 0);
  EXPECT_EQ(defaults[2], 1);
}

TEST(RuntimeClip, LinearRotationsAcrossHemispheresTakeTheLongWay) {
  // kLinear lerps components without the sign flip: from q to nearly -q it turns the long way.
  Clip clip;
  clip.joints.resize(1);
  Track<Quat>& r = clip.joints[0].rotation;
  r.interpolation = Interpolation::kLinear;
  r.add(0, axis_angle({0, 0, 1}, 0.2f));
  r.add(1, -axis_angle({0, 0, 1}, 0.6f));
  const Transform rest[1] = {};
  const RuntimeClip rc(clip, rest);
  for (float t = 0; t <= 1; t += 0.05f) EXPECT_LE(compare(clip, rest, rc, t, true).r, 2e-4f) << t;
}

TEST(RuntimeClip, RejectsAClipThatIsNotWellFormed) {
  Clip clip;
  clip.joints.resize(1);
  clip.joints[0].translation.add(1, {});
  clip.joints[0].translation.add(0.5f, {});  // out of order
  const Transform rest[1] = {};
  EXPECT_THROW(RuntimeClip(clip, rest), Error);
  Clip ok;
  ok.joints.resize(2);
  EXPECT_THROW(RuntimeClip(ok, rest), Error);  // one rest transform for two joints
}

// Samples `clip` at `t` with `cursor` and with a fresh cursor: the two poses, bit for bit.
void expect_as_fresh(const RuntimeClip& clip, RuntimeCursor& cursor, float t) {
  SoaPose used(clip.num_joints()), fresh_pose(clip.num_joints());
  ASSERT_TRUE((SoaSamplingJob{&clip, t, &cursor, &used, {}}.run()));
  RuntimeCursor fresh;
  ASSERT_TRUE((SoaSamplingJob{&clip, t, &fresh, &fresh_pose, {}}.run()));
  EXPECT_EQ(used.data, fresh_pose.data) << t;
  EXPECT_EQ(cursor.generation(), clip.generation());
}

// Issue 34, item 1: a clip compiled into the storage of a destroyed one (same address) is a new
// clip to the cursor, with more joints (the old heap overflow) or the same count (the old stale
// pose). Run under ASan by `make test-asan-ctest`.
TEST(RuntimeCursor, RebindsToAClipCompiledIntoTheSameStorage) {
  const Animated small = synthetic_workload(57, 2, 30);
  const Animated large = synthetic_workload(64, 2, 30);
  Animated other = synthetic_workload(57, 2, 30);
  for (JointTracks& jt : other.clips[0].joints) {
    for (Vec3& v : jt.translation.values) v = v + Vec3{1000, 0, 0};
  }
  std::optional<RuntimeClip> storage;
  RuntimeCursor cursor;
  storage.emplace(small.clips[0], small.skeleton.rest);
  const void* address = &*storage;
  const uint64_t first = storage->generation();
  expect_as_fresh(*storage, cursor, 0.5f);
  storage.reset();
  storage.emplace(large.clips[0], large.skeleton.rest);
  ASSERT_EQ(&*storage, address);  // the case the address could not tell apart
  EXPECT_NE(storage->generation(), first);
  expect_as_fresh(*storage, cursor, 0.6f);  // forward from the old time: must seek, not advance
  expect_as_fresh(*storage, cursor, 0.7f);
  storage.reset();
  storage.emplace(small.clips[0], small.skeleton.rest);
  expect_as_fresh(*storage, cursor, 0.8f);  // fewer joints again
  storage.emplace(other.clips[0], other.skeleton.rest);  // same address, same joint count
  ASSERT_EQ(&*storage, address);
  expect_as_fresh(*storage, cursor, 0.9f);
}

TEST(RuntimeCursor, CopiesAndMovesAreNewClips) {
  const Animated a = synthetic_workload(9, 1, 30);
  Animated b = synthetic_workload(17, 1, 30);
  RuntimeClip x(a.clips[0], a.skeleton.rest), y(b.clips[0], b.skeleton.rest);
  RuntimeCursor cursor;
  expect_as_fresh(x, cursor, 0.25f);
  const uint64_t before = x.generation();
  x = std::move(y);  // same object, another clip
  EXPECT_NE(x.generation(), before);
  EXPECT_EQ(x.num_joints(), 17u);
  expect_as_fresh(x, cursor, 0.5f);
  // The moved-from clip is empty and new too: the cursor binds to it without reading the old state.
  EXPECT_EQ(y.num_joints(), 0u);
  EXPECT_NE(y.generation(), x.generation());
  SoaPose none(0);
  EXPECT_TRUE((SoaSamplingJob{&y, 0.5f, &cursor, &none, {}}.run()));
  const RuntimeClip copy = x;
  EXPECT_NE(copy.generation(), x.generation());
  expect_as_fresh(copy, cursor, 0.75f);
  RuntimeClip moved(std::move(x));
  EXPECT_EQ(x.num_joints(), 0u);
  EXPECT_NE(moved.generation(), copy.generation());
  expect_as_fresh(moved, cursor, 0.1f);
}

TEST(RuntimeClip, QuantisationRoundTrip) {
  for (float c : {-1.f, -0.70710677f, -1e-6f, 0.f, 0.3f, 0.99999f, 1.f}) {
    EXPECT_LE(std::fabs(RuntimeClip::dequantize(RuntimeClip::quantize(c)) - c), 0.5f / 32767 + 1e-7f);
  }
  EXPECT_EQ(RuntimeClip::quantize(2.f), 32767);
  EXPECT_EQ(RuntimeClip::quantize(-2.f), -32767);
}

}  // namespace
}  // namespace animkit
