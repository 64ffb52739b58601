// The scenario fuzzers' findings (issue 19), each made small: the input must end in a trace or an
// animkit::Error naming the limit, within a bounded time and memory; never a signal.
#include <fmt/format.h>
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
#include "animkit/monster_hunter/pack.h"
#include "animkit/monster_hunter/play.h"
#include "animkit/monster_hunter/skeleton.h"
#include "animkit/monster_hunter/synthetic.h"
#include "animkit/shadow_of_war/character.h"
#include "animkit/shadow_of_war/scenario.h"
#include "animkit/warriors/builder.h"
#include "animkit/warriors/demo.h"
#include "animkit/warriors/scenario.h"

namespace animkit {
namespace {

// The time bounds are the release build's; ASan + UBSan run the same code several times slower.
#if defined(__SANITIZE_ADDRESS__)
constexpr double kSanitizerSlowdown = 4;
#else
constexpr double kSanitizerSlowdown = 1;
#endif

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
  EXPECT_LT(took.count(), seconds * kSanitizerSlowdown);
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

// Sets the step limit for one test and puts the previous one back.
struct StepLimit {
  Limits saved = limits();
  explicit StepLimit(uint64_t steps) { set_limits({.max_memory = saved.max_memory, .max_steps = steps}); }
  ~StepLimit() { set_limits(saved); }
};

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
            "more than 256 nested \"next\" tasks (\"next\" inside \"next\")");  // kMaxTaskNesting
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
  const StepLimit limit(UINT64_MAX);  // the whole play's budget would refuse them first
  EXPECT_NE(sow_error(s).find("the characters' poses: 340000000 x 256 bytes"), std::string::npos);
  EXPECT_NE(sow_error(s).find("(--max-memory)"), std::string::npos);
}

// The campaign's Shadow of War time-out: two clips of 309,804 s on 2 joints, 37 M keys (740 MB,
// within the 1 GiB default) took over 10 s to build under the sanitizers, so the scenario fuzzers
// run with a quarter of the memory limit (fuzz/common/scenario_gen.h); the budget refuses them.
TEST(FuzzFindings, ShadowOfWarLongClipsAreBudgeted) {
  const Limits saved = limits();
  set_limits({.max_memory = Limits::kDefaultMaxMemory / 4, .max_steps = saved.max_steps});
  Json s = sow_scene();
  s["joints"] = 2;
  s["files"][0]["clips"] = Json::parse(R"([{"name": "c", "duration": 309803.92156862747},
                                           {"name": "d", "duration": 309803.92156862747}])");
  EXPECT_NE(sow_error(s).find("over the memory limit of 268435456 bytes (--max-memory)"),
            std::string::npos);
  set_limits(saved);
}

// --- Monster Hunter (fuzz_monster_hunter_play) ---

// An MHP3rd monster whose clip 0 keeps only its first track (few channels) while clip 1 keeps
// all of them, and the trace of `steps` played on it.
std::string mh_trace(const Json& steps) {
  monster_hunter::MonsterSpec spec;
  spec.game = monster_hunter::Game::kMhp3rd;
  spec.entries = 2;
  monster_hunter::Monster m = monster_hunter::synthetic_monster(spec);
  monster_hunter::Clip& first = m.pack.clips.at(m.pack.streams.at(0).at(0));
  first.tracks.resize(1);
  write_file(folder() / "mh-skeleton.bin", monster_hunter::write_skeleton(m.skeleton));
  write_file(folder() / "mh-pack.bin", monster_hunter::write_pack(m.pack));
  const Json s = {{"engine", "monster_hunter"}, {"skeleton", "mh-skeleton.bin"},
                  {"pack", "mh-pack.bin"},      {"game", "mhp3rd"},
                  {"joints", {0, 3, 7}},        {"steps", steps}};
  std::ostringstream out;
  EXPECT_EQ(error_of([&] { monster_hunter::play(s, folder(), PlayOptions{.json = true}, out); }), "");
  return out.str();
}

// The last trace line (the pose after the last step).
std::string last_line(const std::string& trace) {
  const size_t end = trace.find_last_not_of('\n');
  const size_t start = trace.rfind('\n', end);
  return trace.substr(start == std::string::npos ? 0 : start + 1, end - start);
}

