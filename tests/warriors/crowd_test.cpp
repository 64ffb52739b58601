// The crowd (issue 14 item 7): characters updated on 1 and 2 threads by Crowd::update give the
// same floats, update by update, as the player (`animkit play`'s run_scenario) gives for one
// character with the same tasks; and the per-thread workspace gives the pose sample() gives.
#include "animkit/warriors/crowd.h"

#include <gtest/gtest.h>

#include <bit>
#include <cstring>
#include <filesystem>
#include <limits>
#include <random>
#include <vector>

#include "animkit/core/registry.h"
#include "animkit/warriors/builder.h"
#include "animkit/warriors/clock.h"
#include "animkit/warriors/demo.h"
#include "animkit/warriors/scenario.h"

namespace animkit::warriors {
namespace {

// What each update leaves behind, compared bit for bit.
struct Frame {
  WarPose pose;
  std::array<BoneTransform, kNumBones> bones;
  Vec3 position, velocity;
  float heading = 0;
  uint64_t state_flags = 0;
  int playing_anim = -1, tasks = 0;
  size_t events = 0;
};
Frame frame_of(const CharacterInstance& c) {
  return {c.pose(),         c.bones(),           c.human.position,     c.human.velocity,
          c.human.heading,  c.human.state_flags, c.human.playing_anim, c.size(),
          c.events().size()};
}
template <class T>
bool same_bits(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}
void expect_same(const Frame& got, const Frame& want, const std::string& where,
                 bool with_pose = true) {
  if (with_pose) {
    EXPECT_TRUE(same_bits(got.pose, want.pose)) << where << ": pose";
  }
  EXPECT_TRUE(same_bits(got.bones, want.bones)) << where << ": bone transforms";
  EXPECT_TRUE(same_bits(got.position, want.position)) << where << ": position";
  EXPECT_TRUE(same_bits(got.velocity, want.velocity)) << where << ": velocity";
  EXPECT_TRUE(same_bits(got.heading, want.heading)) << where << ": heading";
  EXPECT_EQ(got.state_flags, want.state_flags) << where;
  EXPECT_EQ(got.playing_anim, want.playing_anim) << where;
  EXPECT_EQ(got.tasks, want.tasks) << where;
  EXPECT_EQ(got.events, want.events) << where;
}

struct Clips {
  AnmClip walk = synthetic_gait_clip("walk", 36, 0.35f, 1.5f);
  AnmClip jog = synthetic_gait_clip("jog", 24, 0.6f, 3.5f);
  AnmClip run = synthetic_gait_clip("run", 20, 0.85f, 6.0f);
  AnmClip idle = synthetic_idle_clip();
  PlayClip p_walk = make_play_clip(walk, 4), p_jog = make_play_clip(jog, 5),
           p_run = make_play_clip(run, 6), p_idle = make_play_clip(idle, 388);
};

constexpr int kKinds = 6, kUpdates = 90;

// Character kind k: an idle loop at 0.75, then a change to a gait blend (flags 0x2c1) under a
// fade of k x 0.2 s (0 s completes at once; 1.0 s lasts 30 updates), the gait set to the value
// k % 4 and easing toward (k + 2) % 4 — as the scenario's actions at update 0 make it.
Json scenario_of(int k) {
  return Json{
      {"engine", "warriors"},
      {"clips", {{"4", "walk.anm"}, {"5", "jog.anm"}, {"6", "run.anm"}, {"388", "idle.anm"}}},
      {"updates", kUpdates},
      {"actions",
       Json::array(
           {Json{{"at", 0}, {"do", "loop"}, {"anim", 388}, {"rate", 0.75}},
            Json{{"at", 0},
                 {"do", "change"},
                 {"fade", 0.2f * static_cast<float>(k)},
                 {"task",
                  {{"do", "gait"}, {"anims", {4, 5, 6, 6, 6}}, {"value", 0}, {"flags", 0x2c1}}}},
            Json{{"at", 0}, {"do", "gait_value"}, {"value", k % 4}},
            Json{{"at", 0}, {"do", "gait_target"}, {"value", (k + 2) % 4}}})}};
}
std::unique_ptr<CharacterInstance> character_of(const Clips& c, int k) {
  auto inst = std::make_unique<CharacterInstance>();
  inst->insert_bottom(std::make_unique<ClipTask>(1, inst.get(), &c.p_idle, 0.75f));
  auto gait = std::make_unique<GaitTask>(
      inst.get(), std::array<const PlayClip*, 5>{&c.p_walk, &c.p_jog, &c.p_run, &c.p_run, &c.p_run},
      0.0f, 1.0f);
  gait->set_flags(kLocomotionFlags);
  inst->change(std::move(gait), 0.2f * static_cast<float>(k));
  GaitTask* g = static_cast<GaitTask*>(inst->find_top(12));
  g->set_blend_value(static_cast<float>(k % 4));
  g->set_blend_target(static_cast<float>((k + 2) % 4));
  // The rest of the player's update 0 (its actions came after an advance of the empty stack).
  inst->sample();
  inst->apply_root_motion(kDt);
  return inst;
}

TEST(WarriorsCrowd, OneAndTwoThreadsGiveThePlayersPoses) {
  const Clips clips;
  const auto dir = std::filesystem::temp_directory_path() / "animkit-warriors-crowd";
  std::filesystem::create_directories(dir);
  for (const AnmClip* c : {&clips.walk, &clips.jog, &clips.run, &clips.idle}) {
    Writer w;
    write_resource(w, make_anm_resource(*c));
    write_file(dir / (c->descriptor.name_text() + ".anm"), w.bytes());
  }
  // The player's frames for each kind of character.
  std::vector<std::vector<Frame>> want(kKinds);
  for (int k = 0; k < kKinds; ++k) {
    PlayOptions options;
    ASSERT_EQ(run_scenario(scenario_of(k), dir, options,
                           [&](int, const CharacterInstance& inst) {
                             want[k].push_back(frame_of(inst));
                             return true;
                           }),
              0);
    ASSERT_EQ(want[k].size(), size_t(kUpdates));
  }
  // The gait moves, the fades end at different updates, the root travels.
  EXPECT_FALSE(same_bits(want[1][10].pose, want[1][60].pose));
  EXPECT_NE(want[5][5].tasks, want[5][80].tasks);
  EXPECT_GT(want[2].back().position.y * want[2].back().position.y +
                want[2].back().position.x * want[2].back().position.x,
            0.0f);

  // 300 characters: five work items of 64, so two threads share them. The two-thread crowd keeps
  // no local poses (keep_local_pose off): its bone transforms and the rest are the same.
  constexpr int kCharacters = 300;
  Crowd one(1), two(2);
  EXPECT_EQ(one.threads(), 1);
  EXPECT_EQ(two.threads(), 2);
  for (int i = 0; i < kCharacters; ++i) {
    one.add(character_of(clips, i % kKinds));
    two.add(character_of(clips, i % kKinds)).keep_local_pose = false;
  }
  for (int i = 0; i < kCharacters; ++i) {
    expect_same(frame_of(one[i]), want[i % kKinds][0], "update 0");
  }
  for (int u = 1; u < kUpdates; ++u) {
    one.update(kDt);
    two.update(kDt);
    for (int i = 0; i < kCharacters; ++i) {
      const Frame& w = want[i % kKinds][u];
      expect_same(frame_of(one[i]), w,
                  "1 thread, character " + std::to_string(i) + " update " + std::to_string(u));
      expect_same(frame_of(two[i]), w,
                  "2 threads, character " + std::to_string(i) + " update " + std::to_string(u),
                  false);
      if (HasFailure()) return;
    }
  }
}

// The fast paths of pose.cpp (rotate and slerp inlined, the bone transforms four lanes at a time)
// give the floats the core functions give, on random poses and offsets.
Quat random_unit(std::mt19937& rng) {
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  return normalize({u(rng), u(rng), u(rng), u(rng)});
}
TEST(WarriorsSpeed, FastPosePathsGiveTheCoreFloats) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-2.0f, 2.0f);
  for (int n = 0; n < 2000; ++n) {
    WarPose pose, other;
    pose.root_velocity = tagged(Vec3{u(rng), u(rng), u(rng)}, false);
    pose.root_translation = tagged(Vec3{u(rng), u(rng), u(rng)}, false);
    other.root_velocity = tagged(Vec3{u(rng), u(rng), u(rng)}, false);
    other.root_translation = tagged(Vec3{u(rng), u(rng), u(rng)}, false);
    std::array<Vec3, kNumBones> offsets;
    for (int b = 0; b < kNumBones; ++b) {
      pose.rotations[b] = tagged(random_unit(rng), false);
      // Half the time a near neighbour, so slerp's nlerp branch (cos > 0.9995) is taken too.
      other.rotations[b] = tagged(
          n % 2 ? normalize(pose.rotations[b] * Quat{0.01f * u(rng), 0, 0, 1}) : random_unit(rng),
          false);
      offsets[b] = {u(rng), u(rng), u(rng)};
    }
    std::array<BoneTransform, kNumBones> got;
    build_bone_matrices(pose, offsets, got);
    std::array<BoneTransform, kNumBones> want;
    want[0] = got[0];
    want[1] = {pose.root_translation, pose.rotations[1]};
    for (int b = 2; b < kNumBones; ++b) {
      const BoneTransform& p = want[kParents[b]];
      want[b].rotation = p.rotation * pose.rotations[b];
      want[b].position = p.position + rotate(p.rotation, offsets[b]);
    }
    ASSERT_TRUE(same_bits(got, want)) << n;
    const float w = std::uniform_real_distribution<float>(0.0f, 1.0f)(rng);
    WarPose blended;
    pose_blend_partial(pose, other, w, blended);
    for (int b = 0; b < kNumBones; ++b) {
      ASSERT_TRUE(same_bits(blended.rotations[b],
                            tagged(slerp(pose.rotations[b], other.rotations[b], w), false)))
          << n << " bone " << b;
    }
  }
}

}  // namespace
}  // namespace animkit::warriors

