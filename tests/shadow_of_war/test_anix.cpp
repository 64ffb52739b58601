// The .anix format (spec: "Clips: the .anix format"): round trips, the stated checks, the event
// dictionary, the keyword hash and tables. Fixtures are built by the module's writer.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

#include "animkit/core/error.h"
#include "animkit/shadow_of_war/anix_document.h"
#include "fixtures.h"

namespace animkit::shadow_of_war {
namespace {

using namespace testing;

void expect_round_trip(const AnixBuild& build) {
  const std::vector<uint8_t> bytes = build_anix_bytes(build);
  const AnixFile file = parse_anix(bytes);
  EXPECT_EQ(write_anix(file), bytes);             // write(parse(bytes)) == bytes
  EXPECT_EQ(parse_anix(write_anix(file)), file);  // parse(write(x)) == x
}

bool has(const std::vector<Finding>& findings, const std::string& code) {
  return std::any_of(findings.begin(), findings.end(),
                     [&](const Finding& f) { return f.code == code; });
}

template <class T>
void patch(std::vector<uint8_t>& b, size_t at, T v) {
  std::memcpy(b.data() + at, &v, sizeof(T));
}
uint32_t u32_at(const std::vector<uint8_t>& b, size_t at) {
  uint32_t v;
  std::memcpy(&v, b.data() + at, 4);
  return v;
}

std::string error_of(const std::vector<uint8_t>& bytes) {
  try {
    parse_anix(bytes);
  } catch (const Error& e) {
    return e.message();
  }
  return {};
}

TEST(Anix, OneClipHeaderAndRoundTrip) {
  const std::vector<uint8_t> bytes = build_anix_bytes(one_clip());
  const AnixFile f = parse_anix(bytes);
  // Spec, header: 'ANIX' | 0x2C | 0x30 | file size | track count | ... | 1 | 1
  EXPECT_EQ(std::memcmp(bytes.data(), "ANIX", 4), 0);
  EXPECT_EQ(u32_at(bytes, 4), 0x2Cu);
  EXPECT_EQ(u32_at(bytes, 8), 0x30u);
  EXPECT_EQ(f.header.file_size, bytes.size());
  EXPECT_EQ(f.header.track_count, 4u);
  EXPECT_EQ(f.header.field_28, 1u);
  EXPECT_EQ(f.header.field_2c, 1u);
  ASSERT_EQ(f.track_runs.size(), 3u);
  EXPECT_EQ(f.track_runs[0].channel_hash, 0x27436396u);  // rotation
  EXPECT_EQ(f.track_runs[1].channel_hash, 0x00CE66FCu);  // position
  EXPECT_EQ(f.track_runs[2].channel_hash, 0x210C8F5Au);  // events
  EXPECT_EQ(f.tracks().size(), 4u);
  ASSERT_EQ(f.anim_chunk.records.size(), 1u);
  const Record& r = f.anim_chunk.records[0];
  EXPECT_EQ(f.anim_chunk.directory_offset, 0x10u);  // spec: directory offset (0x10)
  EXPECT_EQ(r.name(), "orc_idle");
  EXPECT_EQ(r.flag, 1);
  EXPECT_EQ(r.size_field, 0x7C + 16 * 1 + 8 * 0);  // spec, record +0x30
  EXPECT_EQ(r.duration_ms, 2000u);
  EXPECT_EQ(r.root.end_position.z, 250.f);
  EXPECT_EQ(r.codecs, (std::vector<std::string>{"SQ03", "AQ03", "STRI"}));
  EXPECT_EQ(r.key_strings.size(), 4u);
  // The record's bytes at their spec offsets.
  const size_t rec = f.header.anim_chunk_offset + r.offset;
  EXPECT_EQ(u32_at(bytes, rec + 0x30), (1u << 16) | (0x7C + 16));
  EXPECT_EQ(u32_at(bytes, rec + 0x78), 2000u);
  EXPECT_EQ(std::memcmp(bytes.data() + rec + 0x7C, "SQ03AQ03STRI", 12), 0);
  ASSERT_EQ(f.block_chunk.blocksets.size(), 1u);
  const Blockset& b = f.block_chunk.blocksets[0];
  EXPECT_EQ(b.lith_tag, 0x2B99DBC1u);
  EXPECT_EQ(b.lith.times.size(), 5u);
  EXPECT_EQ(b.lith.times.back(), 2.f);
  const auto groups = blockset_groups(b, r.codecs);
  ASSERT_EQ(groups.size(), 3u);
  EXPECT_EQ(groups[0].codec, "SQ03");
  EXPECT_EQ(groups[0].bytes, opaque_group(24, 3));  // kept exactly
  auto aq = aq03_header(groups[1].bytes);
  ASSERT_TRUE(aq);
  EXPECT_EQ(aq->end_time, 2.f);
  EXPECT_EQ(aq->keys, 5u);
  EXPECT_EQ(stri_strings(groups[2].bytes), std::vector<std::string>{"step"});
  EXPECT_TRUE(check(f, bytes.size()).empty());
  expect_round_trip(one_clip());
}

TEST(Anix, TwoClipsWithEvents) {
  const AnixBuild build = two_clips_with_events();
  const std::vector<uint8_t> bytes = build_anix_bytes(build);
  const AnixFile f = parse_anix(bytes);
  ASSERT_TRUE(f.anim_chunk.event_dictionary) << f.anim_chunk.event_dictionary_error;
  const EventDictionary& d = *f.anim_chunk.event_dictionary;
  EXPECT_EQ(d.path, "anims/orc_deaths.anix");
  ASSERT_EQ(d.clips.size(), 2u);
  EXPECT_EQ(d.clips[1].events[1], (1u << 24) | 1200u);         // (string index << 24) | ms
  EXPECT_EQ(event_string_index(d.clips[0].events[1]), 0xFFu);  // 0xFF: no text
  EXPECT_EQ(d.text(d.clips[0].events[1]), "");
  EXPECT_EQ(d.text(d.clips[1].events[1]), "RAGDOLL 0.25");
  const ClipEvents* a = d.find(keyword_hash("orc_death_a"));
  ASSERT_NE(a, nullptr);
  // Spec, "Clip keywords": a keyword matches in any case; RAGDOLL carries an argument.
  EXPECT_TRUE(d.carries_keyword(*a, keyword_hash("DELAYRAGDOLL")));
  EXPECT_FALSE(d.carries_keyword(*a, keyword_hash("RAGDOLL")));
  const ClipEvents* b = d.find(keyword_hash("ORC_DEATH_B"));
  ASSERT_NE(b, nullptr);
  EXPECT_TRUE(d.carries_keyword(*b, keyword_hash("RAGDOLL")));
  EXPECT_TRUE(d.carries_keyword(*b, keyword_hash("DESTROY")));
  EXPECT_FALSE(d.carries_keyword(*b, keyword_hash("RESUMERAGDOLL")));
  EXPECT_TRUE(check(f, bytes.size()).empty());
  expect_round_trip(build);
  const Animated n = to_neutral(f);
  ASSERT_EQ(n.clips.size(), 2u);
  EXPECT_EQ(n.clips[1].events.size(), 3u);
  EXPECT_FLOAT_EQ(n.clips[1].events[1].time, 1.2f);
  EXPECT_EQ(n.clips[0].joints[0].translation.values.back().z, 250.f);
  EXPECT_FALSE(n.notes.empty());
}

TEST(Anix, LongClipOverTwoBlocksetsSharesTheBoundaryKey) {
  const AnixBuild build = long_clip();
  const std::vector<uint8_t> bytes = build_anix_bytes(build);
  const AnixFile f = parse_anix(bytes);
  ASSERT_EQ(f.block_chunk.blocksets.size(), 2u);
  const Record& r = f.anim_chunk.records[0];
  ASSERT_EQ(r.blockset_table.size(), 2u);
  EXPECT_EQ(r.size_field, 0x7C + 16 * 2);
  EXPECT_EQ(r.blockset_table[0].t1, r.blockset_table[1].t0);      // shared boundary key
  EXPECT_EQ(f.block_chunk.blocksets[1].lith.times.front(), 2.f);  // absolute times
  const auto g1 = blockset_groups(f.block_chunk.blocksets[1], r.codecs);
  EXPECT_EQ(aq03_header(g1[1].bytes)->start_time, 2.f);
  EXPECT_EQ(stri_strings(g1[2].bytes), (std::vector<std::string>{"b", "c"}));
  EXPECT_TRUE(check(f, bytes.size()).empty());
  expect_round_trip(build);

  AnixBuild bad = build;
  bad.clips[0].blocksets[1].times = {2.5f, 3.f, 4.f};
  const AnixFile fb = build_anix(bad);
  EXPECT_TRUE(has(check(fb, write_anix(fb).size()), "BOUNDARY_KEY"));
}

TEST(Anix, RecordsOutOfDirectoryOrderEndAtTheNextRecordByPosition) {
  AnixBuild build = out_of_order();
  build.events = two_clips_with_events().events;
  const std::vector<uint8_t> bytes = build_anix_bytes(build);
  const AnixFile f = parse_anix(bytes);
  const AnimChunk& a = f.anim_chunk;
  ASSERT_EQ(a.directory.size(), 3u);
  // Directory order a, b, c; positions c, a, b.
  EXPECT_GT(a.directory[0].offset, a.directory[2].offset);
  EXPECT_GT(a.directory[1].offset, a.directory[0].offset);
  const Record* b = a.record_at(a.directory[1].offset);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->name(), "clip_b");
  // clip_b ends at the event dictionary, not at clip_c (the directory's next entry).
  EXPECT_EQ(b->key_strings, std::vector<uint8_t>(36, 0xBB));
  EXPECT_EQ(b->offset + b->size(), a.event_dictionary_offset);
  EXPECT_EQ(a.record_at(a.directory[2].offset)->offset + a.record_at(a.directory[2].offset)->size(),
            a.directory[0].offset);
  expect_round_trip(build);
}

// README, Choices 2: tables without padding; an aligned blockset table is recognised and kept.
TEST(Anix, AlignedBlocksetTableIsKept) {
  for (bool aligned : {false, true}) {
    AnixBuild build = one_clip();
    build.clips[0].track_groups = {0};  // 0x7C + 12 + 1 + 2: the table would start unaligned
    build.clips[0].remap = {0};
    build.clips[0].align_tables = aligned;
    const std::vector<uint8_t> bytes = build_anix_bytes(build);
    const AnixFile f = parse_anix(bytes);
    const Record& r = f.anim_chunk.records[0];
    EXPECT_EQ(r.table_pad.size(), aligned ? 1u : 0u);
    ASSERT_EQ(f.block_chunk.blocksets.size(), 1u);
    EXPECT_EQ(r.key_strings.size(), aligned ? 4u : 5u);  // the record is padded to 4
    EXPECT_TRUE(check(f, bytes.size()).empty());
    expect_round_trip(build);
  }
}

TEST(AnixChecks, FileSize) {
  std::vector<uint8_t> bytes = build_anix_bytes(one_clip());
  patch<uint32_t>(bytes, 0x0C, 12345);
  const AnixFile f = parse_anix(bytes);
  EXPECT_TRUE(has(check(f, bytes.size()), "FILE_SIZE"));
  EXPECT_EQ(write_anix(f), bytes);
}

TEST(AnixChecks, RecordSizeField) {
  std::vector<uint8_t> bytes = build_anix_bytes(one_clip());
  AnixFile f = parse_anix(bytes);
  patch<uint16_t>(bytes, f.header.anim_chunk_offset + f.anim_chunk.records[0].offset + 0x30, 0x7C);
  f = parse_anix(bytes);
  EXPECT_TRUE(has(check(f, bytes.size()), "RECORD_SIZE_FIELD"));
}

TEST(AnixChecks, BlocksetOver64KB) {
  AnixBuild build = one_clip();
  build.clips[0].blocksets[0].groups[2] = opaque_group(70000, 9);
  const std::vector<uint8_t> bytes = build_anix_bytes(build);
  const AnixFile f = parse_anix(bytes);
  EXPECT_GT(f.anim_chunk.records[0].blockset_table[0].size, 0x10000u);
  EXPECT_TRUE(has(check(f, bytes.size()), "BLOCKSET_SIZE"));
}

TEST(AnixChecks, LithTag) {
  std::vector<uint8_t> bytes = build_anix_bytes(one_clip());
  const uint8_t tag[4] = {0xC1, 0xDB, 0x99, 0x2B};
  auto it = std::search(bytes.begin(), bytes.end(), tag, tag + 4);
  ASSERT_NE(it, bytes.end());
  *it = 0;
  EXPECT_NE(error_of(bytes).find("LITH tag"), std::string::npos) << error_of(bytes);
}

TEST(AnixChecks, Sq03ZeroBits) {
  AnixBuild build = one_clip();
  build.clips[0].blocksets[0].groups[0] = std::vector<uint8_t>(24, 0);
  const AnixFile f = build_anix(build);
  EXPECT_TRUE(has(check(f, f.header.file_size), "SQ03_ZERO"));
}

TEST(AnixChecks, EventStringIndex) {
  AnixBuild build = two_clips_with_events();
  build.events->clips[0].events.push_back(event_word(9, 10));
  const AnixFile f = build_anix(build);
  EXPECT_TRUE(has(check(f, f.header.file_size), "EVENT_STRING"));
}

TEST(AnixChecks, AnAq03HeaderDifferingFromTheLith) {
  AnixBuild build = one_clip();
  build.clips[0].blocksets[0].groups[1] = aq03_group(0, 1.f, 5, 4);
  const AnixFile f = build_anix(build);
  EXPECT_TRUE(has(check(f, f.header.file_size), "AQ03_HEADER"));
}

TEST(AnixChecks, TrackGroupOutOfRange) {
  AnixBuild build = one_clip();
  build.clips[0].track_groups[3] = 7;
  const AnixFile f = build_anix(build);
  EXPECT_TRUE(has(check(f, f.header.file_size), "TRACK_GROUP"));
}

TEST(AnixChecks, StructuralErrors) {
  const std::vector<uint8_t> good = build_anix_bytes(one_clip());
  std::vector<uint8_t> b = good;
  b[0] = 'X';
  EXPECT_NE(error_of(b).find("magic"), std::string::npos);
  b = good;
  patch<uint32_t>(b, 0x30 + 4, 9);  // first run longer than the track count
  EXPECT_NE(error_of(b).find("exceeds the header's track count"), std::string::npos);
  b = good;
  patch<uint32_t>(b, 0x24, 0x7FFFFFFF);  // anim chunk size
  EXPECT_NE(error_of(b).find("anim chunk"), std::string::npos);
  b = good;
  const AnixFile f = parse_anix(good);
  patch<uint32_t>(b, f.header.anim_chunk_offset + 0x14, 0x08);  // a record inside the header
  EXPECT_NE(error_of(b).find("overlaps"), std::string::npos) << error_of(b);
  b = good;
  b.resize(b.size() - 8);
  EXPECT_FALSE(error_of(b).empty());
}

TEST(AnixChecks, TruncationsNeverCrash) {
  const std::vector<uint8_t> good = build_anix_bytes(two_clips_with_events());
  for (size_t n = 0; n < good.size(); n += 3) {
    std::vector<uint8_t> b(good.begin(), good.begin() + n);
    try {
      const AnixFile f = parse_anix(b);
      check(f, b.size());
    } catch (const Error&) {
    }
  }
}

// Spec, "Clip keywords": upper-cased, sign-extended bytes; seed = first character, then
// seed * 31 + c.
TEST(Keyword, Hash) {
  EXPECT_EQ(keyword_hash("A"), 65u);
  EXPECT_EQ(keyword_hash("ab"), 65u * 31 + 66);
  EXPECT_EQ(keyword_hash("AB"), keyword_hash("ab"));
  EXPECT_EQ(keyword_hash("a\xE9"), 65u * 31 + 0xFFFFFFE9u);  // sign-extended byte
  EXPECT_EQ(keyword_hash(""), 0u);
  uint32_t h = 'R';
  for (char c : std::string("AGDOLL")) h = h * 31 + static_cast<uint32_t>(c);
  EXPECT_EQ(keyword_hash("ragdoll"), h);
}

TEST(Keyword, TablesMatchInAnyCase) {
  EXPECT_EQ(kRagdollKeywords.size(), 14u);
  EXPECT_EQ(kSyncActionKeywords.size(), 7u);
  std::vector<Keyword> all(kRagdollKeywords.begin(), kRagdollKeywords.end());
  all.insert(all.end(), kSyncActionKeywords.begin(), kSyncActionKeywords.end());
  {
    for (const Keyword& k : all) {
      std::string lower(k.name), mixed(k.name);
      for (char& c : lower) c = static_cast<char>(std::tolower(c));
      for (size_t i = 0; i < mixed.size(); i += 2)
        mixed[i] = static_cast<char>(std::tolower(mixed[i]));
      EXPECT_EQ(keyword_hash(lower), k.hash) << k.name;
      EXPECT_EQ(keyword_hash(mixed), k.hash) << k.name;
      EXPECT_EQ(keyword_name(k.hash), k.name);
    }
  }
  EXPECT_EQ(kRagdollKeywords[1].name, "DESTROY");
  EXPECT_EQ(kSyncActionKeywords[6].name, "STOP_ALIGN");
}

TEST(EventDictionary, RoundTripAndBadCounts) {
  const EventDictionary d = *two_clips_with_events().events;
  const std::vector<uint8_t> bytes = write_event_dictionary(d);
  const EventDictionary back = parse_event_dictionary(Reader(bytes));
  EXPECT_EQ(write_event_dictionary(back), bytes);
  EXPECT_EQ(back.clips, d.clips);
  std::vector<uint8_t> bad = bytes;
  patch<uint32_t>(bad, 4, 300);  // more strings than an 8-bit index can name
  EXPECT_THROW(parse_event_dictionary(Reader(bad)), Error);
  bad = bytes;
  patch<uint32_t>(bad, 0, 0xFFFFFFF);
  EXPECT_THROW(parse_event_dictionary(Reader(bad)), Error);
}

TEST(AnixDocument, DumpUsesTheSpecNames) {
  const AnixFile f = build_anix(two_clips_with_events());
  const Json j = to_json(f);
  EXPECT_EQ(j["header"]["magic"], "ANIX");
  EXPECT_EQ(j["tracks"][0]["channel"], "rotation");
  EXPECT_TRUE(j["anim_chunk"]["records"][0].contains("root_summary"));
  EXPECT_TRUE(j["anim_chunk"]["records"][0].contains("blockset_table"));
  EXPECT_EQ(j["anim_chunk"]["event_dictionary"]["clips"][1]["events"][1]["text"], "RAGDOLL 0.25");
  EXPECT_EQ(j["block_chunk"]["blocksets"][0]["groups"][1]["aq03_header"]["keys"], 4);
}

}  // namespace
}  // namespace animkit::shadow_of_war
