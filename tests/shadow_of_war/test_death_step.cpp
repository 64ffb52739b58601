// The death frame's call of the dead-body step (spec: "The dead-body step" steps 1-3, "Clip
// keywords", "The physics ragdoll"), through `animkit play`.
#include <gtest/gtest.h>

#include <cmath>

#include "fixtures.h"

namespace animkit::shadow_of_war {
namespace {

using testing::play_frames;

constexpr double kDeg = 3.14159265358979323846 / 180.0;

Json scene() {
  return Json::parse(R"({"engine": "shadow_of_war", "joints": 4, "frames": 12, "dt": 0.1,
    "files": [{"path": "loco.anix", "clips": [{"name": "idle", "duration": 1},
                                              {"name": "run", "duration": 0.5},
                                              {"name": "death_base", "duration": 0.5, "looping": false}]},
              {"path": "combat.anix", "clips": [
                {"name": "chop_destroy", "duration": 1, "events": [{"ms": 300, "text": "destroy"}]},
                {"name": "stab", "duration": 1, "events": [{"ms": 100, "text": "RAGDOLL 0.25"}]}]}],
    "graph": {"start": "Idle",
              "states": [{"name": "Idle", "clip": "idle", "DefaultBlendTime": 0,
                          "Links": [{"target": "Run", "predicate": {"value": "speed", "op": ">", "than": 0.5}}]},
                         {"name": "Run", "clip": "run", "DefaultBlendTime": 0,
                          "Links": [{"target": "Idle", "predicate": {"value": "speed", "op": "<", "than": 0.5}}]},
                         {"name": "Chop", "clip": "chop_destroy", "Tags": ["Destroy"]},
                         {"name": "Stab", "clip": "stab"}]},
    "global": {"RagdollDeathAnimation": "death_base"},
    "ragdoll_configs": [{"name": "Orc_Base", "BehaviorControllers": [{"name": "DieController"}],
                         "Constraints": [{"Index": 0, "Powered": true,
                                          "Pitch": {"MinPoweredAngle": -30, "MaxPoweredAngle": 45, "Mirror": true}},
                                         {"Index": 1}]}],
    "models": {"orc": {"RagdollConfig": "Orc_Base"}, "warg": {"ragdoll_bodies": 21}},
    "attacks": {"Spear": {"Category": {"name": "Thrown", "RagdollReaction": {"name": "Launch", "InitalVelocityScale": 2, "ForceValue": 500}},
                          "AnimationData": {"Name": "stab"}},
                "Chop": {"AnimationData": {"BehaviorNode": "Chop"}},
                "Punch": {"AnimationData": {"Name": "stab"}, "AttackPostData": {"SuppressDeathAnimGroundCheck": true}},
                "Flurry": {"AnimationData": {"Name": "stab"}, "MultiHitRecords": [{"name": "FlurryEnd", "AnimationData": {"Name": "chop_destroy"}}]}},
    "characters": [{"name": "orc", "model": "orc", "values": {"speed": 0},
                    "buffs": [{"name": "Burning", "DeathProjectiles": ["ember_burst"]}]},
                   {"name": "warg", "model": "warg", "values": {"speed": 0}}],
    "script": []})");
}

const Json& ch(const std::vector<Json>& frames, int frame, int c) {
  return frames.at(frame)["characters"][c];
}

// Step 3: the character plays RagdollDeathAnimation on its base and leaves its locomotion graph.
TEST(DeathStep, DeadCharacterLeavesItsLocomotionGraph) {
  Json s = scene();
  s["script"] = {{{"frame", 2}, {"character", "orc"}, {"values", {{"speed", 3}}}},
                 {{"frame", 4}, {"character", "orc"}, {"die", true}},
                 {{"frame", 6}, {"character", "orc"}, {"values", {{"speed", 0}}}},
                 {{"frame", 8}, {"character", "orc"}, {"values", {{"speed", 3}}}}};
  const auto frames = play_frames(s);
  EXPECT_EQ(ch(frames, 3, 0)["state"], "Run");
  for (int f = 4; f < 12; ++f) {
    SCOPED_TRACE(f);
    const Json& c = ch(frames, f, 0);
    EXPECT_EQ(c["state"], "Run");  // no link is tried again
    ASSERT_EQ(c["trackers"].size(), 1u);
    EXPECT_EQ(c["trackers"][0]["clip"], "death_base");
    EXPECT_EQ(c["operations"][0]["op"], "SAMPLE");
    EXPECT_EQ(c["operations"].size(), 2u);  // SAMPLE, OUTPUT
  }
  EXPECT_NEAR(ch(frames, 4, 0)["trackers"][0]["time"].get<double>(), 0.1, 1e-6);
  EXPECT_NEAR(ch(frames, 7, 0)["trackers"][0]["time"].get<double>(), 0.4, 1e-6);
  EXPECT_NEAR(ch(frames, 11, 0)["trackers"][0]["time"].get<double>(), 0.5, 1e-6);  // held
  EXPECT_EQ(ch(frames, 11, 1)["state"], "Idle");  // the living warg still runs its graph
}

// Spec, Per frame 1: 0x17674C "wraps a looping clip or holds the last key": a looping
// RagdollDeathAnimation wraps at its duration instead of holding (README, Choices 17).
TEST(DeathStep, LoopingDeathAnimationWraps) {
  Json s = scene();
  s["files"][0]["clips"][2]["looping"] = true;
  s["script"] = {{{"frame", 4}, {"character", "orc"}, {"die", true}}};
  const auto frames = play_frames(s);
  const auto time = [&](int f) { return ch(frames, f, 0)["trackers"][0]["time"].get<double>(); };
  EXPECT_NEAR(time(4), 0.1, 1e-6);
  EXPECT_NEAR(time(7), 0.4, 1e-6);
  // 0.6, 0.7, 0.8 s after death on a 0.5 s clip: 0.1, 0.2, 0.3 (a held clip would read 0.5).
  EXPECT_NEAR(time(9), 0.1, 1e-5);
  EXPECT_NEAR(time(10), 0.2, 1e-5);
  EXPECT_NEAR(time(11), 0.3, 1e-5);
}

// Steps 1-3 as recorded on the death frame: the reaction, the config and joints, the
// projectiles, RigidBody, the death animation and the audio hook.
TEST(DeathStep, StepsOneToThree) {
  Json s = scene();
  s["script"] = {{{"frame", 1}, {"character", "orc"}, {"die", true}, {"attack", "Spear"}},
                 {{"frame", 1}, {"character", "warg"}, {"die", true}}};
  const auto frames = play_frames(s);
  const Json& r = ch(frames, 1, 0)["ragdoll"];
  const Json& d = r["death"];
  EXPECT_EQ(d["attack"], "Spear");
  EXPECT_EQ(d["RagdollReaction"]["name"], "Launch");
  EXPECT_EQ(d["RagdollReaction"]["InitalVelocityScale"].get<double>(), 2.0);
  EXPECT_EQ(d["RagdollReaction"]["ForceValue"].get<double>(), 500.0);
  EXPECT_EQ(d["config"], "Orc_Base");
  EXPECT_EQ(d["DeathProjectiles"], Json::array({"Burning: ember_burst"}));
  EXPECT_EQ(d["physics"], "RigidBody");
  EXPECT_EQ(d["RagdollDeathAnimation"], "death_base");
  EXPECT_EQ(d["audio"], "CharacterSwitchesToRagdoll");
  EXPECT_EQ(r["slot"], 0);
  // Spec, "The physics ragdoll": 20 bodies, 19 joints; the setup's limits in radians.
  EXPECT_EQ(r["bodies"], 20);
  ASSERT_EQ(r["joints"].size(), 19u);
  const Json& j0 = r["joints"][0];
  EXPECT_FLOAT_EQ(j0["limits"][0].get<float>(), static_cast<float>(-30 * kDeg));
  EXPECT_FLOAT_EQ(j0["limits"][1].get<float>(), static_cast<float>(45 * kDeg));
  EXPECT_FLOAT_EQ(j0["limits"][2].get<float>(), static_cast<float>(-180 * kDeg));  // default
  EXPECT_FLOAT_EQ(j0["limits"][5].get<float>(), static_cast<float>(180 * kDeg));
  EXPECT_EQ(j0["mirror"], Json::array({1, 0, 0}));
  EXPECT_EQ(j0["motor_disabled"], 0);  // Powered
  EXPECT_EQ(r["joints"][1]["motor_disabled"], 1);  // not Powered
  EXPECT_FLOAT_EQ(r["joints"][1]["limits"][0].get<float>(), static_cast<float>(-kDeg * 180));
  // A joint the config does not list stays unconfigured: ±565.49 (180 × π).
  EXPECT_NEAR(r["joints"][2]["limits"][0].get<double>(), -565.4867, 1e-3);
  EXPECT_NEAR(r["joints"][2]["limits"][1].get<double>(), 565.4867, 1e-3);
  // The warg: no config, a slot but no brain, 21 bodies and 20 untuned joints.
  const Json& w = ch(frames, 1, 1)["ragdoll"];
  EXPECT_TRUE(w["death"]["config"].is_null());
  EXPECT_EQ(w["slot"], 1);
  EXPECT_EQ(w["bodies"], 21);
  ASSERT_EQ(w["joints"].size(), 20u);
  EXPECT_NEAR(w["joints"][0]["limits"][0].get<double>(), -565.4867, 1e-3);
  EXPECT_TRUE(w["death"]["RagdollReaction"].is_null());
  EXPECT_EQ(ch(frames, 2, 1)["ragdoll"]["controller"], "");  // no brain
  EXPECT_EQ(ch(frames, 2, 0)["ragdoll"]["controller"], "DieController");
  EXPECT_FALSE(ch(frames, 2, 0)["ragdoll"].contains("joints"));  // the death frame only
}

// "when a ragdoll is pending": without BodyRagdoll the reaction's values are not read.
TEST(DeathStep, ReactionValuesOnlyWithARagdollPending) {
  Json s = scene();
  s["global"]["BodyRagdoll"] = false;
  s["script"] = {{{"frame", 0}, {"character", "orc"}, {"die", true}, {"attack", "Spear"}}};
  const Json d = ch(play_frames(s), 0, 0)["ragdoll"]["death"];
  EXPECT_EQ(d["RagdollReaction"]["name"], "Launch");
  EXPECT_FALSE(d["RagdollReaction"].contains("ForceValue"));
}

// Spec: the ten body settings of Character/Models/Global (shipped: true, 0.4, true, 0.5, true,
// 1.5, 400, 0.3, 1.0, 800), all settable and shown.
TEST(DeathStep, TheTenDeathSettings) {
  Json s = scene();
  s["script"] = {{{"frame", 0}, {"character", "orc"}, {"die", true}}};
  const Json shipped = ch(play_frames(s), 0, 0)["ragdoll"]["death"]["death_settings"];
  EXPECT_EQ(shipped, Json::parse(R"({"BodyRagdoll": true, "BodyDeathDirMinY": 0.4,
    "BodyDeathForce": true, "BodyDeathForceScale": 0.5, "BodyDirDeathForce": true,
    "BodyDirDeathForceScale": 1.5, "BodyStickDist": 400, "BodyStickTime": 0.3,
    "BodyDeathScaleVelocity": 1, "BodyDeathClampVelocityMax": 800})"));
  const Json edited = Json::parse(R"({"BodyRagdoll": false, "BodyDeathDirMinY": 0.25,
    "BodyDeathForce": false, "BodyDeathForceScale": 0.75, "BodyDirDeathForce": false,
    "BodyDirDeathForceScale": 2.5, "BodyStickDist": 100, "BodyStickTime": 0.5,
    "BodyDeathScaleVelocity": 2, "BodyDeathClampVelocityMax": 900})");
  for (const auto& [k, v] : edited.items()) s["global"][k] = v;
  EXPECT_EQ(ch(play_frames(s), 0, 0)["ragdoll"]["death"]["death_settings"], edited);
}

