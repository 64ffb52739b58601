// The scenario fuzzers' findings (issue 19), each made small: the input must end in a trace or an
// animkit::Error naming the limit, within a bounded time and memory; never a signal.
#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <sstream>
#include <string>

#include "animkit/asherons_call/command_ids.h"
#include "animkit/asherons_call/player.h"
#include "animkit/asherons_call/synthetic.h"
#include "animkit/core/error.h"
#include "animkit/core/json_util.h"
#include "animkit/core/limits.h"
#include "animkit/core/registry.h"
#include "animkit/core/writer.h"
#include "animkit/shadow_of_war/scenario.h"
#include "animkit/warriors/builder.h"
#include "animkit/warriors/demo.h"
#include "animkit/warriors/scenario.h"

namespace animkit {
namespace {

// The error message of `run`, or "" when it finished; fails when it took over `seconds`.
template <class F>
std::string error_of(F run, double seconds = 5) {
  const auto start = std::chrono::steady_clock::now();
  std::string message;
  try {
    run();
  } catch (const Error& e) {
    message = e.message();
  }
  const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
  EXPECT_LT(took.count(), seconds);
  return message;
}

// A folder of this process for the files a scenario names, removed at exit.
struct Folder {
  std::filesystem::path dir = std::filesystem::temp_directory_path() /
                              ("animkit-fuzz-findings-" + std::to_string(getpid()));
  Folder() { std::filesystem::create_directories(dir); }
  ~Folder() {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
};
const std::filesystem::path& folder() {
  static const Folder f;
  return f.dir;
}

// --- The Warriors (the issue's list; fuzz_warriors_play nests 8 deep) ---

Json warriors_chain(int depth) {
  Writer w;
  warriors::write_resource(w, warriors::make_anm_resource(
                                  warriors::synthetic_gait_clip("walk", 36, 0.35f, 1.5f)));
  write_file(folder() / "walk.anm", w.bytes());
  Json task = {{"do", "loop"}, {"anim", 4}};
  for (int i = 0; i < depth; ++i)
    task = Json{{"do", "clip_then_next"}, {"anim", 4}, {"next", std::move(task)}};
  task["at"] = 0;
  Json s = {{"engine", "warriors"}, {"clips", {{"4", "walk.anm"}}}, {"updates", 3}};
  s["actions"] = Json::array();
  s["actions"].push_back(std::move(task));
  return s;
}

std::string warriors_error(const Json& s) {
  return error_of([&] {
    std::ostringstream out;
    warriors::play_scenario(s, folder(), true, out);
  });
}

// 40,000 nested "next" tasks overflowed the stack (segfault): the scenario's JSON is copied and
// walked by recursion, and so is the task chain built from it.
TEST(FuzzFindings, WarriorsNextChainIsBounded) {
  EXPECT_EQ(warriors_error(warriors_chain(200)), "");
  EXPECT_EQ(warriors_error(warriors_chain(300)),
            "tasks nested deeper than 256 (\"next\" inside \"next\")");
  std::string text;
  for (int i = 0; i < 40000; ++i) text += R"({"do": "clip_then_next", "anim": 4, "next": )";
  text += R"({"do": "loop", "anim": 4})" + std::string(40000, '}');
  EXPECT_EQ(error_of([&] { parse_json(text, "deep.json"); }),
            "invalid JSON: nested deeper than 512 levels");
}

// --- Shadow of War (fuzz_shadow_of_war_play) ---

Json sow_scene() {
  return Json::parse(R"({"engine": "shadow_of_war", "joints": 34, "frames": 2,
    "files": [{"path": "f.anix", "clips": [{"name": "c"}]}],
    "graph": {"states": [{"name": "A", "clip": "c"}]},
    "characters": [{"name": "x"}]})");
}

std::string sow_error(const Json& scene) {
  return error_of([&] {
    std::ostringstream out;
    shadow_of_war::play(scene, ".", PlayOptions{}, out);
  });
}

TEST(FuzzFindings, ShadowOfWarSceneRuns) {
  EXPECT_EQ(sow_error(sow_scene()), "");
}

// 5,637,124 joints held the fuzzer 14 s building the skeleton (10^7: 5.4 GB); a skeleton holds at
// most 32767 joints (int16 parents), and 1e30 was cast to int (undefined).
TEST(FuzzFindings, ShadowOfWarJointCountIsBounded) {
  for (double joints : {5637124.0, 32768.0, 1e30, 0.0, -5.0}) {
    Json s = sow_scene();
    s["joints"] = joints;
    EXPECT_EQ(sow_error(s).rfind("scenario: 'joints' must be 1 to 32767", 0), 0u) << joints;
  }
}

// "frames": 1e30 was cast to int (undefined behaviour: UBSan stops the process).
TEST(FuzzFindings, ShadowOfWarFrameCountIsChecked) {
  for (double frames : {1e30, -1.0, 3e9}) {
    Json s = sow_scene();
    s["frames"] = frames;
    EXPECT_NE(sow_error(s).find("must be 0 to 100,000,000"), std::string::npos) << frames;
  }
}

// A clip of 10^7 s makes 3 x 10^8 rotation keys on each of the 34 joints.
TEST(FuzzFindings, ShadowOfWarClipKeysAreBudgeted) {
  Json s = sow_scene();
  s["files"][0]["clips"][0]["duration"] = 1e5;  // 3,000,001 keys x 34 joints x 20 bytes: 2 GB
  EXPECT_NE(sow_error(s).find("clip 'c': 102000034 x 20 bytes"), std::string::npos);
  s["files"][0]["clips"][0]["duration"] = 1e30;
  EXPECT_NE(sow_error(s).find("clip duration"), std::string::npos);
}

// 10^7 characters of one entry asked for 9 GB.
TEST(FuzzFindings, ShadowOfWarCharactersAreBudgeted) {
  Json s = sow_scene();
  s["characters"][0]["count"] = 10000000;
  EXPECT_NE(sow_error(s).find("the characters' poses: 340000000 x 256 bytes"), std::string::npos);
  EXPECT_NE(sow_error(s).find("(--max-memory)"), std::string::npos);
}

// --- Asheron's Call (fuzz_asherons_call_play) ---

// The humanoid table and its animations in a folder of this process.
std::filesystem::path ac_folder() {
  static const std::filesystem::path dir = [] {
    const auto d = folder();
    write_file(d / "table.bin", asherons_call::write_motion_table(asherons_call::humanoid_table()));
    for (const auto& a : asherons_call::humanoid_animations())
      write_file(d / (asherons_call::hex32(a.id) + ".bin"), asherons_call::write_animation(a));
    return d;
  }();
  return dir;
}

std::string ac_error(double dt) {
  Json animations = Json::object();
  for (const auto& a : asherons_call::humanoid_animations())
    animations[asherons_call::hex32(a.id)] = asherons_call::hex32(a.id) + ".bin";
  const Json s = {{"engine", "asherons_call"},
                  {"motion_table", "table.bin"},
                  {"animations", animations},
                  {"ticks", {{{"dt", 0.1}, {"do", {{{"motion", "WalkForward"}}}}}, {{"dt", dt}}}}};
  return error_of([&] {
    std::ostringstream out;
    asherons_call::play_scenario(s, ac_folder(), true, out);
  });
}

// dt 1e300 sliced update_object into one-second steps for ever (1e300 - 1 == 1e300).
TEST(FuzzFindings, AsheronsCallHugeDtIsBudgeted) {
  const Limits saved = limits();
  set_limits({.max_memory = saved.max_memory, .max_steps = 10000});  // fast under the sanitizers
  EXPECT_EQ(ac_error(0.5), "");
  EXPECT_EQ(ac_error(1000), "");  // a thousand one-second slices
  EXPECT_EQ(ac_error(1e300),
            "update_object: 1 s slices: more than 10000 steps in one update (--max-steps)");
  set_limits(saved);
}

}  // namespace
}  // namespace animkit
