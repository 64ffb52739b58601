// CPhysicsObj with its CPartArray folded in: the per-object owner of the CSequence, the
// MotionTableManager and the CMotionInterp, and the per-tick driver update_object (motion spec
// Q3, Q5). Collision, gravity and PositionManager are not modelled: the delta frame the
// sequence produces is combined into the position as is.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "animkit/asherons_call/motion_interp.h"
#include "animkit/asherons_call/motion_table_manager.h"

namespace animkit::asherons_call {

// PhysicsState / TransientState bits the interpreter reads (runtime 4).
inline constexpr uint32_t kGravityState = 0x400;
inline constexpr uint32_t kContactTransient = 0x1;
inline constexpr uint32_t kOnWalkableTransient = 0x2;

// What the interpreter asks of the weenie object.
struct Weenie {
  bool present = true;
  bool creature = true;
  bool player = false;
  bool has_run_rate = false;
  float run_rate = 1.0f;
  float jump_vz = 10.0f;  // InqJumpVelocity at full extent (not modelled further)
};

// Wire types 6-9 handed to the MoveTo stub (runtime 5), recorded as parsed.
struct MoveToRecord {
  uint8_t type = 0;  // 6 MoveToObject, 7 MoveToPosition, 8 TurnToObject, 9 TurnToHeading
  uint32_t target = 0;
  uint32_t cell = 0;
  Vec3 origin{};
  uint32_t params_flags = 0;
  std::vector<float> params;  // the MovementParameters floats in wire order
  float run_rate = 0;         // types 6 and 7
  friend bool operator==(const MoveToRecord&, const MoveToRecord&) = default;
};

class PhysicsObj final : public MotionDoneListener {
 public:
  PhysicsObj(std::shared_ptr<const CMotionTable> table, const AnimationStore* store);
  PhysicsObj(const PhysicsObj&) = delete;
  PhysicsObj& operator=(const PhysicsObj&) = delete;

  // CMotionInterp::enter_default_state (MovementManager creating the interpreter).
  void enter_default_state() { interp.enter_default_state(); }

  // CPhysicsObj -> CPartArray -> MotionTableManager::PerformMovement.
  uint32_t do_interpreted_motion(uint32_t motion, float speed) {
    return manager.perform_movement(MovementType::kInterpretedCommand, motion, speed);
  }
  uint32_t stop_interpreted_motion(uint32_t motion, float speed) {
    return manager.perform_movement(MovementType::kStopInterpretedCommand, motion, speed);
  }
  uint32_t stop_completely() {
    return manager.perform_movement(MovementType::kStopCompletely, 0, 1.0f);
  }
  // -> CPartArray::HandleEnterWorld.
  void RemoveLinkAnimations() { manager.handle_enter_world(); }
  void interrupt_current_movement() { ++move_to_cancels; }
  void unstick_from_object() { sticky_object = 0; }
  bool movement_is_autonomous() const { return last_move_was_autonomous; }

  // Motion spec Q5: dt below EPS is carried to the next call; 2 s or more is sliced into 1 s
  // steps while 2 s or more remain, then the rest in one step.
  void update_object(double dt);
  void UpdateObjectInternal(float dt);
  void process_hooks();
  void motion_done(uint32_t motion, bool success) override;

  // Clears the per-tick records (hooks, motion_done, delta).
  void begin_tick();

  const CMotionTable& table() const { return *table_; }
  const Choices& choices() const { return table_->choices(); }

  std::shared_ptr<const CMotionTable> table_;
  CSequence sequence;
  MotionTableManager manager;
  CMotionInterp interp;
  Weenie weenie;
  uint32_t state = kGravityState;
  uint32_t transient_state = kContactTransient | kOnWalkableTransient;
  bool in_cell = true;
  bool last_move_was_autonomous = false;
  std::array<uint16_t, 9> update_times{};  // [1] movement, [5] server control, [8] instance
  AFrame position;
  Vec3 local_velocity{};  // set by LeaveGround (the launch); not integrated (no gravity)
  uint32_t sticky_object = 0;
  uint32_t move_to_cancels = 0;
  std::vector<MoveToRecord> move_to;

  // Per tick.
  std::vector<QueuedHook> queued_hooks;  // filled by the sequence, emptied by process_hooks
  std::vector<QueuedHook> tick_hooks;    // what process_hooks ran this tick
  struct Done {
    uint32_t motion;
    bool success;
  };
  std::vector<Done> tick_motion_done;
  AFrame tick_delta;
  double carried_dt = 0;
  int tick_slices = 0;  // UpdateObjectInternal calls this tick
};

}  // namespace animkit::asherons_call
