// CMotionInterp: the motion interpreter between commands (local or wire) and the motion table
// (motion spec Q1-Q3/Q7, asherons-call-runtime.md section 4).
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

#include "animkit/asherons_call/choices.h"
#include "animkit/core/math.h"

namespace animkit::asherons_call {

class PhysicsObj;

// Runtime 4 constants.
inline constexpr float kBackwardsFactor = 0.649999976f;
inline constexpr float kWalkAnimSpeed = 3.11999989f;
inline constexpr float kRunAnimSpeed = 4.0f;
inline constexpr float kSidestepAnimSpeed = 1.25f;
inline constexpr float kSidestepFactor = 0.5f;
inline constexpr float kRunTurnFactor = 1.5f;
inline constexpr float kMaxSidestepAnimRate = 3.0f;
inline constexpr float kJumpVz = 10.0f;

enum class HoldKey : uint32_t { kInvalid = 0, kNone = 1, kRun = 2 };

// MovementParameters flags [ACE] (runtime 4.1).
namespace mp {
inline constexpr uint32_t kSetHoldKey = 0x800;
inline constexpr uint32_t kAutonomous = 0x1000;
inline constexpr uint32_t kModifyRawState = 0x2000;
inline constexpr uint32_t kModifyInterpretedState = 0x4000;
inline constexpr uint32_t kCancelMoveTo = 0x8000;
inline constexpr uint32_t kDisableJumpDuringLink = 0x20000;
inline constexpr uint32_t kDefaults = 0x1EE0F;
}  // namespace mp

struct MovementParameters {
  uint32_t flags = mp::kDefaults;
  float speed = 1.0f;
  HoldKey hold_key = HoldKey::kInvalid;
  uint32_t context_id = 0;
  uint16_t action_stamp = 0;
  bool has(uint32_t f) const { return (flags & f) != 0; }
  void set(uint32_t f, bool on) { flags = on ? (flags | f) : (flags & ~f); }
};

struct ActionNode {
  uint32_t motion = 0;
  float speed = 1;
  uint16_t stamp = 0;  // 15 bits
  bool autonomous = false;
  friend bool operator==(const ActionNode&, const ActionNode&) = default;
};

// The state carried by wire type 0 (runtime 5) and kept by the interpreter.
struct InterpretedMotionState {
  uint32_t current_style = 0x8000003Du;    // NonCombat
  uint32_t forward_command = 0x41000003u;  // Ready
  float forward_speed = 1;
  uint32_t sidestep_command = 0;
  float sidestep_speed = 1;
  uint32_t turn_command = 0;
  float turn_speed = 1;
  std::vector<ActionNode> actions;

  // Flat overwrite of style and the three commands and speeds (motion spec Q1).
  void copy_movement_from(const InterpretedMotionState& other);
  void apply_motion(uint32_t motion, const MovementParameters& p);
  void remove_motion(uint32_t motion);
  void remove_action() {
    if (!actions.empty()) actions.erase(actions.begin());
  }
  friend bool operator==(const InterpretedMotionState&, const InterpretedMotionState&) = default;
};

struct RawMotionState {
  HoldKey current_holdkey = HoldKey::kNone;
  uint32_t current_style = 0x8000003Du;
  uint32_t forward_command = 0x41000003u;
  HoldKey forward_holdkey = HoldKey::kInvalid;
  float forward_speed = 1;
  uint32_t sidestep_command = 0;
  HoldKey sidestep_holdkey = HoldKey::kInvalid;
  float sidestep_speed = 1;
  uint32_t turn_command = 0;
  HoldKey turn_holdkey = HoldKey::kInvalid;
  float turn_speed = 1;
  std::vector<ActionNode> actions;

  void apply_motion(uint32_t motion, const MovementParameters& p);
  void remove_motion(uint32_t motion);
  void remove_action() {
    if (!actions.empty()) actions.erase(actions.begin());
  }
};

struct PendingMotion {
  uint32_t context_id = 0;
  uint32_t motion = 0;
  uint32_t jump_error_code = 0;
  friend bool operator==(const PendingMotion&, const PendingMotion&) = default;
};

class CMotionInterp {
 public:
  explicit CMotionInterp(PhysicsObj* physics_obj, const Choices* choices)
      : physics_obj_(physics_obj), choices_(choices) {}

  bool contact_allows_move(uint32_t motion) const;
  uint32_t motion_allows_jump(uint32_t motion) const;
  void apply_run_to_command(uint32_t& command, float& speed) const;
  void adjust_motion(uint32_t& command, float& speed, HoldKey hold) const;
  // Runtime 4: the velocity the state stands for (feeds the jump launch, not the CSequence).
  Vec3 get_state_velocity() const;
  float get_max_speed() const;
  float get_adjusted_max_speed() const;
  // LeaveGround's launch: the state velocity with z = get_jump_v_z(); zero -> the current one.
  Vec3 get_leave_ground_velocity() const;
  float get_jump_v_z() const;
  // Runtime 4.1 (issue 13): Invalid or the held key is no change; a change is stored and
  // re-applies the current movement.
  void SetHoldKey(HoldKey key, bool cancel_move_to);

  uint32_t DoInterpretedMotion(uint32_t motion, const MovementParameters& p);
  uint32_t StopInterpretedMotion(uint32_t motion, const MovementParameters& p);
  uint32_t DoMotion(uint32_t motion, const MovementParameters& p);
  uint32_t StopMotion(uint32_t motion, const MovementParameters& p);
  uint32_t StopCompletely();
  void apply_current_movement(bool cancel_move_to, bool allow_jump);
  void apply_raw_movement(bool cancel_move_to, bool allow_jump);
  void apply_interpreted_movement(bool cancel_move_to, bool allow_jump);
  int move_to_interpreted_state(const InterpretedMotionState& ims);
  void enter_default_state();
  void LeaveGround();
  void HitGround();
  void add_to_queue(uint32_t context_id, uint32_t motion, uint32_t jump_error_code);
  void MotionDone(bool success);
  bool motions_pending() const { return !pending_motions.empty(); }

  RawMotionState raw_state;
  InterpretedMotionState interpreted_state;
  std::deque<PendingMotion> pending_motions;
  float my_run_rate = 1.0f;
  float current_speed_factor = 1.0f;
  bool standing_longjump = false;
  bool initted = false;
  float jump_extent = 0;
  uint16_t server_action_stamp = 0;

 private:
  // apply_run_to_command's rate: 1.0 without a weenie, else its run rate or my_run_rate.
  float run_rate() const;
  // get_state_velocity's rate: the weenie's run rate, else my_run_rate (also with no weenie).
  float state_velocity_rate() const;
  PhysicsObj* physics_obj_;
  const Choices* choices_;
};

// Runtime 4.2: 15-bit action stamps; newer = |a - s| <= 0x3FFF ? s < a : a < s.
bool action_stamp_is_newer(uint16_t stamp, uint16_t server_stamp);

}  // namespace animkit::asherons_call
