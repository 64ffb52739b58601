// CMotionTable and MotionTableManager from hand-built tables (motion spec Q2, Q3, Q7;
// asherons-call-runtime.md sections 2 and 3).
#include <gtest/gtest.h>

#include "fixture.h"

namespace animkit::asherons_call {
namespace {

using test::TableRig;
using test::without_link;
using namespace motion;

// Runtime 2: zero counts positive.
TEST(AcMotionTable, SameSign) {
  EXPECT_TRUE(same_sign(0.0f, 1.0f));
  EXPECT_TRUE(same_sign(-0.0f, 1.0f));
  EXPECT_TRUE(same_sign(-1.0f, -2.0f));
  EXPECT_FALSE(same_sign(-1.0f, 0.0f));
}

// Motion spec Q2: the same-substate fast path keeps the node and rescales its framerate by
// new/old; velocity loses the old contribution and gains the new; 0 ticks.
TEST(AcMotionTable, FastPathKeepsTheNodeAndRescales) {
  TableRig r;
  ASSERT_TRUE(r.go(kWalkForward, 1.0f));
  ASSERT_EQ(r.anims(), (std::vector<uint32_t>{0x03000110, 0x03000101}));
  const AnimSequenceNode* cycle = &r.node(1);
  ASSERT_TRUE(r.go(kWalkForward, 2.0f));
  EXPECT_EQ(r.ticks, 0u);
  EXPECT_EQ(r.anims(), (std::vector<uint32_t>{0x03000110, 0x03000101}));
  EXPECT_EQ(&r.node(1), cycle);
  EXPECT_EQ(cycle->framerate, 60.0f);
  EXPECT_EQ(r.node(0).framerate, 30.0f);  // the link is before first_cyclic: untouched
  EXPECT_EQ(r.seq.velocity.y, 3.12f * 2.0f);
  EXPECT_EQ(r.st.substate_mod, 2.0f);
}

// Motion spec Q2: walk -> run appends the link then the cycle and drops the old cycle; the
// playing node keeps its frame; ticks = n(link) + n(cycle) - 1.
TEST(AcMotionTable, WalkToRunAppendsLinkThenCycle) {
  TableRig r;
  ASSERT_TRUE(r.go(kWalkForward, 1.0f));
  r.seq.update(2.0 / 30.0, nullptr);
  const double frame = r.seq.frame_number();
  ASSERT_TRUE(r.go(kRunForward, 1.0f));
  EXPECT_EQ(r.anims(), (std::vector<uint32_t>{0x03000110, 0x03000111, 0x03000102}));
  EXPECT_EQ(r.seq.first_cyclic_index(), 2);
  EXPECT_EQ(r.seq.curr_index(), 0);
  EXPECT_EQ(r.seq.frame_number(), frame);
  EXPECT_EQ(r.ticks, 1u);
  EXPECT_EQ(r.st.substate, kRunForward);
  EXPECT_EQ(r.seq.velocity, (Vec3{0, 4.0f, 0}));
}

// Motion spec Q2/Q4: no link -> two links through the style default.
TEST(AcMotionTable, NoLinkHopsThroughTheDefault) {
  TableRig r(without_link(humanoid_table(), kWalkForward, kRunForward));
  ASSERT_TRUE(r.go(kWalkForward, 1.0f));
  ASSERT_TRUE(r.go(kRunForward, 1.0f));
  EXPECT_EQ(r.anims(), (std::vector<uint32_t>{0x03000110, 0x03000113, 0x03000116, 0x03000102}));
  EXPECT_EQ(r.ticks, 2u);
}

// Motion spec Q2: a direction reversal hops through the default even when a link exists.
TEST(AcMotionTable, DirectionReversalHopsThroughTheDefault) {
  TableRig r;
  ASSERT_TRUE(r.go(kWalkForward, 1.0f));
  ASSERT_TRUE(r.go(kWalkForward, -1.0f));
  EXPECT_EQ(r.anims(), (std::vector<uint32_t>{0x03000110, 0x03000113, 0x03000113, 0x03000101}));
  EXPECT_EQ(r.node(1).framerate, 30.0f);   // walk -> ready at the old speed
  EXPECT_EQ(r.node(2).framerate, -30.0f);  // ready -> walk: the walk -> ready clip backwards
  EXPECT_EQ(r.node(3).framerate, -30.0f);
  EXPECT_EQ(r.ticks, 2u);
}

// Motion spec Q7: stop -> the link to Ready, then Ready; velocity zeroed (clear_physics, then
// the Ready clips' own zero velocity).
TEST(AcMotionTable, StopLinksToReadyAndZeroesVelocity) {
  TableRig r;
  ASSERT_TRUE(r.go(kWalkForward, 1.0f));
  r.seq.update(0.5, nullptr);
  ASSERT_EQ(r.seq.velocity.y, 3.12f);
  ASSERT_TRUE(r.table->stop_sequence_motion(kWalkForward, 1.0f, r.st, r.seq, r.ticks));
  EXPECT_EQ(r.anims(), (std::vector<uint32_t>{0x03000113, 0x03000100}));
  EXPECT_EQ(r.seq.velocity, Vec3{});
  EXPECT_EQ(r.st.substate, kReady);
  EXPECT_EQ(r.ticks, 1u);
  EXPECT_FALSE(r.table->stop_sequence_motion(kRunForward, 1.0f, r.st, r.seq, r.ticks));
}

// Runtime 2.2: a substate stop re-enters GetObjectSequence(sd, ..., 1.0, true) and returns true
// with its ticks even when that transition fails (here: Ready may only be entered from the
// default, so is_allowed refuses it while walking).
TEST(AcMotionTable, SubstateStopReturnsTrueEvenWhenTheTransitionFails) {
  MotionTable t = humanoid_table();
  for (KeyedMotion& k : t.cycles) {
    if (k.key == motion_key(kNonCombat, kReady)) k.data.bitfield |= kOnlyFromDefault;
  }
  TableRig r(t);
  ASSERT_TRUE(r.go(kWalkForward, 1.0f));
  r.ticks = 7;
  EXPECT_TRUE(r.table->stop_sequence_motion(kWalkForward, 1.0f, r.st, r.seq, r.ticks));
  EXPECT_EQ(r.ticks, 0u);
  EXPECT_EQ(r.st.substate, kWalkForward);  // the transition itself did not happen
}

// Motion spec Q7: a modifier stop subtracts only its own velocity (at its own speed), no nodes.
TEST(AcMotionTable, ModifierStopSubtractsOnlyItsOwnVelocity) {
  TableRig r;
  ASSERT_TRUE(r.go(kRunForward, 1.0f));
  const auto nodes = r.anims();
  ASSERT_TRUE(r.go(kSideStepRight, 2.0f));  // bit 2 refuses the cycle while running
  EXPECT_EQ(r.st.substate, kRunForward);
  ASSERT_EQ(r.st.modifiers.size(), 1u);
  EXPECT_EQ(r.st.modifiers[0], (MotionModifier{kSideStepRight, 2.0f}));
  EXPECT_EQ(r.seq.velocity, (Vec3{2.5f, 4.0f, 0}));
  EXPECT_EQ(r.ticks, 0u);
  ASSERT_TRUE(r.table->stop_sequence_motion(kSideStepRight, 1.0f, r.st, r.seq, r.ticks));
  EXPECT_EQ(r.seq.velocity, (Vec3{0, 4.0f, 0}));
  EXPECT_TRUE(r.st.modifiers.empty());
  EXPECT_EQ(r.anims(), nodes);
}

// Runtime 2: standing, SideStepRight (substate + modifier bits) becomes the substate.
TEST(AcMotionTable, SidestepStandingIsACycle) {
  TableRig r;
  ASSERT_TRUE(r.go(kSideStepRight, 1.0f));
  EXPECT_EQ(r.st.substate, kSideStepRight);
  EXPECT_EQ(r.anims(), (std::vector<uint32_t>{0x03000115, 0x03000103}));
}

// Negative speed plays the cycle backwards: a negative framerate starting at high + 1 - EPS.
TEST(AcMotionTable, NegativeSpeedPlaysBackwards) {
  TableRig r;
  ASSERT_TRUE(r.go(kWalkForward, -1.0f));
  // Ready -> Walk backwards is the stored Walk -> Ready clip (get_link with a negative speed).
  EXPECT_EQ(r.anims(), (std::vector<uint32_t>{0x03000113, 0x03000101}));
  EXPECT_EQ(r.node(0).framerate, -30.0f);
  EXPECT_EQ(r.node(1).framerate, -30.0f);
  EXPECT_EQ(r.node(1).low_frame, 0);  // add_motion does not swap
  EXPECT_EQ(r.node(1).high_frame, 29);
  EXPECT_EQ(r.node(1).get_starting_frame(), 30.0 - double(kEpsilon));
  EXPECT_EQ(r.seq.frame_number(), 6.0 - double(kEpsilon));
  r.seq.update(1.0 / 30.0, nullptr);
  EXPECT_NEAR(r.seq.frame_number(), 5.0 - double(kEpsilon), 1e-6);
  // multiply_cyclic_animation_fr with a negative factor swaps low/high.
  TableRig f;
  ASSERT_TRUE(f.go(kWalkForward, 1.0f));
  f.seq.multiply_cyclic_animation_fr(-1.0f);
  EXPECT_EQ(f.node(1).framerate, -30.0f);
  EXPECT_EQ(f.node(1).low_frame, 29);
  EXPECT_EQ(f.node(1).high_frame, 0);
}

// Runtime 2 change_cycle_speed, both choices.
TEST(AcMotionTable, ChangeCycleSpeedChoices) {
  auto rate_after = [](Choices::CycleSpeed rule, float old_speed, float new_speed) {
    TableRig r;
    r.go(kWalkForward, 1.0f);
    change_cycle_speed(r.seq, old_speed, new_speed, rule);
    return r.node(1).framerate;
  };
  EXPECT_EQ(rate_after(Choices::CycleSpeed::kPorts, 1.0f, 0.5f), 15.0f);
  EXPECT_EQ(rate_after(Choices::CycleSpeed::kMotionSpec, 1.0f, 0.5f), 15.0f);
  // old ~ 0, new 1: the ports do nothing; the motion spec's paraphrase freezes.
  EXPECT_EQ(rate_after(Choices::CycleSpeed::kPorts, 0.0f, 1.0f), 30.0f);
  EXPECT_EQ(rate_after(Choices::CycleSpeed::kMotionSpec, 0.0f, 1.0f), 0.0f);
  // both ~ 0: the ports freeze; the paraphrase does nothing.
  EXPECT_EQ(rate_after(Choices::CycleSpeed::kPorts, 0.0f, 0.0001f), 0.0f);
  EXPECT_EQ(rate_after(Choices::CycleSpeed::kMotionSpec, 0.0f, 0.0001f), 30.0f);
}

// Runtime 2.1: the link's speed is negated when mod < 0 and speed > 0 (ACE, dereth) or
// whenever the signs differ (OpenAC).
TEST(AcMotionTable, LinkNegationChoices) {
  MotionTable t =
      without_link(without_link(humanoid_table(), kRunForward, kReady), kReady, kRunForward);
  for (auto rule : {Choices::LinkNegation::kOldNegative, Choices::LinkNegation::kSignsDiffer}) {
    Choices c;
    c.link_negation = rule;
    TableRig r(t, c);
    ASSERT_TRUE(r.go(kWalkForward, 1.0f));
    ASSERT_TRUE(r.go(kRunForward, -1.0f));  // no extra: walk -> ready alone, then the cycle
    EXPECT_EQ(r.anims(), (std::vector<uint32_t>{0x03000110, 0x03000113, 0x03000102}));
    EXPECT_EQ(r.node(1).framerate, rule == Choices::LinkNegation::kOldNegative ? -30.0f : 30.0f);
  }
}

// Runtime 2.2 re_modify, both choices: the ports reissue the head N times.
TEST(AcMotionTable, ReModifyChoices) {
  for (auto rule : {Choices::ReModify::kHeadNTimes, Choices::ReModify::kEachModifier}) {
    Choices c;
    c.re_modify = rule;
    TableRig r(humanoid_table(), c);
    ASSERT_TRUE(r.go(kRunForward, 1.0f));
    ASSERT_TRUE(r.go(kSideStepRight, 1.0f));
    ASSERT_TRUE(r.go(kTurnRight, 1.0f));
    ASSERT_EQ(r.st.modifiers.size(), 2u);
    EXPECT_EQ(r.seq.omega.z, -1.5f);
    ASSERT_TRUE(r.go(kWalkForward, 1.0f));
    ASSERT_EQ(r.st.modifiers.size(), 2u);
    EXPECT_EQ(r.st.modifiers[0].motion, kTurnRight);
    if (rule == Choices::ReModify::kHeadNTimes) {
      EXPECT_EQ(r.seq.omega.z, -3.0f);
      EXPECT_EQ(r.seq.velocity, (Vec3{0, 3.12f, 0}));
    } else {
      EXPECT_EQ(r.seq.omega.z, -1.5f);
      EXPECT_EQ(r.seq.velocity, (Vec3{1.25f, 3.12f, 0}));
    }
  }
}

// Runtime 2.1: ticks wrap; a lone empty cycle yields 0xFFFFFFFF.
TEST(AcMotionTable, TicksWrapForAnEmptyCycle) {
  MotionTable t = humanoid_table();
  t.cycles.push_back({motion_key(kNonCombat, kCrouch), MotionData{}});
  TableRig r(t);
  ASSERT_TRUE(r.go(kCrouch, 1.0f));
  EXPECT_EQ(r.ticks, 0xFFFFFFFFu);
}

// Runtime 2.1 (action): a link exists -> the action is queued, link then the base cycle.
TEST(AcMotionTable, ActionPlaysLinkThenReturnsToTheBase) {
  MotionTable t = humanoid_table();
  t.links[0].targets.push_back({0x1300004Cu, motion_data(0x03000114)});  // Ready -> Cheer
  TableRig r(t);
  ASSERT_TRUE(r.go(0x1300004Cu, 1.0f));
  EXPECT_EQ(r.anims(), (std::vector<uint32_t>{0x03000114, 0x03000100}));
  EXPECT_EQ(r.ticks, 1u);
  ASSERT_EQ(r.st.actions.size(), 1u);
  EXPECT_EQ(r.st.substate, kReady);
}

// Runtime 2.1 (style): a style change enters the new style's default cycle.
TEST(AcMotionTable, StyleChange) {
  MotionTable t = humanoid_table();
  t.style_defaults.push_back({0x8000003Eu, kReady});
  t.cycles.push_back({motion_key(0x8000003Eu, kReady), motion_data(0x03000104)});
  TableRig r(t);
  ASSERT_TRUE(r.go(0x8000003Eu, 1.0f));
  EXPECT_EQ(r.st.style, 0x8000003Eu);
  EXPECT_EQ(r.st.substate, kReady);
  EXPECT_EQ(r.anims().back(), 0x03000104u);
  EXPECT_EQ(r.ticks, 0u);
}

TEST(AcMotionTable, StopObjectCompletely) {
  TableRig r;
  ASSERT_TRUE(r.go(kRunForward, 1.0f));
  ASSERT_TRUE(r.go(kSideStepRight, 1.0f));
  ASSERT_TRUE(r.table->stop_object_completely(r.st, r.seq, r.ticks));
  EXPECT_TRUE(r.st.modifiers.empty());
  EXPECT_EQ(r.st.substate, kReady);
  EXPECT_EQ(r.seq.velocity, Vec3{});
}

// Runtime 2: get_link's lookups.
TEST(AcMotionTable, GetLink) {
  TableRig r;
  const CMotionTable& t = *r.table;
  EXPECT_EQ(t.get_link(kNonCombat, kWalkForward, 1, kRunForward, 1)->anims[0].anim_id, 0x03000111u);
  // a negative speed: the stored to -> from clip
  EXPECT_EQ(t.get_link(kNonCombat, kRunForward, 1, kWalkForward, -1)->anims[0].anim_id,
            0x03000111u);
  EXPECT_EQ(t.get_link(kNonCombat, kWalkForward, 1, kSideStepRight, 1), nullptr);
  // modifiers: style-qualified first, then the bare motion
  EXPECT_NE(t.find_modifier(kNonCombat, kSideStepRight), nullptr);
  EXPECT_NE(t.find_modifier(kNonCombat, kTurnRight), nullptr);
  EXPECT_EQ(t.find_modifier(kNonCombat, kTurnRight)->omega.z, -1.5f);
}

// ---- MotionTableManager (runtime 3, motion spec Q3) ---------------------------------------

struct Recorder : MotionDoneListener {
  std::vector<uint32_t> done;
  void motion_done(uint32_t motion, bool) override { done.push_back(motion); }
};

TEST(AcManager, PollPopsOnlyZeroHeads) {
  Recorder rec;
  CSequence seq;
  MotionTableManager m(nullptr, &seq, &rec);
  m.add_to_queue(kWalkForward, 0);
  m.add_to_queue(kSideStepRight, 0);
  m.add_to_queue(kRunForward, 2);
  m.add_to_queue(kTurnRight, 0);
  m.check_for_completed_motions();
  EXPECT_EQ(rec.done, (std::vector<uint32_t>{kWalkForward, kSideStepRight}));
  EXPECT_EQ(m.pending_animations().size(), 2u);
}

TEST(AcManager, AnimationDoneRunningCounter) {
  Recorder rec;
  CSequence seq;
  MotionTableManager m(nullptr, &seq, &rec);
  m.animation_done(true);  // empty: counter untouched
  EXPECT_EQ(m.animation_counter(), 0u);
  m.add_to_queue(kWalkForward, 1);
  m.add_to_queue(kSideStepRight, 0);
  m.add_to_queue(kRunForward, 2);
  m.animation_done(true);  // counter 1: pops Walk (1), then SideStep (0)
  EXPECT_EQ(rec.done, (std::vector<uint32_t>{kWalkForward, kSideStepRight}));
  EXPECT_EQ(m.animation_counter(), 0u);
  m.animation_done(true);  // counter 1 < 2
  EXPECT_EQ(m.pending_animations().size(), 1u);
  EXPECT_EQ(m.animation_counter(), 1u);
  m.animation_done(true);  // counter 2: pops Run; empty -> 0
  EXPECT_EQ(rec.done.back(), kRunForward);
  EXPECT_EQ(m.animation_counter(), 0u);
}

TEST(AcManager, RemoveRedundantLinksChoices) {
  for (auto rule :
       {Choices::RedundantLinks::kStopAtBlocker, Choices::RedundantLinks::kKeepScanning}) {
    Choices c;
    c.redundant_links = rule;
    auto table = std::make_shared<const CMotionTable>(humanoid_table(), c);
    AnimationStore store = test::humanoid_store();
    CSequence seq;
    seq.set_store(&store);
    MotionTableManager m(table, &seq, nullptr);
    // Walk, Run, Walk: substates do not block; the second Walk drops the entries after the first.
    m.add_to_queue(kWalkForward, 1);
    m.add_to_queue(kRunForward, 1);
    m.add_to_queue(kWalkForward, 1);
    EXPECT_EQ(m.pending_animations()[1].num_anims, 0u);
    EXPECT_EQ(m.pending_animations()[2].num_anims, 0u);
    // a modifier with a count blocks (OpenAC, dereth) or not (ACE).
    MotionTableManager n(table, &seq, nullptr);
    n.add_to_queue(kRunForward, 1);
    n.add_to_queue(kSideStepRight, 1);
    n.add_to_queue(kRunForward, 1);
    EXPECT_EQ(n.pending_animations()[2].num_anims,
              rule == Choices::RedundantLinks::kStopAtBlocker ? 1u : 0u);
  }
}

// Runtime 3: HandleEnterWorld drops the links and drains the queue, even a 0xFFFFFFFF count.
TEST(AcManager, HandleEnterWorldDrains) {
  Recorder rec;
  TableRig r;
  MotionTableManager m(nullptr, &r.seq, &rec);
  r.go(kWalkForward, 1.0f);
  m.add_to_queue(kWalkForward, 0xFFFFFFFFu);
  m.add_to_queue(kReady, 3);
  m.handle_enter_world();
  EXPECT_TRUE(m.pending_animations().empty());
  EXPECT_EQ(rec.done, (std::vector<uint32_t>{kWalkForward, kReady}));
  EXPECT_EQ(r.anims(), (std::vector<uint32_t>{0x03000101}));
}

}  // namespace
}  // namespace animkit::asherons_call
