#include "animkit/asherons_call/physics_obj.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdint>

#include "animkit/asherons_call/frame_ops.h"
#include "animkit/core/error.h"
#include "animkit/core/limits.h"

namespace animkit::asherons_call {

PhysicsObj::PhysicsObj(std::shared_ptr<const CMotionTable> table, const AnimationStore* store)
    : table_(std::move(table)), manager(table_, &sequence, this), interp(this, &table_->choices()) {
  sequence.set_store(store);
  sequence.set_choices(&table_->choices());
  sequence.set_hook_obj(&queued_hooks);
  queued_hooks.reserve(64);
  tick_hooks.reserve(64);
  tick_motion_done.reserve(16);
}

void PhysicsObj::begin_tick() {
  tick_hooks.clear();
  tick_motion_done.clear();
  tick_delta = AFrame{};
  tick_slices = 0;
}

void PhysicsObj::update_object(double dt) {
  // Issue 13 item 5: NaN and infinity are refused; a finite dt is sliced, its slice count
  // checked against the step budget before the first slice (1e300 s is refused, not looped on).
  if (!std::isfinite(dt)) throw Error(fmt::format("update_object: dt {} is not finite", dt));
  // Motion spec Q5 (update_object): the time since the last update includes skipped time.
  double remaining = carried_dt + dt;
  if (remaining < kEpsilon) {
    carried_dt = remaining;
    return;
  }
  carried_dt = 0;
  if (remaining < 2.0) {
    UpdateObjectInternal(static_cast<float>(remaining));
    return;
  }
  StepBudget budget("update_object: 1 s slices");
  budget.step(remaining >= 1e18 ? UINT64_MAX / 2 : static_cast<uint64_t>(remaining));
  while (remaining >= 2.0) {
    UpdateObjectInternal(1.0f);
    remaining -= 1.0;
  }
  UpdateObjectInternal(static_cast<float>(remaining));
}

void PhysicsObj::UpdateObjectInternal(float dt) {
  ++tick_slices;
  if (!in_cell) return;
  // UpdatePositionInternal: CPartArray::Update fills the delta; Frame::combine; process_hooks.
  AFrame delta;
  sequence.update(dt, &delta);
  position = compose(position, delta);
  tick_delta = compose(tick_delta, delta);
  process_hooks();
  // MovementManager::UseTime / CPartArray::HandleMovement == CheckForCompletedMotions.
  manager.check_for_completed_motions();
}

void PhysicsObj::process_hooks() {
  // Hooks queued during the update run now, in order; AnimationDone drives completion (Q3).
  for (size_t i = 0; i < queued_hooks.size(); ++i) {
    const QueuedHook h = queued_hooks[i];
    tick_hooks.push_back(h);
    if (!h.hook || h.hook->type == static_cast<uint32_t>(HookType::kAnimationDone)) {
      manager.animation_done(true);
    }
  }
  queued_hooks.clear();
}

void PhysicsObj::motion_done(uint32_t motion, bool success) {
  tick_motion_done.push_back({motion, success});
  interp.MotionDone(success);
}

}  // namespace animkit::asherons_call
