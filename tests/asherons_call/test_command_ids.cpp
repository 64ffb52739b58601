// The command catalogue and the wire restore (asherons-call-command-ids.md; runtime page 5).
#include <gtest/gtest.h>

#include "animkit/asherons_call/player.h"
#include "animkit/asherons_call/wire.h"
#include "fixture.h"

namespace animkit::asherons_call {
namespace {

using test::ObjRig;
using namespace motion;

constexpr uint32_t kWave = 0x13000087u;
constexpr uint32_t kWaveLinkAnim = 0x03000120u;

// Command-ids page: "409 ids", the client's table indexed by the low 16 bits.
TEST(AcCatalogue, FourHundredNineIdsIndexedByLowBits) {
  size_t ids = 0;
  const auto cat = command_catalogue();
  ASSERT_EQ(cat.size(), 0x19Cu);
  for (size_t i = 0; i < cat.size(); ++i) {
    if (cat[i].name.empty()) continue;
    ++ids;
    EXPECT_EQ(cat[i].id & 0xFFFFu, i) << cat[i].name;
    EXPECT_EQ(command_id(cat[i].name), cat[i].id) << cat[i].name;  // names are unique
  }
  EXPECT_EQ(ids, kCatalogueIds);
  EXPECT_EQ(ids, 409u);
  for (size_t low : {0x115u, 0x116u, 0x117u}) EXPECT_TRUE(cat[low].name.empty()) << low;
}

TEST(AcCatalogue, NamedValues) {
  EXPECT_EQ(command_id("Invalid"), 0x00000000u);
  EXPECT_EQ(command_id("Wave"), kWave);
  EXPECT_EQ(command_id("Cheer"), 0x1300004Cu);
  EXPECT_EQ(command_id("YMCA"), 0x1200009Bu);
  EXPECT_EQ(command_id("Cancel"), 0x080000A2u);
  EXPECT_EQ(command_id("MouseLook"), 0x0C0000C1u);
  EXPECT_EQ(command_id("HighAttack"), 0x0D0000B2u);
  EXPECT_EQ(command_id("ATOYOT"), 0x420000F9u);
  EXPECT_EQ(command_id("TwoHandedSwordCombat"), 0x80000044u);
  EXPECT_EQ(command_id("TwoHandedSword"), 0x80000044u);  // the older short name still parses
  EXPECT_EQ(command_name(0x80000044u), "TwoHandedSwordCombat");
  // The three upstream duplicates are not in the list; their low bits hold the UI commands.
  EXPECT_EQ(command_name(0x1000010Fu), "SkillHealOther");
  EXPECT_EQ(command_name(0x09000110u), "PreviousMonster");
  EXPECT_EQ(command_name(0x09000111u), "ClosestMonster");
  EXPECT_EQ(command_id("MimeDrinkDuplicate1"), std::nullopt);
  EXPECT_EQ(command_name(0x10000153u), "LifestoneRecall");  // end of retail, not the 2013 0x150
  EXPECT_EQ(command_name(0x10000165u), "Fishing");
  EXPECT_EQ(command_name(0x1000019Bu), "WoahDuplicate2");
  EXPECT_EQ(command_name(0x10000087u), "");  // the class byte is part of the id
  EXPECT_EQ(command_label(0x10000087u), "0x10000087");
}

// Command-ids page: an emote sent as 0x0087 comes back as 0x13000087 (Wave), not 0x10000087;
// the fallbacks apply only to low values with no entry, and say so.
TEST(AcCatalogue, RestoreWireCommand) {
  EXPECT_EQ(restore_wire_command(0x0087, WireField::kAction).id, kWave);
  EXPECT_FALSE(restore_wire_command(0x0087, WireField::kAction).fallback);
  EXPECT_EQ(restore_wire_command(0x0007, WireField::kForward).id, kRunForward);
  EXPECT_EQ(restore_wire_command(0x000F, WireField::kSidestep).id, kSideStepRight);
  EXPECT_EQ(restore_wire_command(0x000D, WireField::kTurn).id, kTurnRight);
  EXPECT_EQ(restore_wire_command(0x0000, WireField::kForward).id, 0u);  // Invalid is an entry
  EXPECT_FALSE(restore_wire_command(0x0000, WireField::kForward).fallback);
  EXPECT_EQ(restore_wire_command(0x019B, WireField::kAction).id, 0x1000019Bu);
  for (uint16_t low : {uint16_t{0x0115}, uint16_t{0x0116}, uint16_t{0x0117}, uint16_t{0x019C},
                       uint16_t{0xFFFF}}) {
    const RestoredCommand f = restore_wire_command(low, WireField::kForward);
    EXPECT_TRUE(f.fallback);
    EXPECT_EQ(f.id, 0x40000000u | low);
    EXPECT_EQ(restore_wire_command(low, WireField::kSidestep).id, 0x65000000u | low);
    EXPECT_EQ(restore_wire_command(low, WireField::kTurn).id, 0x65000000u | low);
    EXPECT_EQ(restore_wire_command(low, WireField::kAction).id, 0x10000000u | low);
    EXPECT_TRUE(restore_wire_command(low, WireField::kAction).fallback);
  }
}

MovementMessage emote_message(uint16_t seq, uint16_t action, uint16_t stamp) {
  MovementMessage m;
  m.guid = 0x50000001;
  m.movement_sequence = seq;
  m.current_style = 0x003D;
  InterpretedMotionState s;
  m.state = wire_state_from(s);
  m.state.actions.push_back({action, stamp, 1.0f});
  return m;
}

// Issue 13 / command-ids page: a server-sent Wave (0x0087 on the wire) restores to 0x13000087,
// finds the Ready -> Wave link (keyed by the full id) and plays it; its completion reaches
// MotionDone.
TEST(AcCatalogue, ServerSentWavePlaysThroughItsLink) {
  MotionTable t = humanoid_table();
  ASSERT_EQ(t.links[0].key, motion_key(kNonCombat, kReady));
  t.links[0].targets.push_back({kWave, motion_data(kWaveLinkAnim)});
  ObjRig r(t);
  r.store.add(synthetic_animation(kWaveLinkAnim, 12, 5, false));
  PhysicsObj& o = *r.obj;
  o.begin_tick();
  o.update_object(1.0 / 30.0);  // the default state's queue entries complete
  ASSERT_TRUE(o.interp.pending_motions.empty());

  const MovementMessage m = emote_message(1, 0x0087, 0x0001);
  // Through the bytes, as the scenario player does.
  const InputRecord rec = apply_wire(o, write_movement_message(m));
  EXPECT_EQ(rec.wire_result, "applied");
  ASSERT_EQ(rec.commands.size(), 2u);  // forward Ready, then the action
  EXPECT_EQ(rec.commands[1].field, WireField::kAction);
  EXPECT_EQ(rec.commands[1].restored.id, kWave);
  EXPECT_FALSE(rec.commands[1].restored.fallback);

  ASSERT_EQ(o.manager.state.actions.size(), 1u);
  EXPECT_EQ(o.manager.state.actions.front().motion, kWave);
  std::vector<uint32_t> anims;
  for (const AnimSequenceNode& n : o.sequence.anim_list()) anims.push_back(n.anim_id);
  ASSERT_EQ(anims.size(), 2u);
  EXPECT_EQ(anims[0], kWaveLinkAnim);  // the link ...
  EXPECT_EQ(anims[1], 0x03000100u);   // ... then back to the Ready cycle (runtime 2.1, action)
  EXPECT_EQ(o.sequence.curr_index(), 0);
  ASSERT_FALSE(o.manager.pending_animations().empty());
  EXPECT_EQ(o.manager.pending_animations().back(), (PendingAnimation{kWave, 1}));

  // 12 frames at 30 fps: the link finishes after 0.4 s and the Wave is done.
  bool done = false;
  for (int tick = 0; tick < 20 && !done; ++tick) {
    o.begin_tick();
    o.update_object(1.0 / 30.0);
    for (const PhysicsObj::Done& d : o.tick_motion_done) {
      if (d.motion == kWave) {
        EXPECT_TRUE(d.success);
        EXPECT_EQ(tick, 11);  // leaving frame 11 at the 12th tick
        done = true;
      }
    }
  }
  EXPECT_TRUE(done);
  EXPECT_TRUE(o.manager.state.actions.empty());
}

// The trace marks a fallback (command-ids page, "the trace should say that a fallback was used").
TEST(AcCatalogue, TraceSaysFallback) {
  ObjRig r;
  PhysicsObj& o = *r.obj;
  const InputRecord rec = apply_wire(o, write_movement_message(emote_message(1, 0x0116, 1)));
  const Json j = trace_json(o, 0, 0.0, {rec});
  const Json& cmds = j["inputs"][0]["commands"];
  ASSERT_EQ(cmds.size(), 2u);
  EXPECT_EQ(cmds[0]["name"], "Ready");
  EXPECT_FALSE(cmds[0].contains("fallback"));
  EXPECT_EQ(cmds[1]["wire"], "0x0116");
  EXPECT_EQ(cmds[1]["id"], "0x10000116");
  EXPECT_EQ(cmds[1]["fallback"], true);
  const std::string text = trace_text(o, 0, 0.0, {rec});
  EXPECT_NE(text.find("action 0x0116=0x10000116 (fallback)"), std::string::npos) << text;
}

}  // namespace
}  // namespace animkit::asherons_call