// "play 0, play 1": the MHP3rd player's clip is replaced in place, so the pose cursor still
// pointed at the same Motion address, now a motion with more curves than the cursor has keys;
// sample_joint read and wrote the cursor's keys past their end (heap overflow under ASan). The
// pose after the switch is the one clip 1 gives when played alone.
TEST(FuzzFindings, MonsterHunterCursorOfAReplacedClipIsNotUsed) {
  const std::string switched = mh_trace({{{"play", 0}}, {{"advance", 3}}, {{"play", 1}}, {{"advance", 5}}});
  const std::string alone = mh_trace({{{"play", 1}}, {{"advance", 5}}});
  const Json a = Json::parse(last_line(switched)), b = Json::parse(last_line(alone));
  ASSERT_TRUE(a.contains("positions"));
  EXPECT_EQ(a["clip"], 1);
  EXPECT_EQ(a["positions"], b["positions"]);
  EXPECT_EQ(a["phase"], b["phase"]);
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
  // Refused before it runs by the whole play's budget (the per-update one stops it otherwise).
  EXPECT_EQ(ac_error(1e300), "scenario: \"ticks\" (repeats, 1 s slices of dt, and motions): " +
                                 fmt::format("{} steps in one play exceed the limit of 10000 steps "
                                             "(--max-steps)", UINT64_MAX / 2 + 2));
  set_limits(saved);
}

// --- The whole play's budget (issue 19: "advance": 2e9 runs for hours because it was asked to) ---


std::string over(uint64_t steps, uint64_t limit) {
  return fmt::format("{} steps in one play exceed the limit of {} steps (--max-steps)", steps, limit);
}

// The Warriors: one character of 34 bones, 1 + 34 / 8 = 5 steps an update.
TEST(FuzzFindings, WarriorsWholePlayIsBudgeted) {
  auto updates = [](int n) {
    Json s = warriors_chain(0);
    s["updates"] = n;
    return warriors_error(s);
  };
  EXPECT_EQ(updates(10000000), "scenario: 'updates': " + over(50000000, 1000000));
  const StepLimit limit(1000);
  EXPECT_EQ(updates(200), "");
  EXPECT_EQ(updates(201), "scenario: 'updates': " + over(1005, 1000));
}

// Monster Hunter: the MHFU synthetic monster's 3 parts traced and 8 bones posed, 3 x (1 + 1) = 6
// steps a frame; MHP3rd traces its one clip, 1 x 2.
std::string mh_error(monster_hunter::Game game, const Json& steps) {
  monster_hunter::MonsterSpec spec;
  spec.game = game;
  const monster_hunter::Monster m = monster_hunter::synthetic_monster(spec);
  write_file(folder() / "mh-budget-skeleton.bin", monster_hunter::write_skeleton(m.skeleton));
  write_file(folder() / "mh-budget-pack.bin", monster_hunter::write_pack(m.pack));
  const Json s = {{"engine", "monster_hunter"},
                  {"skeleton", "mh-budget-skeleton.bin"},
                  {"pack", "mh-budget-pack.bin"},
                  {"game", game == monster_hunter::Game::kMhfu ? "mhfu" : "mhp3rd"},
                  {"steps", steps}};
  return error_of([&] {
    std::ostringstream out;
    monster_hunter::play(s, folder(), PlayOptions{}, out);
  });
}

TEST(FuzzFindings, MonsterHunterWholePlayIsBudgeted) {
  using monster_hunter::Game;
  // Each step counts as one traced frame besides its "advance" frames (issue 30).
  const std::string what = "scenario: the steps and their \"advance\" frames: ";
  EXPECT_EQ(mh_error(Game::kMhfu, {{{"play", 1}}, {{"advance", 2000000000}}}),
            what + over(12000000012, 1000000));  // (2 steps + 2e9 frames) x 6
  const StepLimit limit(600);
  EXPECT_EQ(mh_error(Game::kMhfu, {{{"play", 1}}, {{"advance", 60}}, {{"advance", 37}}}), "");
  EXPECT_EQ(mh_error(Game::kMhfu, {{{"play", 1}}, {{"advance", 60}}, {{"advance", 38}}}),
            what + over(606, 600));  // (3 + 98) x 6
  EXPECT_EQ(mh_error(Game::kMhp3rd, {{{"play", 0}}, {{"advance", 298}}}), "");
  EXPECT_EQ(mh_error(Game::kMhp3rd, {{{"play", 0}}, {{"advance", 299}}}), what + over(602, 600));
  // 300,000 "play" steps that advance nothing are work too.
  EXPECT_EQ(mh_error(Game::kMhp3rd, Json(std::vector<Json>(300000, Json{{"play", 0}}))),
            what + over(600000, 600));
}

