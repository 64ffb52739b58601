// The crowd's sampler (key_sampler.h) against core SamplingJob, bit for bit: clips whose tracks
// share their key times and clips whose tracks do not, every interpolation, one-key and empty
// channels, times before, at, between and after the keys, NaN and infinite times, duplicate key
// times, and playback forwards, backwards and jumping, with cursors carried from sample to sample.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "animkit/core/blending_job.h"
#include "animkit/core/sampling_job.h"
#include "animkit/shadow_of_war/character.h"
#include "animkit/shadow_of_war/demo.h"
#include "animkit/shadow_of_war/key_sampler.h"
#include "animkit/shadow_of_war/layer_blend.h"
#include "animkit/shadow_of_war/output_pose.h"
#include "animkit/shadow_of_war/rotation_lanes.h"
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

// The SIMD lanes against math.h's nlerp and normalize on awkward inputs: zero, tiny, huge,
// infinite and NaN components, -0, opposite hemispheres, fractions 0, -0, 1, NaN and outside
// [0, 1], held lanes, a count that is not a multiple of the lane width.
TEST(RotationLanes, BitIdenticalToScalarNlerp) {
  const float inf = std::numeric_limits<float>::infinity(), nan = std::nanf("");
  const float values[] = {0.f, -0.f, 1.f, -1.f, 0.5f, -0.25f, 1e-30f, -1e-38f, 1e-45f,
                          3e38f, -3e38f, inf, -inf, nan, 0.70710678f, 2.f};
  const float fractions[] = {0.f, -0.f, 1.f, 0.5f, 0.25f, 1e-7f, 0.9999999f, -0.5f, 1.5f, nan};
  std::mt19937 rng(4);
  auto pick = [&] { return values[rng() % std::size(values)]; };
  for (int round = 0; round < 2000; ++round) {
    const size_t count = 1 + rng() % kRotationChunk;
    const size_t padded = (count + kRotationLanePad - 1) / kRotationLanePad * kRotationLanePad;
    std::vector<Quat> a(padded), b(padded), got(padded);
    std::vector<float> s(padded), held(padded);
    for (size_t i = 0; i < padded; ++i) {
      a[i] = {pick(), pick(), pick(), pick()};
      if (rng() % 3) a[i] = normalize({0.1f * static_cast<float>(rng() % 21) - 1, 0.3f, -0.2f, 0.9f});
      b[i] = rng() % 2 ? -a[i] : Quat{pick(), pick(), pick(), pick()};
      s[i] = rng() % 2 ? fractions[rng() % std::size(fractions)] : (rng() % 1000) / 1000.f;
      held[i] = rng() % 5 == 0 ? 1.f : 0.f;
    }
    for (bool full : {false, true}) {
      rotation_lanes(&a[0].x, &b[0].x, s.data(), held.data(), count, full, &got[0].x);
      // The same into a pose's rotations in place: 7 floats per joint, the 3 between untouched
      // and nothing written past `count` joints.
      std::vector<float> strided(7 * padded, 42.f);
      rotation_lanes(&a[0].x, &b[0].x, s.data(), held.data(), count, full, strided.data() + 3, 7);
      for (size_t i = 0; i < count; ++i) {
        Quat want = held[i] != 0.f ? a[i] : nlerp(a[i], b[i], s[i]);
        if (full) want = normalize({0.f + want.x, 0.f + want.y, 0.f + want.z, 0.f + want.w});
        ASSERT_EQ(std::memcmp(&want, &got[i], sizeof(Quat)), 0)
            << "round " << round << " lane " << i << (full ? " full layer" : " raw");
        ASSERT_EQ(std::memcmp(&want, &strided[7 * i + 3], sizeof(Quat)), 0)
            << "round " << round << " lane " << i << " strided";
      }
      for (size_t f = 0; f < strided.size(); ++f)
        if (f % 7 < 3 || f >= 7 * count) ASSERT_EQ(strided[f], 42.f) << "float " << f;
    }
  }
}

