// The engine rules (monster-hunter.txt, "Engine rules (MHFU)"; notes 1): each fires on a crafted
// bad input with its level, message and fix text, and fix() repairs what it documents.
#include <gtest/gtest.h>

#include <algorithm>

#include "animkit/monster_hunter/rules.h"
#include "animkit/monster_hunter/synthetic.h"

namespace animkit::monster_hunter {
namespace {

std::vector<Finding> with_code(const std::vector<Finding>& all, const std::string& code) {
  std::vector<Finding> out;
  std::copy_if(all.begin(), all.end(), std::back_inserter(out),
               [&](const Finding& f) { return f.code == code; });
  return out;
}

Monster good() {
  MonsterSpec spec;
  spec.entries = 6;
  spec.severed = 2;
  return synthetic_monster(spec);
}

// notes 1: natives validate with zero results; so does the synthetic monster.
TEST(MhRules, GoodMonsterHasNoFindings) {
  const Monster m = good();
  const auto f = validate(&m.skeleton, &m.pack);
  EXPECT_TRUE(f.empty()) << (f.empty() ? "" : f[0].code + " " + f[0].where + " " + f[0].message);
  EXPECT_EQ(summary(f), "0 errors, 0 warnings");
}

TEST(MhRules, TableHasEveryCode) {
  for (const char* code :
       {"PARENT_ORDER", "ANIMATED_COUNT", "STREAM_RUNS", "STREAM_SUBTREE", "PARTITION", "NO_TRACKS",
        "SCALE_CHANNEL", "DUPLICATE_CHANNEL", "NEGATIVE_FRAME", "FRAME_ORDER", "EMPTY_CHANNEL",
        "PALETTE_JOINT", "EMPTY_GROUP", "TEMPLATE", "EMPTY_TRACK"}) {
    EXPECT_NO_THROW(rule(code)) << code;
  }
  EXPECT_EQ(rule("FRAME_ORDER").level, Finding::Level::kWarning);
  EXPECT_EQ(rule("EMPTY_CHANNEL").level, Finding::Level::kWarning);
  EXPECT_STREQ(rule("SCALE_CHANNEL").fix, "drop them: the engine crashes on the scale bits");
}

TEST(MhRules, ListsShowAtMostEight) {
  EXPECT_EQ(list_numbers({1, 2, 3}), "1 2 3");
  EXPECT_EQ(list_numbers({1, 2, 3, 4, 5, 6, 7, 8, 9, 10}), "1 2 3 4 5 6 7 8 (+2)");
}

TEST(MhRules, ScaleChannelFiresAndFixDropsIt) {
  Monster m = good();
  Clip& c = m.pack.clips[m.pack.streams[2][1]];
  c.tracks[1].channels.push_back({bits::kSclX, {{256, 0, 0, 0}}});
  auto f = with_code(validate(&m.skeleton, &m.pack), "SCALE_CHANNEL");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].level, Finding::Level::kError);
  EXPECT_EQ(f[0].where, "stream 2 slot 1 track 1 channel 0x200");
  EXPECT_EQ(f[0].fix, "drop them: the engine crashes on the scale bits");
  const auto changes = fix(&m.pack, &m.skeleton);
  EXPECT_EQ(changes.size(), 1u);
  EXPECT_TRUE(validate(&m.skeleton, &m.pack).empty());
}

// The spec's "no empty track on an animated joint"; the fix writes motion.rest over the clip.
TEST(MhRules, EmptyTrackFiresAndFixRests) {
  Monster m = good();
  Clip& c = m.pack.clips[m.pack.streams[0][2]];
  c.tracks[3].channels.clear();
  // notes 1.4: not a rule of the reference tool: only with --strict, as a warning.
  EXPECT_TRUE(with_code(validate(&m.skeleton, &m.pack), "EMPTY_TRACK").empty());
  RuleInputs in;
  in.skeleton = &m.skeleton;
  in.pack = &m.pack;
  in.strict = true;
  auto f = with_code(validate(in), "EMPTY_TRACK");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].where, "stream 0 slot 2 track 3");
  EXPECT_EQ(f[0].level, Finding::Level::kWarning);
  EXPECT_EQ(f[0].message, "stream 0 slot 2 track 3");
  fix(&m.pack, &m.skeleton);
  EXPECT_EQ(m.pack.clips[m.pack.streams[0][2]].tracks[3], rest(frames(c)));
  EXPECT_TRUE(validate(&m.skeleton, &m.pack).empty());
}

