// Held flags and fades as the game keeps them (warriors.txt, "Animation tasks": "Fields of the
// clip tasks"; "Fades"; "The task stack"; "When a clip ends": the release at 0x00105f78 and
// AnimTask_FlushDeferred; "Coney's implementation": "Held flags (Tasks)").
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "animkit/warriors/builder.h"
#include "animkit/warriors/clock.h"
#include "animkit/warriors/instance.h"
#include "animkit/warriors/pose.h"

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

// Issue 25's re-encoding of the earlier issue's attack example: an attack whose clip fires 0x2c
// (and 0x2d / 0x48) holds every bit those events change, hold 0x40007, and starts with 0x1. The
// spec's rule alone ("first clearing the bits it holds") then gives the new attack 0x1 at once:
// the old attack's 0x2 is among the bits the new one holds. The old attack is released when the
// fade drops it; it still holds 0x40006, all of which the new attack holds, so nothing goes.
TEST(WarriorsHeldFlags, ReencodedAttackShowsOnlyItsBits) {
  const PlayClip a = clip(30, 11, {{2, 0x2c}}), b = clip(30, 12);
  CharacterInstance inst;
  inst.insert_bottom(task(inst, 1, a, 0x40007, 0x1));
  EXPECT_EQ(inst.human.state_flags, 0x1u);
  for (int k = 0; k < 3; ++k) update(inst);
  EXPECT_EQ(inst.human.state_flags, 0x2u);  // 0x2c: clear 0x1, set 0x2
  EXPECT_EQ(inst.task(0)->held, 0x40006u);
  inst.change(task(inst, 1, b, 0x40007, 0x1), 0.15f);
  for (int k = 1; k <= 5; ++k) {
    EXPECT_EQ(inst.human.state_flags, 0x1u) << k;
    update(inst);
  }
  // 5 x 0.0333 = 0.167 passes 0.15: the fade and the old attack went on update 5.
  EXPECT_EQ(inst.size(), 1);
  EXPECT_EQ(inst.human.state_flags, 0x1u);
}

// The same example encoded as before (each attack holding only 0x1): the spec's rule gives 0x3
// until the fade drops the old attack, whose release then clears the 0x2 it still holds. No rule
// beyond the spec makes it 0x1 (README Choices, "Held flags").
TEST(WarriorsHeldFlags, OneBitAttackKeepsTheOldPhaseUntilReleased) {
  const PlayClip a = clip(30, 11, {{2, 0x2c}}), b = clip(30, 12);
  CharacterInstance inst;
  inst.insert_bottom(task(inst, 1, a, 0x1, 0x1));
  for (int k = 0; k < 3; ++k) update(inst);
  EXPECT_EQ(inst.human.state_flags, 0x2u);
  inst.change(task(inst, 1, b, 0x1, 0x1), 0.15f);
  for (int k = 1; k <= 4; ++k) {
    EXPECT_EQ(inst.human.state_flags, 0x3u) << k;
    update(inst);
  }
  EXPECT_EQ(inst.human.state_flags, 0x3u);
  update(inst);  // update 5: the old attack released
  EXPECT_EQ(inst.size(), 1);
  EXPECT_EQ(inst.human.state_flags, 0x1u);
}

// A base loop holding 0x8000 and a loop holding 0x1 pushed on top: the pushed loop clears only
// the bits it holds (0x1), so the word is 0x8001, and stays so while both play.
TEST(WarriorsHeldFlags, PushedLoopKeepsTheBaseLoopsBits) {
  const PlayClip base = clip(30, 1), over = clip(30, 2);
  CharacterInstance inst;
  inst.insert_bottom(task(inst, 1, base, 0x8000, 0x8000));
  EXPECT_EQ(inst.human.state_flags, 0x8000u);
  inst.push(task(inst, 1, over, 0x1, 0x1));
  EXPECT_EQ(inst.human.state_flags, 0x8001u);
  for (int k = 0; k < 40; ++k) update(inst);  // both loops wrap; nothing is released
  EXPECT_EQ(inst.human.state_flags, 0x8001u);
  EXPECT_EQ(inst.task(0)->held, 0x8000u);
  EXPECT_EQ(inst.task(1)->held, 0x1u);
}

