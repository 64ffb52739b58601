// MotionTableManager: pending_animations with tick counts and the running animation_counter
// (motion spec Q3, asherons-call-runtime.md section 3).
#pragma once

#include <cstdint>
#include <deque>
#include <memory>

#include "animkit/asherons_call/motion_table_runtime.h"

namespace animkit::asherons_call {

// Who hears of a completed motion (CPhysicsObj::MotionDone -> ... -> CMotionInterp).
class MotionDoneListener {
 public:
  virtual ~MotionDoneListener() = default;
  virtual void motion_done(uint32_t motion, bool success) = 0;
};

struct PendingAnimation {
  uint32_t motion = 0;
  uint32_t num_anims = 0;  // the tick count GetObjectSequence returned
  friend bool operator==(const PendingAnimation&, const PendingAnimation&) = default;
};

enum class MovementType : uint8_t {
  kInterpretedCommand,
  kStopInterpretedCommand,
  kStopCompletely,
};

// Error codes of the pipeline (runtime 3, 4).
inline constexpr uint32_t kErrNoPhysics = 8;
inline constexpr uint32_t kErrNoTable = 7;
inline constexpr uint32_t kErrMotionFailed = 0x43;
inline constexpr uint32_t kErrAirborneAction = 0x24;
inline constexpr uint32_t kErrJumpBlocked = 0x48;

class MotionTableManager {
 public:
  MotionTableManager() = default;
  MotionTableManager(std::shared_ptr<const CMotionTable> table, CSequence* sequence,
                     MotionDoneListener* listener)
      : table_(std::move(table)), sequence_(sequence), listener_(listener) {}

  // Runtime 3: 0 on success, 7 without a table, 0x43 when the table refuses.
  uint32_t perform_movement(MovementType type, uint32_t motion, float speed);
  void initialize_state();
  void add_to_queue(uint32_t motion, uint32_t num_anims);
  void remove_redundant_links();
  // The per-tick poll (= UseTime): pops heads whose count is 0.
  void check_for_completed_motions();
  // The AnimationDone hook's path: the running counter.
  void animation_done(bool success);
  // CPhysicsObj::RemoveLinkAnimations: drop the link nodes, then drain the queue.
  void handle_enter_world();
  void handle_exit_world();

  MotionState state;
  const std::deque<PendingAnimation>& pending_animations() const { return pending_animations_; }
  uint32_t animation_counter() const { return animation_counter_; }
  const CMotionTable* table() const { return table_.get(); }

 private:
  void drain();
  void pop_head(bool success);

  std::shared_ptr<const CMotionTable> table_;
  CSequence* sequence_ = nullptr;
  MotionDoneListener* listener_ = nullptr;
  std::deque<PendingAnimation> pending_animations_;
  uint32_t animation_counter_ = 0;
};

}  // namespace animkit::asherons_call