TEST(MhRules, DuplicateNegativeOrderEmptyChannel) {
  Monster m = good();
  Clip& c = m.pack.clips[m.pack.streams[4][0]];
  c.tracks[0].channels.push_back(c.tracks[0].channels[0]);                      // duplicate rot X
  c.tracks[1].channels[0].keys[0].frame = -3;                                   // negative frame
  std::swap(c.tracks[1].channels[1].keys[0], c.tracks[1].channels[1].keys[1]);  // out of order
  c.tracks[1].channels.push_back({bits::kLocZ, {}});                            // empty channel
  const auto all = validate(&m.skeleton, &m.pack);
  ASSERT_EQ(with_code(all, "DUPLICATE_CHANNEL").size(), 1u);
  EXPECT_EQ(with_code(all, "DUPLICATE_CHANNEL")[0].where, "stream 4 slot 0 track 0 channel 0x008");
  ASSERT_EQ(with_code(all, "NEGATIVE_FRAME").size(), 1u);
  EXPECT_EQ(with_code(all, "NEGATIVE_FRAME")[0].message, "stream 4 slot 0 track 1 bit 0x8");
  EXPECT_EQ(with_code(all, "DUPLICATE_CHANNEL")[0].message, "stream 4 slot 0 track 0");
  EXPECT_EQ(reference_line(with_code(all, "FRAME_ORDER")[0]),
            "warn FRAME_ORDER: stream 4 slot 0 track 1 bit 0x10 (fix: sort the keys by frame)");
  EXPECT_EQ(reference_line(with_code(all, "EMPTY_CHANNEL")[0]),
            "warn EMPTY_CHANNEL: stream 4 slot 0 track 1 bit 0x100 (fix: remove it or key it)");
  ASSERT_EQ(with_code(all, "FRAME_ORDER").size(), 1u);
  EXPECT_EQ(with_code(all, "FRAME_ORDER")[0].level, Finding::Level::kWarning);
  ASSERT_EQ(with_code(all, "EMPTY_CHANNEL").size(), 1u);
  EXPECT_EQ(summary(all), "2 errors, 2 warnings");
  fix(&m.pack, &m.skeleton);
  EXPECT_TRUE(validate(&m.skeleton, &m.pack).empty());
  EXPECT_EQ(m.pack.clips[m.pack.streams[4][0]].tracks[1].channels[0].keys[0].frame, 0);
}

// notes 1.2: a shared clip is checked once, named by its first slot.
TEST(MhRules, SharedClipCheckedOnce) {
  Monster m = good();
  m.pack.streams[0][3] = m.pack.streams[0][1];
  m.pack.clips[m.pack.streams[0][1]].tracks[0].channels[0].keys.clear();
  const auto f = with_code(validate(&m.skeleton, &m.pack), "EMPTY_CHANNEL");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].where, "stream 0 slot 1 track 0 channel 0x008");
}

TEST(MhRules, NoTracksAndPartition) {
  Monster m = good();
  m.pack.clips[m.pack.streams[2][0]].tracks.clear();
  m.pack.clips[m.pack.streams[4][1]].tracks.pop_back();
  const auto all = validate(&m.skeleton, &m.pack);
  ASSERT_EQ(with_code(all, "NO_TRACKS").size(), 1u);
  EXPECT_EQ(reference_line(with_code(all, "NO_TRACKS")[0]),
            "error NO_TRACKS: stream 2 slot 0 (fix: give the clip one track per joint)");
  const auto part = with_code(all, "PARTITION");
  ASSERT_EQ(part.size(), 1u);
  EXPECT_EQ(part[0].message, "stream 4 carries [1, 2] tracks, its part 2");
  fix(&m.pack, &m.skeleton);
  EXPECT_EQ(m.pack.clips[m.pack.streams[2][0]].tracks.size(), 2u);
  // A part with no clip in stream 2k.
  Monster n = good();
  for (int32_t& c : n.pack.streams[2]) c = kNoClip;
  const auto p2 = with_code(validate(&n.skeleton, &n.pack), "PARTITION");
  ASSERT_EQ(p2.size(), 1u);
  EXPECT_EQ(p2[0].message, "part 1 has 2 joints and no clips");
}

