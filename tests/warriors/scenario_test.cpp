// `animkit play` for The Warriors: the issue's scenario format and trace lines.
#include "animkit/warriors/scenario.h"

#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include <unistd.h>

#include "animkit/core/registry.h"
#include "animkit/warriors/builder.h"

namespace animkit::warriors {
namespace {

std::filesystem::path write_clip(const std::filesystem::path& dir, const std::string& name,
                                 int frames, std::vector<AnimEvent> events = {}) {
  ClipBuilder b;
  b.name = name;
  b.frames = frames;
  b.velocity = {{0, {0, 1.0f, 0}}};
  b.translation = {{0, {0, 0, 1}}};
  b.rotations[1] = {{0, {0, 0, 0, 1}}};
  b.events = std::move(events);
  Writer w;
  write_resource(w, make_anm_resource(b.build()));
  const auto path = dir / (name + ".anm");
  write_file(path, w.bytes());
  return path;
}

std::vector<Json> run(const Json& scenario, const std::filesystem::path& dir) {
  std::ostringstream out;
  EXPECT_EQ(play_scenario(scenario, dir, true, out), 0);
  std::vector<Json> lines;
  std::istringstream in(out.str());
  for (std::string line; std::getline(in, line);) lines.push_back(Json::parse(line));
  return lines;
}

// warriors.txt "When a clip ends" with the issue's scenario: 19 (21 frames at 0.8) hands over to
// the loop 20 on update 26; events at their frame; root velocity x rate.
TEST(WarriorsScenario, ClipThenNextTrace) {
  const auto dir = std::filesystem::temp_directory_path() / "animkit-warriors-scenario";
  std::filesystem::create_directories(dir);
  AnimEvent e;
  e.frame = 4;
  e.type = 11;
  write_clip(dir, "a", 21, {e});
  write_clip(dir, "b", 30);
  const Json scenario = Json::parse(R"({"engine": "warriors",
    "clips": {"19": "a.anm", "20": "b.anm"},
    "anim_speeds": [0.75, 0.8, 1.0, 0.9], "range_flags": {"19": 2048},
    "dt": 0.033333335, "updates": 40,
    "actions": [{"at": 0, "do": "clip_then_next", "anim": 19, "next": {"do": "loop", "anim": 20}},
                {"at": 30, "do": "change", "fade": 0.15, "task": {"do": "loop", "anim": 20}}]})");
  const std::vector<Json> lines = run(scenario, dir);
  ASSERT_EQ(lines.size(), 40u);
  EXPECT_EQ(lines[0]["anim"], 19);
  EXPECT_EQ(lines[0]["tasks"][0]["type"], 3);
  EXPECT_EQ(lines[0]["tasks"][0]["time"].get<double>(), 0.0);
  EXPECT_EQ(lines[0]["tasks"][0]["rate"].get<double>(), 0.8);
  EXPECT_EQ(lines[25]["anim"], 19);
  EXPECT_EQ(lines[25]["tasks"][0]["frame"], 20);  // the last frame shown is F - 1
  EXPECT_EQ(lines[26]["anim"], 20);
  EXPECT_EQ(lines[26]["tasks"][0]["type"], 1);
  EXPECT_EQ(lines[26]["tasks"][0]["time"].get<double>(), 0.0);
  // Frame 4 is first reached at 0.8 on update 5 (5 x 0.8 = 4.0 -> uint(4.0 + 0.5) = 4).
  for (size_t k = 0; k < lines.size(); ++k) {
    if (k == 5) {
      ASSERT_EQ(lines[k]["events"].size(), 1u);
      EXPECT_EQ(lines[k]["events"][0]["frame"], 4);
      EXPECT_EQ(lines[k]["events"][0]["type"], 11);
      EXPECT_EQ(lines[k]["events"][0]["anim"], 19);
    } else {
      EXPECT_TRUE(lines[k]["events"].empty()) << k;
    }
  }
  // The root velocity is section A x the rate (1023 / 1023 x 0.8).
  EXPECT_FLOAT_EQ(lines[3]["root_velocity"][1].get<float>(), 0.8f);
  // The change at 30: new loop under the fade; the fade's weight falls with the cosine.
  EXPECT_EQ(lines[30]["tasks"].size(), 3u);
  EXPECT_EQ(lines[30]["tasks"][2]["type"], 9);
  EXPECT_EQ(lines[30]["tasks"][2]["weight"].get<double>(), 1.0);
  EXPECT_EQ(lines[35]["tasks"].size(), 1u);
  std::filesystem::remove_all(dir);
}

// warriors.txt "Held flags" through `play`: "hold" and "start" on a task, a fade given as a
// task with held bits, the caller's own "state_flags", the release's report bit.
TEST(WarriorsScenario, HeldFlagsTrace) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("animkit-warriors-held-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  AnimEvent e;
  e.frame = 2;
  e.type = 0x2c;
  write_clip(dir, "a", 30, {e});
  write_clip(dir, "b", 30);
  const Json scenario = Json::parse(R"({"engine": "warriors",
    "clips": {"11": "a.anm", "12": "b.anm"}, "range_flags": {"11": 4096, "12": 4096},
    "updates": 10,
    "actions": [{"at": 0, "do": "loop", "anim": 11, "hold": 7, "start": 1},
                {"at": 0, "do": "state_flags", "set": "0x4000000000"},
                {"at": 4, "do": "change", "task": {"do": "loop", "anim": 12, "hold": "0x400007",
                                                   "start": "0x400001"},
                 "fade": {"do": "fade", "fade": 0.11, "hold": 2048}},
                {"at": 6, "do": "change", "fade": 0, "task": {"do": "loop", "anim": 11}}]})");
  const std::vector<Json> lines = run(scenario, dir);
  ASSERT_EQ(lines.size(), 10u);
  EXPECT_EQ(lines[0]["state_flags"], 0x4000000001ull);
  EXPECT_EQ(lines[2]["state_flags"], 0x4000000002ull);  // 0x2c at frame 2
  EXPECT_EQ(lines[4]["state_flags"], 0x4000400801ull);  // cleared 0x7, set 0x400001, fade 0x800
  EXPECT_EQ(lines[4]["tasks"][2]["held"], 0x800);
  // At 6 the second change finishes nothing (3 tasks) and its fade of 0 completes on update 7,
  // giving back 12 (held 0x400007: the report bit) and the first fade under it... the layers:
  // 11' 12 11 f1 f2 -> f2 blends 11' with (12 11 f1).
  EXPECT_EQ(lines[6]["tasks"].size(), 5u);
  EXPECT_EQ(lines[7]["tasks"].size(), 1u);
  EXPECT_EQ(lines[7]["state_flags"], 0u);
  EXPECT_EQ(lines[7]["reported_object_flags"], 0x80000000u);
  EXPECT_FALSE(lines[5].contains("reported_object_flags"));
  std::filesystem::remove_all(dir);
}

