// CMotionInterp, the inbound wire and update_object (motion spec Q1-Q3, Q5;
// asherons-call-runtime.md sections 4 and 5).
#include <gtest/gtest.h>

#include "animkit/asherons_call/wire.h"
#include "fixture.h"

namespace animkit::asherons_call {
namespace {

using test::ObjRig;
using namespace motion;

// Runtime 4 / motion spec constants.
TEST(AcInterp, Constants) {
  EXPECT_EQ(kWalkAnimSpeed, 3.11999989f);
  EXPECT_EQ(kWalkAnimSpeed, 3.12f);
  EXPECT_EQ(kRunAnimSpeed, 4.0f);
  EXPECT_EQ(kSidestepAnimSpeed, 1.25f);
  EXPECT_EQ(kRunTurnFactor, 1.5f);
  EXPECT_EQ(kMaxSidestepAnimRate, 3.0f);
  EXPECT_EQ(kBackwardsFactor, 0.65f);
  EXPECT_EQ(kEpsilon, 0.0002f);
}

TEST(AcInterp, ApplyRunToCommand) {
  ObjRig r;
  r.obj->weenie.has_run_rate = true;
  r.obj->weenie.run_rate = 1.5f;
  CMotionInterp& in = r.obj->interp;
  uint32_t c = kWalkForward;
  float s = 1.0f;
  in.apply_run_to_command(c, s);
  EXPECT_EQ(c, kRunForward);
  EXPECT_EQ(s, 1.5f);
  c = kWalkForward;
  s = -0.65f;  // backwards walking stays WalkForward
  in.apply_run_to_command(c, s);
  EXPECT_EQ(c, kWalkForward);
  EXPECT_EQ(s, -0.65f * 1.5f);
  c = kTurnRight;
  s = 1.0f;
  in.apply_run_to_command(c, s);
  EXPECT_EQ(s, 1.5f);
  c = kSideStepRight;
  s = 2.5f;
  in.apply_run_to_command(c, s);
  EXPECT_EQ(s, 3.0f);  // clamped
  s = -2.5f;
  in.apply_run_to_command(c, s);
  EXPECT_EQ(s, -3.0f);
}

TEST(AcInterp, AdjustMotion) {
  ObjRig r;
  CMotionInterp& in = r.obj->interp;
  uint32_t c = kWalkBackwards;
  float s = 1.0f;
  in.adjust_motion(c, s, HoldKey::kNone);
  EXPECT_EQ(c, kWalkForward);
  EXPECT_EQ(s, -0.65f);
  c = kTurnLeft;
  s = 1.0f;
  in.adjust_motion(c, s, HoldKey::kNone);
  EXPECT_EQ(c, kTurnRight);
  EXPECT_EQ(s, -1.0f);
  c = kSideStepLeft;
  s = 1.0f;
  in.adjust_motion(c, s, HoldKey::kNone);
  EXPECT_EQ(c, kSideStepRight);
  EXPECT_EQ(s, -(0.5f * 3.12f / 1.25f));
  c = kWalkForward;
  s = 1.0f;
  in.adjust_motion(c, s, HoldKey::kRun);
  EXPECT_EQ(c, kRunForward);
}

// Runtime 4: walk 3.12, run 4.0, sidestep x 1.25, capped at 4 x rate.
TEST(AcInterp, StateVelocity) {
  ObjRig r;
  InterpretedMotionState& s = r.obj->interp.interpreted_state;
  s.forward_command = kWalkForward;
  EXPECT_EQ(r.obj->interp.get_state_velocity(), (Vec3{0, 3.12f, 0}));
  s.forward_command = kRunForward;
  s.sidestep_command = kSideStepRight;
  const Vec3 v = r.obj->interp.get_state_velocity();
  EXPECT_NEAR(length(v), 4.0f, 1e-5);
  EXPECT_GT(v.x, 0);
}

// Motion spec Q3: DoInterpretedMotion queues on both queues; AnimationDone at the link's end
// pops the table's entry and, through MotionDone, the interpreter's.
TEST(AcInterp, DoInterpretedMotionAndCompletion) {
  ObjRig r;
  PhysicsObj& o = *r.obj;
  // enter_default_state queued the style and Ready (0 ticks each): the poll pops both.
  EXPECT_EQ(o.interp.pending_motions.size(), 2u);
  o.manager.check_for_completed_motions();
  ASSERT_EQ(o.interp.pending_motions.size(), 0u);
  ASSERT_EQ(o.manager.pending_animations().size(), 0u);
  MovementParameters p;
  EXPECT_EQ(o.interp.DoInterpretedMotion(kWalkForward, p), 0u);
  EXPECT_EQ(o.interp.pending_motions.size(), 1u);
  ASSERT_EQ(o.manager.pending_animations().size(), 1u);
  EXPECT_EQ(o.manager.pending_animations()[0], (PendingAnimation{kWalkForward, 1}));
  EXPECT_EQ(o.interp.interpreted_state.forward_command, kWalkForward);  // ModifyInterpretedState
  o.begin_tick();
  o.update_object(5.0 / 30.0);
  EXPECT_TRUE(o.tick_motion_done.empty());
  o.begin_tick();
  o.update_object(1.5 / 30.0);  // leaves the 6-frame link
  ASSERT_EQ(o.tick_motion_done.size(), 1u);
  EXPECT_EQ(o.tick_motion_done[0].motion, kWalkForward);
  EXPECT_TRUE(o.interp.pending_motions.empty());
  EXPECT_TRUE(o.manager.pending_animations().empty());
}

// Motion spec Q7: StopInterpretedMotion queues Ready on both queues.
TEST(AcInterp, StopInterpretedMotionQueuesReady) {
  ObjRig r;
  PhysicsObj& o = *r.obj;
  MovementParameters p;
  o.interp.DoInterpretedMotion(kWalkForward, p);
  EXPECT_EQ(o.interp.StopInterpretedMotion(kWalkForward, p), 0u);
  EXPECT_EQ(o.interp.pending_motions.back().motion, kReady);
  EXPECT_EQ(o.manager.pending_animations().back().motion, kReady);
  EXPECT_EQ(o.interp.interpreted_state.forward_command, kReady);
  EXPECT_EQ(o.sequence.velocity, Vec3{});
  EXPECT_EQ(o.interp.StopInterpretedMotion(kRunForward, p), kErrMotionFailed);
}

// Runtime 4.1: airborne, a non-action is bookkeeping only; an action is refused (0x24).
TEST(AcInterp, ContactAllowsMove) {
  ObjRig r;
  PhysicsObj& o = *r.obj;
  o.transient_state = 0;
  EXPECT_FALSE(o.interp.contact_allows_move(kWalkForward));
  EXPECT_TRUE(o.interp.contact_allows_move(kTurnRight));
  EXPECT_TRUE(o.interp.contact_allows_move(kFalling));
  MovementParameters p;
  const size_t queued = o.interp.pending_motions.size();
  EXPECT_EQ(o.interp.DoInterpretedMotion(kWalkForward, p), 0u);
  EXPECT_EQ(o.interp.pending_motions.size(), queued);
  EXPECT_EQ(o.interp.interpreted_state.forward_command, kWalkForward);
  EXPECT_EQ(o.manager.state.substate, kReady);
  EXPECT_EQ(o.interp.DoInterpretedMotion(0x1000004Au, p), kErrAirborneAction);
  o.state = 0;  // no gravity
  EXPECT_TRUE(o.interp.contact_allows_move(kWalkForward));
}

TEST(AcInterp, MotionAllowsJumpChoice) {
  Choices fallen, falling;
  falling.jump_block = Choices::JumpBlock::kFalling;
  ObjRig a(humanoid_table(), fallen), b(humanoid_table(), falling);
  EXPECT_EQ(a.obj->interp.motion_allows_jump(kFallen), 0x48u);
  EXPECT_EQ(a.obj->interp.motion_allows_jump(kFalling), 0u);
  EXPECT_EQ(b.obj->interp.motion_allows_jump(kFallen), 0u);
  EXPECT_EQ(b.obj->interp.motion_allows_jump(kFalling), 0x48u);
  EXPECT_EQ(a.obj->interp.motion_allows_jump(kCrouch), 0x48u);
  EXPECT_EQ(a.obj->interp.motion_allows_jump(kWalkForward), 0u);
}

// Runtime 4.2: 15-bit stamps with the wraparound test.
TEST(AcInterp, ActionStampWrap) {
  EXPECT_TRUE(action_stamp_is_newer(5, 4));
  EXPECT_FALSE(action_stamp_is_newer(4, 5));
  EXPECT_FALSE(action_stamp_is_newer(4, 4));
  EXPECT_TRUE(action_stamp_is_newer(0x0002, 0x7FFE));  // across the 15-bit wrap
  EXPECT_FALSE(action_stamp_is_newer(0x7FFE, 0x0002));
  EXPECT_TRUE(action_stamp_is_newer(0x8005, 0x0004));  // bit 15 is not part of the stamp
}

// ---- wire (runtime 5) -----------------------------------------------------------------------

MovementMessage walk_message(uint16_t seq, uint32_t forward, float speed, uint32_t sidestep = 0) {
  MovementMessage m;
  m.guid = 0x50000001;
  m.movement_sequence = seq;
  m.current_style = 0x003D;
  InterpretedMotionState s;
  s.forward_command = forward;
  s.forward_speed = speed;
  s.sidestep_command = sidestep;
  m.state = wire_state_from(s);
  return m;
}

TEST(AcWire, Type0LayoutAndRoundTrip) {
  MovementMessage m = walk_message(7, kRunForward, 1.5f, kSideStepRight);
  const std::vector<uint8_t> bytes = write_movement_message(m);
  // opcode, guid, instance seq, movement seq, server-control seq, autonomous, pad = 16 bytes;
  // type, flags, style = 4; packed u32; style, forward, sidestep u16s; forward speed f32; pad.
  ASSERT_EQ(bytes.size(), 16u + 4 + 4 + 6 + 4 + 2);
  EXPECT_EQ(bytes[0], 0x4C);
  EXPECT_EQ(bytes[1], 0xF7);
  const uint32_t packed = bytes[20] | (bytes[21] << 8);
  EXPECT_EQ(packed, imf::kStyle | imf::kForward | imf::kSidestep | imf::kForwardSpeed);
  EXPECT_EQ(bytes[26], 0x07);  // forward (RunForward low bits) after the style
  EXPECT_EQ(bytes[28], 0x0F);  // sidestep
  EXPECT_EQ(read_movement_message(bytes), m);
  EXPECT_EQ(write_movement_message(read_movement_message(bytes)), bytes);
  const InterpretedMotionState s = interpreted_state_from(m, Choices{});
  EXPECT_EQ(s.forward_command, kRunForward);
  EXPECT_EQ(s.sidestep_command, kSideStepRight);
  EXPECT_EQ(s.forward_speed, 1.5f);
  EXPECT_EQ(s.turn_command, 0u);
  EXPECT_EQ(s.current_style, kNonCombat);
}

TEST(AcWire, ActionPadChoice) {
  MovementMessage m = walk_message(1, kWalkForward, 1.0f);
  m.state.flags = imf::kForward;  // one u16 field: the actions end off the 4-byte grid
  m.state.actions.push_back({0x004C, 0x0003, 1.0f});
  m.motion_flags = 0x01;
  m.sticky_object = 0x50000002;
  Choices none;
  none.action_pad = Choices::ActionPad::kNone;
  const std::vector<uint8_t> padded = write_movement_message(m);
  const std::vector<uint8_t> tight = write_movement_message(m, none);
  EXPECT_EQ(padded.size(), tight.size() + 2);
  EXPECT_EQ(read_movement_message(padded).sticky_object, 0x50000002u);
  EXPECT_EQ(read_movement_message(tight, none).sticky_object, 0x50000002u);
}

TEST(AcWire, AbsentStyleChoice) {
  MovementMessage m = walk_message(1, kWalkForward, 1.0f);
  m.state.flags &= ~imf::kStyle;
  m.current_style = 0x003E;
  Choices noncombat;
  noncombat.absent_style = Choices::AbsentStyle::kNonCombat;
  EXPECT_EQ(interpreted_state_from(m, Choices{}).current_style, 0x8000003Eu);
  EXPECT_EQ(interpreted_state_from(m, noncombat).current_style, kNonCombat);
}

TEST(AcWire, MoveToTypesRoundTripAndRecord) {
  for (uint8_t type : {6, 7, 8, 9}) {
    MovementMessage m;
    m.movement_type = type;
    m.move_to.type = type;
    m.move_to.target = type == 6 || type == 8 ? 0x50000009u : 0u;
    if (type <= 7) {
      m.move_to.cell = 0xA9B40021;
      m.move_to.origin = {1, 2, 3};
      m.move_to.params = {0.5f, 0, 10, 1, 15, 90};
      m.move_to.run_rate = 2.25f;
    } else {
      m.move_to.params = {90, 1, 45};
      if (type == 9) m.move_to.params = {1, 45};
    }
    m.move_to.params_flags = 0x1EE0F;
    m.movement_sequence = 1;
    const std::vector<uint8_t> bytes = write_movement_message(m);
    const MovementMessage back = read_movement_message(bytes);
    EXPECT_EQ(back, m) << int(type);
    ObjRig r;
    EXPECT_EQ(dispatch_movement(*r.obj, back), WireResult::kApplied);
    ASSERT_EQ(r.obj->move_to.size(), 1u);
    if (type <= 7) {
      EXPECT_EQ(r.obj->interp.my_run_rate, 2.25f);
    }
  }
}

TEST(AcWire, BadMessagesAreErrors) {
  const std::vector<uint8_t> bytes = write_movement_message(walk_message(1, kWalkForward, 2.0f));
  for (size_t cut = 0; cut < bytes.size(); ++cut) {
    const std::vector<uint8_t> part(bytes.begin(), bytes.begin() + static_cast<long>(cut));
    EXPECT_THROW(read_movement_message(part), Error) << cut;
  }
  std::vector<uint8_t> bad = bytes;
  bad[16] = 12;  // movement type
  EXPECT_THROW(read_movement_message(bad), Error);
  bad = bytes;
  bad[0] = 0x00;
  EXPECT_THROW(read_movement_message(bad), Error);
}

// Motion spec Q1: 16-bit wraparound.
TEST(AcWire, IsNewerWraps) {
  EXPECT_TRUE(is_newer(1, 2));
  EXPECT_FALSE(is_newer(2, 1));
  EXPECT_FALSE(is_newer(5, 5));
  EXPECT_TRUE(is_newer(0xFFFF, 0x0001));
  EXPECT_FALSE(is_newer(0x0001, 0xFFFF));
  EXPECT_TRUE(is_newer(0xFFF0, 0x0010));
}

// Motion spec Q1: stale movement sequences are dropped across the 16-bit wrap.
TEST(AcWire, StaleSequencesDroppedAcrossTheWrap) {
  ObjRig r;
  PhysicsObj& o = *r.obj;
  o.update_times[1] = 0xFFFE;
  EXPECT_EQ(dispatch_movement(o, walk_message(0x0002, kWalkForward, 1.0f)), WireResult::kApplied);
  EXPECT_EQ(o.manager.state.substate, kWalkForward);
  EXPECT_EQ(dispatch_movement(o, walk_message(0xFFFF, kRunForward, 1.0f)),
            WireResult::kStaleMovement);
  EXPECT_EQ(dispatch_movement(o, walk_message(0x0002, kRunForward, 1.0f)),
            WireResult::kStaleMovement);
  EXPECT_EQ(o.manager.state.substate, kWalkForward);
  // the server-control gate: an older value is stale, the same value passes.
  MovementMessage m = walk_message(0x0003, kRunForward, 1.0f);
  o.update_times[5] = 0x0001;
  m.server_control_sequence = 0xFFFF;
  EXPECT_EQ(dispatch_movement(o, m), WireResult::kStaleServerControl);
  m.movement_sequence = 0x0004;
  m.server_control_sequence = 0x0001;
  EXPECT_EQ(dispatch_movement(o, m), WireResult::kApplied);
  EXPECT_EQ(o.manager.state.substate, kRunForward);
  // 0xF74C: an older instance is stale; 0xF619 does not look at it.
  o.update_times[8] = 0x0005;
  m.movement_sequence = 0x0005;
  m.instance_sequence = 0x0004;
  EXPECT_EQ(dispatch_movement(o, m), WireResult::kStaleInstance);
  m.opcode = kOpPositionAndMovement;
  EXPECT_EQ(dispatch_movement(o, m), WireResult::kApplied);
}

// Motion spec Q1: the local player's own autonomous echo is not unpacked.
TEST(AcWire, AutonomousPlayerEchoIgnored) {
  ObjRig r;
  r.obj->weenie.player = true;
  MovementMessage m = walk_message(1, kWalkForward, 1.0f);
  m.autonomous = 1;
  EXPECT_EQ(dispatch_movement(*r.obj, m), WireResult::kIgnoredAutonomousPlayer);
  m.movement_sequence = 2;
  m.autonomous = 0;
  EXPECT_EQ(dispatch_movement(*r.obj, m), WireResult::kAppliedPlayer);
}

// Motion spec Q1/Q2: a wire walk -> run is one DoInterpretedMotion per axis; the sidestep
// rides on the run as a modifier.
TEST(AcWire, WalkToRunByWire) {
  ObjRig r;
  PhysicsObj& o = *r.obj;
  dispatch_movement(o, walk_message(1, kWalkForward, 1.0f));
  EXPECT_EQ(o.manager.state.substate, kWalkForward);
  dispatch_movement(o, walk_message(2, kRunForward, 1.0f, kSideStepRight));
  EXPECT_EQ(o.manager.state.substate, kRunForward);
  ASSERT_EQ(o.manager.state.modifiers.size(), 1u);
  EXPECT_EQ(o.sequence.velocity, (Vec3{1.25f, 4.0f, 0}));
  EXPECT_EQ(o.interp.my_run_rate, 1.0f);
  dispatch_movement(o, walk_message(3, kRunForward, 1.0f));
  EXPECT_TRUE(o.manager.state.modifiers.empty());
  EXPECT_EQ(o.sequence.velocity, (Vec3{0, 4.0f, 0}));
}

// Runtime 4.2: the action replay runs only newer stamps.
TEST(AcWire, ActionReplay) {
  MotionTable t = humanoid_table();
  t.links[0].targets.push_back({0x1300004Cu, motion_data(0x03000114)});
  ObjRig r(t);
  PhysicsObj& o = *r.obj;
  MovementMessage m = walk_message(1, kReady, 1.0f);
  m.state.actions.push_back({0x004C, 0x0005, 1.0f});
  dispatch_movement(o, m);
  EXPECT_EQ(o.interp.server_action_stamp, 5);
  EXPECT_EQ(o.manager.state.actions.size(), 1u);
  m.movement_sequence = 2;
  m.state.actions[0].stamp_word = 0x0004;  // older: skipped
  dispatch_movement(o, m);
  EXPECT_EQ(o.interp.server_action_stamp, 5);
  EXPECT_EQ(o.manager.state.actions.size(), 1u);
}

// Motion spec Q5: dt below EPS is skipped (and carried); 2 s or more is sliced into 1 s steps.
TEST(AcUpdate, DtSlicing) {
  ObjRig r;
  PhysicsObj& o = *r.obj;
  o.begin_tick();
  o.update_object(0.0001);
  EXPECT_EQ(o.tick_slices, 0);
  o.update_object(0.00015);  // 0.00025 in all
  EXPECT_EQ(o.tick_slices, 1);
  o.begin_tick();
  o.update_object(1.9);
  EXPECT_EQ(o.tick_slices, 1);
  o.begin_tick();
  o.update_object(2.0);  // 1 s, then the remaining 1 s
  EXPECT_EQ(o.tick_slices, 2);
  o.begin_tick();
  o.update_object(3.5);  // 1, 1, then 1.5
  EXPECT_EQ(o.tick_slices, 3);
  // the slices add up: 0.00025 + 1.9 + 2 + 3.5 s of a 30 Hz, 10-frame Ready cycle is
  // 222.0075 frames, 2.0075 past the last wrap.
  EXPECT_NEAR(o.sequence.frame_number(), 2.0075, 1e-3);
}

}  // namespace
}  // namespace animkit::asherons_call
