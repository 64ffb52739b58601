// The registry side: formats, sniffs, documents, `play` scenarios and traces, export sets.
#include <gtest/gtest.h>

#include <sstream>

#include "animkit/asherons_call/module.h"
#include "animkit/asherons_call/player.h"
#include "animkit/asherons_call/wire.h"
#include "fixture.h"

namespace animkit::asherons_call {
namespace {

namespace fs = std::filesystem;
using namespace motion;

fs::path temp_dir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("animkit_ac_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir / "anims");
  return dir;
}

// Writes the humanoid table as JSON and its animations half binary, half JSON.
fs::path write_assets(const std::string& name) {
  const fs::path dir = temp_dir(name);
  write_text(dir / "table.json", to_json(humanoid_table()).dump(1));
  write_file(dir / "0x09000101.bin", write_motion_table(humanoid_table()));
  bool json = false;
  for (const Animation& a : humanoid_animations()) {
    if (json) {
      write_text(dir / "anims" / (hex32(a.id) + ".json"), to_json(a).dump());
    } else {
      write_file(dir / "anims" / (hex32(a.id) + ".bin"), write_animation(a));
    }
    json = !json;
  }
  write_text(dir / "parts.json", humanoid_parts_json());
  return dir;
}

std::string wire_hex(uint16_t seq, uint32_t forward) {
  MovementMessage m;
  m.movement_sequence = seq;
  InterpretedMotionState s;
  s.forward_command = forward;
  m.state = wire_state_from(s);
  return to_hex(write_movement_message(m));
}

TEST(AcModule, FormatsSniffAndOpen) {
  Registry reg;
  register_module(reg);
  const fs::path dir = write_assets("formats");
  const Format* used = nullptr;
  auto doc = reg.open(dir / "table.json", {}, &used);
  EXPECT_EQ(used->name, "ac-motion-table-json");
  EXPECT_EQ(doc->info()["cycles"], 5);
  doc = reg.open(dir / "0x09000101.bin", {}, &used);
  EXPECT_EQ(used->name, "ac-motion-table");
  EXPECT_EQ(motion_table_from_json(doc->dump()), humanoid_table());
  doc = reg.open(dir / "anims" / "0x03000100.bin", {}, &used);
  EXPECT_EQ(used->name, "ac-animation");
  ASSERT_TRUE(doc->to_neutral().has_value());
  doc = reg.open(dir / "anims" / "0x03000101.json", {}, &used);
  EXPECT_EQ(used->name, "ac-animation-json");
  EXPECT_EQ(doc->dump()["num_frames"], 30);
  // a scenario names the engine and a motion_table file, but is neither kind
  const std::string scenario =
      R"({"engine": "asherons_call", "motion_table": "table.json", "ticks": []})";
  const Bytes head(reinterpret_cast<const uint8_t*>(scenario.data()), scenario.size());
  EXPECT_EQ(reg.detect("s.json", head), nullptr);
}

TEST(AcModule, OpenSetExportsCyclesAndLinks) {
  Registry reg;
  register_module(reg);
  const fs::path dir = write_assets("openset");
  const Engine* e = reg.engine("asherons_call");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->open_set(Options{}), nullptr);
  auto doc = e->open_set(Options{{"motion-table", (dir / "table.json").string()},
                                 {"animations", (dir / "anims").string()}});
  ASSERT_NE(doc, nullptr);
  auto flat = doc->to_neutral();
  ASSERT_TRUE(flat.has_value());
  EXPECT_EQ(flat->clips.size(), 12u);          // 5 cycles + 7 links
  EXPECT_EQ(flat->skeleton.num_joints(), 6u);  // root + 5 parts
  for (size_t j = 1; j < 6; ++j) EXPECT_EQ(flat->skeleton.parents[j], 0);
  for (const Clip& c : flat->clips) EXPECT_EQ(c.validate(6), "") << c.name;
  auto tree = e->open_set(Options{{"motion-table", (dir / "table.json").string()},
                                  {"animations", (dir / "anims").string()},
                                  {"parts", (dir / "parts.json").string()}})
                  ->to_neutral();
  EXPECT_EQ(tree->skeleton.parents[3], 2);  // head under torso
  EXPECT_TRUE(doc->validate().empty());
}

TEST(AcModule, PlayTraceLines) {
  const fs::path dir = write_assets("play");
  Json scenario = parse_json(R"({"engine": "asherons_call", "motion_table": "0x09000101.bin",
    "animations": {"0x03000100": "anims/0x03000100.bin", "0x03000101": "anims/0x03000101.json",
                   "0x03000110": "anims/0x03000110.json", "0x03000113": "anims/0x03000113.bin"},
    "ticks": [{"dt": 0.0333, "wire": []}, {"dt": 0.0333}, {"dt": 0.0333, "do": [{"stop": "WalkForward"}]}]})");
  scenario["ticks"][0]["wire"].push_back(wire_hex(1, kWalkForward));
  std::ostringstream out;
  ASSERT_EQ(play_scenario(scenario, dir, true, out), 0);
  std::istringstream lines(out.str());
  std::vector<Json> trace;
  for (std::string l; std::getline(lines, l);) trace.push_back(parse_json(l));
  ASSERT_EQ(trace.size(), 3u);
  EXPECT_EQ(trace[0]["tick"], 0);
  EXPECT_EQ(trace[0]["substate"], "0x45000005");
  EXPECT_EQ(trace[0]["nodes"][0]["anim"], "0x03000110");
  EXPECT_EQ(trace[0]["nodes"][1]["cyclic"], true);
  EXPECT_EQ(trace[0]["inputs"][0]["result"], "applied");
  EXPECT_EQ(trace[0]["velocity"], Json::parse("[0.0, 3.12, 0.0]"));
  EXPECT_EQ(trace[2]["substate"], "0x41000003");
  EXPECT_EQ(trace[2]["velocity"], Json::parse("[0.0, 0.0, 0.0]"));
  for (const char* key :
       {"style", "substate_mod", "curr", "frame_number", "first_cyclic", "omega", "pending_motions",
        "pending_animations", "hooks", "motion_done", "delta"}) {
    EXPECT_TRUE(trace[1].contains(key)) << key;
  }
  EXPECT_EQ(trace[1]["delta"]["rotation"].size(), 4u);
  std::ostringstream text;
  ASSERT_EQ(play_scenario(scenario, dir, false, text), 0);
  EXPECT_NE(text.str().find("WalkForward"), std::string::npos);
}