// The spec's pose job on core jobs alone (README, Choices 11): the first contributing entry
// sampled by SamplingJob (over the reference pose when below full weight or with a weight set),
// a first entry without a clip the reference pose, each later one layered by BlendingJob on
// {pose, 1 - a} and {layer, a}, a = clamp(weight x set[j], 0, 1), threshold 1e-6.
std::vector<Transform> core_pose(const Skeleton& sk, std::span<const BlendEntry> entries) {
  const std::vector<Transform>& rest = sk.rest;
  const size_t n = rest.size();
  std::vector<Transform> pose = rest;
  bool first = true;
  for (const BlendEntry& e : entries) {
    if (e.weight == 0.f) continue;
    std::vector<Transform> layer = rest;
    if (e.clip) {
      SamplingCursor cursor;
      EXPECT_TRUE((SamplingJob{e.clip, e.time, &cursor, rest, layer, {}}.run()));
    }
    const bool whole = e.weight >= 1.f && e.weight_set.empty();
    if (first && (!e.clip || whole)) {
      pose = e.clip ? layer : rest;
      first = false;
      continue;
    }
    if (first) pose = rest;
    first = false;
    std::vector<float> a(n), keep(n);
    for (size_t j = 0; j < n; ++j) {
      const float set = e.weight_set.empty() ? 1.f : j < e.weight_set.size() ? e.weight_set[j] : 0.f;
      a[j] = std::clamp(e.weight * set, 0.f, 1.f);
      keep[j] = 1.f - a[j];
    }
    std::vector<Transform> out(n);
    const BlendingLayer layers[] = {{pose, 1.f, keep}, {layer, 1.f, a}};
    EXPECT_TRUE((BlendingJob{layers, rest, 1e-6f, out}.run()));
    pose = out;
  }
  return pose;
}

// The crowd's output poses, every character every frame, against core_pose of its blend
// entries: runs and stops (cross-fades of two live BLENDs), the upper-body fidget layer (a
// weight set), and characters that die (their base clip alone: a SAMPLE).
TEST(KeySampler, CrowdPosesMatchTheCoreJobs) {
  Scene scene = scene_from_json(crowd_scenario(24, 0), ".", 1);
  auto& cs = scene.crowd->characters();
  size_t checked = 0, blends = 0, masked = 0, samples = 0;
  for (int f = 0; f < 420; ++f) {
    for (size_t i = 0; i < cs.size(); ++i) {
      const int phase = static_cast<int>((f + 13 * i) % 150);
      if (i % 3 == 0 && f < 300) continue;  // bored and idle: fidgets after 3 s
      if (phase == 0) cs[i]->set_value("speed", 3);
      if (phase == 75) cs[i]->set_value("speed", 0);
      if (f == 300 && i % 8 == 7) cs[i]->die("");
    }
    scene.crowd->frame(1.f / 60);
    for (const auto& c : cs) {
      const ModelAnimation& m = c->model();
      const std::vector<Transform> want = core_pose(scene.skeleton, m.blend_entries);
      ASSERT_TRUE(same_bits(m.output.transforms(), want)) << c->name() << " frame " << f;
      ++checked;
      size_t live = 0;
      for (const Operation& op : m.operations) live += op.code == kOpBlend;
      blends += live >= 2;
      masked += m.blend_entries.back().weight > 0.f && !m.blend_entries.back().weight_set.empty();
      samples += m.operations.size() == 2 && m.operations[0].code == kOpSample;
    }
  }
  EXPECT_EQ(checked, 24u * 420u);
  EXPECT_GT(blends, 200u);   // cross-fades
  EXPECT_GT(masked, 50u);    // the fidget layer
  EXPECT_GT(samples, 100u);  // the dead, on their base clip alone
}