namespace animkit::warriors {
namespace {

// Issue 25 item 5: the crowd's path (untagged masks kept beside each pose, blends that visit only
// the values a side has, in place; bone transforms four bones a step) against the scalar rule
// written out here (warriors.txt "Blending": two tagged keep the lower's, the motion channels'
// tagged side gives way, otherwise the core's slerp / lerp with the tag cleared; "Bone
// transforms": the core's operator* and rotate down the parent table), on random pose stacks:
// poses pushed with random tags, values (zero, NaN, near and opposite neighbours), blended as
// the tasks do (the top two into the lower, a subtree, into a third pose, into the upper), the
// masks carried along and checked against the poses after every step.
WarPose rule_blend(const WarPose& lower, const WarPose& upper, float w, int bone) {
  const auto in_subtree = [](int b, int root) {
    for (int p = b; p >= 0; p = kParents[p]) {
      if (p == root) return true;
    }
    return false;
  };
  const auto motion = [](const auto& a, const auto& b, auto mixed) {
    if (is_tagged(a) && is_tagged(b)) return a;
    if (is_tagged(a)) return b;
    if (is_tagged(b)) return a;
    return tagged(mixed, false);
  };
  const auto body = [](const auto& a, const auto& b, auto mixed) {
    return is_tagged(a) && is_tagged(b) ? a : tagged(mixed, false);
  };
  const bool all = bone < 0;
  WarPose out = lower;
  if (all || in_subtree(0, bone)) {
    out.root_velocity = motion(lower.root_velocity, upper.root_velocity,
                               lerp(lower.root_velocity, upper.root_velocity, w));
  }
  if (all || in_subtree(1, bone)) {
    out.root_translation = body(lower.root_translation, upper.root_translation,
                                lerp(lower.root_translation, upper.root_translation, w));
  }
  if (all || bone == 0) {
    out.rotations[0] = motion(lower.rotations[0], upper.rotations[0],
                              slerp(lower.rotations[0], upper.rotations[0], w));
  }
  for (int b = 1; b < kNumBones; ++b) {
    if (all || in_subtree(b, bone)) {
      out.rotations[b] = body(lower.rotations[b], upper.rotations[b],
                              slerp(lower.rotations[b], upper.rotations[b], w));
    }
  }
  return out;
}

// The sampler's nlerp (four lanes at once) against the core's nlerp by the key-in-force rule
// (warriors.txt "The key in force": the key at or before the nearest whole frame, a tie to the
// lower, carried by t = (frame - key) / delta, not clamped) on random clips and frames,
// negative and past the end included; and the motion channels (four lanes too) against the core
// lerp, x the rate (section A) or + the bind height (section B).
TEST(WarriorsSpeed, SampledRotationsAreTheCoreNlerp) {
  std::mt19937 rng(525);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  int checked = 0;
  for (int round = 0; round < 40; ++round) {
    ClipBuilder b;
    b.frames = 40;
    for (int bone : {1, 3, 7, 20, 33}) {
      Quat q = normalize(Quat{u(rng), u(rng), u(rng), u(rng)});
      for (int f = 0; f <= 40; f += 1 + static_cast<int>(rng() % 9)) {
        // Near neighbours (sign flips on encoding included) and far ones.
        q = rng() % 2 ? normalize(Quat{q.x + 0.2f * u(rng), q.y, q.z, -q.w})
                      : normalize(Quat{u(rng), u(rng), u(rng), u(rng)});
        b.rotations[bone].push_back({f, q});
      }
    }
    // The motion channels too (lerp, x rate, + the bind height), zeros among their values.
    for (auto* keys : {&b.velocity, &b.translation}) {
      for (int f = 0; f <= 40; f += 1 + static_cast<int>(rng() % 9)) {
        const auto v = [&] { return rng() % 4 == 0 ? 0.f : 3.f * u(rng); };
        keys->push_back({f, Vec3{v(), v(), v()}});
      }
    }
    const PlayClip clip = make_play_clip(b.build());
    const WarPose defaults = default_pose();
    const float bind_height = round % 2 ? 0.f : 0.37f;
    const SampleContext ctx{&defaults, bind_height};
    const auto position_rule = [&](const PlayClip::Range& r, float frame, float nearest) {
      uint32_t k = r.first;
      while (k + 1 < r.first + r.count && static_cast<float>(clip.starts[k + 1]) <= nearest) ++k;
      const Quat& a = clip.values[k];
      if (k + 1 >= r.first + r.count) return Vec3{a.x, a.y, a.z};
      const Quat& c = clip.values[k + 1];
      const float t =
          (frame - static_cast<float>(clip.starts[k])) / static_cast<float>(clip.deltas[k + 1]);
      return lerp(Vec3{a.x, a.y, a.z}, Vec3{c.x, c.y, c.z}, t);
    };
    // Past the last keys (held) and before the first: there t is far below 0, and at -1e20 the
    // squared length overflows (nlerp's identity). The sampler takes four channels at once.
    constexpr float kFar[] = {-1e20f, -3e19f, -1e18f, -3.f, -0.5f};
    for (int n = 0; n < 55; ++n) {
      const float frame = n < 50 ? 60.f * u(rng) + 10.f : kFar[n - 50];
      const float rate = n % 3 == 0 ? 1.f : n % 3 == 1 ? 0.8f : 0.f;
      WarPose got;
      sample_clip(clip, frame, rate, ctx, got);
      const float nearest = std::ceil(frame - 0.5f);
      const Vec3 v = position_rule(clip.velocity, frame, nearest) * rate;
      ASSERT_TRUE(same_bits(got.root_velocity, tagged(v, false))) << round << " " << frame;
      Vec3 p = position_rule(clip.translation, frame, nearest);
      p.z = p.z + bind_height;
      ASSERT_TRUE(same_bits(got.root_translation, tagged(p, false))) << round << " " << frame;
      for (int bone : {1, 3, 7, 20, 33}) {
        const PlayClip::Range& r = clip.bones[bone];
        uint32_t k = r.first;
        while (k + 1 < r.first + r.count && static_cast<float>(clip.starts[k + 1]) <= nearest) ++k;
        Quat want = clip.values[k];
        if (k + 1 < r.first + r.count) {
          const float t =
              (frame - static_cast<float>(clip.starts[k])) / static_cast<float>(clip.deltas[k + 1]);
          want = nlerp(clip.values[k], clip.values[k + 1], t);
        }
        ASSERT_TRUE(same_bits(got.rotations[bone], tagged(want, false)))
            << "round " << round << " frame " << frame << " bone " << bone;
        ++checked;
      }
    }
  }
  EXPECT_EQ(checked, 40 * 55 * 5);
}

// Issue 25 item 5's shortcuts against the rules written out: a cursor stepped to frames in any
// order (forward, back, repeated: its window of unchanged keys) samples the key in force by the
// rule; a pose stack slot that held another clip's pose, sampled with its mask (only the defaults
// that pose changed put back), is the full sample; a slerp at weight 0 or 1 is the core slerp.
TEST(WarriorsSpeed, CursorWindowSlotReuseAndEndWeightsGiveTheRule) {
  std::mt19937 rng(2512);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  const WarPose defaults = default_pose({0.f, 0.f, 0.9f});
  const SampleContext ctx{&defaults, 0.25f};
  int checked = 0;
  for (int round = 0; round < 30; ++round) {
    std::vector<PlayClip> clips;
    for (int c = 0; c < 2; ++c) {
      ClipBuilder b;
      b.frames = 50;
      for (int bone = 1; bone < kNumBones; ++bone) {
        if (rng() % 3 != 0) continue;
        // Keys 1-9 frames apart, some channels with one key.
        for (int f = 0; f <= 50; f += 1 + static_cast<int>(rng() % 9)) {
          b.rotations[bone].push_back({f, normalize(Quat{u(rng), u(rng), u(rng), u(rng)})});
          if (rng() % 7 == 0) break;
        }
      }
      for (int f = 0; f <= 50; f += 1 + static_cast<int>(rng() % 6)) {
        b.translation.push_back({f, {0.1f * u(rng), 0.1f * u(rng), 0.1f * u(rng)}});
      }
      clips.push_back(make_play_clip(b.build()));
    }
    AnimCursor cursor;
    cursor.init(&clips[0]);
    PoseStack stack;
    for (int n = 0; n < 60; ++n) {
      // A time whose frame (uint(t x 30 + 0.5) toward zero) is the nearest frame by the rule.
      const float frame = std::floor(24.f + 24.f * u(rng)) + (rng() % 2 ? 0.2f : 0.8f);
      cursor.set_time(frame / 30.f);
      const float at = cursor.time() * 30.f;
      const uint32_t nearest = static_cast<uint32_t>(std::ceil(at - 0.5f));
      ASSERT_EQ(cursor.frame(), nearest) << at;
      WarPose want = defaults;
      for (int bone = 1; bone < kNumBones; ++bone) {
        const PlayClip::Range& r = clips[0].bones[bone];
        if (r.count == 0) continue;
        uint32_t k = r.first;
        while (k + 1 < r.first + r.count && clips[0].starts[k + 1] <= nearest) ++k;
        Quat q = clips[0].values[k];
        if (k + 1 < r.first + r.count) {
          const float t = (at - static_cast<float>(clips[0].starts[k])) /
                          static_cast<float>(clips[0].deltas[k + 1]);
          q = nlerp(clips[0].values[k], clips[0].values[k + 1], t);
        }
        want.rotations[bone] = tagged(q, false);
      }
      WarPose got;
      cursor.sample(1.f, ctx, got);
      for (int bone = 1; bone < kNumBones; ++bone) {
        ASSERT_TRUE(same_bits(got.rotations[bone], want.rotations[bone]))
            << "round " << round << " frame " << at << " bone " << bone;
      }
      // The slot of the stack held the other clip's pose (or this one's): sampled over it with
      // its mask, the pose is the full sample.
      AnimCursor other;
      other.init(&clips[1]);
      other.set_time(cursor.time());
      stack.clear(&defaults, true);
      WarPose* slot = stack.push();
      stack.mask() = (n % 2 ? other : cursor).sample_over(1.f, ctx, *slot, stack.mask());
      stack.clear(&defaults, true);
      slot = stack.push();
      stack.mask() = cursor.sample_over(1.f, ctx, *slot, stack.mask());
      ASSERT_TRUE(same_bits(*slot, got)) << "round " << round << " frame " << at;
      EXPECT_EQ(stack.mask(), untagged_mask(got));
      ++checked;
    }
  }
  EXPECT_EQ(checked, 30 * 60);
  // Weights 0 and 1 (and -0, and beyond [0, 1]) on near, far and opposite rotations.
  for (int n = 0; n < 3000; ++n) {
    const Quat a = normalize(Quat{u(rng), u(rng), u(rng), u(rng)});
    const Quat b = n % 3 == 0 ? normalize(Quat{a.x + 1e-3f * u(rng), a.y, a.z, a.w})
                              : normalize(Quat{u(rng), u(rng), u(rng), u(rng)});
    WarPose lower = default_pose(), upper = default_pose();
    lower.rotations[5] = tagged(a, false);
    upper.rotations[5] = tagged(n % 2 ? b : -b, false);
    for (float w : {0.f, -0.f, 1.f, 2.f, -1.f}) {
      WarPose out;
      pose_blend_partial(lower, upper, w, out);
      ASSERT_TRUE(same_bits(out.rotations[5],
                            tagged(slerp(lower.rotations[5], upper.rotations[5], w), false)))
          << n << " weight " << w;
    }
  }
}

TEST(WarriorsSpeed, MaskedBlendsAndBoneGroupsGiveTheScalarRuleOnRandomStacks) {
  std::mt19937 rng(2025);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const auto rotation = [&](const Quat& near) {
    switch (rng() % 8) {
      case 0:
        return Quat{0, 0, 0, 0};
      case 1:
        return Quat{nan, 0, 0, 1};
      case 2:
        return near;
      case 3:
        return normalize(Quat{near.x + 1e-3f * u(rng), near.y, near.z, near.w});
      case 4:
        return -normalize(Quat{near.x, near.y + 1e-3f * u(rng), near.z, near.w});
      default:
        return normalize(Quat{u(rng), u(rng), u(rng), u(rng)});
    }
  };
  // A sampled pose: the defaults, with a random set of channels written (untagged).
  const WarPose defaults = default_pose({0, 0, 0.9f});
  const auto sampled = [&] {
    WarPose p = defaults;
    const int written = static_cast<int>(rng() % 12);
    for (int i = 0; i < written; ++i) {
      const int b = static_cast<int>(rng() % kNumBones);
      p.rotations[b] = tagged(rotation(defaults.rotations[b]), rng() % 8 == 0);
    }
    if (rng() % 2) p.root_velocity = tagged(Vec3{u(rng), u(rng), u(rng)}, rng() % 8 == 0);
    if (rng() % 2) p.root_translation = tagged(Vec3{u(rng), u(rng), u(rng)}, rng() % 8 == 0);
    return p;
  };
  const float weights[] = {0.f, 1.f, 0.25f, 0.5f, -0.5f, 1.5f, nan, 0.999f};
  int blends = 0;
  for (int round = 0; round < 300; ++round) {
    std::vector<WarPose> got, want;
    std::vector<uint64_t> masks;
    for (int step = 0; step < 10; ++step) {
      const float w = rng() % 2 ? weights[rng() % std::size(weights)] : u(rng) + 0.5f;
      const int kind = got.size() < 2 ? 0 : static_cast<int>(rng() % 5);
      if (kind == 0) {  // a task's pose pushed
        got.push_back(sampled());
        want.push_back(got.back());
        masks.push_back(untagged_mask(got.back()));
        continue;
      }
      const size_t lo = got.size() - 2, up = got.size() - 1;
      const int bone = kind == 2 ? static_cast<int>(rng() % (kNumBones + 1)) - 1 : -1;
      const WarPose expect = rule_blend(want[lo], want[up], w, bone);
      if (kind == 1 || kind == 2) {  // a fade / a subtree clip: the top two into the lower
        masks[lo] = pose_blend_masked(got[lo], masks[lo], got[up], masks[up], w, got[lo], bone);
      } else if (kind == 3) {  // a gait / mix: into a third pose
        WarPose third = sampled();
        masks[lo] = pose_blend_masked(got[lo], masks[lo], got[up], masks[up], w, third, bone);
        got[lo] = third;
      } else {  // into the upper pose (the public function allows it)
        masks[lo] = pose_blend_masked(got[lo], masks[lo], got[up], masks[up], w, got[up], bone);
        got[lo] = got[up];
      }
      got.pop_back();
      masks.pop_back();
      want.pop_back();
      want[lo] = expect;
      ++blends;
      ASSERT_TRUE(same_bits(got[lo], want[lo])) << "round " << round << " step " << step;
      ASSERT_EQ(masks[lo], untagged_mask(got[lo])) << "round " << round << " step " << step;
    }
    // The bone transforms of the stack's top against the core's operations.
    std::array<Vec3, kNumBones> offsets;
    for (Vec3& o : offsets) o = {u(rng), u(rng), u(rng)};
    std::array<BoneTransform, kNumBones> bones, expect;
    build_bone_matrices(got.back(), offsets, bones);
    expect[0] = bones[0];
    expect[1] = {got.back().root_translation, got.back().rotations[1]};
    for (int b = 2; b < kNumBones; ++b) {
      const BoneTransform& p = expect[kParents[b]];
      expect[b].rotation = p.rotation * got.back().rotations[b];
      expect[b].position = p.position + rotate(p.rotation, offsets[b]);
    }
    ASSERT_TRUE(same_bits(bones, expect)) << "round " << round;
  }
  EXPECT_GT(blends, 1000);
}

// The gait's follower is set to the leader's normalised time when it is read (GaitTask::
// sync_follower), not after every advance. Two gaits driven alike, one read after every update
// (lower() / upper(): the follower set as the rule says, right after the advance) and one never
// read, give the same pose, bone transforms, events and cursors at every update, through random
// targets and values (pair changes, leader changes, pair blends) on clips with events; and the
// follower read is at the leader's normalised time (its time and frame by the clock's rule).
TEST(WarriorsSpeed, GaitFollowerSetWhenReadIsTheRule) {
  const std::array<PlayClip, 3> clips = {
      make_play_clip(synthetic_gait_clip("walk", 36, 0.35f, 1.5f), 4),
      make_play_clip(synthetic_gait_clip("jog", 25, 0.6f, 3.5f), 5),
      make_play_clip(synthetic_gait_clip("run", 20, 0.85f, 6.0f), 6)};
  const auto make = [&](CharacterInstance& c) {
    auto g = std::make_unique<GaitTask>(
        &c, std::array<const PlayClip*, 5>{&clips[0], &clips[1], &clips[2], &clips[1], &clips[0]},
        0.0f, 0.9f);
    g->set_flags(kTaskContinuous);
    GaitTask* gait = g.get();
    c.insert_bottom(std::move(g));
    return gait;
  };
  CharacterInstance read, unread;
  GaitTask* a = make(read);
  GaitTask* b = make(unread);
  std::mt19937 rng(2504);
  std::uniform_real_distribution<float> value(-0.5f, 4.5f);
  for (int k = 0; k < 3000; ++k) {
    const unsigned act = rng() % 40;
    const float v = value(rng);
    for (GaitTask* g : {a, b}) {
      if (act == 0) g->set_blend_target(v);
      if (act == 1) g->set_blend_value(v);
    }
    for (CharacterInstance* c : {&read, &unread}) {
      c->begin_update();
      c->advance(kDt);
      c->flush_deferred();
      c->sample();
      c->apply_root_motion(kDt);
    }
    const AnimCursor& lead = a->upper_leads() ? a->upper() : a->lower();
    const AnimCursor& follow = a->upper_leads() ? a->lower() : a->upper();
    const float t = clock_rescale(lead.time(), lead.duration(), follow.duration());
    ASSERT_EQ(std::bit_cast<uint32_t>(follow.time()), std::bit_cast<uint32_t>(t)) << k;
    ASSERT_EQ(follow.frame(), std::min(clock_frame(t), follow.clip()->frame_count - 1)) << k;
    expect_same(frame_of(read), frame_of(unread), "update " + std::to_string(k));
    if (::testing::Test::HasFailure()) return;
    ASSERT_EQ(read.events().size(), unread.events().size()) << k;
    for (size_t i = 0; i < read.events().size(); ++i) {
      ASSERT_EQ(read.events()[i].event, unread.events()[i].event) << k;
    }
  }
  for (const auto& [x, y] : {std::pair{&a->lower(), &b->lower()}, std::pair{&a->upper(), &b->upper()}}) {
    EXPECT_EQ(x->clip(), y->clip());
    EXPECT_EQ(std::bit_cast<uint32_t>(x->time()), std::bit_cast<uint32_t>(y->time()));
    EXPECT_EQ(x->frame(), y->frame());
  }
}

// The cursor's event shortcut (AnimCursor's next_event_: a step below the next event frame looks
// at no event) against the rule written out (warriors.txt "When a clip ends": a step fires, in
// the clip's order, the events at the frames it passes since the last frame fired; restart
// starts again before frame 0; set_time takes its frame as fired; a muted cursor or one without
// a sink fires nothing but moves on): random clips with events (frame 0, repeats, out of order,
// at and past F), random steps, restarts, set_time, mutes and sinks.
TEST(WarriorsSpeed, CursorEventShortcutGivesTheRule) {
  struct Recorder : EventSink {
    std::vector<const AnimEvent*> fired;
    void fire(const PlayClip&, const AnimEvent& e) override { fired.push_back(&e); }
  };
  std::mt19937 rng(2525);
  int fired_total = 0;
  for (int round = 0; round < 200; ++round) {
    ClipBuilder b;
    b.frames = 10 + static_cast<int>(rng() % 50);
    b.rotations[3] = {{0, Quat::identity()}};
    const int events = static_cast<int>(rng() % 6);
    for (int e = 0; e < events; ++e) {
      AnimEvent ev;
      ev.frame = static_cast<uint16_t>(rng() % 3 == 0 ? 0 : rng() % (b.frames + 3));
      ev.type = static_cast<uint16_t>(11 + e);
      b.events.push_back(ev);
    }
    const PlayClip clip = make_play_clip(b.build());
    AnimCursor cursor;
    cursor.init(&clip);
    int64_t last = -1;  // the rule's last frame fired
    Recorder sink;
    for (int n = 0; n < 300; ++n) {
      const int what = static_cast<int>(rng() % 20);
      if (what == 0) {
        cursor.restart();
        last = -1;
        continue;
      }
      if (what == 1) {
        cursor.set_time(std::uniform_real_distribution<float>(0.f, clip.duration)(rng));
        last = cursor.frame();
        continue;
      }
      if (what == 2) cursor.set_flags(cursor.flags() ^ kCursorMuted);
      const bool with_sink = what != 3;
      const float s = std::uniform_real_distribution<float>(0.f, 0.2f)(rng);
      std::vector<const AnimEvent*> want;
      const uint32_t before = cursor.frame();
      sink.fired.clear();
      const float over = cursor.advance(s, with_sink ? &sink : nullptr);
      if (over != 0.0f) {
        EXPECT_EQ(cursor.frame(), before);
      } else if (cursor.frame() > last) {
        if (with_sink && !(cursor.flags() & kCursorMuted)) {
          for (const AnimEvent& e : clip.events) {
            if (e.frame > last && e.frame <= cursor.frame()) want.push_back(&e);
          }
        }
        last = cursor.frame();
      }
      ASSERT_EQ(sink.fired, want) << "round " << round << " step " << n;
      fired_total += static_cast<int>(want.size());
    }
  }
  EXPECT_GT(fired_total, 1000);
}

}  // namespace
}  // namespace animkit::warriors
