// `dump --json` -> `sow build` (issue 15, item 5): the JSON carries every byte (name tails,
// blockset padding, gaps, NaN bits, undecodable dictionaries), so the build is byte-identical.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "animkit/core/error.h"
#include "animkit/shadow_of_war/anix_json.h"
#include "fixtures.h"

namespace animkit::shadow_of_war {
namespace {

using namespace testing;

// The JSON goes through its text form, as between `dump --json` and `sow build`.
std::vector<uint8_t> dump_then_build(const std::vector<uint8_t>& bytes) {
  const std::string text = to_json(parse_anix(bytes)).dump(1);
  return write_anix(anix_from_json(Json::parse(text)));
}

void expect_identical(const std::vector<uint8_t>& bytes) {
  const std::vector<uint8_t> back = dump_then_build(bytes);
  ASSERT_EQ(back.size(), bytes.size());
  EXPECT_TRUE(back == bytes);
}

size_t record_at(const std::vector<uint8_t>& bytes, size_t index) {
  const AnixFile f = parse_anix(bytes);
  return f.header.anim_chunk_offset + f.anim_chunk.records.at(index).offset;
}

TEST(AnixJson, EveryBuiltFixtureSurvivesDumpThenBuild) {
  AnixBuild ooo = out_of_order();
  ooo.events = two_clips_with_events().events;
  AnixBuild aligned = one_clip();
  aligned.clips[0].track_groups = {0};
  aligned.clips[0].remap = {0};
  aligned.clips[0].align_tables = true;
  for (const AnixBuild& b : {one_clip(), two_clips_with_events(), long_clip(), ooo, aligned}) {
    SCOPED_TRACE(b.clips.front().name);
    expect_identical(build_anix_bytes(b));
  }
}

TEST(AnixJson, BytesAfterTheNameNulAreKept) {
  std::vector<uint8_t> b = build_anix_bytes(one_clip());
  const size_t name = record_at(b, 0);
  const size_t len = parse_anix(b).anim_chunk.records[0].name().size();
  b[name + len + 3] = 0xCD;  // garbage past the NUL
  b[name + 0x2F] = 0x11;
  const Json j = to_json(parse_anix(b));
  EXPECT_NE(j["anim_chunk"]["records"][0]["name_tail"].get<std::string>().find("cd"),
            std::string::npos);
  expect_identical(b);
}

TEST(AnixJson, BlocksetAlignPadIsKept) {
  std::vector<uint8_t> b = build_anix_bytes(one_clip());
  const AnixFile f = parse_anix(b);
  const Blockset& bs = f.block_chunk.blocksets[0];
  ASSERT_FALSE(bs.align_pad.empty());  // 4 + 2 x 3 groups: 2 bytes to align
  const size_t pad = f.header.block_chunk_offset + bs.offset + 4 + 2 * bs.group_offsets.size() +
                     2 * bs.named_offsets.size();
  b[pad] = 0xAB;
  EXPECT_EQ(parse_anix(b).block_chunk.blocksets[0].align_pad[0], 0xAB);
  expect_identical(b);
}

TEST(AnixJson, OddNamesAndCodecs) {
  for (const std::string name : {std::string("bad\xff\xfe"), std::string("a\\x41b"),
                                 std::string("path\\to\\clip"), std::string(47, 'n'),
                                 std::string("tab\there\n")}) {
    SCOPED_TRACE(name);
    AnixBuild b = two_clips_with_events();
    b.clips[0].name = name;
    b.events->path = "orc\\anims\\" + name;
    b.events->strings.push_back("\x80odd");
    expect_identical(build_anix_bytes(b));
  }
  AnixBuild c = one_clip();
  c.clips[0].codecs[2] = std::string("S\0R\\", 4);
  expect_identical(build_anix_bytes(c));
}

// Names print through core printable (issue 16 item 5): valid UTF-8 and the backslash kept,
// control characters and invalid bytes as \xNN; a `_hex` beside a text that is not its bytes.
TEST(AnixJson, NameTextRule) {
  AnixBuild b = one_clip();
  b.clips[0].name = "orc\\run\t\xC3\xA9\xFF";
  const Json j = to_json(parse_anix(build_anix_bytes(b)));
  const Json& rec = j["anim_chunk"]["records"][0];
  EXPECT_EQ(rec["name"], "orc\\run\\x09\xC3\xA9\\xff");
  EXPECT_EQ(rec["name_hex"], "6f72635c72756e09c3a9ff");
  AnixBuild plain = one_clip();
  plain.clips[0].name = "orc_run";
  EXPECT_FALSE(to_json(parse_anix(build_anix_bytes(plain)))["anim_chunk"]["records"][0].contains("name_hex"));
}

TEST(AnixJson, NanAndInfinityBits) {
  AnixBuild b = one_clip();
  b.clips[0].root.start_position.x = std::numeric_limits<float>::quiet_NaN();
  b.clips[0].root.end_rotation.w = -std::numeric_limits<float>::infinity();
  std::vector<uint8_t> bytes = build_anix_bytes(b);
  const uint32_t odd_nan = 0x7FA00001;  // a signalling NaN with payload
  std::memcpy(bytes.data() + record_at(bytes, 0) + 0x40, &odd_nan, 4);
  expect_identical(bytes);
  const Json j = to_json(parse_anix(bytes));
  EXPECT_EQ(j["anim_chunk"]["records"][0]["root_summary"]["start_position"][1], "0x7fa00001");
}

TEST(AnixJson, UndecodedEventDictionaryAndGaps) {
  std::vector<uint8_t> b = build_anix_bytes(two_clips_with_events());
  const AnixFile f = parse_anix(b);
  const size_t dict = f.header.anim_chunk_offset + f.anim_chunk.event_dictionary_offset;
  const uint32_t many = 0x7FFFFFFF;
  std::memcpy(b.data() + dict, &many, 4);  // clip count past the dictionary
  ASSERT_FALSE(parse_anix(b).anim_chunk.event_dictionary);
  expect_identical(b);
  // Bytes past every chunk: a gap of the file.
  std::vector<uint8_t> tail = build_anix_bytes(one_clip());
  for (uint8_t x : {0xDE, 0xAD, 0xBE, 0xEF, 0x01}) tail.push_back(x);
  ASSERT_FALSE(parse_anix(tail).gaps.empty());
  expect_identical(tail);
}

// Editing the JSON edits the file.
TEST(AnixJson, EditsReachTheFile) {
  const std::vector<uint8_t> bytes = build_anix_bytes(two_clips_with_events());
  Json j = to_json(parse_anix(bytes));
  j["anim_chunk"]["records"][0]["duration_ms"] = 4321;
  j["anim_chunk"]["records"][0]["name"] = "renamed";
  j["anim_chunk"]["records"][0]["root_summary"]["end_position"][2] = 12.5;
  j["anim_chunk"]["event_dictionary"]["clips"][0]["events"][0]["ms"] = 77;
  const AnixFile f = parse_anix(write_anix(anix_from_json(j)));
  const Record& r = f.anim_chunk.records[0];
  EXPECT_EQ(r.duration_ms, 4321u);
  EXPECT_EQ(r.name(), "renamed");
  EXPECT_EQ(r.name_bytes[0x2F], 0);
  EXPECT_EQ(r.root.end_position.z, 12.5f);
  EXPECT_EQ(event_ms(f.anim_chunk.event_dictionary->clips[0].events[0]), 77u);
}

TEST(AnixJson, BadDescriptionsNameThePath) {
  const Json good = to_json(parse_anix(build_anix_bytes(one_clip())));
  auto error = [](const Json& j) {
    try {
      anix_from_json(j);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(error(good), "");
  Json j = good;
  j["anim_chunk"]["records"][0]["remap"] = Json::array();
  EXPECT_NE(error(j).find("$.anim_chunk.records[0].remap"), std::string::npos) << error(j);
  j = good;
  j["header"]["file_size"] = "0xZZ";
  EXPECT_NE(error(j).find("$.header.file_size"), std::string::npos) << error(j);
  j = good;
  j["block_chunk"]["blocksets"][0]["body"] = "abc";
  EXPECT_NE(error(j).find("odd number"), std::string::npos);
  j = good;
  j["anim_chunk"]["records"][0]["codecs"][0] = "SQ0";
  EXPECT_NE(error(j).find("4 bytes"), std::string::npos);
  j = good;
  j.erase("format");
  EXPECT_FALSE(error(j).empty());
  j = good;
  j["anim_chunk"]["records"][0]["root_summary"]["start_position"] = {1, 2};
  EXPECT_NE(error(j).find("expected 3 numbers"), std::string::npos);
  j = good;
  j["anim_chunk"]["records"][0]["track_groups"][0] = 300;
  EXPECT_NE(error(j).find("does not fit"), std::string::npos);
}

// The loaded clip object's frame per event (+0x20): floor(ms x frames / duration ms).
TEST(EventFrames, FramePerEvent) {
  const ClipEvents c{"a", 45, 1500, {event_word(0, 0), event_word(1, 400), event_word(kNoText, 1500)}};
  EXPECT_EQ(event_frames(c), (std::vector<uint32_t>{0, 12, 45}));
  const ClipEvents z{"z", 0, 0, {event_word(0, 10)}};
  EXPECT_EQ(event_frames(z), (std::vector<uint32_t>{0}));
}

}  // namespace
}  // namespace animkit::shadow_of_war