// The rows path (ClipLayout rows, made at a clip's kRowsAfterUses-th sample of a frame): an
// output pose or Transforms sampled from the rows and the rest pose's image hold the floats of
// the gathered path, on skeletons of 1 to 64 joints (blocks of 8 lanes full, partial and padded), for clips
// with a keyed root, joints of other times, step and other interpolations, scale keys (1 and not
// 1), fewer joints than the skeleton, and times before, at, between and after the keys (NaN).
TEST(KeySampler, RowsGiveTheGatheredFloats) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float times[] = {-1.f, 0.f, 0.0333333f, 0.21f, 0.5f, 0.99f, 1.f, 1.7f, nan, 0.05f};
  size_t from_rows = 0, compared = 0;
  for (int joints : {1, 7, 8, 9, 16, 34, 63, 64}) {
    Skeleton sk = synthetic_skeleton(joints);
    sk.rest[joints / 2].translation.x = -0.f;  // + 0 (kFullLayer) makes it +0
    std::vector<Clip> clips;
    clips.push_back(synthetic_clip("plain", sk, 1.f, true, 0.5f, 1));  // keyed root
    Clip mixed = synthetic_clip("mixed", sk, 1.f, true, 0.3f, 2);
    mixed.joints[0].translation = {};  // every joint plain...
    if (joints > 3) mixed.joints[3].rotation.times[2] += 0.01f;  // ...but these
    if (joints > 5) mixed.joints[5].rotation.interpolation = Interpolation::kStep;
    if (joints > 6) mixed.joints[joints - 1].rotation = {};  // the rest pose
    if (joints > 9) {
      mixed.joints[9].scale.add(0.f, {1, 1, 1});
      mixed.joints[9].scale.add(1.f, {1, 1.5f, 1});
    }
    clips.push_back(std::move(mixed));
    if (joints > 2) {  // fewer joints than the skeleton: the rest past them
      Clip narrow = synthetic_clip("narrow", synthetic_skeleton(joints - 2), 1.f, true, 0.4f, 1);
      clips.push_back(std::move(narrow));
    }
    for (const Clip& clip : clips) {
      for (SampleStore store : {SampleStore::kRaw, SampleStore::kFullLayer}) {
        ClipLayouts layouts;
        for (uint32_t use = 1; use < ClipLayout::kRowsAfterUses; ++use)
          EXPECT_EQ(layouts.find(clip, 7, sk.rest).rows, nullptr);
        const ClipLayout& layout = layouts.find(clip, 7, sk.rest);
        // Rows for a clip with a plain joint (a one-joint skeleton's keyed root is not one).
        ASSERT_EQ(layout.rows != nullptr, layout.plain != 0) << clip.name << " " << joints;
        from_rows += layout.rows != nullptr;
        for (float time : times) {
          KeyCursor c1, c2;
          OutputPose got;
          sample_pose(clip, time, c1, sk.rest, got, store, &layout);
          std::vector<Transform> want(sk.num_joints()), rows(sk.num_joints());
          sample_pose(clip, time, c2, sk.rest, want, store);
          KeyCursor c3;
          sample_pose(clip, time, c3, sk.rest, rows, store, &layout);  // into Transforms
          EXPECT_TRUE(same_bits(got.transforms(), want))
              << clip.name << " " << joints << " joints, time " << time;
          EXPECT_TRUE(same_bits(rows, want))
              << clip.name << " " << joints << " joints, time " << time << " (Transforms)";
          EXPECT_EQ(c1.key, c2.key);
          EXPECT_EQ(c3.key, c2.key);
          ++compared;
        }
      }
    }
  }
  EXPECT_GE(from_rows, 2u * (1 + 2 + 3 * 6));
  EXPECT_GT(compared, 400u);
  // No rows where they would not hold: a rest scale other than 1, or more than 64 joints.
  Skeleton scaled = synthetic_skeleton(12);
  scaled.rest[4].scale = {1, 1, 1.25f};
  const Clip clip = synthetic_clip("plain", scaled, 1.f, true, 0.5f, 1);
  const Skeleton wide = synthetic_skeleton(70);
  const Clip wide_clip = synthetic_clip("wide", wide, 1.f, true, 0.5f, 1);
  ClipLayouts layouts;
  for (uint32_t use = 0; use < ClipLayout::kRowsAfterUses; ++use) {
    EXPECT_EQ(layouts.find(clip, 3, scaled.rest).rows, nullptr);
    EXPECT_EQ(layouts.find(wide_clip, 3, wide.rest).rows, nullptr);
  }
}