TEST(AcModule, PlayRejectsBadInput) {
  const fs::path dir = write_assets("bad");
  std::ostringstream out;
  Json s = parse_json(
      R"({"engine": "asherons_call", "motion_table": "table.json", "ticks": [{"dt": 0.1, "wire": ["4cf7"]}]})");
  EXPECT_THROW(play_scenario(s, dir, true, out), Error);
  s = parse_json(
      R"({"engine": "asherons_call", "motion_table": "table.json", "ticks": [{"dt": 0.1, "do": [{"motion": "Moonwalk"}]}]})");
  EXPECT_THROW(play_scenario(s, dir, true, out), Error);
  s = parse_json(
      R"({"engine": "asherons_call", "motion_table": "table.json", "choices": {"ending_frame": "sideways"}, "ticks": []})");
  EXPECT_THROW(play_scenario(s, dir, true, out), Error);
}

TEST(AcChoices, JsonRoundTrip) {
  Choices c;
  c.ending_frame = Choices::EndingFrame::kBare;
  c.data_anim_done = Choices::DataAnimDone::kFire;
  EXPECT_EQ(choices_from_json(to_json(c)), c);
  EXPECT_EQ(to_json(Choices{})["re_modify"], "head_n_times");
  EXPECT_THROW(choices_from_json(Json{{"nope", "x"}}), Error);
}

// Runtime 1.5: data-driven AnimationDone hooks are dropped (dereth) or fire (a choice): with
// "fire", a link's own type-4 hook on its last frame... never fires (the last frame is never
// left), but one on an earlier frame completes the motion early.
TEST(AcChoices, DataAnimationDoneHooks) {
  for (auto rule : {Choices::DataAnimDone::kDrop, Choices::DataAnimDone::kFire}) {
    std::vector<Animation> anims = humanoid_animations();
    AnimationStore store;
    for (Animation& a : anims) {
      if (a.id == 0x03000110) a.frames[1].hooks.push_back({4, 0, {}});
      store.add(std::move(a));
    }
    Choices c;
    c.data_anim_done = rule;
    auto table = std::make_shared<const CMotionTable>(humanoid_table(), c);
    PhysicsObj o(table, &store);
    o.enter_default_state();
    o.manager.check_for_completed_motions();
    MovementParameters p;
    o.interp.DoInterpretedMotion(kWalkForward, p);
    o.begin_tick();
    o.update_object(2.5 / 30.0);  // leaves frames 0 and 1 of the link
    EXPECT_EQ(o.tick_motion_done.size(), rule == Choices::DataAnimDone::kFire ? 1u : 0u);
  }
}

}  // namespace
}  // namespace animkit::asherons_call
