#include "animkit/asherons_call/motion_table_runtime.h"

#include <cmath>

#include "animkit/asherons_call/command_ids.h"
#include "animkit/asherons_call/frame_ops.h"

namespace animkit::asherons_call {

namespace {

uint32_t num_anims(const MotionData* md) {
  return md ? static_cast<uint32_t>(md->anims.size()) : 0u;
}

}  // namespace

bool MotionState::add_modifier(uint32_t motion, float speed) {
  if (motion == substate) return false;
  for (const MotionModifier& m : modifiers) {
    if (m.motion == motion) return false;
  }
  modifiers.push_front({motion, speed});
  return true;
}

// ---- free functions (runtime 2) -------------------------------------------------------------

bool same_sign(float a, float b) { return (a >= 0) == (b >= 0); }

void add_motion(CSequence& seq, const MotionData* md, float speed) {
  if (!md) return;
  seq.set_velocity(md->velocity * speed);  // replaces [all ports]
  seq.set_omega(md->omega * speed);
  for (const AnimData& a : md->anims) {
    AnimData scaled = a;
    scaled.framerate = a.framerate * speed;
    seq.append_animation(scaled);
  }
}

void combine_motion(CSequence& seq, const MotionData* md, float speed) {
  if (!md) return;
  seq.velocity = seq.velocity + md->velocity * speed;
  seq.omega = seq.omega + md->omega * speed;
}

void subtract_motion(CSequence& seq, const MotionData* md, float speed) {
  if (!md) return;
  seq.velocity = seq.velocity - md->velocity * speed;
  seq.omega = seq.omega - md->omega * speed;
}

void change_cycle_speed(CSequence& seq, float old_speed, float new_speed,
                        Choices::CycleSpeed rule) {
  if (rule == Choices::CycleSpeed::kPorts) {
    // Runtime 2: |old| > EPS rescales; else only when both are near zero, freeze.
    if (std::fabs(old_speed) > kEpsilon) {
      seq.multiply_cyclic_animation_fr(new_speed / old_speed);
    } else if (std::fabs(new_speed) < kEpsilon) {
      seq.multiply_cyclic_animation_fr(0.0f);
    }
  } else {
    // Motion spec Q2 paraphrase: |old| >= EPS rescales; else freeze when |new| >= EPS.
    if (std::fabs(old_speed) >= kEpsilon) {
      seq.multiply_cyclic_animation_fr(new_speed / old_speed);
    } else if (std::fabs(new_speed) >= kEpsilon) {
      seq.multiply_cyclic_animation_fr(0.0f);
    }
  }
}

// ---- CMotionTable ---------------------------------------------------------------------------

CMotionTable::CMotionTable(MotionTable data, Choices choices)
    : data_(std::move(data)), choices_(choices) {
  for (const StyleDefault& s : data_.style_defaults)
    style_defaults_.emplace(s.style, s.default_substate);
  for (const KeyedMotion& k : data_.cycles) cycles_.emplace(k.key, &k.data);
  for (const KeyedMotion& k : data_.modifiers) modifiers_.emplace(k.key, &k.data);
  for (const LinkSet& l : data_.links) {
    auto& inner = links_[l.key];
    for (const LinkTarget& t : l.targets) inner.emplace(t.to_motion, &t.data);
  }
}

const MotionData* CMotionTable::cycle(uint32_t key) const {
  auto it = cycles_.find(key);
  return it == cycles_.end() ? nullptr : it->second;
}

const MotionData* CMotionTable::modifier(uint32_t key) const {
  auto it = modifiers_.find(key);
  return it == modifiers_.end() ? nullptr : it->second;
}

const MotionData* CMotionTable::link(uint32_t outer_key, uint32_t to_motion) const {
  auto it = links_.find(outer_key);
  if (it == links_.end()) return nullptr;
  auto jt = it->second.find(to_motion);
  return jt == it->second.end() ? nullptr : jt->second;
}

uint32_t CMotionTable::style_default(uint32_t style) const {
  auto it = style_defaults_.find(style);
  return it == style_defaults_.end() ? 0u : it->second;
}

const MotionData* CMotionTable::find_modifier(uint32_t style, uint32_t motion) const {
  if (const MotionData* md = modifier(motion_key(style, motion))) return md;
  return modifier(motion & 0xFFFFFFu);  // dat page: then the bare motion
}

// Runtime 2: bit 1 = may only be entered from the style's default substate.
bool CMotionTable::is_allowed(uint32_t motion, const MotionData* md, const MotionState& st) const {
  if (!md) return false;
  if ((md->bitfield & kOnlyFromDefault) && motion != st.substate) {
    return st.substate == style_default(st.style);
  }
  return true;
}

// Runtime 2: a negative speed plays the stored to->from clip backwards.
const MotionData* CMotionTable::get_link(uint32_t style, uint32_t from, float from_speed,
                                         uint32_t to, float to_speed) const {
  if (from_speed < 0 || to_speed < 0) {
    if (const MotionData* md = link(motion_key(style, to), from)) return md;
    return link(motion_key(style, from), style_default(style));
  }
  if (const MotionData* md = link(motion_key(style, from), to)) return md;
  return link(style << 16, to);  // the "from anything" bucket
}

bool CMotionTable::get_object_sequence(uint32_t motion, MotionState& st, CSequence& seq,
                                       float speed, uint32_t& ticks, bool stop_modifiers) const {
  ticks = 0;
  if (st.style == 0 || st.substate == 0) return false;
  const uint32_t sd = style_default(st.style);
  if (motion == sd && !stop_modifiers && (st.substate & kModifierBit)) return true;

  // Style (0x80000000).
  if (motion & kStyleBit) {
    if (st.style == motion) return true;
    const uint32_t nsd = style_default(motion);
    const MotionData* cyc = cycle(motion_key(motion, nsd));
    if (nsd != 0 && cyc) {
      const MotionData* exit =
          st.substate != sd ? get_link(st.style, st.substate, st.substate_mod, sd, speed) : nullptr;
      if (cyc->bitfield & kClearsModifiers) st.clear_modifiers();
      const MotionData* mid = get_link(st.style, sd, st.substate_mod, motion, speed);
      const MotionData* extra = nullptr;
      if (!mid && motion != st.style) {
        const uint32_t ds = data_.default_style;
        mid = get_link(st.style, sd, 1.0f, ds, 1.0f);
        extra = get_link(ds, style_default(ds), 1.0f, motion, 1.0f);
      }
      seq.clear_physics();
      seq.remove_cyclic_anims();
      add_motion(seq, exit, speed);
      add_motion(seq, mid, speed);
      add_motion(seq, extra, speed);
      add_motion(seq, cyc, speed);
      st.style = motion;
      st.substate = nsd;
      st.substate_mod = speed;
      re_modify(seq, st);
      ticks = num_anims(exit) + num_anims(mid) + num_anims(extra) + num_anims(cyc) - 1u;
      return true;
    }
  }

  // Substate (0x40000000).
  if (motion & kSubStateBit) {
    const MotionData* cyc = cycle(motion_key(st.style, motion));
    if (!cyc) cyc = cycle(motion_key(data_.default_style, motion));
    if (cyc && is_allowed(motion, cyc, st)) {
      // The same-substate fast path: same node, rescaled framerate.
      if (motion == st.substate && same_sign(speed, st.substate_mod) && seq.has_anims()) {
        change_cycle_speed(seq, st.substate_mod, speed, choices_.cycle_speed);
        subtract_motion(seq, cyc, st.substate_mod);
        combine_motion(seq, cyc, speed);
        st.substate_mod = speed;
        return true;
      }
      if (cyc->bitfield & kClearsModifiers) st.clear_modifiers();
      const MotionData* lnk = get_link(st.style, st.substate, st.substate_mod, motion, speed);
      const MotionData* extra = nullptr;
      if (!lnk || !same_sign(speed, st.substate_mod)) {
        // The double hop through the style default.
        lnk = get_link(st.style, st.substate, st.substate_mod, sd, 1.0f);
        extra = get_link(st.style, sd, 1.0f, motion, speed);
      }
      seq.clear_physics();
      seq.remove_cyclic_anims();
      if (extra) {
        add_motion(seq, lnk, st.substate_mod);
        add_motion(seq, extra, speed);
      } else {
        float s = speed;
        if (choices_.link_negation == Choices::LinkNegation::kOldNegative) {
          if (st.substate_mod < 0 && speed > 0) s = -speed;
        } else if (!same_sign(speed, st.substate_mod) && st.substate_mod != 0) {
          s = -speed;
        }
        add_motion(seq, lnk, s);
      }
      add_motion(seq, cyc, speed);
      if (st.substate != motion && (st.substate & kModifierBit) && motion != sd) {
        st.modifiers.push_front({st.substate, st.substate_mod});
      }
      st.substate_mod = speed;
      st.substate = motion;
      re_modify(seq, st);
      ticks = num_anims(lnk) + num_anims(extra) + num_anims(cyc) - 1u;
      return true;
    }
  }

  // Action (0x10000000): plays through and returns to the base cycle.
  if (motion & kActionBit) {
    const MotionData* base = cycle(motion_key(st.style, st.substate));
    if (base) {
      if (const MotionData* lnk = get_link(st.style, st.substate, st.substate_mod, motion, speed)) {
        st.add_action(motion, speed);
        seq.clear_physics();
        seq.remove_cyclic_anims();
        add_motion(seq, lnk, speed);
        add_motion(seq, base, st.substate_mod);
        re_modify(seq, st);
        ticks = num_anims(lnk);
        return true;
      }
      const MotionData* a = get_link(st.style, st.substate, st.substate_mod, sd, 1.0f);
      const MotionData* b = get_link(st.style, sd, 1.0f, motion, speed);
      if (a && b) {
        const MotionData* d = get_link(st.style, sd, 1.0f, st.substate, st.substate_mod);
        st.add_action(motion, speed);
        seq.clear_physics();
        seq.remove_cyclic_anims();
        add_motion(seq, a, 1.0f);
        add_motion(seq, b, speed);
        add_motion(seq, d, 1.0f);
        add_motion(seq, base, st.substate_mod);
        re_modify(seq, st);
        ticks = num_anims(a) + num_anims(b) + num_anims(d);
        return true;
      }
    }
  }

  // Modifier (0x20000000): layered velocity/omega, no nodes.
  if (motion & kModifierBit) {
    const MotionData* base = cycle(motion_key(st.style, st.substate));
    if (base && !(base->bitfield & kClearsModifiers)) {
      if (const MotionData* md = find_modifier(st.style, motion)) {
        if (!st.add_modifier(motion, speed)) {
          uint32_t stop_ticks = 0;
          if (!stop_sequence_motion(motion, 1.0f, st, seq, stop_ticks)) return false;
          if (!st.add_modifier(motion, speed)) return false;
        }
        combine_motion(seq, md, speed);
        ticks = 0;
        return true;
      }
    }
  }
  return false;
}

bool CMotionTable::stop_sequence_motion(uint32_t motion, float /*speed*/, MotionState& st,
                                        CSequence& seq, uint32_t& ticks) const {
  ticks = 0;
  if ((motion & kSubStateBit) && motion == st.substate) {
    // Motion spec Q7: stopping the main cycle is a transition to the style's default. Runtime
    // 2.2: it returns true with that call's ticks, whether or not the transition succeeded.
    get_object_sequence(style_default(st.style), st, seq, 1.0f, ticks, true);
    return true;
  }
  if (motion & kModifierBit) {
    for (size_t i = 0; i < st.modifiers.size(); ++i) {
      if (st.modifiers[i].motion != motion) continue;
      if (const MotionData* md = find_modifier(st.style, motion)) {
        subtract_motion(seq, md, st.modifiers[i].speed_mod);  // only its own contribution
        st.remove_modifier(i);
        return true;
      }
      break;
    }
  }
  return false;
}

bool CMotionTable::stop_object_completely(MotionState& st, CSequence& seq, uint32_t& ticks) const {
  bool any = false;
  ticks = 0;
  while (!st.modifiers.empty()) {
    const MotionModifier head = st.modifiers.front();
    const size_t before = st.modifiers.size();
    if (!stop_sequence_motion(head.motion, head.speed_mod, st, seq, ticks)) break;  // [OpenAC]
    any = true;
    // A substate stop returns true even when nothing changed; do not loop on it forever.
    if (st.modifiers.size() >= before && !st.modifiers.empty() &&
        st.modifiers.front().motion == head.motion && st.substate == head.motion)
      break;
  }
  const bool main = stop_sequence_motion(st.substate, st.substate_mod, st, seq, ticks);
  return main || any;
}

bool CMotionTable::set_default_state(MotionState& st, CSequence& seq, uint32_t& ticks) const {
  ticks = 0;
  const uint32_t ds = data_.default_style;
  const uint32_t sd = style_default(ds);
  const MotionData* cyc = sd != 0 ? cycle(motion_key(ds, sd)) : nullptr;
  if (!cyc) return false;
  st.clear_modifiers();
  st.actions.clear();
  st.style = ds;
  st.substate = sd;
  st.substate_mod = 1.0f;
  ticks = num_anims(cyc) - 1u;
  seq.clear_physics();
  seq.clear_animations();
  add_motion(seq, cyc, 1.0f);
  return true;
}

void CMotionTable::re_modify(CSequence& seq, MotionState& st) const {
  // A table whose turn/sidestep cycles are all allowed can make re_modify re-enter itself
  // without end (each reissue swaps substate and modifier); a depth cap keeps that finite.
  // Nested re_modify calls each reissue every modifier, so even a capped depth can cost
  // modifiers^depth reissues (and nodes); the reissues of one outermost call are capped too.
  thread_local int depth = 0;
  thread_local int reissues_left = 0;
  if (depth >= kMaxReModifyDepth) return;
  if (depth == 0) reissues_left = kMaxReModifyReissues;
  struct Guard {
    int& d;
    explicit Guard(int& v) : d(v) { ++d; }
    ~Guard() { --d; }
  } guard(depth);
  uint32_t ticks = 0;
  const size_t n = st.modifiers.size();
  if (choices_.re_modify == Choices::ReModify::kHeadNTimes) {
    // Runtime 2.2 [all ports]: N times take the head, remove it, reissue it.
    for (size_t i = 0; i < n && !st.modifiers.empty() && reissues_left > 0; ++i) {
      --reissues_left;
      const MotionModifier head = st.modifiers.front();
      st.modifiers.pop_front();
      get_object_sequence(head.motion, st, seq, head.speed_mod, ticks, false);
    }
  } else {
    // Each modifier once, from the back, so the reissues push them back in their order.
    std::deque<MotionModifier> all;
    all.swap(st.modifiers);
    for (auto it = all.rbegin(); it != all.rend(); ++it) {
      if (reissues_left <= 0) {
        st.modifiers.push_front(*it);  // not reissued: kept as it was
        continue;
      }
      --reissues_left;
      get_object_sequence(it->motion, st, seq, it->speed_mod, ticks, false);
    }
  }
}

}  // namespace animkit::asherons_call
