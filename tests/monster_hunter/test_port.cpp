// Porting an MHP3rd moveset onto an MHFU monster (notes 2 "Port packer", notes 3 records): the
// packer's vector, motion.build, and a whole port of a Brute-like donor (43 records, highest bone
// 42) onto a Tigrex-like target (48 bones, params [0, 45], parts 31 / 9 / 5 and a severed 3)
// that validates with no finding.
#include <gtest/gtest.h>

#include "animkit/monster_hunter/entries.h"
#include "animkit/monster_hunter/port.h"
#include "animkit/monster_hunter/records.h"
#include "animkit/monster_hunter/rules.h"
#include "animkit/monster_hunter/synthetic.h"
#include "rigs.h"

namespace animkit::monster_hunter {
namespace {

// notes 2, the packer's vector.
TEST(MhPort, PlanVector) {
  const LayoutPlan p = plan_layout({1, 2, 4, 6, 100, 101, 205}, 100, {1, 2, 3, 5}, {4});
  const std::map<int, int> want = {{0, 101}, {1, 1}, {2, 2}, {3, 4}, {5, 100}, {6, 6}, {7, 205}};
  EXPECT_EQ(p.entries, want);
  EXPECT_TRUE(p.dropped.empty());
  const LayoutPlan full = plan_layout({0, 1, 2, 7}, 2, {}, {});
  EXPECT_EQ(full.dropped, (std::vector<int>{2, 7}));
}

TEST(MhPort, BuildKeepsLowBitsSortedAndRestsTheRest) {
  Clip donor;
  donor.loop = 1;
  donor.loop_start = 3.5f;
  Track t;
  t.channels.push_back({bits::kLocX, {{16, 0, 0, 0}}});
  t.channels.push_back({bits::kSclX, {{256, 0, 0, 0}}});
  t.channels.push_back({bits::kRotX, {{100, 0, 0, 0}, {200, 12, 0, 0}}});
  t.channels.push_back({bits::kUnnamed0, {{16, 0, 0, 0}}});
  donor.tracks = {t, Track{{{bits::kSclY, {{1, 0, 0, 0}}}}}};
  const Clip c = build_clip(donor, {{1, 0}, {2, 1}}, 4);
  ASSERT_EQ(c.tracks.size(), 4u);
  EXPECT_EQ(c.loop, 1u);
  EXPECT_EQ(c.loop_start, 3.5f);
  EXPECT_EQ(c.tracks[0], rest(12));  // unmapped
  ASSERT_EQ(c.tracks[1].channels.size(), 3u);
  EXPECT_EQ(c.tracks[1].channels[0].bit, bits::kUnnamed0);
  EXPECT_EQ(c.tracks[1].channels[1].bit, bits::kRotX);
  EXPECT_EQ(c.tracks[1].channels[2].bit, bits::kLocX);
  EXPECT_EQ(c.tracks[2], rest(12));  // only a scale channel: nothing left to play
  EXPECT_EQ(c.tracks[3], rest(12));
}

TEST(MhPort, MovesetNeedsOneTrackCount) {
  AnimPack p;
  p.game = Game::kMhp3rd;
  p.clips = {Clip{}, Clip{}};
  p.clips[0].tracks.resize(3);
  p.clips[1].tracks.resize(4);
  p.streams = {{-1, 0}, {1}};
  const auto clips = moveset(p);
  EXPECT_EQ(clips.size(), 2u);
  EXPECT_EQ(clips.count(1), 1u);
  EXPECT_EQ(clips.count(100), 1u);
  EXPECT_THROW(moveset_records(clips), Error);
}

TEST(MhPort, BruteOntoTigrexValidatesClean) {
  const Monster target = tigrex_like();
  ASSERT_EQ(target.skeleton.bones.size(), 48u);
  ASSERT_EQ(target.skeleton.animated(), 45);
  const AnimPack donor = brute_like();
  ASSERT_EQ(moveset(donor).size(), 77u);
  PortOptions o;
  o.donor_em = 58;  // Brute Tigrex: offset 0, no skipped bones
  o.host_em = 75;   // Tigrex: 123 entries
  const PortResult r = port(donor, target.skeleton, target.pack, o);
  EXPECT_EQ(r.records, 43);
  EXPECT_EQ(r.bone_to_record.size(), 43u);
  EXPECT_EQ(r.bone_to_record.rbegin()->first, 42);  // the highest bone
  EXPECT_EQ(r.plan.capacity, 123);
  EXPECT_EQ(r.plan.head_only, (std::set<int>{24, 25}));
  EXPECT_TRUE(r.loc_below_fork.empty());
  EXPECT_TRUE(r.plan.dropped.empty());
  // Every donor id under 123 and not head-only sits in its own entry.
  for (const auto& [id, clip] : moveset(donor))
    if (id != 24 && id != 25) {
      EXPECT_EQ(r.plan.entries.at(id), id) << id;
    }
  const auto findings = validate(&target.skeleton, &r.pack);
  EXPECT_TRUE(findings.empty()) << (findings.empty() ? "" : reference_line(findings[0]));
  RuleInputs strict;
  strict.skeleton = &target.skeleton;
  strict.pack = &r.pack;
  strict.strict = true;
  EXPECT_TRUE(validate(strict).empty());  // no empty track either: unmapped joints rest
  // Entry 100's body clip (stream 1 slot 0) carries the donor's clip 100, its scale dropped.
  const Clip* body = part_clip(r.pack, 0, 100);
  ASSERT_NE(body, nullptr);
  EXPECT_EQ(body->tracks.size(), 31u);
  for (const Track& t : body->tracks)
    for (const Channel& c : t.channels) EXPECT_EQ(c.bit & bits::kScale, 0);
  // The head-only entries keep the host's head clip; joints 43 and 44 (no record) rest.
  EXPECT_EQ(*part_clip(r.pack, 1, 24), *part_clip(target.pack, 1, 24));
  const Clip* tail = part_clip(r.pack, 2, 1);
  ASSERT_NE(tail, nullptr);
  EXPECT_EQ(tail->tracks[3], rest(20));  // joint 43: the tail part's fourth joint
  // Written and read back byte for byte.
  const std::vector<uint8_t> bytes = write_pack(r.pack);
  EXPECT_EQ(write_pack(read_pack(bytes)), bytes);
}

}  // namespace
}  // namespace animkit::monster_hunter
