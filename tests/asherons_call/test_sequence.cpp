// AnimSequenceNode and CSequence (asherons-call-runtime.md section 1; motion spec Q4, Q5).
#include <gtest/gtest.h>

#include "animkit/asherons_call/frame_ops.h"
#include "fixture.h"

namespace animkit::asherons_call {
namespace {

using test::humanoid_store;

// Runtime 1.1: clamps in order; high -1 is the last frame.
TEST(AcNode, ClampsFrameRange) {
  const Animation a = synthetic_animation(0x03000001, 10, 1, false);
  EXPECT_EQ(AnimSequenceNode({1, 0, -1, 30}, &a).high_frame, 9);
  const AnimSequenceNode big({1, 12, 40, 30}, &a);
  EXPECT_EQ(big.low_frame, 9);
  EXPECT_EQ(big.high_frame, 9);
  const AnimSequenceNode crossed({1, 7, 3, 30}, &a);
  EXPECT_EQ(crossed.low_frame, 7);
  EXPECT_EQ(crossed.high_frame, 7);
}

// Runtime 1.1: starting / ending frames, both ending-frame choices.
TEST(AcNode, StartingAndEndingFrames) {
  const Animation a = synthetic_animation(0x03000001, 10, 1, false);
  const AnimSequenceNode fwd({1, 2, 6, 30}, &a), back({1, 2, 6, -30}, &a);
  EXPECT_EQ(fwd.get_starting_frame(), 2.0);
  EXPECT_EQ(back.get_starting_frame(), 7.0 - double(kEpsilon));
  EXPECT_EQ(fwd.get_ending_frame(Choices::EndingFrame::kEpsilon), 7.0 - double(kEpsilon));
  EXPECT_EQ(fwd.get_ending_frame(Choices::EndingFrame::kBare), 7.0);
  EXPECT_EQ(back.get_ending_frame(Choices::EndingFrame::kEpsilon), 2.0);
}

// Runtime 1.1: a negative multiplier swaps low/high first.
TEST(AcNode, MultiplyFramerateSwapsForNegative) {
  const Animation a = synthetic_animation(0x03000001, 10, 1, false);
  AnimSequenceNode n({1, 0, 9, 30}, &a);
  n.multiply_framerate(2);
  EXPECT_EQ(n.framerate, 60);
  EXPECT_EQ(n.low_frame, 0);
  n.multiply_framerate(-0.5f);
  EXPECT_EQ(n.framerate, -30);
  EXPECT_EQ(n.low_frame, 9);
  EXPECT_EQ(n.high_frame, 0);
}

struct SeqRig {
  AnimationStore store = humanoid_store();
  CSequence seq;
  std::vector<QueuedHook> hooks;
  Choices choices;
  SeqRig() {
    seq.set_store(&store);
    seq.set_choices(&choices);
    seq.set_hook_obj(&hooks);
  }
};

// Runtime 1.2 / motion spec Q4: every append becomes first_cyclic; a playing node is not reset;
// an id that does not load adds nothing.
TEST(AcSequence, AppendNeverResetsThePlayingFrame) {
  SeqRig r;
  r.seq.append_animation({0x03000110, 0, -1, 30});
  EXPECT_EQ(r.seq.curr_index(), 0);
  EXPECT_EQ(r.seq.first_cyclic_index(), 0);
  r.seq.update(2.0 / 30.0, nullptr);
  const double frame = r.seq.frame_number();
  EXPECT_NEAR(frame, 2.0, 1e-5);
  r.seq.append_animation({0x03000101, 0, -1, 30});
  EXPECT_EQ(r.seq.first_cyclic_index(), 1);
  EXPECT_EQ(r.seq.curr_index(), 0);
  EXPECT_EQ(r.seq.frame_number(), frame);
  r.seq.append_animation({0x03009999, 0, -1, 30});  // not loadable
  EXPECT_EQ(r.seq.anim_list().size(), 2u);
  EXPECT_EQ(r.seq.first_cyclic_index(), 1);
}

// Runtime 1.4: hooks fire when the playhead leaves a frame; the last frame (high) of a forward
// node never fires; a finished link node (head != first_cyclic) queues the synthetic
// AnimationDone, a pure cycle never does.
TEST(AcSequence, HooksFireOnLeavingAFrame) {
  SeqRig r;
  r.seq.append_animation({0x03000101, 0, -1, 30});  // walk: Sound hooks on frames 0 and 15
  r.seq.update(0.5 / 30.0, nullptr);
  EXPECT_TRUE(r.hooks.empty());
  r.seq.update(0.6 / 30.0, nullptr);  // leaves frame 0
  ASSERT_EQ(r.hooks.size(), 1u);
  EXPECT_EQ(r.hooks[0].frame, 0);
  EXPECT_EQ(r.hooks[0].direction, 1);
  r.hooks.clear();
  r.seq.update(60.0 / 30.0, nullptr);  // two whole loops: frames 15, 0, 15, 0 (in order)
  EXPECT_EQ(r.hooks.size(), 4u);
  for (const QueuedHook& h : r.hooks) EXPECT_NE(h.hook, nullptr);  // no synthetic done
}

TEST(AcSequence, LinkEndQueuesSyntheticAnimationDoneAndApricotTrims) {
  SeqRig r;
  r.seq.append_animation({0x03000110, 0, -1, 30});  // 6-frame link
  r.seq.append_animation({0x03000101, 0, -1, 30});  // walk cycle
  r.seq.update(3.0 / 30.0, nullptr);
  EXPECT_EQ(r.seq.anim_list().size(), 2u);
  r.seq.update(3.0 / 30.0, nullptr);  // frame 6 > high 5: the link is done
  bool synthetic = false;
  for (const QueuedHook& h : r.hooks) synthetic |= h.hook == nullptr;
  EXPECT_TRUE(synthetic);
  // apricot: the consumed link is deleted; the cycle plays from its start.
  ASSERT_EQ(r.seq.anim_list().size(), 1u);
  EXPECT_EQ(r.seq.anim_list().front().anim_id, 0x03000101u);
  EXPECT_EQ(r.seq.curr_index(), 0);
  EXPECT_NEAR(r.seq.frame_number(), 0.0, 1e-4);
}

// Runtime 1.4: landing exactly on high does not finish the node.
TEST(AcSequence, LandingOnHighDoesNotFinish) {
  SeqRig r;
  r.seq.append_animation({0x03000110, 0, -1, 32});
  r.seq.append_animation({0x03000101, 0, -1, 32});
  r.seq.update(5.0 / 32.0, nullptr);  // exact in float: frame 5 == high
  EXPECT_EQ(r.seq.frame_number(), 5.0);
  EXPECT_EQ(r.seq.curr_index(), 0);
  EXPECT_EQ(r.seq.anim_list().size(), 2u);
}

// Runtime 1.4: pos frames are combined as frames are left; a backward node subtracts them.
TEST(AcSequence, PosFramesMoveTheDelta) {
  SeqRig r;
  r.seq.append_animation({0x03000110, 0, -1, 32});  // pos frame (0, 0.02, 0) on every frame
  AFrame delta;
  r.seq.update(3.0 / 32.0, &delta);
  EXPECT_NEAR(delta.origin.y, 0.06f, 1e-6);
  SeqRig b;
  b.seq.append_animation({0x03000110, 0, -1, -32});
  AFrame back;
  b.seq.update(3.0 / 32.0, &back);  // from 5.9998 leaving 5, 4, 3
  EXPECT_NEAR(back.origin.y, -0.06f, 1e-6);
}

// Runtime 1.3: with no nodes, update integrates velocity and omega over dt.
TEST(AcSequence, EmptyListAppliesPhysics) {
  SeqRig r;
  r.seq.velocity = {0, 4, 0};
  r.seq.omega = {0, 0, -1.5f};
  AFrame delta;
  r.seq.update(0.5, &delta);
  EXPECT_FLOAT_EQ(delta.origin.y, 2.0f);
  const Quat expect = axis_angle({0, 0, -1}, 0.75f);
  EXPECT_NEAR(delta.orientation.z, expect.z, 1e-6);
  EXPECT_NEAR(delta.orientation.w, expect.w, 1e-6);
}

// Runtime 1.4: velocity integrates once per frame crossed, quantum 1/fr.
TEST(AcSequence, VelocityIntegratesPerFrameCrossed) {
  SeqRig r;
  r.seq.append_animation({0x03000101, 0, -1, 32});
  r.seq.velocity = {0, 3.2f, 0};
  AFrame delta;
  r.seq.update(4.0 / 32.0, &delta);  // leaves frames 0..3
  EXPECT_NEAR(delta.origin.y, 4 * 3.2f / 32, 1e-6);
}

// Runtime 1.2: remove_cyclic_anims moves curr back to the node before (at its ending frame);
// remove_link_animations moves curr onto first_cyclic at its start.
TEST(AcSequence, RemoveCyclicAndLinkAnimations) {
  SeqRig r;
  r.seq.append_animation({0x03000110, 0, -1, 30});
  r.seq.append_animation({0x03000101, 0, -1, 30});
  r.seq.update(7.0 / 30.0, nullptr);                // onto the cycle
  r.seq.append_animation({0x03000111, 0, -1, 30});  // would be... but the list is [101, 111]
  ASSERT_EQ(r.seq.anim_list().size(), 2u);
  EXPECT_EQ(r.seq.curr_index(), 0);
  r.seq.remove_cyclic_anims();  // removes 111 only (first_cyclic); curr untouched
  EXPECT_EQ(r.seq.anim_list().size(), 1u);
  EXPECT_EQ(r.seq.first_cyclic_index(), 0);
  r.seq.remove_cyclic_anims();  // removes the playing cycle: nothing before it
  EXPECT_TRUE(r.seq.anim_list().empty());
  EXPECT_EQ(r.seq.curr_index(), -1);
  EXPECT_EQ(r.seq.frame_number(), 0.0);

  SeqRig s;
  s.seq.append_animation({0x03000110, 0, -1, 30});
  s.seq.append_animation({0x03000111, 0, -1, 30});
  s.seq.append_animation({0x03000101, 0, -1, 30});
  s.seq.remove_cyclic_anims();  // the list is [110, 111]; first_cyclic = 111 (new tail)
  EXPECT_EQ(s.seq.first_cyclic_index(), 1);
  s.seq.remove_link_animations(5);  // deletes 110 (curr) -> curr := 111 at its start
  ASSERT_EQ(s.seq.anim_list().size(), 1u);
  EXPECT_EQ(s.seq.curr_index(), 0);
  EXPECT_EQ(s.seq.frame_number(), 0.0);
}

// Runtime 1.4 (dt < 0): stepping back past a node's start enters the previous node (or the
// tail) at its ending frame: high + 1 - EPS, or high + 1 with the OpenAC choice.
TEST(AcSequence, EndingFrameChoiceOnBackwardAdvance) {
  for (auto rule : {Choices::EndingFrame::kEpsilon, Choices::EndingFrame::kBare}) {
    SeqRig r;
    r.choices.ending_frame = rule;
    r.seq.append_animation({0x03000110, 0, -1, 32});
    r.seq.append_animation({0x03000101, 0, -1, 32});
    r.seq.update(-0.5 / 32.0, nullptr);  // from frame 0 of the link, back into the cycle's end
    EXPECT_EQ(r.seq.anim_list().size(), 1u);
    EXPECT_EQ(r.seq.anim_list().front().anim_id, 0x03000101u);
    const double end = rule == Choices::EndingFrame::kBare ? 30.0 : 30.0 - double(kEpsilon);
    EXPECT_NEAR(r.seq.frame_number(), end - 0.5, 1e-9);
  }
}

}  // namespace
}  // namespace animkit::asherons_call