Json gates(const std::string& attack, int combat_anim, const Json& flags = Json::object(),
           const std::string& enter = "") {
  Json s = scene();
  s["characters"][0]["combat_anim"] = combat_anim;
  if (!enter.empty()) s["script"].push_back({{"frame", 0}, {"character", "orc"}, {"enter", enter}, {"blend_time", 0}});
  Json die = {{"frame", 1}, {"character", "orc"}, {"die", true}, {"flags", flags}};
  if (!attack.empty()) die["attack"] = attack;
  s["script"].push_back(die);
  return ch(play_frames(s), 1, 0)["ragdoll"];
}

// Spec, "Clip keywords": with the combat animation index set, the clip the character is playing
// answers; DESTROY there keeps the step out of phase 5.
TEST(DeathStep, DestroyOnThePlayingClip) {
  const Json r = gates("Spear", 0, Json::object(), "Chop");
  EXPECT_TRUE(r["death"]["queries"]["DESTROY"].get<bool>());
  EXPECT_FALSE(r["death"]["queries"]["RAGDOLL"].get<bool>());
  EXPECT_EQ(r["flags"]["phase"], 0);
  EXPECT_FALSE(r["flags"]["+0x35A"].get<bool>());  // cleared after the RAGDOLL query
}

// Index -1: the attack's own animation (AnimationData.Name): "stab" carries RAGDOLL, not
// DESTROY, so with +0x353 set the step enters phase 5.
TEST(DeathStep, NoDestroyEntersPhaseFive) {
  const Json r = gates("Spear", -1, Json::object(), "Chop");  // playing Chop, but index -1
  EXPECT_TRUE(r["death"]["queries"]["RAGDOLL"].get<bool>());
  EXPECT_FALSE(r["death"]["queries"]["DESTROY"].get<bool>());
  EXPECT_EQ(r["flags"]["phase"], 5);
  EXPECT_FALSE(r["flags"]["+0x356"].get<bool>());
  EXPECT_TRUE(r["death"]["queries"]["multi_hit_DESTROY"].is_null());  // no MultiHitRecords
}

