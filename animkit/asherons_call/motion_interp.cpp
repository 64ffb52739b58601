#include "animkit/asherons_call/motion_interp.h"

#include <algorithm>
#include <cmath>

#include "animkit/asherons_call/command_ids.h"
#include "animkit/asherons_call/frame_ops.h"
#include "animkit/asherons_call/physics_obj.h"

namespace animkit::asherons_call {

using namespace motion;

bool action_stamp_is_newer(uint16_t stamp, uint16_t server_stamp) {
  const int a = stamp & 0x7FFF, s = server_stamp & 0x7FFF;
  const int diff = a > s ? a - s : s - a;
  return diff <= 0x3FFF ? s < a : a < s;
}

// ---- the states' bookkeeping (our reading of ApplyMotion / RemoveMotion) ----------------------

void InterpretedMotionState::copy_movement_from(const InterpretedMotionState& o) {
  current_style = o.current_style;
  forward_command = o.forward_command;
  forward_speed = o.forward_speed;
  sidestep_command = o.sidestep_command;
  sidestep_speed = o.sidestep_speed;
  turn_command = o.turn_command;
  turn_speed = o.turn_speed;
}

void InterpretedMotionState::apply_motion(uint32_t m, const MovementParameters& p) {
  if (m == kTurnRight) {
    turn_command = m;
    turn_speed = p.speed;
  } else if (m == kSideStepRight) {
    sidestep_command = m;
    sidestep_speed = p.speed;
  } else if (m & kStyleBit) {
    if (current_style != m) {
      forward_command = kReady;
      current_style = m;
    }
  } else if (m & kSubStateBit) {
    forward_command = m;
    forward_speed = p.speed;
  } else if (m & kActionBit) {
    actions.push_back(
        {m, p.speed, static_cast<uint16_t>(p.action_stamp & 0x7FFF), p.has(mp::kAutonomous)});
  }
}

void InterpretedMotionState::remove_motion(uint32_t m) {
  if (m == turn_command || m == kTurnRight) {
    if (m == turn_command) turn_command = 0;
  }
  if (m == sidestep_command) sidestep_command = 0;
  if (m == forward_command && (m & kSubStateBit)) {
    forward_command = kReady;
    forward_speed = 1.0f;
  }
}

void RawMotionState::apply_motion(uint32_t m, const MovementParameters& p) {
  if (m == kRunForward) return;  // runtime 4.1: the raw state never stores RunForward
  if (m == kTurnRight || m == kTurnLeft) {
    turn_command = m;
    turn_speed = p.speed;
    turn_holdkey = p.hold_key;
  } else if (m == kSideStepRight || m == kSideStepLeft) {
    sidestep_command = m;
    sidestep_speed = p.speed;
    sidestep_holdkey = p.hold_key;
  } else if (m & kStyleBit) {
    if (current_style != m) {
      forward_command = kReady;
      current_style = m;
    }
  } else if (m & kSubStateBit) {
    forward_command = m;
    forward_speed = p.speed;
    forward_holdkey = p.hold_key;
  } else if (m & kActionBit) {
    actions.push_back(
        {m, p.speed, static_cast<uint16_t>(p.action_stamp & 0x7FFF), p.has(mp::kAutonomous)});
  }
}

void RawMotionState::remove_motion(uint32_t m) {
  if (m == turn_command) turn_command = 0;
  if (m == sidestep_command) sidestep_command = 0;
  if (m == forward_command && (m & kSubStateBit)) {
    forward_command = kReady;
    forward_speed = 1.0f;
  }
}

// ---- rules (runtime 4) ------------------------------------------------------------------------

bool CMotionInterp::contact_allows_move(uint32_t m) const {
  if (!physics_obj_) return false;
  if (m == kDead || m == kFalling || m == kTurnRight || m == kTurnLeft) return true;
  const Weenie& w = physics_obj_->weenie;
  if (w.present && !w.creature) return true;
  if (!(physics_obj_->state & kGravityState)) return true;
  const uint32_t need = kContactTransient | kOnWalkableTransient;
  return (physics_obj_->transient_state & need) == need;
}

uint32_t CMotionInterp::motion_allows_jump(uint32_t m) const {
  const bool in = (m >= 0x40000016u && m <= 0x40000018u) ||
                  (m >= 0x1000006Fu && m <= 0x10000078u) ||
                  (m >= 0x10000128u && m <= 0x10000131u) ||
                  (m >= 0x41000012u && m <= 0x41000014u) || (m >= 0x4000001Eu && m <= 0x40000039u);
  const uint32_t special =
      (choices_ && choices_->jump_block == Choices::JumpBlock::kFalling) ? kFalling : kFallen;
  return (in || m == special) ? kErrJumpBlocked : 0u;
}

float CMotionInterp::run_rate() const {
  if (!physics_obj_ || !physics_obj_->weenie.present) return 1.0f;
  return physics_obj_->weenie.has_run_rate ? physics_obj_->weenie.run_rate : my_run_rate;
}

float CMotionInterp::state_velocity_rate() const {
  if (physics_obj_ && physics_obj_->weenie.present && physics_obj_->weenie.has_run_rate)
    return physics_obj_->weenie.run_rate;
  return my_run_rate;
}

void CMotionInterp::apply_run_to_command(uint32_t& command, float& speed) const {
  const float rate = run_rate();
  if (command == kWalkForward) {
    if (speed > 0) command = kRunForward;
    speed *= rate;
  } else if (command == kTurnRight) {
    speed *= kRunTurnFactor;
  } else if (command == kSideStepRight) {
    speed *= rate;
    if (std::fabs(speed) > kMaxSidestepAnimRate)
      speed = speed < 0 ? -kMaxSidestepAnimRate : kMaxSidestepAnimRate;
  }
}

void CMotionInterp::adjust_motion(uint32_t& command, float& speed, HoldKey hold) const {
  if (physics_obj_ && physics_obj_->weenie.present && !physics_obj_->weenie.creature) return;
  if (command == kRunForward) return;
  if (command == kWalkBackwards) {
    command = kWalkForward;
    speed *= -kBackwardsFactor;
  } else if (command == kTurnLeft) {
    command = kTurnRight;
    speed *= -1.0f;
  } else if (command == kSideStepLeft) {
    command = kSideStepRight;
    speed *= -1.0f;
  }
  if (command == kSideStepRight) speed *= kSidestepFactor * kWalkAnimSpeed / kSidestepAnimSpeed;
  if (hold == HoldKey::kInvalid) hold = raw_state.current_holdkey;
  if (hold == HoldKey::kRun) apply_run_to_command(command, speed);
}

Vec3 CMotionInterp::get_state_velocity() const {
  Vec3 v{};
  if (interpreted_state.sidestep_command == kSideStepRight) {
    v.x = kSidestepAnimSpeed * interpreted_state.sidestep_speed;
  }
  if (interpreted_state.forward_command == kWalkForward) {
    v.y = kWalkAnimSpeed * interpreted_state.forward_speed;
  } else if (interpreted_state.forward_command == kRunForward) {
    v.y = kRunAnimSpeed * interpreted_state.forward_speed;
  }
  const float max = kRunAnimSpeed * state_velocity_rate();  // runtime 4: my_run_rate, no weenie
  const float len = length(v);
  if (len > max && len > 0) v = v * (max / len);
  return v;
}

float CMotionInterp::get_max_speed() const { return kRunAnimSpeed * run_rate(); }

float CMotionInterp::get_adjusted_max_speed() const {
  if (interpreted_state.forward_command == kRunForward && current_speed_factor != 0) {
    return kRunAnimSpeed * interpreted_state.forward_speed / current_speed_factor;
  }
  return get_max_speed();
}

float CMotionInterp::get_jump_v_z() const {
  if (jump_extent < kEpsilon) return 0.0f;
  const float extent = std::min(jump_extent, 1.0f);  // runtime 4: capped at 1.0
  if (!physics_obj_ || !physics_obj_->weenie.present) return kJumpVz;
  return physics_obj_->weenie.jump_vz * extent;  // InqJumpVelocity: not modelled beyond this
}

Vec3 CMotionInterp::get_leave_ground_velocity() const {
  Vec3 v = get_state_velocity();
  v.z = get_jump_v_z();
  const bool zero =
      std::fabs(v.x) < kEpsilon && std::fabs(v.y) < kEpsilon && std::fabs(v.z) < kEpsilon;
  if (zero && physics_obj_) return physics_obj_->local_velocity;  // keep the current velocity
  return v;
}

void CMotionInterp::SetHoldKey(HoldKey key, bool cancel_move_to) {
  if (key == HoldKey::kInvalid || key == raw_state.current_holdkey) return;
  raw_state.current_holdkey = key;
  apply_current_movement(cancel_move_to, true);
}

// ---- runtime 4.1 --------------------------------------------------------------------------------

uint32_t CMotionInterp::DoInterpretedMotion(uint32_t m, const MovementParameters& p) {
  if (!physics_obj_) return kErrNoPhysics;
  uint32_t result = 0;
  if (contact_allows_move(m)) {
    if (standing_longjump && (m == kWalkForward || m == kRunForward || m == kSideStepRight)) {
      if (p.has(mp::kModifyInterpretedState)) interpreted_state.apply_motion(m, p);
    } else {
      if (m == kDead) physics_obj_->RemoveLinkAnimations();
      result = physics_obj_->do_interpreted_motion(m, p.speed);
      if (result == 0) {
        uint32_t jump_err = 0;
        if (p.has(mp::kDisableJumpDuringLink)) {
          jump_err = kErrJumpBlocked;
        } else {
          jump_err = motion_allows_jump(m);
          if (jump_err == 0 && !(m & kActionBit))
            jump_err = motion_allows_jump(interpreted_state.forward_command);
        }
        add_to_queue(p.context_id, m, jump_err);
        if (p.has(mp::kModifyInterpretedState)) interpreted_state.apply_motion(m, p);
      }
    }
  } else if (!(m & kActionBit)) {
    if (p.has(mp::kModifyInterpretedState)) interpreted_state.apply_motion(m, p);
  } else {
    result = kErrAirborneAction;
  }
  if (!physics_obj_->in_cell) physics_obj_->RemoveLinkAnimations();
  return result;
}

uint32_t CMotionInterp::StopInterpretedMotion(uint32_t m, const MovementParameters& p) {
  if (!physics_obj_) return kErrNoPhysics;
  uint32_t result = 0;
  if (!contact_allows_move(m) ||
      (standing_longjump && (m == kWalkForward || m == kRunForward || m == kSideStepRight))) {
    if (p.has(mp::kModifyInterpretedState)) interpreted_state.remove_motion(m);
  } else {
    result = physics_obj_->stop_interpreted_motion(m, p.speed);
    if (result == 0) {
      add_to_queue(p.context_id, kReady, 0);
      if (p.has(mp::kModifyInterpretedState)) interpreted_state.remove_motion(m);
    }
  }
  if (!physics_obj_->in_cell) physics_obj_->RemoveLinkAnimations();
  return result;
}

uint32_t CMotionInterp::DoMotion(uint32_t m, const MovementParameters& p) {
  if (!physics_obj_) return kErrNoPhysics;
  MovementParameters local = p;
  if (p.has(mp::kCancelMoveTo)) physics_obj_->interrupt_current_movement();
  if (p.has(mp::kSetHoldKey)) SetHoldKey(p.hold_key, p.has(mp::kCancelMoveTo));
  uint32_t command = m;
  adjust_motion(command, local.speed, p.hold_key);
  if (interpreted_state.current_style != kNonCombat) {
    if (m == kCrouch) return 0x3F;
    if (m == kSitting) return 0x40;
    if (m == kSleeping) return 0x41;
    if (m & kChatEmoteBit) return 0x42;
  }
  if ((m & kActionBit) && interpreted_state.actions.size() >= 6) return 0x45;
  const uint32_t result = DoInterpretedMotion(command, local);
  if (result == 0 && p.has(mp::kModifyRawState)) raw_state.apply_motion(m, p);
  return result;
}

uint32_t CMotionInterp::StopMotion(uint32_t m, const MovementParameters& p) {
  if (!physics_obj_) return kErrNoPhysics;
  MovementParameters local = p;
  if (p.has(mp::kCancelMoveTo)) physics_obj_->interrupt_current_movement();
  uint32_t command = m;
  adjust_motion(command, local.speed, p.hold_key);
  const uint32_t result = StopInterpretedMotion(command, local);
  if (result == 0 && p.has(mp::kModifyRawState)) raw_state.remove_motion(m);
  return result;
}

// ---- runtime 4.2 --------------------------------------------------------------------------------

uint32_t CMotionInterp::StopCompletely() {
  if (!physics_obj_) return kErrNoPhysics;
  physics_obj_->interrupt_current_movement();
  const uint32_t jump = motion_allows_jump(interpreted_state.forward_command);  // before the reset
  raw_state.forward_command = kReady;
  raw_state.forward_speed = 1.0f;
  raw_state.sidestep_command = 0;
  raw_state.turn_command = 0;
  interpreted_state.forward_command = kReady;
  interpreted_state.forward_speed = 1.0f;
  interpreted_state.sidestep_command = 0;
  interpreted_state.turn_command = 0;
  physics_obj_->stop_completely();
  add_to_queue(0, kReady, jump);
  if (!physics_obj_->in_cell) physics_obj_->RemoveLinkAnimations();
  return 0;
}

void CMotionInterp::apply_current_movement(bool cancel_move_to, bool allow_jump) {
  if (!physics_obj_ || !initted) return;
  const Weenie& w = physics_obj_->weenie;
  if ((!w.present || w.player) && physics_obj_->movement_is_autonomous()) {
    apply_raw_movement(cancel_move_to, allow_jump);
  } else {
    apply_interpreted_movement(cancel_move_to, allow_jump);
  }
}

void CMotionInterp::apply_raw_movement(bool cancel_move_to, bool allow_jump) {
  if (!physics_obj_) return;
  interpreted_state.current_style = raw_state.current_style;
  interpreted_state.forward_command = raw_state.forward_command;
  interpreted_state.forward_speed = raw_state.forward_speed;
  interpreted_state.sidestep_command = raw_state.sidestep_command;
  interpreted_state.sidestep_speed = raw_state.sidestep_speed;
  interpreted_state.turn_command = raw_state.turn_command;
  interpreted_state.turn_speed = raw_state.turn_speed;
  adjust_motion(interpreted_state.forward_command, interpreted_state.forward_speed,
                raw_state.forward_holdkey);
  adjust_motion(interpreted_state.sidestep_command, interpreted_state.sidestep_speed,
                raw_state.sidestep_holdkey);
  adjust_motion(interpreted_state.turn_command, interpreted_state.turn_speed,
                raw_state.turn_holdkey);
  apply_interpreted_movement(cancel_move_to, allow_jump);
}

// Motion spec Q2 with the runtime page's parameters (4.2).
void CMotionInterp::apply_interpreted_movement(bool cancel_move_to, bool allow_jump) {
  if (!physics_obj_) return;
  MovementParameters p;
  p.set(mp::kSetHoldKey, false);
  p.set(mp::kModifyInterpretedState, false);
  p.set(mp::kCancelMoveTo, cancel_move_to);
  p.set(mp::kDisableJumpDuringLink, !allow_jump);
  const InterpretedMotionState& s = interpreted_state;
  if (s.forward_command == kRunForward) my_run_rate = s.forward_speed;
  p.speed = 1.0f;
  DoInterpretedMotion(s.current_style, p);
  if (!contact_allows_move(s.forward_command)) {
    p.speed = 1.0f;
    DoInterpretedMotion(kFalling, p);
  } else if (standing_longjump) {
    p.speed = 1.0f;
    DoInterpretedMotion(kReady, p);
    StopInterpretedMotion(kSideStepRight, p);
  } else {
    p.speed = s.forward_speed;
    DoInterpretedMotion(s.forward_command, p);
    if (s.sidestep_command == 0) {
      StopInterpretedMotion(kSideStepRight, p);
    } else {
      p.speed = s.sidestep_speed;
      DoInterpretedMotion(s.sidestep_command, p);
    }
  }
  if (s.turn_command != 0) {
    p.speed = s.turn_speed;
    DoInterpretedMotion(s.turn_command, p);
    return;
  }
  // The turn stop goes to the physics object directly (motion spec Q2: its first argument is
  // physics_obj), so the interpreter queues its own Ready beside the table's.
  if (physics_obj_->stop_interpreted_motion(kTurnRight, 1.0f) == 0) add_to_queue(0, kReady, 0);
}

int CMotionInterp::move_to_interpreted_state(const InterpretedMotionState& ims) {
  if (!physics_obj_) return 0;
  raw_state.current_style = ims.current_style;
  physics_obj_->interrupt_current_movement();
  const bool jump_was_allowed = motion_allows_jump(interpreted_state.forward_command) == 0;
  interpreted_state.copy_movement_from(ims);
  apply_current_movement(true, jump_was_allowed);
  // Runtime 4.2: replay the actions whose 15-bit stamp is newer.
  for (const ActionNode& a : ims.actions) {
    if (!action_stamp_is_newer(a.stamp, server_action_stamp)) continue;
    server_action_stamp = a.stamp;
    MovementParameters p;
    p.speed = a.speed;
    p.action_stamp = a.stamp;
    p.set(mp::kAutonomous, a.autonomous);
    DoInterpretedMotion(a.motion, p);
  }
  return 1;
}

void CMotionInterp::enter_default_state() {
  raw_state = RawMotionState{};
  interpreted_state = InterpretedMotionState{};
  if (physics_obj_) physics_obj_->manager.initialize_state();  // InitializeMotionTables
  add_to_queue(0, kReady, 0);
  initted = true;
  LeaveGround();
}

void CMotionInterp::LeaveGround() {
  if (!physics_obj_) return;
  const Weenie& w = physics_obj_->weenie;
  if ((w.present && !w.creature) || !(physics_obj_->state & kGravityState)) return;
  // The launch velocity is recorded (local_velocity); gravity and collision are not modelled.
  physics_obj_->local_velocity = get_leave_ground_velocity();
  standing_longjump = false;
  jump_extent = 0;
  physics_obj_->RemoveLinkAnimations();
  apply_current_movement(false, true);
}

void CMotionInterp::HitGround() {
  if (!physics_obj_) return;
  const Weenie& w = physics_obj_->weenie;
  if ((w.present && !w.creature) || !(physics_obj_->state & kGravityState)) return;
  physics_obj_->RemoveLinkAnimations();
  apply_current_movement(false, true);
}

void CMotionInterp::add_to_queue(uint32_t context_id, uint32_t motion, uint32_t jump_error_code) {
  pending_motions.push_back({context_id, motion, jump_error_code});
}

void CMotionInterp::MotionDone(bool /*success*/) {
  if (!physics_obj_ || pending_motions.empty()) return;
  const PendingMotion head = pending_motions.front();
  if (head.motion & kActionBit) {
    physics_obj_->unstick_from_object();
    interpreted_state.remove_action();
    raw_state.remove_action();
  }
  pending_motions.pop_front();
}

}  // namespace animkit::asherons_call
