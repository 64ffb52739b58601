// AnimSequenceNode and CSequence: the node list that plays a motion (motion spec Q2-Q5,
// asherons-call-runtime.md section 1).
#pragma once

#include <algorithm>
#include <cstdint>
#include <list>
#include <map>
#include <vector>

#include "animkit/asherons_call/animation.h"
#include "animkit/asherons_call/choices.h"
#include "animkit/asherons_call/motion_table.h"

namespace animkit::asherons_call {

// The animations a sequence can play, by id (owned elsewhere; must outlive the sequences).
class AnimationStore {
 public:
  void add(Animation animation) {
    const uint32_t id = animation.id;
    animations_[id] = std::move(animation);
  }
  const Animation* find(uint32_t id) const {
    auto it = animations_.find(id);
    return it == animations_.end() ? nullptr : &it->second;
  }
  const std::map<uint32_t, Animation>& all() const { return animations_; }

 private:
  std::map<uint32_t, Animation> animations_;
};

// Runtime 1.1.
struct AnimSequenceNode {
  const Animation* anim = nullptr;
  uint32_t anim_id = 0;
  float framerate = 0;
  int32_t low_frame = 0;
  int32_t high_frame = 0;

  // Built from an AnimData whose framerate is already multiplied by the speed; clamps the frame
  // range in the runtime page's order.
  AnimSequenceNode(const AnimData& data, const Animation* animation);
  bool has_anim() const { return anim != nullptr; }
  double get_starting_frame() const;
  double get_ending_frame(Choices::EndingFrame rule) const;
  void multiply_framerate(float m);  // swaps low/high first when m < 0
  const AFrame* get_pos_frame(int64_t i) const;
  const AnimationFrame* get_part_frame(int64_t i) const;
};

// A hook queued by the sequence for the physics object's process_hooks (runtime 1.5).
struct QueuedHook {
  const AnimHook* hook = nullptr;  // null: the synthetic AnimationDone of a finished node
  uint32_t anim_id = 0;
  int64_t frame = 0;
  int32_t direction = 0;  // the playback direction that fired it
};

class CSequence {
 public:
  using NodeList = std::list<AnimSequenceNode>;
  using Node = NodeList::iterator;

  CSequence() = default;
  CSequence(const CSequence&) = delete;
  CSequence& operator=(const CSequence&) = delete;

  void set_store(const AnimationStore* store) { store_ = store; }
  void set_choices(const Choices* choices) { choices_ = choices; }
  // Where hooks go (the physics object's queue); null: hooks are not queued.
  void set_hook_obj(std::vector<QueuedHook>* hooks) { hook_obj_ = hooks; }

  // Runtime 1.2 / motion spec Q4: append at the tail; the new node becomes first_cyclic; a
  // playing node is never reset. An id that does not load adds nothing.
  void append_animation(const AnimData& data);
  void remove_cyclic_anims();
  void remove_link_animations(uint32_t n);
  void remove_all_link_animations();
  void apricot();
  void multiply_cyclic_animation_fr(float f);
  void clear_physics();
  void clear_animations();
  bool has_anims() const { return !anim_list_.empty(); }

  // Runtime 1.3: advances by dt seconds; `frame` (the tick's delta) may be null.
  void update(double dt, AFrame* frame);
  void apply_physics(AFrame& frame, double quantum, double sign_src) const;

  // Velocity and omega (object-local).
  Vec3 velocity{};
  Vec3 omega{};
  void set_velocity(Vec3 v) { velocity = v; }
  void set_omega(Vec3 v) { omega = v; }

  // Inspection (traces, tests).
  const NodeList& anim_list() const { return anim_list_; }
  // Index of curr_anim / first_cyclic in the list, -1 when null.
  int curr_index() const { return index_of(curr_anim_); }
  int first_cyclic_index() const { return index_of(first_cyclic_); }
  double frame_number() const { return frame_number_; }
  const AnimSequenceNode* curr_anim() const {
    return curr_anim_ == anim_list_.end() ? nullptr : &*curr_anim_;
  }
  // The pose: part frames of curr_anim at floor(frame_number), or null.
  const AnimationFrame* current_part_frame() const;
  // update_internal's safety caps per call (README, "Choices"; issue 13 item 5): node advances
  // (a node that plays in next to no time, e.g. at a frame rate of 3e38, would otherwise wrap
  // until the time runs out, which it never does) and hooks queued.
  static constexpr int kMaxAdvances = 1024;
  static constexpr size_t kMaxHooksPerUpdate = 4096;
  // Issue 28, the trace's node delta: what changed in the node list since mark_nodes(). The
  // list now is the marked list without its first `removed_front` nodes, of which the next
  // `kept` are unchanged; the nodes after those (`changed_tail`) are new or rewritten, and the
  // marked nodes past `kept` are gone. O(1) per change: pops at the front, appends, and the
  // edits near first_cyclic (erasing links or cycles, multiplying cyclic frame rates).
  struct NodeDelta {
    uint64_t removed_front = 0;
    uint64_t kept = 0;
    bool changed = false;
  };
  void mark_nodes() { delta_ = {0, anim_list_.size(), false}; }
  const NodeDelta& node_delta() const { return delta_; }
  // The nodes past the delta's `kept` prefix (walked from the back: O(what changed)).
  std::vector<const AnimSequenceNode*> changed_tail() const;
  // Nodes appended since construction (the play counts them against --max-steps).
  uint64_t nodes_appended() const { return nodes_appended_; }
  // Hooks not queued because of kMaxHooksPerUpdate since the last reset.
  uint64_t dropped_hooks() const { return dropped_hooks_; }
  void reset_dropped_hooks() { dropped_hooks_ = 0; }

 private:
  void update_internal(double dt, AFrame* frame);
  void advance_to_next_animation(double dt, AFrame* frame);
  void execute_hooks(const AnimationFrame* frame, int32_t direction, int64_t index);
  int index_of(NodeList::const_iterator it) const;
  Choices::EndingFrame ending_rule() const {
    return choices_ ? choices_->ending_frame : Choices::EndingFrame::kEpsilon;
  }

  NodeList anim_list_;
  Node first_cyclic_ = anim_list_.end();
  Node curr_anim_ = anim_list_.end();
  double frame_number_ = 0;
  const AnimationStore* store_ = nullptr;
  const Choices* choices_ = nullptr;
  std::vector<QueuedHook>* hook_obj_ = nullptr;
  size_t hooks_this_update_ = 0;
  uint64_t dropped_hooks_ = 0;
  // The last `m` positions of the list (before an edit) change.
  void touch_back(uint64_t m) {
    const uint64_t size = anim_list_.size();
    delta_.changed = true;
    delta_.kept = std::min<uint64_t>(delta_.kept, size >= m ? size - m : 0);
  }
  NodeDelta delta_;
  uint64_t nodes_appended_ = 0;
};

}  // namespace animkit::asherons_call
