// The pose, sampling, tasks and the task stack (warriors.txt, "The pose", "Playing a clip",
// "Animation tasks", "Fades", "Gait blend", "The task stack", "Root motion").
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <random>
#include <numbers>

#include "animkit/warriors/builder.h"
#include "animkit/warriors/clock.h"
#include "animkit/warriors/cursor.h"
#include "animkit/warriors/demo.h"
#include "animkit/warriors/instance.h"
#include "animkit/warriors/pose.h"
#include "animkit/warriors/tasks.h"

namespace animkit::warriors {
namespace {

AnmClip simple_clip(int frames, std::vector<AnimEvent> events = {}) {
  ClipBuilder b;
  b.name = "c" + std::to_string(frames);
  b.frames = frames;
  b.translation = {{0, {0, 0, 1}}};
  b.rotations[1] = {{0, {0, 0, 0, 1}}};
  b.events = std::move(events);
  return b.build();
}

AnimEvent event_at(int frame, uint16_t type = 0x0b) {
  AnimEvent e;
  e.frame = static_cast<uint16_t>(frame);
  e.type = type;
  return e;
}

float angle_of(Quat q) { return 2.0f * std::acos(std::clamp(q.w, -1.0f, 1.0f)); }

// warriors.txt "The reference pose": unit quaternions; bone 2 is (-0.5, 0.5, -0.5, 0.5).
TEST(WarriorsPose, ReferencePose) {
  const auto& ref = reference_pose();
  for (const Quat& q : ref) EXPECT_NEAR(dot(q, q), 1.0f, 1e-6f);
  EXPECT_EQ(ref[0], Quat::identity());
  EXPECT_FLOAT_EQ(ref[2].x, -0.5f);
  EXPECT_FLOAT_EQ(ref[2].y, 0.5f);
  EXPECT_FLOAT_EQ(ref[2].z, -0.5f);
  EXPECT_FLOAT_EQ(ref[2].w, 0.5f);
  EXPECT_NEAR(ref[17].z, 0.1112f, 1e-4f);
  // The parent table.
  EXPECT_EQ(kParents[0], -1);
  EXPECT_EQ(kParents[2], 1);
  EXPECT_EQ(kParents[28], 2);
  EXPECT_EQ(kParents[31], 2);
  EXPECT_EQ(kParents[33], 32);
}

// warriors.txt "The pose": a bone without a channel takes the reference pose (never a bind
// rotation), tagged default; bone 0 without a channel is the identity.
TEST(WarriorsPose, BoneTwoFromTheReferencePose) {
  const PlayClip p = make_play_clip(simple_clip(10));
  WarPose pose;
  const WarPose defaults = default_pose();
  sample_clip(p, 3, 1.0f, {&defaults, 0}, pose);
  EXPECT_TRUE(pose.rotation_default(2));
  EXPECT_FALSE(pose.rotation_default(1));
  EXPECT_NEAR(pose.rotations[2].x, -0.5f, 1e-6f);
  EXPECT_NEAR(pose.rotations[2].y, 0.5f, 1e-6f);
  EXPECT_TRUE(pose.rotation_default(0));
  EXPECT_EQ(tagged(pose.rotations[0], false), Quat::identity());
  EXPECT_TRUE(pose.velocity_default());  // no section A
  EXPECT_FALSE(pose.translation_default());
}

// warriors.txt "The key in force": the key at or before the nearest whole frame (a tie to the
// lower one), t = (frame - key) / delta not clamped, the last key held.
TEST(WarriorsPose, KeyInForce) {
  ClipBuilder b;
  b.frames = 20;
  b.translation = {{0, {0, 0, 0}}, {4, {0, 0, 0.4f}}, {8, {0, 0, 0.8f}}};
  const PlayClip p = make_play_clip(b.build());
  const PlayClip::Range& r = p.translation;
  const float z4 = p.values[r.first + 1].z, z8 = p.values[r.first + 2].z;
  // Frame 3.6 -> nearest 4: key 4 in force, t = (3.6 - 4) / 4 = -0.1 (negative, not clamped).
  EXPECT_NEAR(evaluate_channel(p, r, 3.6f, false).z, z4 + (z8 - z4) * -0.1f, 1e-6f);
  // Frame 3.5, a tie, goes to the lower frame 3: key 0, t = 3.5 / 4.
  EXPECT_NEAR(evaluate_channel(p, r, 3.5f, false).z, z4 * 3.5f / 4.0f, 1e-6f);
  // Held after the last key.
  EXPECT_EQ(evaluate_channel(p, r, 15.0f, false).z, z8);
}

// nlerp with the sign flip (0x00336bf8).
TEST(WarriorsPose, NlerpSignFlip) {
  ClipBuilder b;
  b.frames = 10;
  b.rotations[5] = {{0, axis_angle({0, 0, 1}, 3.0f)}, {2, axis_angle({0, 0, 1}, -3.0f)}};
  const PlayClip p = make_play_clip(b.build());
  const Quat mid = evaluate_channel(p, p.bones[5], 1.0f, true);
  // The short way round passes through pi, not through the identity.
  EXPECT_NEAR(std::fabs(mid.z), 1.0f, 1e-3f);
}

// warriors.txt "Blending": Pose_BlendPartial's tag rules.
TEST(WarriorsPose, BlendTags) {
  WarPose a = default_pose(), b = default_pose();
  const Quat q = axis_angle({1, 0, 0}, 0.5f);
  b.rotations[5] = tagged(q, false);                            // sampled in b, default in a
  b.root_velocity = tagged(Vec3{0, 2, 0}, false);               // motion: a's default gives way
  a.rotations[0] = tagged(axis_angle({0, 0, 1}, 0.2f), false);  // b's turn is a default
  a.rotations[7] = tagged(axis_angle({0, 1, 0}, 0.3f), true);   // both tagged: keep a's
  b.rotations[7] = tagged(axis_angle({0, 1, 0}, -0.3f), true);
  WarPose out;
  pose_blend_partial(a, b, 0.25f, out);
  EXPECT_EQ(out.rotations[7], a.rotations[7]);
  EXPECT_TRUE(out.rotation_default(7));
  // One side a default (body bone): slerped anyway.
  const Quat expect = slerp(a.rotations[5], b.rotations[5], 0.25f);
  EXPECT_NEAR(out.rotations[5].x, expect.x, 1e-6f);
  EXPECT_FALSE(out.rotation_default(5));
  // Motion channels: the tagged side is ignored.
  EXPECT_FLOAT_EQ(out.root_velocity.y, 2.0f);
  EXPECT_EQ(tagged(out.rotations[0], false), tagged(a.rotations[0], false));
  // A subtree-only blend (bone 28, the right leg) leaves the spine as the lower pose's.
  b.rotations[3] = tagged(q, false);
  b.rotations[29] = tagged(q, false);
  pose_blend_partial(a, b, 1.0f, out, 28);
  EXPECT_EQ(out.rotations[3], a.rotations[3]);
  EXPECT_NEAR(out.rotations[29].x, q.x, 1e-6f);
}

// Pose_BlendPartial over the whole pose (the crowd's blends run four bones at a time) gives each
// body bone exactly the rule's float: two tagged keep the lower's value, otherwise the core's
// slerp with the tag cleared. Random rotations, near-parallel pairs (nlerp), opposite
// hemispheres, tags, zero and NaN quaternions, weights inside and outside [0, 1], in place too.
TEST(WarriorsPose, WholePoseBlendIsTheRuleBitForBit) {
  std::mt19937 rng(25);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const auto bits = [](const Quat& q) {
    return std::array<uint32_t, 4>{std::bit_cast<uint32_t>(q.x), std::bit_cast<uint32_t>(q.y),
                                   std::bit_cast<uint32_t>(q.z), std::bit_cast<uint32_t>(q.w)};
  };
  const auto rotation = [&](const Quat& near) {
    switch (rng() % 8) {
      case 0: return Quat{0, 0, 0, 0};
      case 1: return Quat{nan, 0, 0, 1};
      case 2: return near;
      case 3: return normalize(Quat{near.x + 1e-3f * u(rng), near.y, near.z, near.w});
      case 4: return -normalize(Quat{near.x, near.y + 1e-3f * u(rng), near.z, near.w});
      default: return normalize(Quat{u(rng), u(rng), u(rng), u(rng)});
    }
  };
  const float weights[] = {0.f, 1.f, 0.25f, 0.5f, -0.5f, 1.5f, nan, 0.999f};
  int checked = 0;
  for (int round = 0; round < 400; ++round) {
    WarPose a = default_pose(), b = default_pose();
    for (int bone = 1; bone < kNumBones; ++bone) {
      a.rotations[bone] = tagged(rotation(Quat::identity()), rng() % 3 == 0);
      b.rotations[bone] = tagged(rotation(a.rotations[bone]), rng() % 3 == 0);
    }
    const float w = round % 2 ? weights[rng() % std::size(weights)] : u(rng) + 0.5f;
    WarPose out, in_place = a;
    pose_blend_partial(a, b, w, out);
    pose_blend_partial(in_place, b, w, in_place);
    for (int bone = 1; bone < kNumBones; ++bone, ++checked) {
      const Quat& x = a.rotations[bone];
      const Quat& y = b.rotations[bone];
      const Quat expect = is_tagged(x) && is_tagged(y) ? x : tagged(slerp(x, y, w), false);
      ASSERT_EQ(bits(out.rotations[bone]), bits(expect)) << "round " << round << " bone " << bone;
      ASSERT_EQ(bits(in_place.rotations[bone]), bits(expect)) << "round " << round;
    }
  }
  EXPECT_EQ(checked, 400 * 33);
}

// warriors.txt "Bone transforms".
TEST(WarriorsPose, BoneTransforms) {
  WarPose pose = default_pose({0, 0, 1});
  pose.rotations[0] = tagged(axis_angle({0, 0, 1}, 1.0f), false);
  pose.root_translation = tagged(Vec3{0.5f, 0, 1}, false);
  std::array<BoneTransform, kNumBones> out;
  std::array<Vec3, kNumBones> offsets = unit_offsets();
  build_bone_matrices(pose, offsets, out);
  // Entry 1 is absolute: bone 0's turn never tilts it.
  EXPECT_EQ(out[1].rotation, pose.rotations[1]);
  EXPECT_EQ(out[1].position, pose.root_translation);
  // Bone 2 composed on 1; bone 28 on 2.
  const Quat r2 = pose.rotations[1] * pose.rotations[2];
  EXPECT_NEAR(out[2].rotation.x, r2.x, 1e-6f);
  const Vec3 p2 = pose.root_translation + rotate(pose.rotations[1], offsets[2]);
  EXPECT_NEAR(out[2].position.x, p2.x, 1e-6f);
  const Vec3 p28 = out[2].position + rotate(out[2].rotation, offsets[28]);
  EXPECT_NEAR(out[28].position.z, p28.z, 1e-6f);
  // Entry 0: identity when tagged.
  pose.rotations[0] = tagged(pose.rotations[0], true);
  build_bone_matrices(pose, offsets, out);
  EXPECT_EQ(out[0].rotation, Quat::identity());
  EXPECT_EQ(out[0].position, Vec3{});
}

// warriors.txt "When a clip ends": events fire on the update whose frame first reaches them;
// the ending step fires none (an event at frame F never fires).
TEST(WarriorsCursor, EventsAndEnd) {
  const PlayClip p = make_play_clip(simple_clip(10, {event_at(3), event_at(9), event_at(10)}));
  struct Sink : EventSink {
    std::vector<int> frames;
    void fire(const PlayClip&, const AnimEvent& e) override { frames.push_back(e.frame); }
  } sink;
  AnimCursor c;
  c.init(&p);
  std::vector<int> fired_at;
  int ended = -1;
  for (int k = 1; k < 20 && ended < 0; ++k) {
    const size_t before = sink.frames.size();
    if (c.advance(clock_step_size(kDt, 1.0f), &sink) != 0.0f) ended = k;
    for (size_t i = before; i < sink.frames.size(); ++i) fired_at.push_back(k);
  }
  EXPECT_EQ(ended, 10);
  EXPECT_EQ(sink.frames, (std::vector<int>{3, 9}));
  EXPECT_EQ(fired_at, (std::vector<int>{3, 9}));
  EXPECT_EQ(c.frame(), 9u);  // the last frame shown is F - 1
  EXPECT_LT(c.time(), p.duration);
}

// warriors.txt "When a clip ends": the idle loop 388 (60 frames, 2.0 s, at 0.75) wraps every
// 79 updates with its time after the wraps 0.0249, 0.0166, 0.0083 s (period D - 1/60).
TEST(WarriorsTasks, IdleLoopPeriod) {
  const PlayClip p = make_play_clip(simple_clip(60), 388);
  CharacterInstance inst;
  auto loop = std::make_unique<ClipTask>(1, &inst, &p, 0.75f);
  loop->wrap_callback = "wrap";
  inst.insert_bottom(std::move(loop));
  std::vector<int> wraps;
  std::vector<float> times;
  for (int k = 1; k < 400; ++k) {
    inst.begin_update();
    inst.advance(kDt);
    if (!inst.callbacks().empty()) {
      wraps.push_back(k);
      times.push_back(inst.task(0)->time());
    }
  }
  ASSERT_GE(wraps.size(), 5u);
  // Find the wrap whose time is 0.0249 and check the two after it.
  size_t i = 0;
  while (i < times.size() && !(times[i] > 0.0249f && times[i] < 0.025f)) ++i;
  ASSERT_LT(i + 2, times.size());
  EXPECT_EQ(wraps[i + 1] - wraps[i], 79);
  EXPECT_EQ(wraps[i + 2] - wraps[i + 1], 79);
  EXPECT_NEAR(times[i + 1], 0.0166f, 1e-4f);
  EXPECT_NEAR(times[i + 2], 0.0083f, 1e-4f);
  // Every pass is 1.9833 s of clip time: 79.33 updates at 0.025 s.
  EXPECT_NEAR((wraps.back() - wraps.front()) / double(wraps.size() - 1), 1.98333 / 0.025, 0.34);
}

// warriors.txt "When a clip ends": type 3 hands over on the end update; the next task shows its
// time 0, the playing anim id names it, the end callback has run, the held flags are clear.
TEST(WarriorsTasks, ClipThenNextHandsOver) {
  const PlayClip a = make_play_clip(simple_clip(21), 19), b = make_play_clip(simple_clip(30), 20);
  CharacterInstance inst;
  auto t = std::make_unique<ClipTask>(3, &inst, &a, 0.8f);
  t->held = t->start_bits = 0x100;
  t->end_callback = "done";
  t->set_next(std::make_unique<ClipTask>(1, &inst, &b, 0.75f), 0.0f);
  inst.insert_bottom(std::move(t));
  EXPECT_EQ(inst.human.state_flags, 0x100u);
  EXPECT_EQ(inst.human.playing_anim, 19);
  int handed = -1;
  for (int k = 1; k < 40 && handed < 0; ++k) {
    inst.begin_update();
    inst.advance(kDt);
    inst.flush_deferred();
    if (inst.human.playing_anim == 20) {
      handed = k;
      EXPECT_EQ(inst.task(0)->time(), 0.0f);
      ASSERT_EQ(inst.callbacks().size(), 1u);
      EXPECT_EQ(inst.callbacks()[0].name, "done");
      EXPECT_EQ(inst.human.state_flags, 0u);
    }
  }
  EXPECT_EQ(handed, 26);  // 21 x 0.8 -> 26 updates
}

// warriors.txt "Fades": w_old = (1 + cos(pi t / d)) / 2; d = 0 gives 0.
TEST(WarriorsTasks, FadeCurve) {
  EXPECT_FLOAT_EQ(FadeTask::fade_weight(0, 0.3f), 1.0f);
  EXPECT_NEAR(FadeTask::fade_weight(0.15f, 0.3f), 0.5f, 1e-6f);
  EXPECT_NEAR(FadeTask::fade_weight(0.075f, 0.3f), (1 + std::cos(std::numbers::pi / 4)) / 2, 1e-6f);
  EXPECT_FLOAT_EQ(FadeTask::fade_weight(0.3f, 0.3f), 0.0f);
  EXPECT_FLOAT_EQ(FadeTask::fade_weight(0, 0), 0.0f);
  // A change: new under the fade, then the fade's clean-up once t passes d.
  const PlayClip a = make_play_clip(simple_clip(60), 1), b = make_play_clip(simple_clip(60), 2);
  CharacterInstance inst;
  inst.insert_bottom(std::make_unique<ClipTask>(1, &inst, &a, 1.0f));
  inst.change(std::make_unique<ClipTask>(1, &inst, &b, 1.0f), 0.15f);
  ASSERT_EQ(inst.size(), 3);
  EXPECT_EQ(inst.task(0)->anim_id(), 2);
  EXPECT_EQ(inst.human.playing_anim, 2);  // the top is a fade: the bottom task
  int gone = -1;
  for (int k = 1; k < 10 && gone < 0; ++k) {
    inst.advance(kDt);
    inst.flush_deferred();
    if (inst.size() == 1) gone = k;
  }
  EXPECT_EQ(gone, 5);  // 0, 0.033, 0.067, 0.1, 0.133 shown; 0.167 passes 0.15
  EXPECT_EQ(inst.task(0)->anim_id(), 2);
}

// warriors.txt "The task stack": more than 6 tasks -> the newest fade finishes at once.
TEST(WarriorsTasks, CrowdedStackFinishesNewestFade) {
  const PlayClip a = make_play_clip(simple_clip(60), 1);
  CharacterInstance inst;
  inst.insert_bottom(std::make_unique<ClipTask>(1, &inst, &a, 1.0f));
  for (int i = 0; i < 3; ++i) inst.change(std::make_unique<ClipTask>(1, &inst, &a, 1.0f), 1.0f);
  EXPECT_EQ(inst.size(), 7);  // new3 new2 new1 old f1 f2 f3
  inst.change(std::make_unique<ClipTask>(1, &inst, &a, 1.0f), 1.0f);
  // f3 finished at once: it gives back itself and everything between new3 and itself, then the
  // change inserts new4 under new3 and pushes its fade.
  EXPECT_EQ(inst.size(), 3);
  EXPECT_EQ(inst.task(1)->anim_id(), 1);
  EXPECT_EQ(inst.task(inst.size() - 1)->type(), 9);
}

// warriors.txt "Gait blend": the leader rule, including the downward pair change 2.0 -> 1.91.
TEST(WarriorsTasks, GaitLeaderRule) {
  std::array<PlayClip, 5> clips;
  for (int i = 0; i < 5; ++i) clips[i] = make_play_clip(simple_clip(24 + 6 * i), 4 + i);
  const std::array<const PlayClip*, 5> ptrs{&clips[0], &clips[1], &clips[2], &clips[3], &clips[4]};
  CharacterInstance inst;
  auto g = std::make_unique<GaitTask>(&inst, ptrs, 2.0f, 1.0f);
  g->set_flags(kLocomotionFlags);
  GaitTask* gait = g.get();
  inst.insert_bottom(std::move(g));
  EXPECT_EQ(gait->pair(), 2);
  // 2.0 -> 1.91: the pair changes downward and the new lower clip (1) leads, although the new
  // fraction 0.91 is above 0.875.
  gait->set_blend_target(1.91f);
  inst.advance(kDt);
  EXPECT_FLOAT_EQ(gait->blend_value(), 1.91f);
  EXPECT_EQ(gait->pair(), 1);
  EXPECT_FALSE(gait->upper_leads());
  EXPECT_EQ(gait->anim_id(), 5);
  // Rising inside a pair: the lower leads while the old fraction is at most 0.875.
  gait->set_blend_value(1.2f);
  gait->set_blend_target(1.5f);
  inst.advance(kDt);
  EXPECT_FALSE(gait->upper_leads());
  // Falling (still above the target after the move): the upper leads.
  gait->set_blend_target(1.0f);
  gait->set_blend_value(1.6f);
  inst.advance(kDt);
  EXPECT_TRUE(gait->upper_leads());
  // Old fraction above 0.875: the upper leads.
  gait->set_blend_value(1.9f);
  gait->set_blend_target(1.92f);
  inst.advance(kDt);
  EXPECT_TRUE(gait->upper_leads());
  // Easing at 10 units/s x rate x dt: a third of a unit per 30 Hz update.
  gait->set_blend_value(0.0f);
  gait->set_blend_target(3.0f);
  inst.advance(kDt);
  EXPECT_NEAR(gait->blend_value(), 1.0f / 3.0f, 1e-6f);
  // The target rounds unless flag 0x200.
  gait->set_flags(0);
  gait->set_blend_target(2.4f);
  EXPECT_FLOAT_EQ(gait->target(), 2.0f);
  EXPECT_EQ(GaitTask::pair_of(0.994f), 0);
  EXPECT_EQ(GaitTask::pair_of(0.995f), 1);
  EXPECT_EQ(GaitTask::pair_of(2.995f), 3);
  EXPECT_EQ(GaitTask::pair_of(4.0f), 3);
}

// Shared normalised phase: the follower is at the leader's time / duration.
TEST(WarriorsTasks, GaitSharedPhase) {
  std::array<PlayClip, 5> clips;
  for (int i = 0; i < 5; ++i) clips[i] = make_play_clip(simple_clip(24 + 12 * i), i);
  CharacterInstance inst;
  auto g = std::make_unique<GaitTask>(
      &inst, std::array<const PlayClip*, 5>{&clips[0], &clips[1], &clips[2], &clips[3], &clips[4]},
      0.5f, 1.0f);
  g->set_flags(kLocomotionFlags);
  GaitTask* gait = g.get();
  inst.insert_bottom(std::move(g));
  for (int k = 0; k < 10; ++k) inst.advance(kDt);
  EXPECT_NEAR(gait->lower().normalised_time(), gait->upper().normalised_time(), 1e-5f);
}

// warriors.txt "Root motion": the turn is the key in force x the rate, so a clip's total turn
// does not depend on its rate (within one key's angle x the rate from the end rule).
TEST(WarriorsTasks, TurnTotalIndependentOfRate) {
  ClipBuilder b;
  b.frames = 30;
  const float per_frame = 3.0f * std::numbers::pi_v<float> / 180.0f;
  b.rotations[0] = {{0, axis_angle({0, 0, 1}, per_frame)}, {29, axis_angle({0, 0, 1}, per_frame)}};
  b.rotations[1] = {{0, {0, 0, 0, 1}}};
  const PlayClip p = make_play_clip(b.build(), 149);
  const auto total = [&](float rate) {
    CharacterInstance inst;
    inst.insert_bottom(std::make_unique<ClipTask>(3, &inst, &p, rate));
    inst.sample();
    inst.apply_root_motion(kDt);
    for (int k = 1; k < 200 && inst.size() > 0; ++k) {
      inst.advance(kDt);
      inst.flush_deferred();
      if (inst.size() == 0) break;
      inst.sample();
      inst.apply_root_motion(kDt);
    }
    return inst.human.heading;
  };
  const float key_angle = angle_of(p.values[p.bones[0].first]);
  const float at1 = total(1.0f), at075 = total(0.75f), at08 = total(0.8f);
  EXPECT_NEAR(at1, 30 * key_angle, 1e-3f);
  EXPECT_NEAR(at075, at1, 0.75f * key_angle + 1e-3f);
  EXPECT_NEAR(at08, at1, 0.8f * key_angle + 1e-3f);
  // Unscaled it would be 4/3 too far at 0.75 (Coney's #263).
  EXPECT_LT(at075, at1 * 1.2f);
}

// warriors.txt "Root motion": velocity x rate, turned into world axes, capped at 50 m/s.
TEST(WarriorsTasks, RootVelocityCap) {
  ClipBuilder b;
  b.frames = 30;
  b.velocity = {{0, {0, 60.0f, 0}}};  // 60 m/s (61380 > s16: clamps to 32.03 m/s)
  b.rotations[1] = {{0, {0, 0, 0, 1}}};
  AnmClip c = b.build();
  c.keyframes.section_a[0].keys[0].y = 32767;
  c.keyframes.section_a[0].keys[0].x = 32767;
  const PlayClip p = make_play_clip(c);
  CharacterInstance inst;
  inst.insert_bottom(std::make_unique<ClipTask>(1, &inst, &p, 1.0f));
  inst.sample();
  inst.apply_root_motion(kDt);
  EXPECT_NEAR(length(inst.human.velocity), 45.3f, 0.1f);  // sqrt(2) x 32.03, under the cap
  inst.task(0)->set_rate(2.0f);
  inst.sample();
  inst.apply_root_motion(kDt);
  EXPECT_NEAR(length(inst.human.velocity), 50.0f, 1e-4f);
}

// Events fire only from the newest task; a gait's follower is muted.
TEST(WarriorsTasks, OnlyNewestTaskFires) {
  const PlayClip a = make_play_clip(simple_clip(30, {event_at(2)}), 1);
  const PlayClip b = make_play_clip(simple_clip(30, {event_at(2)}), 2);
  CharacterInstance inst;
  inst.insert_bottom(std::make_unique<ClipTask>(1, &inst, &a, 1.0f));
  inst.change(std::make_unique<ClipTask>(1, &inst, &b, 1.0f), 1.0f);
  std::vector<int> anims;
  for (int k = 0; k < 5; ++k) {
    inst.begin_update();
    inst.advance(kDt);
    for (const FiredEvent& e : inst.events()) anims.push_back(e.anim);
  }
  EXPECT_EQ(anims, (std::vector<int>{2}));
}

// warriors.txt "Animation tasks": type 11 picks the audible clip by 0.51 / 1.51 / 2.51.
TEST(WarriorsTasks, SelectThresholds) {
  EXPECT_EQ(MixTask::audible_of(0.5f), 0);
  EXPECT_EQ(MixTask::audible_of(0.51f), 1);
  EXPECT_EQ(MixTask::audible_of(1.5f), 1);
  EXPECT_EQ(MixTask::audible_of(1.51f), 2);
  EXPECT_EQ(MixTask::audible_of(2.5f), 2);
  EXPECT_EQ(MixTask::audible_of(2.51f), 3);
}

// Type 13: the nearest of eight directions leads; its neighbours (d +- 1) & 7.
TEST(WarriorsTasks, EightDirections) {
  std::array<PlayClip, 8> clips;
  std::array<const PlayClip*, 8> ptrs;
  for (int i = 0; i < 8; ++i) {
    clips[i] = make_play_clip(simple_clip(30), 100 + i);
    ptrs[i] = &clips[i];
  }
  CharacterInstance inst;
  auto t = std::make_unique<MixTask>(13, MixTask::Kind::kEight, &inst, ptrs.data(), 8, 7.8f, 1.0f);
  EXPECT_EQ(t->anim_id(), 100);  // round(7.8) & 7 = 0
  t->set_blend_target(2.2f);
  EXPECT_EQ(t->anim_id(), 102);
}

// Held-flag event 0x2c clears 0x1 and sets 0x2 on a task holding those bits.
TEST(WarriorsTasks, HeldFlagEvent) {
  const PlayClip p = make_play_clip(simple_clip(30, {event_at(2, 0x2c)}), 1);
  CharacterInstance inst;
  auto t = std::make_unique<ClipTask>(3, &inst, &p, 1.0f);
  t->held = t->start_bits = 0x1;
  inst.insert_bottom(std::move(t));
  EXPECT_EQ(inst.human.state_flags, 0x1u);
  for (int k = 0; k < 3; ++k) inst.advance(kDt);
  EXPECT_EQ(inst.human.state_flags, 0x2u);
  EXPECT_EQ(inst.task(0)->held, 0x2u);
}

// Type 3 with a blend time: the next task is advanced during the clip's last b seconds and
// blended in by the share of b elapsed; on the end update it is advanced by dt.
TEST(WarriorsTasks, ClipThenNextBlendWindow) {
  const PlayClip a = make_play_clip(simple_clip(30), 1), b = make_play_clip(simple_clip(60), 2);
  CharacterInstance inst;
  auto t = std::make_unique<ClipTask>(3, &inst, &a, 1.0f);
  ClipTask* clip = t.get();
  t->set_next(std::make_unique<ClipTask>(1, &inst, &b, 1.0f), 0.2f);
  inst.insert_bottom(std::move(t));
  float last_share = 0;
  int opened = -1, handed = -1;
  for (int k = 1; k < 40 && handed < 0; ++k) {
    inst.advance(kDt);
    inst.flush_deferred();
    if (inst.human.playing_anim == 2) {
      handed = k;
      EXPECT_GT(inst.task(0)->time(), 0.0f);
      break;
    }
    if (clip->in_blend_window()) {
      if (opened < 0) opened = k;
      EXPECT_GE(clip->blend_share(), last_share);
      last_share = clip->blend_share();
    }
  }
  EXPECT_EQ(handed, 30);
  EXPECT_EQ(opened, 25);  // the time passes D - 0.2 = 0.8 s on update 25 (0.8333 s)
  EXPECT_GT(last_share, 0.8f);
}

// The demo's clips survive the writer and the reader byte for byte.
TEST(WarriorsTasks, SyntheticGaitRoundTrip) {
  const AnmClip walk = synthetic_gait_clip("walk", 36, 0.35f, 1.5f);
  const Resource r = make_anm_resource(walk);
  Writer w;
  write_resource(w, r);
  const WadEntry e = read_entry(w.bytes());
  EXPECT_EQ(read_clip_set(std::get<Resource>(e.content)).clips[0].clip, walk);
  EXPECT_FALSE(make_play_clip(walk).has_bone(2));
}

}  // namespace
}  // namespace animkit::warriors