// `play --pose` / "pose": true: the 34 local rotations with their default tags, the root
// translation and the model-space transforms of each update (warriors.txt, "The pose", "Bone
// transforms"): bone 2 without a channel is the reference pose's (-0.5, 0.5, -0.5, 0.5), tagged.
TEST(WarriorsScenario, PoseTrace) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("animkit-warriors-pose-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  write_clip(dir, "a", 30);
  Json scenario = Json::parse(R"({"engine": "warriors", "clips": {"1": "a.anm"}, "updates": 2,
    "actions": [{"at": 0, "do": "loop", "anim": 1}]})");
  EXPECT_FALSE(run(scenario, dir)[0].contains("pose"));
  scenario["pose"] = true;
  const std::vector<Json> lines = run(scenario, dir);
  const Json& pose = lines[1]["pose"];
  ASSERT_EQ(pose["rotations"].size(), 34u);
  ASSERT_EQ(pose["default"].size(), 34u);
  EXPECT_EQ(pose["rotations"][1], Json::parse("[0.0, 0.0, 0.0, 1.0]"));
  EXPECT_FALSE(pose["default"][1].get<bool>());
  EXPECT_TRUE(pose["default"][2].get<bool>());
  EXPECT_TRUE(pose["default"][0].get<bool>());
  EXPECT_EQ(pose["rotations"][2], Json::parse("[-0.5, 0.5, -0.5, 0.5]"));
  EXPECT_EQ(pose["root_translation"], Json::parse("[0.0, 0.0, 1.0]"));
  EXPECT_FALSE(pose["root_translation_default"].get<bool>());
  // Unit offsets (1, 0, 0) from the pelvis at (0, 0, 1), turned by bone 1 (the identity).
  EXPECT_EQ(pose["model"][2]["position"], Json::parse("[1.0, 0.0, 1.0]"));
  EXPECT_EQ(pose["model"][2]["rotation"], Json::parse("[-0.5, 0.5, -0.5, 0.5]"));
  std::filesystem::remove_all(dir);
}