TEST(MhRules, SkeletonRules) {
  {
    Monster m = good();
    m.skeleton.bones[2].parent = 5;
    const auto f = with_code(validate(&m.skeleton, nullptr), "PARENT_ORDER");
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].message, "bones 2");
  }
  {
    Monster m = good();
    m.skeleton.params[1] = 50;
    const auto all = validate(&m.skeleton, &m.pack);
    const auto f = with_code(all, "ANIMATED_COUNT");
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].message, "50 animated of 10 bones");
    EXPECT_TRUE(with_code(all, "PARTITION").empty());
    fix(nullptr, &m.skeleton);
    EXPECT_EQ(m.skeleton.params[1], 10u);
  }
  {
    Monster m = good();  // streams 0 0 0 0 1 1 2 2 -> 0 0 1 0 1 1 2 2
    m.skeleton.bones[2].stream = 1;
    const auto f = with_code(validate(&m.skeleton, nullptr), "STREAM_RUNS");
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].message, "0:2 1:1 0:1 1:2 2:2");
  }
  {
    Monster m = good();  // the tail's second joint hangs off the body too
    m.skeleton.bones[7].parent = 1;
    const auto f = with_code(validate(&m.skeleton, nullptr), "STREAM_SUBTREE");
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].message, "stream 2 hangs off 6 7");  // the run's joints whose parent is outside
  }
  {
    Monster m = good();  // a body joint under the head: the head holds a child of an earlier part
    m.skeleton.bones[1].parent = 4;
    const auto f = with_code(validate(&m.skeleton, nullptr), "STREAM_SUBTREE");
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].message, "stream 1 holds children 1");
  }
}

TEST(MhRules, Template) {
  const Monster m = good();
  Skeleton species = m.skeleton;
  EXPECT_TRUE(with_code(validate(&m.skeleton, nullptr, &species), "TEMPLATE").empty());
  species.bones[6].parent = 2;
  auto f = with_code(validate(&m.skeleton, nullptr, &species), "TEMPLATE");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].message, "parents differ at bones 6");
  species.bones.pop_back();
  f = with_code(validate(&m.skeleton, nullptr, &species), "TEMPLATE");
  EXPECT_EQ(f[0].message, "10 bones, the species 9");
}

}  // namespace
}  // namespace animkit::monster_hunter

namespace animkit::monster_hunter {
namespace {

// "every record with location channels lands at or above the body fork".
TEST(MhRules, LocationRecordsBelowTheFork) {
  MonsterSpec spec;
  spec.game = Game::kMhp3rd;
  spec.entries = 2;
  Monster m = synthetic_monster(spec);  // the body fork is bone 0 (the tail hangs off it)
  // Without the species the rule does not run (the default offset is a guess).
  EXPECT_TRUE(validate(&m.skeleton, &m.pack).empty());
  // em 7: offset 2 (the default), skip 21 22: record 0 (location) lands on bone 2, below the fork.
  const auto f = with_code(validate(&m.skeleton, &m.pack, nullptr, 7), "LOC_BELOW_FORK");
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].message,
            "clip 0 (stream 0 slot 0): location records land below the body fork 0 at bones 2");
  EXPECT_EQ(f[0].level, Finding::Level::kWarning);
  EXPECT_EQ(f[1].where, "stream 0 slot 1");
  EXPECT_EQ(f[1].message.rfind("clip 1 (stream 0 slot 1): ", 0), 0u) << f[1].message;
  // em 40: offset 0, record 0 -> bone 0, the fork itself.
  EXPECT_TRUE(validate(&m.skeleton, &m.pack, nullptr, 40).empty());
  m.pack.clips[0].tracks[3].channels.push_back({bits::kLocX, {{16, 0, 0, 0}}});
  const auto g = with_code(validate(&m.skeleton, &m.pack, nullptr, 40), "LOC_BELOW_FORK");
  ASSERT_EQ(g.size(), 1u);
  EXPECT_EQ(g[0].message,
            "clip 0 (stream 0 slot 0): location records land below the body fork 0 at bones 3");
}

}  // namespace
}  // namespace animkit::monster_hunter
