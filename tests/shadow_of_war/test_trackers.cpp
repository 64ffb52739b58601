// Trackers as the spec describes them (spec: "Clip trackers", "Per frame"): tracker 0 the clip
// base, graph trackers at rate 0 whose time the graph writes at the world clock's rate, and the
// pose job's operations over a crowd: SAMPLE, BLEND, REFERENCE POSE, OUTPUT.
#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "fixtures.h"

namespace animkit::shadow_of_war {
namespace {

using testing::play_frames;

Json crowd() {
  return Json::parse(R"({"engine": "shadow_of_war", "joints": 12, "frames": 120, "dt": 0.1,
    "files": [{"path": "loco.anix", "clips": [{"name": "idle", "duration": 2},
                                              {"name": "run", "duration": 0.8},
                                              {"name": "fist", "duration": 1.5}]}],
    "weight_sets": {"upper": {"joint": "joint9"}},
    "graph": {"start": "Idle",
              "states": [{"name": "Idle", "clip": "idle", "DefaultBlendTime": 0.5,
                          "Links": [{"target": "Run", "predicate": {"value": "speed", "op": ">", "than": 0.5}}]},
                         {"name": "Run", "clip": "run", "DefaultBlendTime": 0.3, "Rate": 1.5,
                          "Links": [{"target": "Fist", "predicate": {"value": "speed", "op": ">", "than": 5}}]},
                         {"name": "Fist", "clip": "fist", "WeightSet": "upper", "DefaultBlendTime": 0,
                          "Looping": false}]},
    "characters": [{"name": "orc", "count": 6, "values": {"speed": 0}}],
    "script": [{"frame": 10, "character": "orc_1", "values": {"speed": 3}},
               {"frame": 10, "character": "orc_2", "values": {"speed": 3}},
               {"frame": 40, "character": "orc_2", "values": {"speed": 9}},
               {"frame": 50, "unload": "loco.anix"},
               {"frame": 60, "character": "orc_3", "values": {"speed": 3}}]})");
}

// Spec: "Most trackers have rate 0 and are not engine-advanced: the graph writes their time ...
// tracker time advanced at the world clock's rate". Idle (Rate 1, 2 s, looping): after n frames
// its time is n x 0.1 mod 2, every graph tracker's rate 0.
TEST(Trackers, GraphWritesTheTimeAtTheWorldClocksRate) {
  Json s = crowd();
  s["script"].erase(4);  // orc_3 does not run
  s["script"].erase(3);  // nothing is unloaded
  const auto frames = play_frames(s);
  for (int f : {0, 5, 19, 20, 33, 99}) {
    SCOPED_TRACE(f);
    const Json& t = frames[f]["characters"][0]["trackers"];
    ASSERT_EQ(t.size(), 2u);
    EXPECT_EQ(t[0]["clip"], "base");  // tracker 0: the clip base
    EXPECT_EQ(t[1]["clip"], "idle");
    EXPECT_EQ(t[1]["rate"], 0);
    EXPECT_NEAR(t[1]["time"].get<double>(), std::fmod((f + 1) * 0.1, 2.0), 1e-5);
  }
  // Run at Rate 1.5 over 0.8 s, entered at frame 10: after k frames its time is k x 0.15 mod 0.8 (15 frames: 2.25 -> 0.65).
  const Json& run = frames[24]["characters"][1]["trackers"].back();
  EXPECT_EQ(run["clip"], "run");
  EXPECT_EQ(run["rate"], 0);
  EXPECT_NEAR(run["time"].get<double>(), 0.65, 1e-5);
  // Fist does not loop: it holds its last key.
  const Json& fist = frames[70]["characters"][2]["trackers"].back();
  EXPECT_EQ(fist["clip"], "fist");
  EXPECT_NEAR(fist["time"].get<double>(), 1.5, 1e-6);
}

// Spec, pose job: "the first non-zero weight -> op 0 SAMPLE ...; each later one -> op 1 BLEND by
// its weight; no clip -> op 2 REFERENCE POSE; end -> op 3 OUTPUT", over a crowd's trace.
TEST(Trackers, CrowdTraceShowsEveryOperation) {
  std::vector<Json> frames;
  std::ostringstream out;
  PlayOptions o;
  o.json = true;
  EXPECT_THROW(play(crowd(), ".", o, out), Error);
  std::istringstream lines(out.str());
  for (std::string line; std::getline(lines, line);) frames.push_back(Json::parse(line));
  ASSERT_EQ(frames.size(), 120u);
  std::map<std::string, int> ops;
  int sampled = 0, character_frames = 0;
  for (const Json& f : frames)
    for (const Json& c : f["characters"]) {
      ++character_frames;
      const Json& o0 = c["operations"][0];
      if (o0["op"] == "SAMPLE") ++sampled;
      for (const Json& op : c["operations"]) ++ops[op["op"].get<std::string>()];
      EXPECT_EQ(c["operations"].back()["op"], "OUTPUT");
    }
  EXPECT_EQ(sampled, character_frames);  // the base clip is sampled on every frame
  EXPECT_GT(ops["BLEND"], 0);
  EXPECT_GT(ops["REFERENCE_POSE"], 0);  // orc_3's Run without its clip
  EXPECT_EQ(ops["OUTPUT"], character_frames);
  // A cross-fade: Idle -> Run over 0.3 s, BLEND of both at their weights.
  const Json& fade = frames[11]["characters"][1];
  ASSERT_TRUE(fade.contains("transition"));
  ASSERT_EQ(fade["operations"].size(), 4u);
  EXPECT_EQ(fade["operations"][0], Json({{"op", "SAMPLE"}, {"entry", 0}}));
  EXPECT_EQ(fade["operations"][1]["op"], "BLEND");
  EXPECT_EQ(fade["operations"][2]["op"], "BLEND");
  EXPECT_NEAR(fade["operations"][2]["weight"].get<double>(), 2 * 0.1 / 0.3, 1e-5);
  // orc_3 entered Run after loco.anix was unloaded: its tracker has no clip.
  const Json& missing = frames[61]["characters"][3];
  EXPECT_EQ(missing["state"], "Run");
  bool reference = false;
  for (const Json& op : missing["operations"]) reference |= op["op"] == "REFERENCE_POSE";
  EXPECT_TRUE(reference);
}

// The base clip samples the rest pose: a character whose only tracker is the base outputs it.
TEST(Trackers, BaseClipIsTheRestPose) {
  const Skeleton sk = synthetic_skeleton(5);
  const Clip base = base_pose_clip(sk);
  EXPECT_EQ(base.name, "base");
  ASSERT_EQ(base.joints.size(), 5u);
  for (size_t j = 0; j < 5; ++j) {
    ASSERT_EQ(base.joints[j].rotation.size(), 1u);
    EXPECT_EQ(base.joints[j].rotation.values[0], sk.rest[j].rotation);
    EXPECT_EQ(base.joints[j].translation.values[0], sk.rest[j].translation);
  }
}

}  // namespace
}  // namespace animkit::shadow_of_war