// Asheron's Call: one object, a step a tick, each repeat a tick.
std::string ac_ticks_error(const Json& ticks) {
  Json animations = Json::object();
  for (const auto& a : asherons_call::humanoid_animations())
    animations[asherons_call::hex32(a.id)] = asherons_call::hex32(a.id) + ".bin";
  const Json s = {{"engine", "asherons_call"},
                  {"motion_table", "table.bin"},
                  {"animations", animations},
                  {"ticks", ticks}};
  return error_of([&] {
    std::ostringstream out;
    asherons_call::play_scenario(s, ac_folder(), true, out);
  });
}

TEST(FuzzFindings, AsheronsCallWholePlayIsBudgeted) {
  // A tick's motions ("do", "wire") count one step each besides the tick (issue 30).
  const std::string what = "scenario: \"ticks\" (repeats, 1 s slices of dt, and motions): ";
  const Json walk = {{"dt", 0.1}, {"do", {{{"motion", "WalkForward"}}}}};
  EXPECT_EQ(ac_ticks_error({walk, {{"dt", 0.1}, {"repeat", 1000000}}}), what + over(1000002, 1000000));
  const StepLimit limit(50);
  EXPECT_EQ(ac_ticks_error({walk, {{"dt", 0.1}, {"repeat", 48}}}), "");
  EXPECT_EQ(ac_ticks_error({walk, {{"dt", 0.1}, {"repeat", 48}}, {{"dt", 0.1}}}), what + over(51, 50));
  // One tick of 100 motions under a limit of 50: refused before it runs.
  const Json many = {{"dt", 0.1}, {"do", std::vector<Json>(100, Json{{"motion", "WalkForward"}})}};
  EXPECT_EQ(ac_ticks_error(Json::array({many})), what + over(101, 50));
}

// fuzz_asherons_call_play's time-out (campaign, issue 19): 4 ticks of dt 309,803.9 s, each sliced
// by update_object into 309,803 one-second steps (within the per-update limit), 1.24 M in all.
TEST(FuzzFindings, AsheronsCallLongTicksAreBudgetedOverThePlay) {
  const Json walk = {{"dt", 0.0472}, {"do", {{{"motion", "WalkForward"}}}}};
  const Json tick = {{"dt", 309803.92156862747}, {"do", {{{"motion", "WalkForward"}}}}};
  EXPECT_EQ(ac_ticks_error({walk, tick, tick, tick, tick}),
            "scenario: \"ticks\" (repeats, 1 s slices of dt, and motions): " +
                over(1239218, 1000000));  // and the 5 motions (issue 30)
  const StepLimit limit(22);
  EXPECT_EQ(ac_ticks_error({walk, {{"dt", 10.5}, {"repeat", 2}}}), "");  // 1 + 1 + 2 x 10
  EXPECT_EQ(ac_ticks_error({walk, {{"dt", 10.5}, {"repeat", 2}}, {{"dt", 1.5}}}),
            "scenario: \"ticks\" (repeats, 1 s slices of dt, and motions): " + over(23, 22));
}

