// KeyList (key_list.h): a channel's keys keep std::vector's value semantics although a parsed
// pack holds every key in one shared block (issue 27 item 5).
#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "animkit/core/error.h"
#include "animkit/monster_hunter/pack.h"
#include "animkit/monster_hunter/synthetic.h"

namespace animkit::monster_hunter {
namespace {

TEST(KeyList, BehavesLikeAVector) {
  KeyList k;
  EXPECT_TRUE(k.empty());
  EXPECT_EQ(k.begin(), k.end());
  for (int i = 0; i < 9; ++i) k.push_back({static_cast<int16_t>(i), static_cast<int16_t>(2 * i), 0, 0});
  ASSERT_EQ(k.size(), 9u);
  EXPECT_EQ(k[8], (Keyframe{8, 16, 0, 0}));
  EXPECT_EQ(k.front().value, 0);
  EXPECT_EQ(k.back().frame, 16);
  k.push_back(k[3]);  // a key of the list itself, across a growth
  EXPECT_EQ(k.back(), (Keyframe{3, 6, 0, 0}));
  k.resize(12);
  EXPECT_EQ(k[11], Keyframe{});
  k.resize(2);
  EXPECT_EQ(k, (std::vector<Keyframe>{{0, 0, 0, 0}, {1, 2, 0, 0}}));
  EXPECT_NE(k, (KeyList{{0, 0, 0, 0}}));
  k.clear();
  EXPECT_TRUE(k.empty());
  const std::vector<Keyframe> v{{5, 1, 2, 3}};
  const KeyList from(v);
  EXPECT_EQ(from.to_vector(), v);
}

TEST(KeyList, CopiesAreIndependent) {
  KeyList a{{1, 0, 0, 0}, {2, 10, 0, 0}};
  KeyList b = a;  // shares a's block
  EXPECT_EQ(std::as_const(a).data(), std::as_const(b).data());
  b[0].value = 7;  // copy on write
  EXPECT_EQ(a[0].value, 1);
  EXPECT_EQ(b[0].value, 7);
  b.push_back({3, 20, 0, 0});
  EXPECT_EQ(a.size(), 2u);
  KeyList moved = std::move(b);
  EXPECT_TRUE(b.empty());  // NOLINT(bugprone-use-after-move): moved-from lists are empty
  EXPECT_EQ(moved.size(), 3u);
}

TEST(KeyBlock, RefusesKeysPastItsSize) {
  const std::vector<uint8_t> bytes(8 * 4, 1);
  Reader r(bytes);
  KeyBlock block(3);
  EXPECT_EQ(block.read(r, 2).size(), 2u);
  EXPECT_TRUE(block.read(r, 0).empty());
  EXPECT_THROW(block.read(r, 2), Error);  // 2 more keys are in the bytes, 1 in the block
}

TEST(KeyList, ParsedChannelsShareOneBlockAndOutliveThePack) {
  for (Game game : {Game::kMhfu, Game::kMhp3rd}) {
    MonsterSpec spec;
    spec.game = game;
    spec.part_sizes = {4};
    spec.entries = 3;
    spec.keys = 5;
    const AnimPack written = synthetic_monster(spec).pack;
    Clip kept;
    {
      const AnimPack pack = read_pack(write_pack(written), game);
      ASSERT_EQ(pack, written);
      ASSERT_GE(pack.clips.size(), 2u);
      const KeyList& first = pack.clips[0].tracks[0].channels[0].keys;
      const KeyList& second = pack.clips[0].tracks[0].channels[1].keys;
      // One block: the second channel's keys follow the first's.
      EXPECT_EQ(second.data(), first.data() + first.size());
      kept = pack.clips[1];
    }  // the pack is gone; the kept clip's keys still live in the block
    EXPECT_EQ(kept, written.clips[1]);
    // Changing a parsed channel leaves its neighbours in the block alone.
    Channel& c = kept.tracks[0].channels[0];
    const Keyframe next = kept.tracks[0].channels[1].keys[0];
    c.keys.push_back({9, 99, 0, 0});
    c.keys[0].value = 1234;
    EXPECT_EQ(kept.tracks[0].channels[1].keys[0], next);
    EXPECT_EQ(c.keys.back(), (Keyframe{9, 99, 0, 0}));
  }
}

}  // namespace
}  // namespace animkit::monster_hunter