TEST(DeathStep, SuppressDeathAnimGroundCheckKeepsPhase) {
  const Json r = gates("Punch", -1);
  EXPECT_FALSE(r["death"]["queries"]["DESTROY"].get<bool>());
  EXPECT_EQ(r["flags"]["phase"], 0);
}

TEST(DeathStep, MultiHitRecordShowingDestroySets356) {
  const Json r = gates("Flurry", -1);
  EXPECT_FALSE(r["death"]["queries"]["DESTROY"].get<bool>());
  EXPECT_TRUE(r["death"]["queries"]["multi_hit_DESTROY"].get<bool>());
  EXPECT_TRUE(r["flags"]["+0x356"].get<bool>());
  EXPECT_EQ(r["flags"]["phase"], 5);
}

// AnimationData.BehaviorNode: each key tested by name (any case) on the node.
TEST(DeathStep, BehaviorNodeTestedByName) {
  const Json r = gates("Chop", -1);
  EXPECT_TRUE(r["death"]["queries"]["DESTROY"].get<bool>());
  EXPECT_EQ(r["flags"]["phase"], 0);
}

// The other branch: +0x353 clear and no DESTROY sets +0x35C and +0x35D.
TEST(DeathStep, Without353NoDestroySets35CAnd35D) {
  const Json r = gates("Spear", -1, {{"+0x353", false}});
  EXPECT_TRUE(r["flags"]["+0x35C"].get<bool>());
  EXPECT_TRUE(r["flags"]["+0x35D"].get<bool>());
  EXPECT_EQ(r["flags"]["phase"], 0);
  const Json d = gates("Chop", -1, {{"+0x353", false}});
  EXPECT_FALSE(d["flags"]["+0x35C"].get<bool>());
}

// The RAGDOLL query runs only while +0x35A is set.
TEST(DeathStep, RagdollQueryOnlyWhile35A) {
  const Json r = gates("Spear", -1, {{"+0x35A", false}});
  EXPECT_FALSE(r["death"]["queries"]["RAGDOLL"].get<bool>());
  const Json q = gates("Spear", -1);
  EXPECT_TRUE(q["death"]["queries"]["RAGDOLL"].get<bool>());  // "RAGDOLL 0.25" in stab
}

TEST(DeathStep, UnknownAttackIsAnError) {
  Json s = scene();
  s["script"] = {{{"frame", 0}, {"character", "orc"}, {"die", true}, {"attack", "Nope"}}};
  EXPECT_THROW(play_frames(s), Error);
}

}  // namespace
}  // namespace animkit::shadow_of_war
