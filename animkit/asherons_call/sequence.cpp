#include "animkit/asherons_call/sequence.h"

#include <algorithm>
#include <cmath>
#include <iterator>

#include "animkit/asherons_call/frame_ops.h"

namespace animkit::asherons_call {

namespace {

// floor() as an index; non-finite values map to 0 (they index nothing).
int64_t floor_index(double v) {
  if (!std::isfinite(v)) return 0;
  v = std::floor(v);
  if (v > 9.0e15) return int64_t{9'000'000'000'000'000};
  if (v < -9.0e15) return -int64_t{9'000'000'000'000'000};
  return static_cast<int64_t>(v);
}

}  // namespace

// ---- AnimSequenceNode (runtime 1.1) ---------------------------------------------------------

AnimSequenceNode::AnimSequenceNode(const AnimData& data, const Animation* animation)
    : anim(animation),
      anim_id(data.anim_id),
      framerate(data.framerate),
      low_frame(data.low_frame),
      high_frame(data.high_frame) {
  if (!anim) return;
  // Runtime 1.1: clamp in this order (num_frames is bounded by the file, so it fits an i32).
  const int64_t num = static_cast<int64_t>(anim->num_frames());
  const int32_t last = static_cast<int32_t>(std::min<int64_t>(num - 1, INT32_MAX));
  if (high_frame < 0) high_frame = last;
  if (low_frame >= num) low_frame = last;
  if (high_frame >= num) high_frame = last;
  if (low_frame > high_frame) high_frame = low_frame;
}

double AnimSequenceNode::get_starting_frame() const {
  if (framerate >= 0) return low_frame;
  return static_cast<double>(high_frame) + 1.0 - static_cast<double>(kEpsilon);
}

double AnimSequenceNode::get_ending_frame(Choices::EndingFrame rule) const {
  if (framerate >= 0) {
    const double end = static_cast<double>(high_frame) + 1.0;
    return rule == Choices::EndingFrame::kBare ? end : end - static_cast<double>(kEpsilon);
  }
  return low_frame;
}

void AnimSequenceNode::multiply_framerate(float m) {
  if (m < 0) std::swap(low_frame, high_frame);
  framerate *= m;
}

const AFrame* AnimSequenceNode::get_pos_frame(int64_t i) const {
  if (!anim || i < 0 || static_cast<uint64_t>(i) >= anim->pos_frames.size()) return nullptr;
  return &anim->pos_frames[static_cast<size_t>(i)];
}

const AnimationFrame* AnimSequenceNode::get_part_frame(int64_t i) const {
  if (!anim || i < 0 || static_cast<uint64_t>(i) >= anim->frames.size()) return nullptr;
  return &anim->frames[static_cast<size_t>(i)];
}

// ---- CSequence (runtime 1.2) ----------------------------------------------------------------

// Walks from both ends at once: O(distance to the nearer end). curr is near the front and
// first_cyclic near the back, so a long list costs a trace line little (issue 28).
int CSequence::index_of(NodeList::const_iterator it) const {
  if (it == anim_list_.end()) return -1;
  NodeList::const_iterator front = anim_list_.begin(), back = std::prev(anim_list_.end());
  const size_t size = anim_list_.size();
  for (size_t k = 0;; ++k, ++front, --back) {
    if (front == it) return static_cast<int>(k);
    if (back == it) return static_cast<int>(size - 1 - k);
  }
}

std::vector<const AnimSequenceNode*> CSequence::changed_tail() const {
  const uint64_t n = anim_list_.size() - std::min<uint64_t>(delta_.kept, anim_list_.size());
  std::vector<const AnimSequenceNode*> out(n);
  auto it = anim_list_.end();
  for (uint64_t k = n; k > 0; --k) out[k - 1] = &*--it;
  return out;
}

void CSequence::append_animation(const AnimData& data) {
  AnimSequenceNode node(data, (store_ && data.anim_id != 0) ? store_->find(data.anim_id) : nullptr);
  if (!node.has_anim()) return;  // runtime 1.1: dropped, first_cyclic unchanged
  anim_list_.push_back(node);
  ++nodes_appended_;
  delta_.changed = true;
  first_cyclic_ = std::prev(anim_list_.end());
  if (curr_anim_ == anim_list_.end()) {
    curr_anim_ = anim_list_.begin();
    frame_number_ = curr_anim_->get_starting_frame();
  }
}

void CSequence::remove_cyclic_anims() {
  if (first_cyclic_ == anim_list_.end()) return;
  bool curr_removed = false;
  uint64_t m = 0;
  for (Node it = first_cyclic_; it != anim_list_.end(); ++it, ++m) curr_removed |= (it == curr_anim_);
  touch_back(m);
  const bool has_before = first_cyclic_ != anim_list_.begin();
  const Node before = has_before ? std::prev(first_cyclic_) : anim_list_.end();
  anim_list_.erase(first_cyclic_, anim_list_.end());
  if (curr_removed) {
    curr_anim_ = before;
    frame_number_ = has_before ? before->get_ending_frame(ending_rule()) : 0.0;
  }
  first_cyclic_ = anim_list_.empty() ? anim_list_.end() : std::prev(anim_list_.end());
}

void CSequence::remove_link_animations(uint32_t n) {
  for (uint32_t k = 0; k < n; ++k) {
    if (first_cyclic_ == anim_list_.end() || first_cyclic_ == anim_list_.begin()) return;
    const Node link = std::prev(first_cyclic_);
    touch_back(1 + static_cast<uint64_t>(std::distance(first_cyclic_, anim_list_.end())));
    if (link == curr_anim_) {
      curr_anim_ = first_cyclic_;
      frame_number_ = first_cyclic_->get_starting_frame();
    }
    anim_list_.erase(link);
  }
}

void CSequence::remove_all_link_animations() {
  while (first_cyclic_ != anim_list_.end() && first_cyclic_ != anim_list_.begin()) {
    remove_link_animations(1);
  }
}

void CSequence::apricot() {
  while (!anim_list_.empty() && anim_list_.begin() != curr_anim_ &&
         anim_list_.begin() != first_cyclic_) {
    anim_list_.pop_front();
    delta_.changed = true;
    if (delta_.kept > 0) {
      --delta_.kept;
      ++delta_.removed_front;
    }
  }
}

void CSequence::multiply_cyclic_animation_fr(float f) {
  uint64_t m = 0;
  for (Node it = first_cyclic_; it != anim_list_.end(); ++it, ++m) it->multiply_framerate(f);
  if (m) touch_back(m);
}

void CSequence::clear_physics() {
  velocity = {};
  omega = {};
}

void CSequence::clear_animations() {
  if (!anim_list_.empty()) touch_back(anim_list_.size());
  anim_list_.clear();
  first_cyclic_ = anim_list_.end();
  curr_anim_ = anim_list_.end();
  frame_number_ = 0;
}

const AnimationFrame* CSequence::current_part_frame() const {
  if (curr_anim_ == anim_list_.end()) return nullptr;
  return curr_anim_->get_part_frame(floor_index(frame_number_));
}

// ---- update (runtime 1.3, 1.4) --------------------------------------------------------------

void CSequence::update(double dt, AFrame* frame) {
  if (!std::isfinite(dt)) return;  // never integrate NaN / infinity (PhysicsObj refuses them)
  if (!anim_list_.empty()) {
    update_internal(dt, frame);
    apricot();
  } else if (frame) {
    apply_physics(*frame, dt, dt);
  }
}

void CSequence::apply_physics(AFrame& frame, double quantum, double sign_src) const {
  double q = std::fabs(quantum);
  if (sign_src < 0) q = -q;
  const float qf = static_cast<float>(q);
  frame.origin = frame.origin + velocity * qf;  // not rotated by the delta's orientation
  rotate_local(frame, omega * qf);
}

void CSequence::execute_hooks(const AnimationFrame* part_frame, int32_t direction, int64_t index) {
  if (!part_frame || !hook_obj_) return;  // runtime 1.5
  const bool drop_data_done = !choices_ || choices_->data_anim_done == Choices::DataAnimDone::kDrop;
  for (const AnimHook& h : part_frame->hooks) {
    if (h.direction != 0 && h.direction != direction) continue;
    if (h.type == static_cast<uint32_t>(HookType::kAnimationDone) && drop_data_done) continue;
    if (hooks_this_update_ >= kMaxHooksPerUpdate) {
      ++dropped_hooks_;
      continue;
    }
    ++hooks_this_update_;
    hook_obj_->push_back({&h, curr_anim_->anim_id, index, direction});
  }
}

void CSequence::update_internal(double dt, AFrame* frame) {
  hooks_this_update_ = 0;
  for (int advances = 0; curr_anim_ != anim_list_.end(); ++advances) {
    AnimSequenceNode& node = *curr_anim_;
    const float fr = node.framerate;
    const float delta = fr * static_cast<float>(dt);  // the step delta in float [dereth]
    int64_t last = floor_index(frame_number_);
    frame_number_ += delta;
    double leftover = 0;
    bool done = false;
    const bool physics_step = std::fabs(fr) > kEpsilon;
    if (delta > 0) {
      if (std::floor(frame_number_) > node.high_frame) {
        leftover = physics_step ? std::max(0.0, frame_number_ - node.high_frame - 1.0) / fr : 0.0;
        frame_number_ = node.high_frame;
        done = true;
      }
      for (int64_t i = last; i < floor_index(frame_number_); ++i) {
        if (frame) {
          if (node.anim->has_pos_frames()) {
            if (const AFrame* p = node.get_pos_frame(i)) combine(*frame, *p);
          }
          if (physics_step) apply_physics(*frame, 1.0 / fr, dt);
        }
        execute_hooks(node.get_part_frame(i), 1, i);
      }
    } else if (delta < 0) {
      if (std::floor(frame_number_) < node.low_frame) {
        leftover = physics_step ? std::min(0.0, frame_number_ - node.low_frame) / fr : 0.0;
        frame_number_ = node.low_frame;
        done = true;
      }
      for (int64_t i = last; floor_index(frame_number_) < i; --i) {
        if (frame) {
          if (node.anim->has_pos_frames()) {
            if (const AFrame* p = node.get_pos_frame(i)) subtract(*frame, *p);
          }
          if (physics_step) apply_physics(*frame, 1.0 / fr, dt);
        }
        execute_hooks(node.get_part_frame(i), -1, i);
      }
    } else {
      if (frame && std::fabs(dt) > kEpsilon) apply_physics(*frame, dt, dt);
      return;
    }
    // A leftover that is not finite (a step delta that overflowed f32) or the advance cap ends
    // the update: the rest of the time is dropped.
    if (!done || advances >= kMaxAdvances || !std::isfinite(leftover)) return;
    // Runtime 1.4 step 5: the synthetic AnimationDone while the head is not first_cyclic.
    if (hook_obj_ && anim_list_.begin() != first_cyclic_) {
      hook_obj_->push_back({nullptr, node.anim_id, floor_index(frame_number_), delta > 0 ? 1 : -1});
    }
    advance_to_next_animation(dt, frame);
    dt = leftover;
  }
}

void CSequence::advance_to_next_animation(double dt, AFrame* frame) {
  AnimSequenceNode& out = *curr_anim_;
  if (dt >= 0) {
    if (frame && out.framerate < 0) {
      if (const AFrame* p = out.get_pos_frame(floor_index(frame_number_))) subtract(*frame, *p);
      if (std::fabs(out.framerate) > kEpsilon) apply_physics(*frame, 1.0 / out.framerate, dt);
    }
    ++curr_anim_;
    if (curr_anim_ == anim_list_.end()) curr_anim_ = first_cyclic_;  // the looping mechanism
    frame_number_ = curr_anim_->get_starting_frame();
    if (frame && curr_anim_->framerate > 0) {
      if (const AFrame* p = curr_anim_->get_pos_frame(floor_index(frame_number_)))
        combine(*frame, *p);
      if (std::fabs(curr_anim_->framerate) > kEpsilon)
        apply_physics(*frame, 1.0 / curr_anim_->framerate, dt);
    }
  } else {
    if (frame && out.framerate >= 0) {
      if (const AFrame* p = out.get_pos_frame(floor_index(frame_number_))) subtract(*frame, *p);
      if (std::fabs(out.framerate) > kEpsilon) apply_physics(*frame, 1.0 / out.framerate, dt);
    }
    if (curr_anim_ == anim_list_.begin()) {
      curr_anim_ = std::prev(anim_list_.end());
    } else {
      --curr_anim_;
    }
    frame_number_ = curr_anim_->get_ending_frame(ending_rule());
    if (frame && curr_anim_->framerate < 0) {
      if (const AFrame* p = curr_anim_->get_pos_frame(floor_index(frame_number_)))
        combine(*frame, *p);
      if (std::fabs(curr_anim_->framerate) > kEpsilon)
        apply_physics(*frame, 1.0 / curr_anim_->framerate, dt);
    }
  }
}

}  // namespace animkit::asherons_call
