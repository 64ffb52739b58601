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

}  // namespace
}  // namespace animkit::shadow_of_war
