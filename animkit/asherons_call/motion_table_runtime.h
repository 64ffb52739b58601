// CMotionTable and MotionState: the motion-table state machine (motion spec Q2/Q7,
// asherons-call-runtime.md section 2) over a MotionTable's data.
#pragma once

#include <cstdint>
#include <deque>
#include <unordered_map>

#include "animkit/asherons_call/choices.h"
#include "animkit/asherons_call/motion_table.h"
#include "animkit/asherons_call/sequence.h"

namespace animkit::asherons_call {

struct MotionModifier {
  uint32_t motion = 0;
  float speed_mod = 1;
  friend bool operator==(const MotionModifier&, const MotionModifier&) = default;
};

struct MotionAction {
  uint32_t motion = 0;
  float speed = 1;
};

// Runtime section 3: style, substate, substate_mod, the modifier list (pushed at the front) and
// the action FIFO.
struct MotionState {
  uint32_t style = 0;
  uint32_t substate = 0;
  float substate_mod = 1;
  std::deque<MotionModifier> modifiers;
  std::deque<MotionAction> actions;

  // Fails when `motion` is already the substate or listed; else pushes it at the front.
  bool add_modifier(uint32_t motion, float speed);
  void remove_modifier(size_t index) {
    modifiers.erase(modifiers.begin() + static_cast<long>(index));
  }
  void clear_modifiers() { modifiers.clear(); }
  void add_action(uint32_t motion, float speed) { actions.push_back({motion, speed}); }
  void remove_action_head() {
    if (!actions.empty()) actions.pop_front();
  }
};

// Runtime 2: same_sign(a, b) = (a >= 0) == (b >= 0); zero counts positive.
bool same_sign(float a, float b);
// Runtime 2: add_motion REPLACES the sequence's velocity and omega (the runtime page, against
// the motion spec's "added back"), then appends one node per AnimData at framerate x speed.
void add_motion(CSequence& seq, const MotionData* md, float speed);
void combine_motion(CSequence& seq, const MotionData* md, float speed);
void subtract_motion(CSequence& seq, const MotionData* md, float speed);
void change_cycle_speed(CSequence& seq, float old_speed, float new_speed, Choices::CycleSpeed rule);

class CMotionTable {
 public:
  explicit CMotionTable(MotionTable data, Choices choices = {});
  CMotionTable(const CMotionTable&) = delete;
  CMotionTable& operator=(const CMotionTable&) = delete;

  const MotionTable& data() const { return data_; }
  const Choices& choices() const { return choices_; }

  // Lookups by key (the first entry with a key wins).
  const MotionData* cycle(uint32_t key) const;
  const MotionData* modifier(uint32_t key) const;
  const MotionData* link(uint32_t outer_key, uint32_t to_motion) const;
  // style_defaults[style], 0 when absent.
  uint32_t style_default(uint32_t style) const;
  // The modifier of `motion` in `style`: style-qualified first, then the bare motion.
  const MotionData* find_modifier(uint32_t style, uint32_t motion) const;

  bool is_allowed(uint32_t motion, const MotionData* md, const MotionState& st) const;
  const MotionData* get_link(uint32_t style, uint32_t from, float from_speed, uint32_t to,
                             float to_speed) const;

  // Runtime 2.1 (motion spec Q2): the transition decision. `ticks` is a wrapping u32.
  bool get_object_sequence(uint32_t motion, MotionState& st, CSequence& seq, float speed,
                           uint32_t& ticks, bool stop_modifiers) const;
  bool do_object_motion(uint32_t motion, MotionState& st, CSequence& seq, float speed,
                        uint32_t& ticks) const {
    return get_object_sequence(motion, st, seq, speed, ticks, false);
  }
  // Motion spec Q7: main cycle -> the default substate; modifier -> subtract its velocity.
  bool stop_sequence_motion(uint32_t motion, float speed, MotionState& st, CSequence& seq,
                            uint32_t& ticks) const;
  bool stop_object_motion(uint32_t motion, float speed, MotionState& st, CSequence& seq,
                          uint32_t& ticks) const {
    return stop_sequence_motion(motion, speed, st, seq, ticks);
  }
  bool stop_object_completely(MotionState& st, CSequence& seq, uint32_t& ticks) const;
  bool set_default_state(MotionState& st, CSequence& seq, uint32_t& ticks) const;
  void re_modify(CSequence& seq, MotionState& st) const;
  static constexpr int kMaxReModifyDepth = 8;
  static constexpr int kMaxReModifyReissues = 64;  // per outermost re_modify

 private:
  MotionTable data_;
  Choices choices_;
  std::unordered_map<uint32_t, const MotionData*> cycles_, modifiers_;
  std::unordered_map<uint32_t, std::unordered_map<uint32_t, const MotionData*>> links_;
  std::unordered_map<uint32_t, uint32_t> style_defaults_;
};

}  // namespace animkit::asherons_call