// A loop holding 0x1 changed to an idle (holding nothing) with a 0.45 s fade: the idle clears
// nothing as it starts, and the loop's 0x1 goes only when the fade drops it, on the first update
// whose elapsed time passes 0.45: 13 x 0.0333 = 0.433, 14 x 0.0333 = 0.467, so update 14.
TEST(WarriorsHeldFlags, FadedOutLoopKeepsItsBitsUntilDropped) {
  const PlayClip loop = clip(30, 1), idle = clip(60, 388);
  CharacterInstance inst;
  inst.insert_bottom(task(inst, 1, loop, 0x1, 0x1));
  inst.change(task(inst, 1, idle), 0.45f);
  EXPECT_EQ(inst.human.state_flags, 0x1u);
  for (int k = 1; k <= 13; ++k) {
    update(inst);
    EXPECT_EQ(inst.human.state_flags, 0x1u) << k;
    EXPECT_EQ(inst.size(), 3) << k;
  }
  update(inst);
  EXPECT_EQ(inst.size(), 1);
  EXPECT_EQ(inst.human.state_flags, 0x0u);
}

// A release spares the bits another task on the stack holds: the top loop (holding 0x1) faded
// out leaves 0x1 to the base loop that holds it too; the base loop's own release, when a change
// fades it out, clears everything it holds.
TEST(WarriorsHeldFlags, ReleaseSparesAnotherTasksBits) {
  const PlayClip base = clip(60, 1), over = clip(60, 2), next = clip(60, 3);
  CharacterInstance inst;
  inst.insert_bottom(task(inst, 1, base, 0x3, 0x3));
  inst.push(task(inst, 1, over, 0x11, 0x11));
  EXPECT_EQ(inst.human.state_flags, 0x13u);
  inst.push(std::make_unique<FadeTask>(&inst, 0.05f, 1.0f));  // fades `over` out
  update(inst);
  EXPECT_EQ(inst.size(), 3);
  update(inst);  // 0.0667 passes 0.05: `over` released; 0x10 goes, 0x1 stays (base holds it)
  ASSERT_EQ(inst.size(), 1);
  EXPECT_EQ(inst.human.state_flags, 0x3u);
  inst.change(task(inst, 1, next), 0.05f);
  update(inst);
  update(inst);
  ASSERT_EQ(inst.size(), 1);
  EXPECT_EQ(inst.human.state_flags, 0x0u);
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
  EXPECT_EQ(inst.human.state_flags, 0x201u);  // the new task clears only what it holds
  for (int k = 0; k < 5; ++k) update(inst);
  EXPECT_EQ(inst.human.state_flags, 0x201u);  // the old task's 0x2c did not fire
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
  // The new task clears the bits it holds (0x100) and sets them again; the old one's stay.
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

// The stack bottom to top as anim ids, a fade as F.
std::string stack_text(const CharacterInstance& inst) {
  std::string s;
  for (int i = 0; i < inst.size(); ++i) {
    if (!s.empty()) s += ' ';
    s += inst.task(i)->type() == 9 ? std::string("F") : std::to_string(inst.task(i)->anim_id());
  }
  return s;
}

// warriors.txt "Fades" (0x00106cc8) and "The task stack" (0x001754e8 / 0x001753d8), the issue's
// case: 13 loops, then changes of 1.05 s, one update after each. The expected stacks are derived
// by hand from the spec's two rules:
//   >12: "when t passes d, or the stack holds more than 12 tasks, the fade gives back itself and
//        every task below the new one" -- the tasks between its new task and itself.
//   >6:  insert and push "first finish the newest fade early when the stack already holds more
//        than 6 tasks", and the finished fade cleans up as above.
// No fade lives 32 updates (1.05 s), so only these two rules end fades here. Record +0x20 is the
// top task's id, the bottom one's when the top is a fade (0x00175210, 0x001752c8).
//
// Loops 501..513 inserted at the bottom one by one: [513 ... 501], +0x20 = 501 (the top).
// Change 1 (601): the insert finds 13 > 6 tasks but no fade; 14 tasks, then the push: 15.
//   Update 1: the fade sees 15 > 12 and gives back itself and the 13 loops above 601: [601].
// Change 2: [602 601 F]. Change 3: [603 602 601 F F] (the insert at 3, the push at 4 tasks).
// Change 4: the insert at 5, the push at 6 (not more than 6): [604 603 602 601 F F F], 7 tasks.
// Change 5: the insert at 7 > 6 first finishes the newest fade (change 4's, new one 604), which
//   gives back 603 602 601 and the three fades: [604]; then [605 604 F].
// From there on every three changes repeat changes 5, 6, 7: 3, 5, 7 tasks.
TEST(WarriorsFades, MoreThanTwelveAndMoreThanSixAcrossChanges) {
  std::vector<PlayClip> clips;
  for (int id = 501; id <= 513; ++id) clips.push_back(clip(45, id));
  for (int id = 601; id <= 620; ++id) clips.push_back(clip(45, id));
  CharacterInstance inst;
  for (int i = 0; i < 13; ++i) inst.insert_bottom(task(inst, 1, clips[i]));
  EXPECT_EQ(stack_text(inst), "513 512 511 510 509 508 507 506 505 504 503 502 501");
  EXPECT_EQ(inst.human.playing_anim, 501);

  const std::vector<std::string> after_change = {
      "601 513 512 511 510 509 508 507 506 505 504 503 502 501 F",  // 1
      "602 601 F",                                                  // 2
      "603 602 601 F F",                                            // 3
      "604 603 602 601 F F F",                                      // 4
      "605 604 F",                                                  // 5
      "606 605 604 F F",                                            // 6
      "607 606 605 604 F F F",                                      // 7
      "608 607 F",                                                  // 8
      "609 608 607 F F",                                            // 9
      "610 609 608 607 F F F",                                      // 10
      "611 610 F",                                                  // 11
      "612 611 610 F F",                                            // 12
      "613 612 611 610 F F F",                                      // 13
      "614 613 F",                                                  // 14
      "615 614 613 F F",                                            // 15
      "616 615 614 613 F F F",                                      // 16
      "617 616 F",                                                  // 17
      "618 617 616 F F",                                            // 18
      "619 618 617 616 F F F",                                      // 19
      "620 619 F",                                                  // 20
  };
  for (int k = 1; k <= 20; ++k) {
    inst.change(task(inst, 1, clips[12 + k]), 1.05f);
    EXPECT_EQ(stack_text(inst), after_change[k - 1]) << "change " << k;
    EXPECT_EQ(inst.human.playing_anim, 600 + k) << "change " << k;
    update(inst);
    // Only the first update changes the stack (the >12 clean-up); the fades run on.
    EXPECT_EQ(stack_text(inst), k == 1 ? "601" : after_change[k - 1]) << "update " << k;
    EXPECT_EQ(inst.human.playing_anim, 600 + k) << "update " << k;
  }
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

// Pose_BlendPartial with a bone (warriors.txt, "Blending"): a clip played over bone 16's subtree
// (the right arm, 16-21) replaces those bones and leaves the legs (29) to the clip under it; at
// weight 0.5 the arm is the slerp half-way. In a fade's layers it adds no pose of its own.
TEST(WarriorsFades, SubtreeBlendOverLegs) {
  const float a = 0.6f;
  const Quat legs = axis_angle({1, 0, 0}, a), arm = axis_angle({0, 1, 0}, a);
  ClipBuilder lb, ub;
  lb.frames = ub.frames = 30;
  lb.rotations[1] = ub.rotations[1] = {{0, {0, 0, 0, 1}}};
  lb.rotations[29] = {{0, legs}};
  lb.rotations[19] = {{0, legs}};
  ub.rotations[19] = {{0, arm}};
  ub.rotations[29] = {{0, arm}};
  const PlayClip lower = make_play_clip(lb.build(), 1), upper = make_play_clip(ub.build(), 2);
  CharacterInstance inst;
  inst.insert_bottom(task(inst, 1, lower));
  auto over = task(inst, 1, upper);
  over->set_subtree(16, 1.0f);
  ClipTask* o = over.get();
  inst.push(std::move(over));
  const WarPose& p = inst.sample();
  const auto near = [](Quat x, Quat y) {
    return std::fabs(std::fabs(dot(tagged(x, false), tagged(y, false))) - 1.0f) < 1e-5f;
  };
  EXPECT_TRUE(near(p.rotations[19], arm));
  EXPECT_TRUE(near(p.rotations[29], legs));
  o->set_subtree(16, 0.5f);
  const WarPose& h = inst.sample();
  EXPECT_TRUE(near(h.rotations[19], slerp(legs, arm, 0.5f)));
  EXPECT_TRUE(near(h.rotations[29], legs));
  // A fade pushed over the pair has one layer under it: completing, it keeps both tasks.
  inst.push(std::make_unique<FadeTask>(&inst, 0.0f, 1.0f));
  update(inst);
  EXPECT_EQ(inst.size(), 2);
}

// warriors.txt "The task stack": a queue of up to 10 (the last queued ends lowest once run) and
// a stack of up to 18 (a task that does not fit is given back, a choice).
TEST(WarriorsTaskStack, QueueOfTenAndStackOfEighteen) {
  std::vector<PlayClip> clips;
  for (int i = 0; i < 20; ++i) clips.push_back(clip(30, 100 + i));
  CharacterInstance inst;
  for (int i = 0; i < 10; ++i) EXPECT_TRUE(inst.queue(task(inst, 1, clips[i])));
  EXPECT_FALSE(inst.queue(task(inst, 1, clips[10])));
  EXPECT_EQ(inst.queued(), 10);
  inst.run_queued_tasks();
  EXPECT_EQ(inst.queued(), 0);
  ASSERT_EQ(inst.size(), 10);
  EXPECT_EQ(inst.task(0)->anim_id(), 109);
  EXPECT_EQ(inst.task(9)->anim_id(), 100);
  for (int i = 10; i < 18; ++i) inst.push(task(inst, 1, clips[i]));
  ASSERT_EQ(inst.size(), 18);
  inst.push(task(inst, 1, clips[18], 0x8, 0x8, "refused"));
  inst.insert_bottom(task(inst, 1, clips[19]));
  EXPECT_EQ(inst.size(), 18);
  EXPECT_EQ(inst.task(17)->anim_id(), 117);
  EXPECT_EQ(inst.task(0)->anim_id(), 109);
  inst.begin_update();
  inst.flush_deferred();
  EXPECT_EQ(callback_names(inst), (std::vector<std::string>{"refused"}));
  EXPECT_EQ(inst.human.state_flags, 0u);  // never started: nothing set, nothing cleared
}

// warriors.txt "Root motion": an attached human (+0x280 not -1) takes the pose's quaternion once
// per update as it is, not a x 30 x dt.
TEST(WarriorsTaskStack, AttachmentTakesTheTurnOnce) {
  ClipBuilder b;
  b.frames = 60;
  b.rotations[0] = {{0, axis_angle({0, 0, 1}, 0.1f)}};
  b.rotations[1] = {{0, {0, 0, 0, 1}}};
  const PlayClip p = make_play_clip(b.build(), 1);
  const auto heading_after = [&](int attachment) {
    CharacterInstance inst;
    inst.human.attachment = attachment;
    inst.insert_bottom(std::make_unique<ClipTask>(1, &inst, &p, 1.0f));
    for (int k = 0; k < 4; ++k) {
      inst.advance(kDt / 2);
      inst.sample();
      inst.apply_root_motion(kDt / 2);  // a 60 Hz step
    }
    return inst.human.heading;
  };
  EXPECT_NEAR(heading_after(-1), 4 * 0.1f * 0.5f, 1e-4f);
  EXPECT_NEAR(heading_after(7), 4 * 0.1f, 1e-4f);
}

// warriors.txt "The pose": with tasks queued and the human test passing, the queued tasks'
// pose is the default pose of the frame: a bone the playing clip leaves out takes it, tagged.
TEST(WarriorsTaskStack, QueuedTasksGiveTheDefaultPose) {
  const Quat spine = axis_angle({0, 1, 0}, 0.4f);
  ClipBuilder qb;
  qb.frames = 30;
  qb.rotations[1] = {{0, {0, 0, 0, 1}}};
  qb.rotations[2] = {{0, spine}};
  const PlayClip queued = make_play_clip(qb.build(), 2), playing = clip(30, 1);
  CharacterInstance inst;
  inst.insert_bottom(task(inst, 1, playing));
  inst.queue(task(inst, 1, queued));
  const auto bone2 = [&] { return tagged(inst.sample().rotations[2], false); };
  EXPECT_NEAR(std::fabs(dot(bone2(), reference_pose()[2])), 1.0f, 1e-6f);  // the test fails
  EXPECT_FALSE(inst.default_from_queue());
  inst.human.queued_pose_test = true;
  EXPECT_NEAR(std::fabs(dot(bone2(), spine)), 1.0f, 1e-5f);
  EXPECT_TRUE(inst.default_from_queue());
  EXPECT_TRUE(inst.pose().rotation_default(2));
  EXPECT_FALSE(inst.pose().rotation_default(1));
  inst.run_queued_tasks();
  EXPECT_NEAR(std::fabs(dot(bone2(), reference_pose()[2])), 1.0f, 1e-6f);  // queue empty
}

}  // namespace
}  // namespace animkit::warriors