// A crowd's pose jobs trust a clip's layout for one frame (ClipLayout): clips edited in memory
// between frames (key times moved on one joint, scale keys added, key values changed, every
// joint's times replaced, an interpolation changed) play the edit on the next frame, every
// character's pose bit for bit the core jobs' on the edited clips.
TEST(KeySampler, ClipEditsBetweenFramesPlayOnTheNextFrame) {
  // Enough characters that each thread samples a clip past ClipLayout::kRowsAfterUses times in a
  // frame: the edits must reach the rows too.
  Scene scene = scene_from_json(crowd_scenario(96, 0), ".", 1);
  auto& cs = scene.crowd->characters();
  auto clip = [&](const char* name) { return const_cast<Clip*>(cs[0]->table()->find(name)); };
  Clip* idle = clip("orc_idle");
  Clip* run = clip("orc_run");
  ASSERT_TRUE(idle && run);
  size_t checked = 0;
  for (int f = 0; f < 240; ++f) {
    for (size_t i = 0; i < cs.size(); ++i) {
      const int phase = static_cast<int>((f + 13 * i) % 150);
      if (phase == 0) cs[i]->set_value("speed", 3);
      if (phase == 75) cs[i]->set_value("speed", 0);
    }
    if (f == 40) idle->joints[5].rotation.times[3] += 0.01f;  // joint 5's times differ
    if (f == 70) {  // joint 7 gets scale keys
      run->joints[7].scale.add(0.f, {1.f, 1.1f, 1.f});
      run->joints[7].scale.add(run->duration, {1.f, 0.9f, 1.f});
    }
    if (f == 100)  // values changed in place
      for (Quat& q : idle->joints[3].rotation.values) q = normalize({q.x + 0.2f, q.y, q.z, q.w});
    if (f == 130)  // every joint's times replaced (still shared by all)
      for (JointTracks& jt : run->joints)
        for (float& t : jt.rotation.times) t *= 0.75f;
    if (f == 160) idle->joints[2].rotation.interpolation = Interpolation::kLinear;
    if (f == 190) idle->joints[0].translation = {};  // the root no longer moves
    scene.crowd->frame(1.f / 60);
    for (const auto& c : cs) {
      const ModelAnimation& m = c->model();
      ASSERT_TRUE(same_bits(m.output.transforms(), core_pose(scene.skeleton, m.blend_entries)))
          << c->name() << " frame " << f;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 96u * 240u);
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

// Written straight into the output pose (the pose job's usual plan), a pose keeps the same bits
// as sampled into Transforms: scales from the first joint whose scale is not 1, none after a
// clip without any, joints past the clip the rest pose.
TEST(OutputPose, DirectWritesKeepEveryBit) {
  const Skeleton sk = synthetic_skeleton(11);
  Clip scaled = synthetic_clip("scaled", sk, 1.f, true, 0.5f, 1);
  scaled.joints[6].scale.add(0, {1, 2, 1});
  scaled.joints[6].scale.add(1, {1, -0.f, 3});
  Clip narrow = synthetic_clip("narrow", synthetic_skeleton(7), 1.f, true, 0.3f, 2);
  OutputPose out;
  for (const Clip* clip : {&scaled, &narrow, &scaled}) {
    for (SampleStore store : {SampleStore::kRaw, SampleStore::kFullLayer}) {
      for (float time : {0.f, 0.37f, 1.f}) {
        KeyCursor c1, c2;
        std::vector<Transform> want(sk.num_joints());
        sample_pose(*clip, time, c1, sk.rest, want, store);
        sample_pose(*clip, time, c2, sk.rest, out, store);
        EXPECT_EQ(out.unit_scale(), clip == &narrow);
        EXPECT_TRUE(same_bits(out.transforms(), want)) << clip->name << " at " << time;
      }
    }
  }
}

}  // namespace
}  // namespace animkit::shadow_of_war
