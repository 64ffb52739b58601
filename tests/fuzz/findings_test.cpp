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
#include "animkit/core/registry.h"
#include "animkit/shadow_of_war/scenario.h"

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
    EXPECT_EQ(sow_error(s).rfind("scenario: 'frames' must be 0 to 1e9", 0), 0u) << frames;
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
    const auto d = std::filesystem::temp_directory_path() /
                   ("animkit-fuzz-findings-" + std::to_string(getpid()));
    std::filesystem::create_directories(d);
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
  EXPECT_EQ(ac_error(0.5), "");
  EXPECT_EQ(ac_error(1000), "");  // a thousand one-second slices
  EXPECT_EQ(ac_error(1e300),
            "update_object: one-second slices of dt: more than 1000000 steps in one update "
            "(--max-steps)");
}

}  // namespace
}  // namespace animkit
