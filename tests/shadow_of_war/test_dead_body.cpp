// The dead-body step through `animkit play` (spec: "The dead-body step", "The ring of eight"):
// rest timing, the body cleanup and its slot, the 15-corpse read.
#include <gtest/gtest.h>

#include "fixtures.h"

namespace animkit::shadow_of_war {
namespace {

using testing::play_frames;

Json base_scene(int frames, double dt) {
  Json s = Json::parse(R"({"engine": "shadow_of_war", "joints": 4,
    "files": [{"path": "a.anix", "clips": [{"name": "idle", "duration": 1}]}],
    "graph": {"states": [{"name": "Idle", "clip": "idle"}]},
    "ragdoll_configs": [{"name": "Orc_Base", "BehaviorControllers": [{"name": "DieController"}]}],
    "script": []})");
  s["frames"] = frames;
  s["dt"] = dt;
  return s;
}

void die(Json& s, int frame, const std::string& who) {
  s["script"].push_back({{"frame", frame}, {"character", who}, {"die", true}});
}

const Json& ragdoll(const std::vector<Json>& frames, int frame, int character) {
  return frames.at(frame)["characters"][character]["ragdoll"];
}

// Spec, step 4: "a body is at rest ... after 3 s once its speed falls below ... AtRestSpeed (15
// cm/s without a record)". At dt 0.1 that is 30 later frames, not 31 (a float sum of 0.1 reaches
// 3.0 only at the 31st step).
TEST(DeadBody, SlowBodyWithoutBrainRestsAtThreeSeconds) {
  Json s = base_scene(40, 0.1);
  s["models"] = {{"warg", {{"BodyCleanup", ""}}}};  // no RagdollConfig: slot, no brain
  s["characters"] = {{{"name", "warg"}, {"model", "warg"}, {"values", {{"velocity", 0}}}}};
  die(s, 2, "warg");
  const auto frames = play_frames(s);
  EXPECT_EQ(ragdoll(frames, 2, 0)["slot"], 0);
  EXPECT_EQ(ragdoll(frames, 2, 0)["controller"], "");
  EXPECT_FALSE(ragdoll(frames, 31, 0)["at_rest"].get<bool>());
  EXPECT_EQ(ragdoll(frames, 31, 0)["time"].get<double>(), 2.9);
  EXPECT_TRUE(ragdoll(frames, 32, 0)["at_rest"].get<bool>());
  EXPECT_EQ(ragdoll(frames, 32, 0)["rest_at"].get<double>(), 3.0);
  EXPECT_EQ(ragdoll(frames, 32, 0)["time"].get<double>(), 3.0);
  EXPECT_EQ(frames[32]["time"].get<double>(), 3.3);  // frame times do not drift either
}

// Same at 60 frames per second: 180 later frames.
TEST(DeadBody, SlowBodyWithBrainRestsAtThreeSecondsAt60Hz) {
  Json s = base_scene(200, 1.0 / 60);
  s["models"] = {{"orc", {{"RagdollConfig", "Orc_Base"}}}};
  s["characters"] = {{{"name", "orc"}, {"model", "orc"}, {"values", {{"velocity", 10}}}}};
  die(s, 0, "orc");
  const auto frames = play_frames(s);
  EXPECT_EQ(ragdoll(frames, 1, 0)["controller"], "DieController");  // the brain runs
  EXPECT_FALSE(ragdoll(frames, 179, 0)["at_rest"].get<bool>());
  EXPECT_TRUE(ragdoll(frames, 180, 0)["at_rest"].get<bool>());
  EXPECT_EQ(ragdoll(frames, 180, 0)["slot"], -1);
}

// BodyCleanup Troll and Fellbeast set AtRestSpeed to 1,000,000: those bodies rest at 3 s
// whatever their speed; the default model needs 15 s at that speed.
TEST(DeadBody, TrollRecordRestsAtOnceAfterThreeSeconds) {
  Json s = base_scene(160, 0.1);
  s["BodyCleanup"] = {{"Troll", {{"AtRestSpeed", 1000000}}}};
  s["models"] = {{"troll", {{"BodyCleanup", "Troll"}}}, {"orc", {{"RagdollConfig", "Orc_Base"}}}};
  s["characters"] = {{{"name", "troll"}, {"model", "troll"}, {"values", {{"velocity", 5000}}}},
                     {{"name", "orc"}, {"model", "orc"}, {"values", {{"velocity", 5000}}}}};
  die(s, 0, "troll");
  die(s, 0, "orc");
  const auto frames = play_frames(s);
  EXPECT_FALSE(ragdoll(frames, 29, 0)["at_rest"].get<bool>());
  EXPECT_TRUE(ragdoll(frames, 30, 0)["at_rest"].get<bool>());
  EXPECT_FALSE(ragdoll(frames, 30, 1)["at_rest"].get<bool>());
  EXPECT_FALSE(ragdoll(frames, 149, 1)["at_rest"].get<bool>());
  EXPECT_TRUE(ragdoll(frames, 150, 1)["at_rest"].get<bool>());
}

// Spec, "The ring of eight": "In one read 15 corpses lay in the world and two held slots". Fifteen
// orcs die 1.5 s apart and lie still: each rests 3 s after its death, its cleanup releases its
// slot, so at the fifteenth death only the last two hold one; the bodies stay for the record's
// Lifetime and are then removed.
TEST(DeadBody, FifteenDeathsLeaveFifteenCorpsesAndTwoHeldSlots) {
  Json s = base_scene(450, 0.1);
  s["BodyCleanup"] = {{"Orc", {{"Lifetime", 20}, {"SinkDistance", 150}}}};
  s["models"] = {{"orc", {{"RagdollConfig", "Orc_Base"}, {"BodyCleanup", "Orc"}}}};
  s["characters"] = {
      {{"name", "orc"}, {"count", 15}, {"model", "orc"}, {"values", {{"velocity", 2}}}}};
  for (int i = 0; i < 15; ++i) die(s, 15 * i, "orc_" + std::to_string(i));
  const auto frames = play_frames(s);
  const Json& read = frames[210];
  EXPECT_EQ(read["ragdolls"]["corpses"], 15);
  EXPECT_EQ(read["ragdolls"]["held_slots"], 2);
  EXPECT_EQ(ragdoll(frames, 210, 13)["slot"], 5);
  EXPECT_EQ(ragdoll(frames, 210, 14)["slot"], 6);
  EXPECT_EQ(ragdoll(frames, 210, 12)["slot"], -1);  // died at frame 180: rested at 3.0 s
  EXPECT_TRUE(ragdoll(frames, 210, 12)["at_rest"].get<bool>());
  for (int i = 0; i < 12; ++i) {
    SCOPED_TRACE(i);
    EXPECT_TRUE(ragdoll(frames, 210, i)["at_rest"].get<bool>());
    EXPECT_EQ(ragdoll(frames, 210, i)["cleanup"]["record"], "Orc");
  }
  // Lifetime 20 s after rest: orc_0 rested at frame 30, is removed at frame 230.
  EXPECT_FALSE(ragdoll(frames, 229, 0)["cleanup"]["removed"].get<bool>());
  EXPECT_TRUE(ragdoll(frames, 230, 0)["cleanup"]["removed"].get<bool>());
  EXPECT_EQ(ragdoll(frames, 230, 0)["cleanup"]["SinkDistance"].get<double>(), 150.0);
  EXPECT_EQ(frames[230]["ragdolls"]["corpses"], 14);
  // The last died at frame 210, rested at 240, is removed at 440.
  EXPECT_EQ(frames[439]["ragdolls"]["corpses"], 1);
  EXPECT_EQ(frames[440]["ragdolls"]["corpses"], 0);
  EXPECT_EQ(frames[440]["ragdolls"]["held_slots"], 0);
}

// Spec, step 4: "A resting body that is not the player goes to the body cleanup ...; otherwise
// 0x145218 relaxes the hit reaction": the player's resting body is relaxed, never cleaned up, and
// keeps its slot until the ring takes it back.
TEST(DeadBody, PlayerIsRelaxedNotCleanedUp) {
  Json s = base_scene(50, 0.1);
  s["characters"] = {{{"name", "talion"}, {"player", true}, {"values", {{"velocity", 0}}}},
                     {{"name", "orc"}, {"values", {{"velocity", 0}}}}};
  die(s, 0, "talion");
  die(s, 0, "orc");
  const auto frames = play_frames(s);
  const Json& p = ragdoll(frames, 40, 0);
  EXPECT_TRUE(p["at_rest"].get<bool>());
  EXPECT_FALSE(p.contains("cleanup"));
  EXPECT_EQ(p["slot"], 0);
  EXPECT_EQ(p["relax_time"].get<double>(), 4.0);
  const Json& o = ragdoll(frames, 40, 1);
  EXPECT_TRUE(o["cleanup"]["record"].is_null());  // no BodyCleanup record
  EXPECT_EQ(o["slot"], -1);
  EXPECT_FALSE(o.contains("relax_time"));
  EXPECT_EQ(frames[40]["ragdolls"]["held_slots"], 1);
}

TEST(DeadBody, UnknownModelRecordsAreErrors) {
  Json s = base_scene(1, 0.1);
  s["models"] = {{"orc", {{"RagdollConfig", "Nope"}}}};
  s["characters"] = {{{"name", "orc"}, {"model", "orc"}}};
  EXPECT_THROW(play_frames(s), Error);
  s["models"] = {{"orc", {{"BodyCleanup", "Nope"}}}};
  EXPECT_THROW(play_frames(s), Error);
  s["models"] = {{"orc", Json::object()}};
  s["characters"][0]["model"] = "elf";
  EXPECT_THROW(play_frames(s), Error);
}

}  // namespace
}  // namespace animkit::shadow_of_war
