// Held flags and fades as the game keeps them (warriors.txt, "Animation tasks": "Fields of the
// clip tasks"; "Fades"; "The task stack"; "When a clip ends": the release at 0x00105f78 and
// AnimTask_FlushDeferred; "Coney's implementation": "Held flags (Tasks)").
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "animkit/warriors/builder.h"
#include "animkit/warriors/clock.h"
#include "animkit/warriors/instance.h"

namespace animkit::warriors {
namespace {

PlayClip clip(int frames, int anim, std::vector<std::pair<int, uint16_t>> events = {}) {
  ClipBuilder b;
  b.name = "c" + std::to_string(anim);
  b.frames = frames;
  b.translation = {{0, {0, 0, 1}}};
  b.rotations[1] = {{0, {0, 0, 0, 1}}};
  for (auto [frame, type] : events) {
    AnimEvent e;
    e.frame = static_cast<uint16_t>(frame);
    e.type = type;
    b.events.push_back(e);
  }
  return make_play_clip(b.build(), anim);
}

std::unique_ptr<ClipTask> task(CharacterInstance& inst, int type, const PlayClip& p,
                               uint64_t hold = 0, uint64_t start = 0, std::string cb = {}) {
  auto t = std::make_unique<ClipTask>(type, &inst, &p, 1.0f);
  t->held = hold;
  t->start_bits = start;
  t->end_callback = std::move(cb);
  return t;
}

// One update as `play` runs it: the animation step, then the deferred release.
void update(CharacterInstance& inst) {
  inst.begin_update();
  inst.advance(kDt);
  inst.flush_deferred();
}

std::vector<std::string> callback_names(const CharacterInstance& inst) {
  std::vector<std::string> names;
  for (const Callback& c : inst.callbacks()) names.push_back(c.name);
  return names;
}

// As it starts a task first clears the bits it holds, then sets its start bits: a new attack
// holding 0x7 that starts with 0x1 shows 0x1, not the old phase 0x2 with it (0x3).
TEST(WarriorsHeldFlags, StartClearsHeldThenSetsStartBits) {
  const PlayClip a = clip(30, 11, {{2, 0x2c}}), b = clip(30, 12);
  CharacterInstance inst;
  inst.insert_bottom(task(inst, 1, a, 0x7, 0x1));
  EXPECT_EQ(inst.human.state_flags, 0x1u);
  for (int k = 0; k < 3; ++k) update(inst);
  EXPECT_EQ(inst.human.state_flags, 0x2u);  // 0x2c: clear 0x1, set 0x2
  inst.change(task(inst, 1, b, 0x7, 0x1), 0.11f);
  EXPECT_EQ(inst.human.state_flags, 0x1u);
  for (int k = 0; k < 3; ++k) {
    update(inst);
    EXPECT_EQ(inst.human.state_flags, 0x1u) << k;
  }
  // The old task is released when the fade completes: the bits the new task holds stay.
  for (int k = 0; k < 3; ++k) update(inst);
  EXPECT_EQ(inst.size(), 1);
  EXPECT_EQ(inst.human.state_flags, 0x1u);
}

// A task holds its start bits even when they are outside the set it was given.
TEST(WarriorsHeldFlags, StartBitsAreHeld) {
  const PlayClip a = clip(30, 1);
  CharacterInstance inst;
  inst.human.state_flags = 0x10;
  inst.insert_bottom(task(inst, 3, a, 0x10, 0x20));
  EXPECT_EQ(inst.human.state_flags, 0x20u);
  EXPECT_EQ(inst.task(0)->held, 0x30u);
}

// 0x2c clears 0x1 and sets 0x2, 0x2d clears 0x7 and sets 0x4, 0x48 replaces all held bits by
// 0x40000; the task's held set follows.
TEST(WarriorsHeldFlags, EventsMoveTheHeldBits) {
  const PlayClip a = clip(30, 11, {{2, 0x2c}, {4, 0x2d}, {6, 0x48}});
  CharacterInstance inst;
  inst.human.state_flags = 0x10000000000ull;  // a bit nobody holds
  inst.insert_bottom(task(inst, 3, a, 0x107, 0x101));
  EXPECT_EQ(inst.human.state_flags, 0x10000000101ull);
  std::vector<uint64_t> seen;
  for (int k = 1; k <= 7; ++k) {
    update(inst);
    seen.push_back(inst.human.state_flags & 0xffffffffull);
  }
  EXPECT_EQ(seen, (std::vector<uint64_t>{0x101, 0x102, 0x102, 0x104, 0x104, 0x40000, 0x40000}));
  EXPECT_EQ(inst.task(0)->held, 0x40000u);
  EXPECT_EQ(inst.human.state_flags >> 32, 0x100u);  // untouched
}

// The events act only on a task that holds the bits they change.
TEST(WarriorsHeldFlags, EventsNeedTheBits) {
  const PlayClip a = clip(30, 11, {{1, 0x2c}, {2, 0x2d}});
  CharacterInstance inst;
  inst.human.state_flags = 0x1;  // set by someone else
  inst.insert_bottom(task(inst, 3, a, 0x100, 0x100));
  for (int k = 0; k < 5; ++k) update(inst);
  EXPECT_EQ(inst.human.state_flags, 0x101u);  // the task holds none of 0x1, 0x2, 0x4
  EXPECT_EQ(inst.task(0)->held, 0x100u);
}

// 0x48 changes all held bits, so it acts on any non-empty held set.
TEST(WarriorsHeldFlags, Event48ReplacesAnyHeldSet) {
  const PlayClip a = clip(30, 11, {{3, 0x48}});
  CharacterInstance inst;
  inst.human.state_flags = 0x1;
  inst.insert_bottom(task(inst, 3, a, 0x100, 0x100));
  for (int k = 0; k < 4; ++k) update(inst);
  EXPECT_EQ(inst.human.state_flags, 0x40001u);
  EXPECT_EQ(inst.task(0)->held, 0x40000u);
}

// Only the newest task's events fire: the outgoing task of a change does not move its bits.
TEST(WarriorsHeldFlags, OnlyTheNewestTask) {
  const PlayClip a = clip(30, 1, {{3, 0x2c}}), b = clip(30, 2);
  CharacterInstance inst;
  inst.insert_bottom(task(inst, 1, a, 0x3, 0x1));
  inst.change(task(inst, 1, b, 0x200, 0x200), 1.0f);
  for (int k = 0; k < 5; ++k) update(inst);
  EXPECT_EQ(inst.human.state_flags, 0x201u);
  EXPECT_EQ(inst.task(1)->held, 0x3u);  // unmoved by its 0x2c
}

// The release clears what the task still holds, not the bits another task on the stack holds;
// a clip task's release also clears state flag 0x4000000000 and, when its held flags had
// 0x400000, sets bit 0x80000000 on the object the human reports.
TEST(WarriorsHeldFlags, ReleaseClearsWhatItStillHolds) {
  const PlayClip a = clip(30, 1), b = clip(30, 2);
  CharacterInstance inst;
  inst.insert_bottom(task(inst, 1, a, 0x400300, 0x400300, "a_end"));
  inst.human.state_flags |= 0x4000000000ull | 0x8000000000ull;
  inst.change(task(inst, 1, b, 0x100, 0x100), 0.05f);  // the new task holds 0x100 too
  EXPECT_EQ(inst.human.state_flags, 0xC000400300ull);
  update(inst);
  EXPECT_EQ(inst.size(), 3);
  update(inst);
  EXPECT_EQ(inst.size(), 1);  // 0.0667 passes 0.05: the fade and the old task went
  // 0x400200 cleared, 0x100 kept (the new task holds it), 0x4000000000 cleared, the rest kept.
  EXPECT_EQ(inst.human.state_flags, 0x8000000100ull);
  EXPECT_EQ(inst.human.reported_object_flags, 0x80000000u);
}

TEST(WarriorsHeldFlags, NoReportWithout400000) {
  const PlayClip a = clip(4, 1);
  CharacterInstance inst;
  inst.insert_bottom(task(inst, 3, a, 0x200000, 0x200000, "end"));
  for (int k = 0; k < 6; ++k) update(inst);
  EXPECT_EQ(inst.size(), 0);
  EXPECT_EQ(inst.human.state_flags, 0u);
  EXPECT_EQ(inst.human.reported_object_flags, 0u);
}

// A fade's held bits (+0x24) are cleared on its release (0x00106ee8); a fade's release does not
// touch 0x4000000000 (that is the clip release's, 0x00105f78, which the outgoing clip of a
// change runs).
TEST(WarriorsFades, FadeHoldsBits) {
  const PlayClip a = clip(60, 1), b = clip(60, 2);
  CharacterInstance inst;
  inst.insert_bottom(task(inst, 1, a, 0, 0, "a_end"));
  auto fade = std::make_unique<FadeTask>(&inst, 0.11f, 1.0f);
  fade->held = fade->start_bits = 0x800;
  fade->end_callback = "fade_end";
  inst.human.state_flags = 0x4000000000ull;
  inst.change(task(inst, 1, b), std::move(fade));
  EXPECT_EQ(inst.human.state_flags, 0x4000000800ull);
  int gone = -1;
  for (int k = 1; k < 10 && gone < 0; ++k) {
    update(inst);
    if (inst.size() == 1) {
      gone = k;
      EXPECT_EQ(callback_names(inst), (std::vector<std::string>{"fade_end", "a_end"}));
    }
  }
  EXPECT_EQ(gone, 4);  // 0.1333 passes 0.11
  EXPECT_EQ(inst.human.state_flags, 0u);  // 0x800 by the fade, 0x4000000000 by the clip
  // A fade over one layer: only the fade goes, and 0x4000000000 stays.
  auto f = std::make_unique<FadeTask>(&inst, 0.0f, 1.0f);
  f->held = f->start_bits = 0x800;
  inst.human.state_flags = 0x4000000000ull;
  inst.push(std::move(f));
  EXPECT_EQ(inst.human.state_flags, 0x4000000800ull);
  update(inst);
  EXPECT_EQ(inst.size(), 1);
  EXPECT_EQ(inst.human.state_flags, 0x4000000000ull);
}

// A fade pushed by itself fades out the layer under it and, on completion, keeps the layer
// below that (the surviving one): the stack is not emptied.
TEST(WarriorsFades, FadeOutKeepsTheSurvivingLayer) {
  const PlayClip base = clip(60, 1), over = clip(60, 2);
  CharacterInstance inst;
  inst.insert_bottom(task(inst, 1, base, 0, 0, "base_end"));
  inst.push(task(inst, 1, over, 0x40, 0x40, "over_end"));
  inst.push(std::make_unique<FadeTask>(&inst, 0.05f, 1.0f));
  EXPECT_EQ(inst.human.playing_anim, 1);  // top is a fade: the bottom task
  update(inst);
  EXPECT_EQ(inst.size(), 3);
  update(inst);
  ASSERT_EQ(inst.size(), 1);
  EXPECT_EQ(inst.task(0)->anim_id(), 1);
  EXPECT_EQ(callback_names(inst), (std::vector<std::string>{"over_end"}));
  EXPECT_EQ(inst.human.state_flags, 0u);
}

// A fade over a single task has nothing to fade from: on completion only the fade goes.
TEST(WarriorsFades, FadeOverOneLayerKeepsIt) {
  const PlayClip a = clip(60, 1);
  CharacterInstance inst;
  inst.insert_bottom(task(inst, 1, a));
  inst.push(std::make_unique<FadeTask>(&inst, 0.0f, 1.0f));
  update(inst);
  ASSERT_EQ(inst.size(), 1);
  EXPECT_EQ(inst.task(0)->type(), 1);
}

// Any task can be faded: a gait faded in over a clip that hands over keeps its place when the
// fade completes, and the hand-over below the fade does not disturb the layers.
TEST(WarriorsFades, FadeInAnyTask) {
  const PlayClip a = clip(3, 1), n = clip(30, 2);
  std::array<PlayClip, 5> g;
  for (int i = 0; i < 5; ++i) g[i] = clip(30, 4 + i);
  CharacterInstance inst;
  auto first = task(inst, 3, a);
  first->set_next(task(inst, 1, n), 0);
  inst.insert_bottom(std::move(first));
  inst.change(std::make_unique<GaitTask>(
                  &inst, std::array<const PlayClip*, 5>{&g[0], &g[1], &g[2], &g[3], &g[4]}, 1.0f,
                  1.0f),
              0.2f);
  for (int k = 0; k < 4; ++k) update(inst);
  ASSERT_EQ(inst.size(), 3);
  EXPECT_EQ(inst.task(1)->anim_id(), 2);  // the clip handed over under the fade
  for (int k = 0; k < 4; ++k) update(inst);
  ASSERT_EQ(inst.size(), 1);
  EXPECT_EQ(inst.task(0)->type(), 12);
}

// More than 12 tasks: the fade completes on its next advance, whatever its time.
TEST(WarriorsFades, MoreThanTwelveCompletes) {
  const PlayClip a = clip(60, 1);
  CharacterInstance inst;
  for (int i = 0; i < 12; ++i) inst.insert_bottom(task(inst, 1, a));
  inst.push(std::make_unique<FadeTask>(&inst, 10.0f, 1.0f));
  ASSERT_EQ(inst.size(), 13);
  update(inst);
  EXPECT_EQ(inst.size(), 11);  // the fade and the layer it faded out
  // With 12 it runs on.
  inst.push(std::make_unique<FadeTask>(&inst, 10.0f, 1.0f));
  ASSERT_EQ(inst.size(), 12);
  update(inst);
  EXPECT_EQ(inst.size(), 12);
}

// More than 6 tasks: an insert or a push first finishes the newest fade, which gives back
// itself and its outgoing layer.
TEST(WarriorsFades, MoreThanSixFinishesTheNewestFade) {
  const PlayClip a = clip(60, 1), b = clip(60, 2);
  CharacterInstance inst;
  for (int i = 0; i < 5; ++i) inst.insert_bottom(task(inst, 1, a));
  inst.push(task(inst, 1, b, 0, 0, "b_end"));
  inst.push(std::make_unique<FadeTask>(&inst, 10.0f, 1.0f));  // 7 tasks
  ASSERT_EQ(inst.size(), 7);
  inst.insert_bottom(task(inst, 1, a));
  EXPECT_EQ(inst.size(), 6);  // fade and b given back, then the insert
  for (int i = 0; i < inst.size(); ++i) EXPECT_EQ(inst.task(i)->anim_id(), 1);
  inst.flush_deferred();
  EXPECT_EQ(callback_names(inst), (std::vector<std::string>{"b_end"}));
}

// AnimTask_FlushDeferred releases in the order the tasks were given back: a completed fade
// first, then its outgoing layer from the top down; a hand-over's old task in its turn.
TEST(WarriorsFades, DeferredReleaseOrder) {
  const PlayClip a = clip(60, 1), b = clip(60, 2), c = clip(60, 3);
  CharacterInstance inst;
  inst.insert_bottom(task(inst, 1, a, 0, 0, "a"));
  auto f1 = std::make_unique<FadeTask>(&inst, 1.0f, 1.0f);
  f1->end_callback = "f1";
  inst.change(task(inst, 1, b, 0, 0, "b"), std::move(f1));
  auto f2 = std::make_unique<FadeTask>(&inst, 0.05f, 1.0f);
  f2->end_callback = "f2";
  inst.change(task(inst, 1, c, 0, 0, "c"), std::move(f2));  // c b a f1 f2
  ASSERT_EQ(inst.size(), 5);
  update(inst);
  update(inst);
  ASSERT_EQ(inst.size(), 1);
  EXPECT_EQ(inst.task(0)->anim_id(), 3);
  EXPECT_EQ(callback_names(inst), (std::vector<std::string>{"f2", "f1", "a", "b"}));
}

}  // namespace
}  // namespace animkit::warriors
