// The brain's whole choice (spec, "The brain"): the first controller whose conditions pass
// (hints from the character and from BEHAVIOR_HINT clip events), then a BehaviorSet by
// RequiredRagdollConfig, its behaviour and the behaviour's Sequences (Clamp, PingPong).
#include <gtest/gtest.h>

#include "fixtures.h"

namespace animkit::shadow_of_war {
namespace {

using testing::play_frames;

Json scene() {
  return Json::parse(R"J({"engine": "shadow_of_war", "joints": 4, "frames": 30, "dt": 0.1,
    "files": [{"path": "a.anix", "clips": [{"name": "idle", "duration": 1},
      {"name": "death_hint", "duration": 2, "looping": false, "events": [{"ms": 0, "text": "BEHAVIOR_HINT(Writhe)"}]}]}],
    "graph": {"states": [{"name": "Idle", "clip": "idle"}]},
    "ragdoll_configs": [{"name": "Orc_Base", "OnGround": [-1000, 30], "Stationary": [0, 15],
      "BehaviorControllers": [
        {"name": "DieHeadSeveredController", "HeadSevered": true, "BehaviorSets": ["HeadSevered_Orc"]},
        {"name": "WritheOnGroundController", "IncludeHints": ["Writhe"], "TimeOnGround": [1, 1000],
         "BehaviorSets": ["Writhe_Olog", "Writhe_Orc"]},
        {"name": "PanicLostGroundController", "ExcludeHints": ["Calm"], "Velocity": [100, 1000000]},
        {"name": "DieController", "BehaviorSets": ["Die_Orc"]}]}],
    "BehaviorSets": [{"name": "HeadSevered_Orc", "RequiredRagdollConfig": "Orc_Base", "Behaviors": ["Limp"]},
                     {"name": "Writhe_Olog", "RequiredRagdollConfig": "OlogHai_Base", "Behaviors": ["Thrash"]},
                     {"name": "Writhe_Orc", "RequiredRagdollConfig": "Orc_Base", "Behaviors": ["Writhe", "Thrash"]},
                     {"name": "Die_Orc", "RequiredRagdollConfig": "Orc_Base", "Behaviors": ["Limp"]}],
    "Behaviors": [{"name": "Limp", "Strength": [0, 0.2], "Stiffness": [0.1, 0.3], "Sequences": ["Slump"]},
                  {"name": "Writhe", "JointMask": [0, 1, 2], "ScalarMappings": {"Strength": 0.5}, "Sequences": ["Twist", "Kick"]},
                  {"name": "Thrash", "Sequences": ["Kick"]}],
    "Sequences": [{"name": "Slump", "Mode": "Clamp", "keys": [{"time": 0, "pose": "Sit"}, {"time": 1, "pose": "Flat"}]},
                  {"name": "Twist", "Mode": "PingPong", "keys": [{"time": 0, "pose": "A"}, {"time": 0.5, "pose": "B"}]},
                  {"name": "Kick", "keys": [{"time": 0, "pose": "A"}]}],
    "TargetPoses": [{"name": "Sit", "joints": [{"Index": 0, "Pitch": 30}]}, {"name": "Flat"},
                    {"name": "A", "joints": [{"Index": 3, "Yaw": -10, "Roll": 5}]}, {"name": "B"}],
    "models": {"orc": {"RagdollConfig": "Orc_Base"}},
    "characters": [{"name": "orc", "model": "orc", "values": {"height": 0, "velocity": 0}}],
    "script": [{"frame": 0, "character": "orc", "die": true}]})J");
}

const Json& body(const std::vector<Json>& frames, int f, int c = 0) {
  return frames.at(f)["characters"][c]["ragdoll"];
}

TEST(Brain, ControllerThenBehaviorSetThenBehaviorThenSequences) {
  Json s = scene();
  s["script"].push_back({{"frame", 15}, {"character", "orc"}, {"hints", {"Writhe"}}});
  const auto frames = play_frames(s);
  const Json& first = body(frames, 1);
  EXPECT_EQ(first["controller"], "DieController");
  EXPECT_EQ(first["behavior_set"], "Die_Orc");
  EXPECT_EQ(first["behavior"], "Limp");
  ASSERT_EQ(first["sequences"].size(), 1u);
  EXPECT_EQ(first["sequences"][0]["name"], "Slump");
  EXPECT_EQ(first["sequences"][0]["pose"], "Sit");
  // Clamp: Flat from 1 s on, held.
  EXPECT_EQ(body(frames, 10, 0)["sequences"][0]["pose"], "Sit");  // 0.9 s
  EXPECT_EQ(body(frames, 11, 0)["sequences"][0]["pose"], "Flat");
  EXPECT_EQ(body(frames, 14, 0)["sequences"][0]["time"].get<double>(), 1.0);
  EXPECT_NEAR(body(frames, 14, 0)["timers"]["on_ground"].get<double>(), 1.4, 1e-5);
  // The hint lets WritheOnGroundController pass (on the ground 1.5 s); the Olog set is skipped
  // by its RequiredRagdollConfig.
  const Json& writhe = body(frames, 15);
  EXPECT_EQ(writhe["hints"], Json::array({"Writhe"}));
  EXPECT_EQ(writhe["controller"], "WritheOnGroundController");
  EXPECT_EQ(writhe["prior"], "DieController");
  EXPECT_EQ(writhe["behavior_set"], "Writhe_Orc");
  EXPECT_EQ(writhe["behavior"], "Writhe");
  ASSERT_EQ(writhe["sequences"].size(), 2u);
  EXPECT_EQ(writhe["sequences"][0]["name"], "Twist");
  EXPECT_EQ(writhe["sequences"][1]["name"], "Kick");
  EXPECT_EQ(writhe["timers"]["in_behavior"].get<double>(), 0.0);  // reset on the change
  // PingPong over 0.5 s: 0.5 s -> B, 0.7 s -> back at 0.3 -> A, 1.0 s -> 0 -> A.
  EXPECT_EQ(body(frames, 20)["sequences"][0]["pose"], "B");
  EXPECT_NEAR(body(frames, 22)["sequences"][0]["time"].get<double>(), 0.3, 1e-5);
  EXPECT_EQ(body(frames, 22)["sequences"][0]["pose"], "A");
  EXPECT_NEAR(body(frames, 25)["sequences"][0]["time"].get<double>(), 0.0, 1e-5);
}

// BEHAVIOR_HINT on the clip the body plays (its RagdollDeathAnimation) is a hint too.
TEST(Brain, BehaviorHintClipKeyword) {
  Json s = scene();
  s["global"] = {{"RagdollDeathAnimation", "death_hint"}};
  const auto frames = play_frames(s);
  EXPECT_EQ(body(frames, 1)["hints"], Json::array({"Writhe"}));
  EXPECT_EQ(body(frames, 9)["controller"], "DieController");  // on the ground 0.9 s
  EXPECT_EQ(body(frames, 10)["controller"], "WritheOnGroundController");
}

TEST(Brain, ExcludeHintsAndHeadSevered) {
  Json s = scene();
  s["characters"][0]["values"]["velocity"] = 500;
  s["characters"][0]["hints"] = {"Calm"};
  s["script"].push_back({{"frame", 5}, {"character", "orc"}, {"hints", Json::array()}});
  s["script"].push_back({{"frame", 8}, {"character", "orc"}, {"values", {{"head_severed", 1}}}});
  const auto frames = play_frames(s);
  EXPECT_EQ(body(frames, 2)["controller"], "DieController");  // Calm excludes Panic
  EXPECT_EQ(body(frames, 5)["controller"], "PanicLostGroundController");
  EXPECT_TRUE(body(frames, 5)["behavior_set"].is_null());  // no BehaviorSets listed
  EXPECT_EQ(body(frames, 5)["sequences"].size(), 0u);
  EXPECT_EQ(body(frames, 8)["controller"], "DieHeadSeveredController");
  EXPECT_EQ(body(frames, 8)["behavior_set"], "HeadSevered_Orc");
  EXPECT_EQ(body(frames, 8)["prior"], "PanicLostGroundController");
}

TEST(Brain, BadBehaviourRecords) {
  Json s = scene();
  s["Behaviors"][0]["Sequences"] = {"Nope"};
  EXPECT_THROW(play_frames(s), Error);
  s = scene();
  s["Sequences"][0]["Mode"] = "Loop";
  EXPECT_THROW(play_frames(s), Error);
  s = scene();
  s["BehaviorSets"][0]["Behaviors"] = {"Nope"};
  EXPECT_THROW(play_frames(s), Error);
}

TEST(Brain, EventArgument) {
  EXPECT_EQ(event_argument("BEHAVIOR_HINT(Writhe)"), "Writhe");
  EXPECT_EQ(event_argument("behavior_hint Writhe"), "Writhe");
  EXPECT_EQ(event_argument("RAGDOLL 0.25"), "0.25");
  EXPECT_EQ(event_argument("RAGDOLL"), "");
}

}  // namespace
}  // namespace animkit::shadow_of_war