// Shadow of War: fuzz_shadow_of_war_play's time-out (13 s under the sanitizers): 65,537
// characters of 34 joints for 29 frames, each character 1 + 34 / 8 = 5 steps a frame and one
// more for building it; refused before the scene is built.
TEST(FuzzFindings, ShadowOfWarWholePlayIsBudgeted) {
  Json s = sow_scene();
  s["frames"] = 29;
  s["characters"] = Json::parse(R"([{"name": "c0"}, {"name": "c1"}, {"name": "c2", "count": 65535}])");
  EXPECT_EQ(error_of([&] {
              std::ostringstream out;
              shadow_of_war::play(s, ".", PlayOptions{}, out);
            }, 3),
            "scenario: 'frames' x characters: " + over(9830550, 1000000));
  const StepLimit limit(100);
  s["characters"] = Json::parse(R"([{"name": "c0", "count": 4}])");
  s["frames"] = 4;  // 4 characters x 5 steps x (4 frames + the build)
  EXPECT_EQ(sow_error(s), "");
  s["frames"] = 5;
  EXPECT_EQ(sow_error(s), "scenario: 'frames' x characters: " + over(120, 100));
}

// Hostile crowds the step budget lets through, each once quadratic: 60,000 one-joint characters
// took 8.1 s to build (every name was compared with every other for duplicates), and a script of
// 100,000 events took 10.8 s over 100,000 frames (every frame scanned the whole script, and
// each event every character). Both are linear now.
TEST(FuzzFindings, ShadowOfWarCrowdNamesAreCheckedInLinearTime) {
  Json s = sow_scene();
  s["joints"] = 1;
  s["frames"] = 0;
  s["characters"] = Json::parse(R"([{"name": "orc", "count": 60000}])");
  EXPECT_EQ(error_of([&] {
              std::ostringstream out;
              shadow_of_war::play(s, ".", PlayOptions{}, out);
            }, 4),
            "");
}

TEST(FuzzFindings, ShadowOfWarScriptIsWalkedOnce) {
  Json s = sow_scene();
  s["joints"] = 1;
  s["frames"] = 60000;
  s["characters"] = Json::parse(R"([{"name": "x"}, {"name": "y"}])");
  s["script"] = Json::array();
  for (int i = 0; i < 100000; ++i)
    s["script"].push_back({{"frame", i % 2 ? 59999 : 3}, {"character", i % 3 ? "y" : "x"}});
  s["script"].push_back({{"frame", 59999}, {"character", "nobody"}});
  EXPECT_EQ(error_of([&] {
              std::ostringstream out;
              shadow_of_war::play(s, ".", PlayOptions{}, out);
            }, 4),
            "/script/100000/character: no character \"nobody\"");  // before frame 0 (issue 29)
}

// The campaign's time-out (33 s under the sanitizers): a link that re-enters its state every
// frame with a 309,804 s blend; no cross-fade ever completed, so each frame added a tracker for
// good (318 after 316 frames, every one a live BLEND). A model now holds at most kMaxTrackers.
TEST(FuzzFindings, ShadowOfWarTrackersAreCapped) {
  Json s = sow_scene();
  s["frames"] = 400;
  s["characters"] = Json::parse(R"([{"name": "x", "count": 4}])");
  s["graph"] = Json::parse(R"({"states": [{"name": "A", "clip": "c", "Links": ["again"]}],
    "transitions": [{"name": "again", "target": "A", "predicate": {"And": []}, "BlendTime": 309803.9}]})");
  PlayOptions o;
  o.json = true;
  std::ostringstream out;
  EXPECT_EQ(error_of([&] { shadow_of_war::play(s, ".", o, out); }, 4), "");
  std::istringstream lines(out.str());
  std::string line, last;
  while (std::getline(lines, line)) last = line;
  const Json frame = Json::parse(last);
  ASSERT_EQ(frame["characters"].size(), 4u);
  EXPECT_EQ(frame["characters"][0]["trackers"].size(), shadow_of_war::kMaxTrackers);
  // Each tracker past 4 is counted against the whole play's budget as it comes: 401 frames x 4
  // characters x 5 steps are planned (8,020), the piled-up trackers add about 214,000 more.
  const StepLimit limit(100000);
  const std::string error = sow_error(s);
  EXPECT_EQ(error.rfind("scenario: 'frames' x characters, with their trackers past 4: ", 0), 0u)
      << error;
  EXPECT_NE(error.find("exceed the limit of 100000 steps (--max-steps)"), std::string::npos)
      << error;
}

}  // namespace
}  // namespace animkit
