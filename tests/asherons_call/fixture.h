// Shared fixtures: the humanoid table of animkit/asherons_call/synthetic.h (built in code) and
// small helpers.
#pragma once

#include <memory>

#include "animkit/asherons_call/command_ids.h"
#include "animkit/asherons_call/frame_ops.h"
#include "animkit/asherons_call/motion_table_runtime.h"
#include "animkit/asherons_call/physics_obj.h"
#include "animkit/asherons_call/synthetic.h"

namespace animkit::asherons_call::test {

using namespace motion;

inline AnimationStore humanoid_store() {
  AnimationStore s;
  for (Animation& a : humanoid_animations()) s.add(std::move(a));
  return s;
}

// A CSequence + MotionState over a table, in the table's default state.
struct TableRig {
  AnimationStore store = humanoid_store();
  std::unique_ptr<CMotionTable> table;
  CSequence seq;
  MotionState st;
  uint32_t ticks = 0;

  explicit TableRig(MotionTable t = humanoid_table(), Choices c = {}) {
    table = std::make_unique<CMotionTable>(std::move(t), c);
    seq.set_store(&store);
    seq.set_choices(&table->choices());
    table->set_default_state(st, seq, ticks);
  }
  bool go(uint32_t motion, float speed) {
    return table->do_object_motion(motion, st, seq, speed, ticks);
  }
  std::vector<uint32_t> anims() const {
    std::vector<uint32_t> out;
    for (const AnimSequenceNode& n : seq.anim_list()) out.push_back(n.anim_id);
    return out;
  }
  const AnimSequenceNode& node(size_t i) const {
    auto it = seq.anim_list().begin();
    std::advance(it, static_cast<long>(i));
    return *it;
  }
};

// A physics object (remote creature) over a table, in the default state.
struct ObjRig {
  AnimationStore store = humanoid_store();
  std::shared_ptr<const CMotionTable> table;
  std::unique_ptr<PhysicsObj> obj;

  explicit ObjRig(MotionTable t = humanoid_table(), Choices c = {}) {
    table = std::make_shared<const CMotionTable>(std::move(t), c);
    obj = std::make_unique<PhysicsObj>(table, &store);
    obj->enter_default_state();
  }
};

inline MotionTable without_link(MotionTable t, uint32_t from, uint32_t to) {
  for (LinkSet& l : t.links) {
    if (l.key != motion_key(kNonCombat, from)) continue;
    std::erase_if(l.targets, [&](const LinkTarget& lt) { return lt.to_motion == to; });
  }
  return t;
}

}  // namespace animkit::asherons_call::test
