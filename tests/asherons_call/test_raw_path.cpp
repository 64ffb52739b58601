// The local player's raw input path and the interpreter's velocity figures
// (asherons-call-runtime.md sections 4, 4.1, 4.2, 3; issue 13 item 4).
#include <gtest/gtest.h>

#include <cmath>

#include "animkit/asherons_call/player.h"
#include "fixture.h"

namespace animkit::asherons_call {
namespace {

using test::ObjRig;
using namespace motion;

// The rig after the default state's queue entries completed (one poll).
struct Raw : ObjRig {
  CMotionInterp& in = obj->interp;
  Raw() { obj->manager.check_for_completed_motions(); }
  std::vector<uint32_t> anims() const {
    std::vector<uint32_t> out;
    for (const AnimSequenceNode& n : obj->sequence.anim_list()) out.push_back(n.anim_id);
    return out;
  }
};

// The local player: no weenie answers for it, its own moves are autonomous (runtime 4.2).
void make_local_player(PhysicsObj& o) {
  o.weenie.player = true;
  o.last_move_was_autonomous = true;
}

// Runtime 4.1: MovementParameters defaults 0x1EE0F, speed 1.0, hold key Invalid.
TEST(AcRawPath, MovementParametersDefaults) {
  const MovementParameters p;
  EXPECT_EQ(p.flags, 0x1EE0Fu);
  EXPECT_TRUE(p.has(mp::kSetHoldKey));
  EXPECT_TRUE(p.has(mp::kModifyRawState));
  EXPECT_TRUE(p.has(mp::kModifyInterpretedState));
  EXPECT_TRUE(p.has(mp::kCancelMoveTo));
  EXPECT_FALSE(p.has(mp::kAutonomous));
  EXPECT_FALSE(p.has(mp::kDisableJumpDuringLink));
  EXPECT_EQ(p.speed, 1.0f);
  EXPECT_EQ(p.hold_key, HoldKey::kInvalid);
  EXPECT_EQ(RawMotionState{}.current_holdkey, HoldKey::kNone);  // enter_default_state
}

// Issue 13: DoMotion's default SetHoldKey(Invalid) keeps a held Run, so WalkForward with Run
// held becomes RunForward at speed x rate (runtime 4, apply_run_to_command).
TEST(AcRawPath, DoMotionWalkWithRunHeldRuns) {
  Raw r;
  r.obj->weenie.has_run_rate = true;
  r.obj->weenie.run_rate = 1.5f;
  r.in.SetHoldKey(HoldKey::kRun, false);
  ASSERT_EQ(r.in.raw_state.current_holdkey, HoldKey::kRun);
  const uint32_t cancels = r.obj->move_to_cancels;
  EXPECT_EQ(r.in.DoMotion(kWalkForward, MovementParameters{}), 0u);
  EXPECT_EQ(r.in.raw_state.current_holdkey, HoldKey::kRun);  // Invalid is no change
  EXPECT_EQ(r.in.interpreted_state.forward_command, kRunForward);
  EXPECT_EQ(r.in.interpreted_state.forward_speed, 1.5f);
  EXPECT_EQ(r.obj->manager.state.substate, kRunForward);
  EXPECT_EQ(r.obj->manager.state.substate_mod, 1.5f);
  // The raw state stores the original command and speed (it never stores RunForward).
  EXPECT_EQ(r.in.raw_state.forward_command, kWalkForward);
  EXPECT_EQ(r.in.raw_state.forward_speed, 1.0f);
  EXPECT_EQ(r.obj->move_to_cancels, cancels + 1);  // CancelMoveTo is in the defaults
  // Held None: walking stays walking.
  MovementParameters none;
  none.hold_key = HoldKey::kNone;
  EXPECT_EQ(r.in.DoMotion(kWalkForward, none), 0u);
  EXPECT_EQ(r.in.raw_state.current_holdkey, HoldKey::kNone);
  EXPECT_EQ(r.in.interpreted_state.forward_command, kWalkForward);
  EXPECT_EQ(r.in.interpreted_state.forward_speed, 1.0f);
}

// Issue 13: a changed hold key re-applies the current movement (the raw path for the local
// player); Invalid and the same key do nothing.
TEST(AcRawPath, ChangedHoldKeyReappliesMovement) {
  Raw r;
  make_local_player(*r.obj);
  // Default parameters: the raw state keeps the forward hold key Invalid (= the current one).
  ASSERT_EQ(r.in.DoMotion(kWalkForward, MovementParameters{}), 0u);
  ASSERT_EQ(r.in.raw_state.forward_holdkey, HoldKey::kInvalid);
  ASSERT_EQ(r.obj->manager.state.substate, kWalkForward);
  r.in.SetHoldKey(HoldKey::kRun, false);
  EXPECT_EQ(r.in.raw_state.current_holdkey, HoldKey::kRun);
  EXPECT_EQ(r.in.interpreted_state.forward_command, kRunForward);
  EXPECT_EQ(r.obj->manager.state.substate, kRunForward);
  const size_t pending = r.in.pending_motions.size();
  r.in.SetHoldKey(HoldKey::kInvalid, false);
  r.in.SetHoldKey(HoldKey::kRun, false);
  EXPECT_EQ(r.in.pending_motions.size(), pending);  // nothing re-applied
  EXPECT_EQ(r.in.raw_state.current_holdkey, HoldKey::kRun);
  r.in.SetHoldKey(HoldKey::kNone, false);
  EXPECT_EQ(r.in.interpreted_state.forward_command, kWalkForward);
  EXPECT_EQ(r.obj->manager.state.substate, kWalkForward);
}

// Runtime 4.1: the style gates and the action cap, checked on the original command.
TEST(AcRawPath, DoMotionGates) {
  Raw r;
  EXPECT_EQ(CMotionInterp(nullptr, nullptr).DoMotion(kWalkForward, {}), kErrNoPhysics);
  EXPECT_EQ(CMotionInterp(nullptr, nullptr).StopMotion(kWalkForward, {}), kErrNoPhysics);
  EXPECT_EQ(CMotionInterp(nullptr, nullptr).StopCompletely(), kErrNoPhysics);
  r.in.interpreted_state.current_style = 0x8000003Eu;  // SwordCombat
  EXPECT_EQ(r.in.DoMotion(kCrouch, {}), 0x3Fu);
  EXPECT_EQ(r.in.DoMotion(kSitting, {}), 0x40u);
  EXPECT_EQ(r.in.DoMotion(kSleeping, {}), 0x41u);
  EXPECT_EQ(r.in.DoMotion(0x13000087u, {}), 0x42u);  // Wave: the chat-emote bit 0x02000000
  r.in.interpreted_state.current_style = kNonCombat;
  for (int i = 0; i < 6; ++i) r.in.interpreted_state.actions.push_back({0x1000004Au, 1, 0, false});
  EXPECT_EQ(r.in.DoMotion(0x1000004Au, {}), 0x45u);  // Hop with 6 queued actions
}

// Runtime 4.1: StopMotion mirrors DoMotion; the raw state removes the original command.
TEST(AcRawPath, StopMotionRemovesTheOriginal) {
  Raw r;
  MovementParameters none;
  none.hold_key = HoldKey::kNone;
  ASSERT_EQ(r.in.DoMotion(kWalkBackwards, none), 0u);
  EXPECT_EQ(r.in.raw_state.forward_command, kWalkBackwards);
  EXPECT_EQ(r.in.interpreted_state.forward_command, kWalkForward);
  EXPECT_EQ(r.in.interpreted_state.forward_speed, -0.65f);
  EXPECT_EQ(r.obj->manager.state.substate_mod, -0.65f);
  const size_t pending = r.in.pending_motions.size();
  EXPECT_EQ(r.in.StopMotion(kWalkBackwards, none), 0u);
  EXPECT_EQ(r.in.raw_state.forward_command, kReady);
  EXPECT_EQ(r.in.interpreted_state.forward_command, kReady);
  EXPECT_EQ(r.obj->manager.state.substate, kReady);
  ASSERT_EQ(r.in.pending_motions.size(), pending + 1);
  EXPECT_EQ(r.in.pending_motions.back().motion, kReady);
}

// Runtime 4.2: apply_raw_movement copies raw -> interpreted and adjusts each axis with its own
// hold key (Invalid: the current one).
TEST(AcRawPath, ApplyRawMovementAdjustsEachAxis) {
  Raw r;
  r.obj->weenie.has_run_rate = true;
  r.obj->weenie.run_rate = 2.0f;
  RawMotionState& raw = r.in.raw_state;
  raw.current_holdkey = HoldKey::kNone;
  raw.forward_command = kWalkBackwards;
  raw.forward_speed = 1.0f;
  raw.forward_holdkey = HoldKey::kRun;
  raw.sidestep_command = kSideStepLeft;
  raw.sidestep_speed = 1.0f;
  raw.sidestep_holdkey = HoldKey::kInvalid;  // -> current (None)
  raw.turn_command = kTurnLeft;
  raw.turn_speed = 1.0f;
  raw.turn_holdkey = HoldKey::kRun;
  r.in.apply_raw_movement(false, true);
  const InterpretedMotionState& s = r.in.interpreted_state;
  EXPECT_EQ(s.current_style, kNonCombat);
  // WalkBackwards -> WalkForward x (-0.65); Run with a negative speed stays WalkForward, x rate.
  EXPECT_EQ(s.forward_command, kWalkForward);
  EXPECT_FLOAT_EQ(s.forward_speed, -0.65f * 2.0f);
  // SideStepLeft -> SideStepRight x (-1), then x 0.5 x 3.12 / 1.25 = 1.248; no run.
  EXPECT_EQ(s.sidestep_command, kSideStepRight);
  EXPECT_FLOAT_EQ(s.sidestep_speed, -1.248f);
  // TurnLeft -> TurnRight x (-1), Run: x 1.5.
  EXPECT_EQ(s.turn_command, kTurnRight);
  EXPECT_FLOAT_EQ(s.turn_speed, -1.5f);
  // The raw state is untouched.
  EXPECT_EQ(raw.forward_command, kWalkBackwards);
  EXPECT_EQ(raw.sidestep_command, kSideStepLeft);
  // Per-axis Invalid takes the current hold key: Run makes the walk a run.
  raw.forward_command = kWalkForward;
  raw.forward_holdkey = HoldKey::kInvalid;
  raw.current_holdkey = HoldKey::kRun;
  raw.sidestep_command = 0;
  raw.turn_command = 0;
  r.in.apply_raw_movement(false, true);
  EXPECT_EQ(s.forward_command, kRunForward);
  EXPECT_EQ(s.forward_speed, 2.0f);
  EXPECT_EQ(r.obj->manager.state.substate, kRunForward);
}

// Runtime 4.2: StopCompletely takes the jump code before the reset, zeroes sidestep and turn
// (their speeds kept) and queues Ready with that code.
TEST(AcRawPath, StopCompletely) {
  Raw r;
  InterpretedMotionState& s = r.in.interpreted_state;
  s.forward_command = kCrouch;  // motion_allows_jump -> 0x48
  s.forward_speed = 0.5f;
  s.sidestep_command = kSideStepRight;
  s.sidestep_speed = 0.7f;
  s.turn_command = kTurnRight;
  s.turn_speed = 0.3f;
  r.in.raw_state.forward_command = kWalkForward;
  r.in.raw_state.forward_speed = 0.9f;
  r.in.raw_state.turn_command = kTurnLeft;
  r.in.raw_state.turn_speed = 0.4f;
  const uint32_t cancels = r.obj->move_to_cancels;
  EXPECT_EQ(r.in.StopCompletely(), 0u);
  EXPECT_EQ(r.obj->move_to_cancels, cancels + 1);
  EXPECT_EQ(s.forward_command, kReady);
  EXPECT_EQ(s.forward_speed, 1.0f);
  EXPECT_EQ(s.sidestep_command, 0u);
  EXPECT_EQ(s.turn_command, 0u);
  EXPECT_EQ(s.sidestep_speed, 0.7f);
  EXPECT_EQ(s.turn_speed, 0.3f);
  EXPECT_EQ(r.in.raw_state.forward_command, kReady);
  EXPECT_EQ(r.in.raw_state.forward_speed, 1.0f);
  EXPECT_EQ(r.in.raw_state.turn_command, 0u);
  EXPECT_EQ(r.in.raw_state.turn_speed, 0.4f);
  ASSERT_FALSE(r.in.pending_motions.empty());
  EXPECT_EQ(r.in.pending_motions.back(), (PendingMotion{0, kReady, kErrJumpBlocked}));
  EXPECT_EQ(r.obj->manager.pending_animations().back().motion, kReady);  // table: add Ready
}

// Runtime 4.2: LeaveGround / HitGround guards, the launch velocity, link removal, re-apply.
TEST(AcRawPath, LeaveGroundAndHitGround) {
  {
    Raw r;
    ASSERT_EQ(r.in.DoInterpretedMotion(kWalkForward, {}), 0u);
    const size_t pending = r.in.pending_motions.size();
    r.obj->weenie.creature = false;  // a non-creature weenie: nothing happens
    r.in.jump_extent = 0.5f;
    r.in.LeaveGround();
    r.in.HitGround();
    EXPECT_EQ(r.in.jump_extent, 0.5f);
    EXPECT_EQ(r.in.pending_motions.size(), pending);
    r.obj->weenie.creature = true;
    r.obj->state = 0;  // no Gravity: nothing happens
    r.in.LeaveGround();
    EXPECT_EQ(r.in.jump_extent, 0.5f);
    EXPECT_EQ(r.anims().size(), 2u);  // the Ready -> Walk link is still there
  }
  {
    Raw r;
    r.obj->weenie.present = false;  // no weenie: jump vz 10
    ASSERT_EQ(r.in.DoInterpretedMotion(kWalkForward, {}), 0u);
    ASSERT_EQ(r.anims(), (std::vector<uint32_t>{0x03000110u, 0x03000101u}));
    r.obj->begin_tick();
    r.in.jump_extent = 0.5f;
    r.in.standing_longjump = true;
    r.in.LeaveGround();
    EXPECT_EQ(r.obj->local_velocity, (Vec3{0, 3.12f, 10.0f}));
    EXPECT_EQ(r.in.jump_extent, 0.0f);
    EXPECT_FALSE(r.in.standing_longjump);
    // RemoveLinkAnimations: the link is gone and its queue entry completed unsuccessfully.
    EXPECT_EQ(r.anims(), (std::vector<uint32_t>{0x03000101u}));
    ASSERT_FALSE(r.obj->tick_motion_done.empty());
    EXPECT_EQ(r.obj->tick_motion_done[0].motion, kWalkForward);
    EXPECT_FALSE(r.obj->tick_motion_done[0].success);
    // Standing, extent 0: every component is zero, so the current velocity is kept.
    r.in.interpreted_state.forward_command = kReady;
    r.in.LeaveGround();
    EXPECT_EQ(r.obj->local_velocity, (Vec3{0, 3.12f, 10.0f}));
    // Extent 0 while walking: vz 0.
    r.in.interpreted_state.forward_command = kWalkForward;
    r.in.LeaveGround();
    EXPECT_EQ(r.obj->local_velocity, (Vec3{0, 3.12f, 0}));
  }
  {
    Raw r;
    ASSERT_EQ(r.in.DoInterpretedMotion(kWalkForward, {}), 0u);
    r.obj->begin_tick();
    r.in.HitGround();
    EXPECT_EQ(r.anims(), (std::vector<uint32_t>{0x03000101u}));
    ASSERT_FALSE(r.obj->tick_motion_done.empty());
    EXPECT_FALSE(r.obj->tick_motion_done[0].success);
    EXPECT_EQ(r.obj->manager.state.substate, kWalkForward);  // re-applied, still walking
  }
}

// Runtime 4: get_state_velocity caps at 4 x rate, the weenie's rate else my_run_rate (issue 13:
// also with no weenie).
TEST(AcRawPath, StateVelocityUsesMyRunRateWithoutWeenie) {
  Raw r;
  InterpretedMotionState& s = r.in.interpreted_state;
  r.obj->weenie.present = false;
  r.in.my_run_rate = 0.5f;
  s.forward_command = kRunForward;
  s.forward_speed = 1.0f;
  EXPECT_EQ(r.in.get_state_velocity(), (Vec3{0, 2.0f, 0}));  // 4.0 capped at 4 x 0.5
  s.forward_command = kWalkForward;
  s.forward_speed = 0.5f;
  EXPECT_EQ(r.in.get_state_velocity(), (Vec3{0, 1.56f, 0}));  // 3.12 x 0.5, under the cap
  s.sidestep_command = kSideStepRight;
  s.sidestep_speed = 2.0f;
  const Vec3 capped = r.in.get_state_velocity();  // (2.5, 1.56) scaled to length 2
  const float len = std::sqrt(2.5f * 2.5f + 1.56f * 1.56f);
  EXPECT_NEAR(capped.x, 2.5f * 2.0f / len, 1e-6);
  EXPECT_NEAR(capped.y, 1.56f * 2.0f / len, 1e-6);
  EXPECT_NEAR(length(capped), 2.0f, 1e-6);
  r.obj->weenie.present = true;
  r.obj->weenie.has_run_rate = true;
  r.obj->weenie.run_rate = 2.0f;
  EXPECT_EQ(r.in.get_state_velocity(), (Vec3{2.5f, 1.56f, 0}));  // cap 8
  s.sidestep_command = 0;
  s.forward_command = kReady;
  EXPECT_EQ(r.in.get_state_velocity(), (Vec3{0, 0, 0}));
}

// Runtime 4: get_max_speed = 4 x rate (apply_run_to_command's rate); get_adjusted_max_speed =
// 4 x forward_speed / current_speed_factor when running.
TEST(AcRawPath, MaxSpeeds) {
  Raw r;
  r.in.my_run_rate = 0.5f;
  r.obj->weenie.present = false;
  EXPECT_EQ(r.in.get_max_speed(), 4.0f);  // no weenie: rate 1.0
  r.obj->weenie.present = true;
  EXPECT_EQ(r.in.get_max_speed(), 2.0f);  // a weenie with no run rate: my_run_rate
  r.obj->weenie.has_run_rate = true;
  r.obj->weenie.run_rate = 1.75f;
  EXPECT_EQ(r.in.get_max_speed(), 7.0f);
  InterpretedMotionState& s = r.in.interpreted_state;
  s.forward_command = kWalkForward;
  s.forward_speed = 1.5f;
  EXPECT_EQ(r.in.get_adjusted_max_speed(), 7.0f);  // not running: get_max_speed
  s.forward_command = kRunForward;
  EXPECT_EQ(r.in.get_adjusted_max_speed(), 6.0f);
  r.in.current_speed_factor = 2.0f;
  EXPECT_EQ(r.in.get_adjusted_max_speed(), 3.0f);
}

// Runtime 3: HandleExitWorld only drains (AnimationDone(false) until empty); HandleEnterWorld
// also removes the link animations.
TEST(AcRawPath, HandleExitWorldDrainsOnly) {
  Raw r;
  ASSERT_EQ(r.in.DoInterpretedMotion(kWalkForward, {}), 0u);
  r.obj->begin_tick();
  r.obj->manager.handle_exit_world();
  EXPECT_TRUE(r.obj->manager.pending_animations().empty());
  EXPECT_EQ(r.obj->manager.animation_counter(), 0u);
  ASSERT_EQ(r.obj->tick_motion_done.size(), 1u);
  EXPECT_EQ(r.obj->tick_motion_done[0].motion, kWalkForward);
  EXPECT_FALSE(r.obj->tick_motion_done[0].success);
  EXPECT_TRUE(r.in.pending_motions.empty());  // MotionDone popped the interpreter's entry
  EXPECT_EQ(r.anims(), (std::vector<uint32_t>{0x03000110u, 0x03000101u}));  // link kept
}

// Issue 13: the velocity figures are in the trace.
TEST(AcRawPath, TraceCarriesVelocityFigures) {
  Raw r;
  ASSERT_EQ(r.in.DoInterpretedMotion(kWalkForward, {}), 0u);
  const Json j = trace_json(*r.obj, 0, 0.0, {});
  const Json& sp = j.at("speeds");
  EXPECT_EQ(sp.at("state_velocity")[1].get<float>(), 3.12f);
  EXPECT_EQ(sp.at("max_speed").get<float>(), 4.0f);
  EXPECT_EQ(sp.at("adjusted_max_speed").get<float>(), 4.0f);
  EXPECT_EQ(sp.at("my_run_rate").get<float>(), 1.0f);
  const std::string text = trace_text(*r.obj, 0, 0.0, {});
  EXPECT_NE(text.find("state v (0.000, 3.120, 0.000) max 4.000 adjusted 4.000"), std::string::npos)
      << text;
}

}  // namespace
}  // namespace animkit::asherons_call
