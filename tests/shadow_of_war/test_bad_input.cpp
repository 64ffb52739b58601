// Bad input (issue 15, item 6): .anix errors name what is wrong; scenario mistakes are errors
// before the first frame; a state whose clip was unloaded is an error the trace shows.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "animkit/core/error.h"
#include "animkit/shadow_of_war/anix_document.h"
#include "fixtures.h"

namespace animkit::shadow_of_war {
namespace {

using namespace testing;

std::string error_of(const std::vector<uint8_t>& bytes) {
  try {
    parse_anix(bytes);
  } catch (const Error& e) {
    return e.what();
  }
  return {};
}

bool has(const std::vector<Finding>& findings, const std::string& code) {
  for (const Finding& f : findings)
    if (f.code == code) return true;
  return false;
}

TEST(BadAnix, HugeHeaderTrackCountIsReportedAsSuch) {
  std::vector<uint8_t> b = build_anix_bytes(one_clip());
  const uint32_t huge = 0xFFFFFFFF;
  std::memcpy(b.data() + 0x10, &huge, 4);
  const std::string e = error_of(b);
  EXPECT_NE(e.find("header track count 4294967295 (0xffffffff)"), std::string::npos) << e;
  EXPECT_NE(e.find("offset 0x10"), std::string::npos) << e;
  EXPECT_EQ(e.find("length 0"), std::string::npos) << e;
}

TEST(BadAnix, TrackCountOneTooManySaysHowManyWereRead) {
  std::vector<uint8_t> b = build_anix_bytes(one_clip());
  const uint32_t five = 5;  // the runs hold 4
  std::memcpy(b.data() + 0x10, &five, 4);
  const std::string e = error_of(b);
  EXPECT_NE(e.find("track run of length 0 (4 of the header's 5 tracks read)"), std::string::npos)
      << e;
}

TEST(BadAnix, OverlappingBlocksetsSayOverlap) {
  const AnixBuild build = two_clips_with_events();
  std::vector<uint8_t> b = build_anix_bytes(build);
  const AnixFile f = parse_anix(b);
  ASSERT_EQ(f.anim_chunk.records.size(), 2u);
  const Record& first = f.anim_chunk.records[0];
  const Record& second = f.anim_chunk.records[1];
  // The second record's blockset table entry 0 ({offset, size, t0, t1}).
  const size_t table = f.header.anim_chunk_offset + second.offset + kRecordFixedSize +
                       4 * second.codecs.size() + 3 * second.track_groups.size() +
                       second.table_pad.size();
  uint32_t offset;
  std::memcpy(&offset, b.data() + table, 4);
  ASSERT_EQ(offset, second.blockset_table[0].offset);
  const uint32_t inside = first.blockset_table[0].offset + 8;
  std::memcpy(b.data() + table, &inside, 4);
  const std::string e = error_of(b);
  EXPECT_NE(e.find("overlaps"), std::string::npos) << e;
  EXPECT_NE(e.find("blockset at"), std::string::npos) << e;
}

TEST(BadAnix, NanOrInfRootSummaryIsAValidateError) {
  for (float bad : {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(),
                    -std::numeric_limits<float>::infinity()}) {
    AnixBuild build = one_clip();
    build.clips[0].root.end_rotation.w = bad;
    const std::vector<uint8_t> bytes = build_anix_bytes(build);
    const AnixFile f = parse_anix(bytes);
    EXPECT_EQ(write_anix(f), bytes);  // still lossless
    const auto findings = check(f, bytes.size());
    ASSERT_TRUE(has(findings, "ROOT_SUMMARY"));
    for (const Finding& x : findings)
      if (x.code == "ROOT_SUMMARY") {
        EXPECT_EQ(x.level, Finding::Level::kError);
        EXPECT_NE(x.message.find("+0x70"), std::string::npos) << x.message;  // end rotation w
      }
  }
  EXPECT_FALSE(has(check(build_anix(one_clip()), build_anix(one_clip()).header.file_size),
                   "ROOT_SUMMARY"));
}

Json scene() {
  return Json::parse(R"({"engine": "shadow_of_war", "joints": 4, "frames": 10, "dt": 0.1,
    "files": [{"path": "loco.anix", "clips": [{"name": "idle", "duration": 1}]},
              {"path": "run.anix", "clips": [{"name": "run", "duration": 0.5}]}],
    "graph": {"start": "Idle",
              "states": [{"name": "Idle", "clip": "idle", "DefaultBlendTime": 0,
                          "Links": [{"target": "Run", "predicate": {"value": "speed", "op": ">", "than": 0.5}}]},
                         {"name": "Run", "clip": "run", "DefaultBlendTime": 0}]},
    "characters": [{"name": "orc", "values": {"speed": 0}}],
    "script": []})");
}

std::string play_error(const Json& s, int threads = 0) {
  try {
    play_frames(s, threads);
  } catch (const Error& e) {
    return e.what();
  }
  return {};
}

TEST(BadScenario, UnknownWeightSet) {
  Json s = scene();
  s["graph"]["states"][1]["WeightSet"] = "upper";
  EXPECT_NE(play_error(s).find("WeightSet 'upper'"), std::string::npos) << play_error(s);
  s["weight_sets"] = {{"upper", {{"joint", "joint1"}}}};
  EXPECT_EQ(play_error(s), "");
}

TEST(BadScenario, NegativeOrNanDt) {
  Json s = scene();
  s["dt"] = -0.1;
  EXPECT_NE(play_error(s).find("'dt'"), std::string::npos);
  s["dt"] = "fast";
  EXPECT_NE(play_error(s).find("'dt'"), std::string::npos);
  s["dt"] = 0;
  EXPECT_EQ(play_error(s), "");
  s["frames"] = -3;
  EXPECT_NE(play_error(s).find("'frames'"), std::string::npos);
}

TEST(BadScenario, DuplicateCharacterNames) {
  Json s = scene();
  s["characters"] = {{{"name", "orc"}, {"count", 2}}, {{"name", "orc_1"}}};
  EXPECT_NE(play_error(s).find("two characters named 'orc_1'"), std::string::npos)
      << play_error(s);
  s["characters"] = {{{"name", "orc"}}, {{"name", "orc"}}};
  EXPECT_NE(play_error(s).find("two characters named 'orc'"), std::string::npos);
}

TEST(BadScenario, ThreadCounts) {
  const Json s = scene();
  EXPECT_NE(play_error(s, -1).find("--threads -1"), std::string::npos);
  EXPECT_EQ(play_error(s, 0), "");  // 0: the default of three workers
}

// Entering a state whose clip was unloaded: the trace runs to its end, the frame shows the error,
// and the run fails afterwards.
TEST(BadScenario, EnteringAStateWhoseClipWasUnloaded) {
  Json s = scene();
  s["script"] = {{{"frame", 3}, {"unload", "run.anix"}},
                 {{"frame", 5}, {"character", "orc"}, {"values", {{"speed", 3}}}}};
  std::ostringstream out;
  PlayOptions o;
  o.json = true;
  std::string error;
  try {
    play(s, ".", o, out);
  } catch (const Error& e) {
    error = e.what();
  }
  EXPECT_NE(error.find("frame 5: character 'orc': state 'Run' plays clip 'run'"),
            std::string::npos)
      << error;
  std::istringstream lines(out.str());
  std::vector<Json> frames;
  for (std::string line; std::getline(lines, line);) frames.push_back(Json::parse(line));
  ASSERT_EQ(frames.size(), 10u);  // no abort halfway
  EXPECT_FALSE(frames[4].contains("errors"));
  ASSERT_TRUE(frames[5].contains("errors"));
  EXPECT_NE(frames[5]["errors"][0].get<std::string>().find("'run'"), std::string::npos);
  EXPECT_EQ(frames[5]["characters"][0]["state"], "Run");
  EXPECT_TRUE(frames[5]["characters"][0]["trackers"].back()["clip"].is_null());
  EXPECT_FALSE(frames[6].contains("errors"));
  EXPECT_EQ(frames[9]["characters"][0]["state"], "Run");
}

// Issue 29: the scenario is checked whole before frame 0; each error names its JSON path and
// no trace line is printed.
std::pair<std::string, std::string> error_and_trace(const Json& s) {
  std::ostringstream out;
  PlayOptions o;
  o.json = true;
  try {
    play(s, ".", o, out);
  } catch (const Error& e) {
    return {e.what(), out.str()};
  }
  return {"", out.str()};
}

TEST(BadScenario, ScriptSettingAnUndeclaredValueFailsBeforeFrameZero) {
  Json s = scene();
  s["script"] = {{{"frame", 1}, {"character", "orc"}, {"values", {{"speed", 3}}}},
                 {{"frame", 2}, {"character", "orc"}, {"values", {{"sped", 1}}}}};
  const auto [error, trace] = error_and_trace(s);
  EXPECT_EQ(error, "/script/1/values: value \"sped\" is not declared (a character's \"values\", "
                   "the graph's \"values\" or a predicate that reads it)");
  EXPECT_EQ(trace, "");
  // Declared by the graph's "values" list, or by a predicate, it is fine.
  s["graph"]["values"] = {"sped"};
  EXPECT_EQ(error_and_trace(s).first, "");
}

TEST(BadScenario, ClipDurationsMustBePositiveAndFinite) {
  for (const Json& d : {Json(0), Json(-0.5), Json("1 s"), Json(std::numeric_limits<double>::infinity())}) {
    Json s = scene();
    s["files"][1]["clips"][0]["duration"] = d;
    const auto [error, trace] = error_and_trace(s);
    EXPECT_EQ(error.rfind("/files/1/clips/0/duration: ", 0), 0u) << d << ": " << error;
    EXPECT_NE(error.find("more than 0"), std::string::npos) << error;
    EXPECT_EQ(trace, "");
  }
}

TEST(BadScenario, NegativeCountsAndFrames) {
  Json s = scene();
  s["characters"][0]["count"] = -2;
  EXPECT_EQ(error_and_trace(s).first,
            "/characters/0/count: -2 is not a count of characters (0 or more)");
  s = scene();
  s["script"] = {{{"frame", -1}, {"character", "orc"}}};
  EXPECT_EQ(error_and_trace(s).first, "/script/0/frame: -1 is not a frame (0 or more)");
  s = scene();
  s["files"][0]["clips"][0]["events"] = {{{"ms", -5}, {"text", "RAGDOLL"}}};
  EXPECT_EQ(error_and_trace(s).first.rfind("/files/0/clips/0/events/0/ms: -5 is not", 0), 0u);
}

TEST(BadScenario, UnknownClipsStatesCharactersAndFiles) {
  Json s = scene();
  s["graph"]["states"].push_back({{"name", "Fall"}, {"clip", "fall"}});
  EXPECT_EQ(error_and_trace(s).first,
            "/graph/states/2/clip: clip \"fall\" is in none of the scenario's files");
  s = scene();
  s["global"] = {{"RagdollDeathAnimation", "death"}};
  EXPECT_EQ(error_and_trace(s).first,
            "/global/RagdollDeathAnimation: clip \"death\" is in none of the scenario's files");
  s = scene();
  s["script"] = {{{"frame", 9}, {"character", "orc"}, {"enter", "Swim"}}};
  EXPECT_EQ(error_and_trace(s).first, "/script/0/enter: no state \"Swim\"");
  s["script"] = {{{"frame", 9}, {"unload", "swim.anix"}}};
  EXPECT_EQ(error_and_trace(s).first, "/script/0/unload: no file \"swim.anix\" in \"files\"");
  s["script"] = {{{"frame", 9}, {"character", "troll"}}};
  EXPECT_EQ(error_and_trace(s).first, "/script/0/character: no character \"troll\"");
  s["script"] = {{{"frame", 9}, {"character", "orc"}, {"die", true}, {"attack", "Axe"}}};
  EXPECT_EQ(error_and_trace(s).first, "/script/0/attack: no attack \"Axe\" in \"attacks\"");
  s["script"] = {{{"frame", 9}, {"character", "orc"}, {"values", {{"speed", "fast"}}}}};
  EXPECT_EQ(error_and_trace(s).first, "/script/0/values/speed: \"fast\" is not a finite number");
}

}  // namespace
}  // namespace animkit::shadow_of_war
