// Hostile input, each bounded in time and memory (issue 13 item 5; README "Choices", safety caps).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "animkit/asherons_call/player.h"
#include "animkit/asherons_call/wire.h"
#include "animkit/core/writer.h"
#include "fixture.h"

namespace animkit::asherons_call {
namespace {

using test::ObjRig;
using test::TableRig;
using namespace motion;

// 2^29 frames x (1227133513 parts x 28 + 4 = 2^35 bytes) is 2^64: a u64 product wraps to 0.
TEST(AcHostile, AnimationSizeProductCannotWrap) {
  Writer w;
  w.u32(0x03000001u);
  w.u32(0);            // flags: no pos frames
  w.u32(1227133513u);  // num_parts
  w.u32(536870912u);   // num_frames
  for (int i = 0; i < 8; ++i) w.u32(0);
  const std::vector<uint8_t> bytes = w.take();
  EXPECT_FALSE(looks_like_animation(bytes));
  try {
    read_animation(bytes);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.offset(), 0xCu);  // at num_frames
    EXPECT_NE(e.message().find("536870912 frames"), std::string::npos) << e.message();
  }
}

// A dt of NaN, infinity or 1e300 is refused before any slice runs.
TEST(AcHostile, DtNotFiniteOrHugeIsRefused) {
  ObjRig r;
  PhysicsObj& o = *r.obj;
  ASSERT_EQ(o.interp.DoInterpretedMotion(kWalkForward, {}), 0u);
  o.begin_tick();
  EXPECT_THROW(o.update_object(std::numeric_limits<double>::quiet_NaN()), Error);
  EXPECT_THROW(o.update_object(std::numeric_limits<double>::infinity()), Error);
  EXPECT_THROW(o.update_object(1e300), Error);  // more slices than the step budget
  EXPECT_EQ(o.tick_slices, 0);
  o.update_object(1.0 / 30.0);  // the object still works
  EXPECT_EQ(o.tick_slices, 1);
  EXPECT_TRUE(std::isfinite(o.position.origin.y));
  // CSequence::update on its own ignores a non-finite step.
  const double frame = o.sequence.frame_number();
  AFrame delta;
  o.sequence.update(std::numeric_limits<double>::quiet_NaN(), &delta);
  EXPECT_EQ(o.sequence.frame_number(), frame);
  EXPECT_EQ(delta.origin, (Vec3{0, 0, 0}));
}

// NaN / infinity speeds from the wire are an error at their offset.
TEST(AcHostile, NonFiniteWireSpeedsAreErrors) {
  MovementMessage m;
  m.movement_sequence = 1;
  InterpretedMotionState s;
  s.forward_command = kWalkForward;
  s.forward_speed = std::numeric_limits<float>::quiet_NaN();
  m.state = wire_state_from(s);
  ASSERT_TRUE(m.state.flags & imf::kForwardSpeed);
  try {
    read_movement_message(write_movement_message(m));
    FAIL() << "no error";
  } catch (const Error& e) {
    // opcode 4, guid 4, instance 2, header 2+2+1+1, type/flags/style 4, packed 4, style+fwd 4.
    EXPECT_EQ(e.offset(), 28u);
    EXPECT_NE(e.message().find("forward speed"), std::string::npos) << e.message();
  }
  s.forward_speed = 1.0f;
  m.state = wire_state_from(s);
  m.state.actions.push_back({0x0087, 1, std::numeric_limits<float>::infinity()});
  EXPECT_THROW(read_movement_message(write_movement_message(m)), Error);
  MovementMessage mt;
  mt.movement_type = 7;
  mt.move_to.type = 7;
  mt.move_to.params.assign(6, 0.0f);
  mt.move_to.run_rate = std::numeric_limits<float>::infinity();
  EXPECT_THROW(read_movement_message(write_movement_message(mt)), Error);
}

// ... and from a scenario: a number past the f32 range would become infinity.
TEST(AcHostile, NonFiniteScenarioSpeedsAreErrors) {
  ObjRig r;
  EXPECT_THROW(apply_do(*r.obj, Json::parse(R"({"motion": "WalkForward", "speed": 1e39})")),
               Error);
  EXPECT_THROW(apply_object_settings(*r.obj, Json::parse(R"({"run_rate": -1e300})")), Error);
  EXPECT_EQ(r.obj->interp.interpreted_state.forward_command, kReady);  // nothing applied
}

// A cycle at a frame rate of 3e38 plays in next to no time: the advance cap (1024 per update)
// bounds the wraps, so a 3-frame cycle with a hook on every frame queues at most 3 x 1024 hooks
// in a tick, not 300,000.
TEST(AcHostile, HugeFrameRateIsBoundedPerTick) {
  constexpr uint32_t kAnim = 0x03000200u;
  MotionTable t = humanoid_table();
  t.cycles[0].data.anims[0] = {kAnim, 0, -1, 3e38f};  // NonCombat/Ready
  ObjRig r(t);
  Animation a = synthetic_animation(kAnim, 3, 5, false);
  for (AnimationFrame& f : a.frames) {
    f.hooks.push_back(AnimHook{static_cast<uint32_t>(HookType::kSound), 0, {0x0A000001u}});
  }
  r.store.add(std::move(a));
  // Rebuild the default state with the animation present.
  PhysicsObj o(r.table, &r.store);
  o.enter_default_state();
  o.begin_tick();
  o.update_object(1.0 / 30.0);
  EXPECT_GT(o.tick_hooks.size(), 0u);
  EXPECT_LE(o.tick_hooks.size(), 3u * CSequence::kMaxAdvances);
  EXPECT_LE(o.tick_hooks.size(), CSequence::kMaxHooksPerUpdate);
  EXPECT_TRUE(std::isfinite(o.sequence.frame_number()));
  EXPECT_TRUE(std::isfinite(o.position.origin.x));
}

// More hooks than kMaxHooksPerUpdate in one update: the rest are dropped and counted.
TEST(AcHostile, HooksPerUpdateAreCapped) {
  constexpr uint32_t kAnim = 0x03000201u;
  MotionTable t = humanoid_table();
  t.cycles[0].data.anims[0] = {kAnim, 0, -1, 3e38f};
  ObjRig r(t);
  Animation a = synthetic_animation(kAnim, 40, 1, false);
  for (AnimationFrame& f : a.frames) {
    for (int k = 0; k < 4; ++k) {
      f.hooks.push_back(AnimHook{static_cast<uint32_t>(HookType::kSound), 0, {0x0A000001u}});
    }
  }
  r.store.add(std::move(a));
  PhysicsObj o(r.table, &r.store);
  o.enter_default_state();
  o.begin_tick();
  o.update_object(1.0 / 30.0);
  EXPECT_EQ(o.tick_hooks.size(), CSequence::kMaxHooksPerUpdate);
  EXPECT_GT(o.sequence.dropped_hooks(), 0u);
}

// Turn and sidestep cycles allowed from anywhere make every substate change push the old one
// as a modifier and re_modify reissue them, each reissue nesting another re_modify: the
// reissues of one call are capped (64), so the work and the node list stay bounded.
TEST(AcHostile, ReModifyCascadeIsBounded) {
  MotionTable t = humanoid_table();
  for (KeyedMotion& c : t.cycles) c.data.bitfield = 0;
  t.cycles.push_back({motion_key(kNonCombat, kTurnLeft), motion_data(0x03000104)});
  t.cycles.push_back({motion_key(kNonCombat, kSideStepLeft), motion_data(0x03000103)});
  TableRig r(t);
  for (uint32_t m : {kTurnRight, kSideStepRight, kTurnLeft, kSideStepLeft, kTurnRight,
                     kSideStepRight, kTurnLeft, kSideStepLeft}) {
    r.go(m, 1.0f);
    // The substate branch pushes the old substate without a duplicate check (runtime 2.1), so
    // the list can grow, but by at most one per reissue.
    EXPECT_LE(r.st.modifiers.size(), CMotionTable::kMaxReModifyReissues + 8u);
    // Each reissue appends at most a link, an extra link and a cycle.
    EXPECT_LE(r.seq.anim_list().size(), 3u * (CMotionTable::kMaxReModifyReissues + 8));
  }
}

}  // namespace
}  // namespace animkit::asherons_call
