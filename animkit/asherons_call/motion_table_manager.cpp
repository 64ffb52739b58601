#include "animkit/asherons_call/motion_table_manager.h"

#include <algorithm>

#include "animkit/asherons_call/command_ids.h"

namespace animkit::asherons_call {

uint32_t MotionTableManager::perform_movement(MovementType type, uint32_t motion, float speed) {
  if (!table_ || !sequence_) return kErrNoTable;
  uint32_t ticks = 0;
  switch (type) {
    case MovementType::kInterpretedCommand:
      if (!table_->do_object_motion(motion, state, *sequence_, speed, ticks))
        return kErrMotionFailed;
      add_to_queue(motion, ticks);
      return 0;
    case MovementType::kStopInterpretedCommand:
      if (!table_->stop_object_motion(motion, speed, state, *sequence_, ticks))
        return kErrMotionFailed;
      add_to_queue(motion::kReady, ticks);
      return 0;
    case MovementType::kStopCompletely:
      table_->stop_object_completely(state, *sequence_, ticks);
      add_to_queue(motion::kReady, ticks);  // regardless
      return 0;
  }
  return kErrMotionFailed;
}

void MotionTableManager::initialize_state() {
  uint32_t ticks = 0;
  if (!table_ || !sequence_ || !table_->set_default_state(state, *sequence_, ticks)) ticks = 0;
  add_to_queue(motion::kReady, ticks);
}

void MotionTableManager::add_to_queue(uint32_t motion, uint32_t num_anims) {
  pending_animations_.push_back({motion, num_anims});
  remove_redundant_links();
}

// Runtime 3 [OpenAC, dereth]: a repeated cycle or style drops the links queued since its last
// occurrence.
void MotionTableManager::remove_redundant_links() {
  auto& q = pending_animations_;
  long t = static_cast<long>(q.size()) - 1;
  while (t >= 0 && q[static_cast<size_t>(t)].num_anims == 0) --t;
  if (t < 0) return;
  const uint32_t m = q[static_cast<size_t>(t)].motion;
  uint32_t blocker = 0;
  bool style = false;
  if ((m & kSubStateBit) && !(m & kModifierBit)) {
    blocker = 0xB0000000u;
  } else if (m & kStyleBit) {
    blocker = 0x70000000u;
    style = true;
  } else {
    return;
  }
  const bool keep_scanning =
      table_ && table_->choices().redundant_links == Choices::RedundantLinks::kKeepScanning;
  long match = -1;
  for (long i = t - 1; i >= 0; --i) {
    const PendingAnimation& e = q[static_cast<size_t>(i)];
    if (e.motion == m && (style || e.num_anims != 0)) {
      match = i;
      break;
    }
    if (e.num_anims != 0 && (e.motion & blocker) && !keep_scanning) return;
  }
  if (match < 0) return;
  uint64_t sum = 0;
  for (size_t i = static_cast<size_t>(match) + 1; i < q.size(); ++i) {
    sum += q[i].num_anims;
    q[i].num_anims = 0;
  }
  if (sequence_)
    sequence_->remove_link_animations(static_cast<uint32_t>(std::min<uint64_t>(sum, UINT32_MAX)));
}

void MotionTableManager::pop_head(bool success) {
  const PendingAnimation head = pending_animations_.front();
  if (head.motion & kActionBit) state.remove_action_head();
  pending_animations_.pop_front();
  if (listener_) listener_->motion_done(head.motion, success);
}

void MotionTableManager::check_for_completed_motions() {
  while (!pending_animations_.empty() && pending_animations_.front().num_anims == 0) pop_head(true);
}

void MotionTableManager::animation_done(bool success) {
  if (pending_animations_.empty()) return;  // counter untouched
  animation_counter_ += 1;
  while (!pending_animations_.empty() &&
         pending_animations_.front().num_anims <= animation_counter_) {
    animation_counter_ -= pending_animations_.front().num_anims;
    pop_head(success);
  }
  if (pending_animations_.empty()) animation_counter_ = 0;
}

// AnimationDone(false) until the queue is empty. Repeated calls only raise the counter by one
// each, so the counter is raised to the head's count at once (the same pops, in the same order,
// without billions of calls for a 0xFFFFFFFF count).
void MotionTableManager::drain() {
  while (!pending_animations_.empty()) {
    const uint64_t need = pending_animations_.front().num_anims;
    const uint64_t next = std::max<uint64_t>(uint64_t{animation_counter_} + 1, need);
    animation_counter_ = static_cast<uint32_t>(next - 1);
    animation_done(false);
  }
}

void MotionTableManager::handle_enter_world() {
  if (sequence_) sequence_->remove_all_link_animations();
  drain();
}

void MotionTableManager::handle_exit_world() { drain(); }

}  // namespace animkit::asherons_call