// `play` refuses a clip with an error finding, naming the file and offset, unless forced.
TEST(WarriorsScenario, RefusesBadClipsUnlessForced) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("animkit-warriors-bad-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  ClipBuilder b;
  b.name = "bad";
  b.rotations[1] = {{0, {0, 0, 0, 1}}};
  AnmClip c = b.build();
  c.descriptor.duration = INFINITY;
  Writer w;
  write_resource(w, make_anm_resource(c));
  write_file(dir / "bad.anm", w.bytes());
  Json scenario = Json::parse(R"({"engine": "warriors", "clips": {"1": "bad.anm"}, "updates": 2,
    "actions": [{"at": 0, "do": "loop", "anim": 1}]})");
  std::ostringstream out;
  try {
    play_scenario(scenario, dir, true, out);
    FAIL() << "played";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("bad.anm"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("DURATION"), std::string::npos) << e.what();
    // chunk 0x00 first: its header, then A (none), B (none), C; the descriptor after it.
    ASSERT_TRUE(e.offset().has_value());
    EXPECT_EQ(*e.offset() % 16, 0x0cu);
  }
  scenario["force"] = true;
  EXPECT_EQ(run(scenario, dir).size(), 2u);
  PlayOptions forced;
  forced.json = true;
  forced.force = true;
  scenario.erase("force");
  EXPECT_EQ(play_scenario(scenario, dir, forced, out), 0);
  std::filesystem::remove_all(dir);
}

// 40,000 nested "next" tasks: a clear error, not a stack overflow.
TEST(WarriorsScenario, DeepNestingIsAnError) {
  std::string text = R"({"engine":"warriors","clips":{},"actions":[)";
  std::string task;
  for (int i = 0; i < 40000; ++i) task += R"({"do":"clip_then_next","anim":1,"next":)";
  task += R"({"do":"loop","anim":1})";
  task += std::string(40000, '}');
  text += task + "]}";
  const Json scenario = Json::parse(text);
  std::ostringstream out;
  try {
    play_scenario(scenario, std::filesystem::temp_directory_path(), true, out);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("nested \"next\" tasks"), std::string::npos)
        << e.what();
  }
}

// The chain limit and its message state one number (kMaxTaskNesting): a task with that many
// `next` tasks nested in it plays; one more is refused, and the message names the limit.
TEST(WarriorsScenario, NestingLimitAndMessageAgree) {
  const auto dir = std::filesystem::temp_directory_path() / "animkit-warriors-nesting";
  std::filesystem::create_directories(dir);
  write_clip(dir, "a", 30);
  const auto scenario_with = [](int nested) {
    std::string task;
    for (int i = 0; i < nested; ++i) task += R"({"do":"clip_then_next","anim":1,"next":)";
    task += R"({"do":"loop","anim":1})" + std::string(nested, '}');
    return Json::parse(R"({"engine":"warriors","clips":{"1":"a.anm"},"updates":2,"actions":[)" +
                       task + "]}");
  };
  EXPECT_EQ(run(scenario_with(kMaxTaskNesting), dir).size(), 2u);
  std::ostringstream out;
  try {
    play_scenario(scenario_with(kMaxTaskNesting + 1), dir, true, out);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("more than " + std::to_string(kMaxTaskNesting) +
                                         " nested \"next\" tasks"),
              std::string::npos)
        << e.what();
  }
  std::filesystem::remove_all(dir);
}

TEST(WarriorsScenario, BadInputIsAnError) {
  const auto dir = std::filesystem::temp_directory_path();
  std::ostringstream out;
  EXPECT_THROW(
      play_scenario(
          Json::parse(R"({"engine":"warriors","actions":[{"at":0,"do":"loop","anim":3}]})"), dir,
          true, out),
      Error);
  EXPECT_THROW(
      play_scenario(Json::parse(R"({"engine":"warriors","clips":{"x":"a.anm"}})"), dir, true, out),
      Error);
  EXPECT_THROW(
      play_scenario(Json::parse(R"({"engine":"warriors","actions":[{"at":0,"do":"nope"}]})"), dir,
                    true, out),
      Error);
  for (const char* bad : {R"({"engine":"warriors","dt":-0.1})", R"({"engine":"warriors","dt":1e39})",
                          R"({"engine":"warriors","speed_multiplier":-1})",
                          R"({"engine":"warriors","anim_speeds":[0.75,-0.8,1,0.9]})",
                          R"({"engine":"warriors","actions":[{"do":"state_flags","set":-1}]})",
                          R"({"engine":"warriors","actions":[{"do":"fade","fade":-1}]})"}) {
    EXPECT_THROW(play_scenario(Json::parse(bad), dir, true, out), Error) << bad;
  }
}

}  // namespace
}  // namespace animkit::warriors
