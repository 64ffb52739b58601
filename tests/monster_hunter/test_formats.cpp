// Formats: skeleton, pack and both clip encodings, built by the module's writers; the byte
// layouts of monster-hunter-notes.md section 6 and byte-exact round trips (notes 4).
#include <gtest/gtest.h>

#include <cstring>

#include "animkit/core/writer.h"
#include "animkit/monster_hunter/clip_fu.h"
#include "animkit/monster_hunter/clip_p3rd.h"
#include "animkit/monster_hunter/pack.h"
#include "animkit/monster_hunter/skeleton.h"
#include "animkit/monster_hunter/synthetic.h"

namespace animkit::monster_hunter {
namespace {

uint32_t word(const std::vector<uint8_t>& b, size_t at) {
  uint32_t v;
  std::memcpy(&v, b.data() + at, 4);
  return v;
}
uint16_t half(const std::vector<uint8_t>& b, size_t at) {
  uint16_t v;
  std::memcpy(&v, b.data() + at, 2);
  return v;
}
std::vector<uint32_t> words(const std::vector<uint8_t>& b, size_t at, size_t n) {
  std::vector<uint32_t> out;
  for (size_t i = 0; i < n; ++i) out.push_back(word(b, at + 4 * i));
  return out;
}

Skeleton four_bones(uint32_t magic, std::vector<uint32_t> params, bool named) {
  Skeleton s;
  s.magic = magic;
  s.params = std::move(params);
  for (int i = 0; i < 4; ++i) {
    Bone b;
    b.index = i;
    b.parent = i == 0 ? -1 : 0;
    b.bind_position = {1.f * i, 2, 3, 1};
    if (named) b.name = std::array<uint8_t, 8>{'H', 'D', '-', '0', '0', 0, 0xdd, 0x02};
    s.bones.push_back(b);
  }
  link_children(s);
  return s;
}

// notes 6, "Skeleton MHFU, 4 bones, params [0,3]".
TEST(MhSkeleton, MhfuLayout) {
  const Skeleton s = four_bones(kMagicMhfu, {0, 3}, false);
  const std::vector<uint8_t> b = write_skeleton(s);
  ASSERT_EQ(b.size(), 0x20u + 4 * 0x10C);
  EXPECT_EQ(words(b, 0, 8), (std::vector<uint32_t>{0xC0000000, 5, static_cast<uint32_t>(b.size()),
                                                   0, 2, 0x14, 0, 3}));
  EXPECT_EQ(words(b, 0x12C, 7), (std::vector<uint32_t>{0x40000001, 1, 0x10C, 1, 0, 0xFFFFFFFF, 2}));
  const Skeleton back = read_skeleton(b);
  EXPECT_EQ(back, s);
  EXPECT_FALSE(back.params_count.has_value());
  EXPECT_EQ(write_skeleton(back), b);
  EXPECT_EQ(back.animated(), 3);
  EXPECT_TRUE(sniff_skeleton(b));
  EXPECT_FALSE(sniff_pack(b));
  // Cut in half: the size word passes the end, so only the cut sniff takes it (issue 31, item 4).
  const std::vector<uint8_t> half(b.begin(), b.begin() + b.size() / 2);
  EXPECT_FALSE(sniff_skeleton(half));
  EXPECT_TRUE(sniff_cut_skeleton(half));
  std::vector<uint8_t> other = half;
  other[0] ^= 1;  // no known magic
  EXPECT_FALSE(sniff_cut_skeleton(other));
}

// notes 6, "MHP3rd, params [0]": bones at 0x1C, the name at +0x54.
TEST(MhSkeleton, Mhp3rdLayoutAndNames) {
  const Skeleton s = four_bones(kMagicMhp3rd, {0}, true);
  const std::vector<uint8_t> b = write_skeleton(s);
  ASSERT_EQ(b.size(), 0x1Cu + 4 * 0x5C);
  EXPECT_EQ(words(b, 0, 7),
            (std::vector<uint32_t>{0x80000000, 5, static_cast<uint32_t>(b.size()), 0, 1, 0x10, 0}));
  EXPECT_EQ(word(b, 0x1C), 0x40000001u);
  EXPECT_EQ(b[0x1C + 0x54], 'H');
  EXPECT_EQ(b[0x1C + 0x5B], 0x02);  // the leftovers after the C string are kept
  const Skeleton back = read_skeleton(b);
  EXPECT_EQ(back, s);
  EXPECT_EQ(back.bones[0].name_text(), "HD-00");
  EXPECT_EQ(back.game(), Game::kMhp3rd);
  EXPECT_EQ(back.animated(), 4);  // one param: the bone count
  EXPECT_EQ(write_skeleton(back), b);
}

// notes 6: params [0,9] with count word 3 -> words at 0x0C (0, 3, 0x14); a 12-byte tail kept.
TEST(MhSkeleton, ParamsCountOddityAndTail) {
  Skeleton s = four_bones(kMagicMhfu, {0, 9}, false);
  s.params_count = 3;
  s.tail = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  const std::vector<uint8_t> b = write_skeleton(s);
  EXPECT_EQ(words(b, 0x0C, 3), (std::vector<uint32_t>{0, 3, 0x14}));
  const Skeleton back = read_skeleton(b);
  EXPECT_EQ(back.params_count, std::optional<uint32_t>(3));
  EXPECT_EQ(back.tail.size(), 12u);
  EXPECT_EQ(write_skeleton(back), b);
}

// notes 4: magic and section size are independent.
TEST(MhSkeleton, NamedBonesUnderMhfuMagic) {
  const Skeleton s = four_bones(kMagicMhfu, {0, 4}, true);
  const std::vector<uint8_t> b = write_skeleton(s);
  EXPECT_EQ(read_skeleton(b), s);
  EXPECT_EQ(write_skeleton(read_skeleton(b)), b);
}

TEST(MhSkeleton, KindTwoLinkAndBindFieldsKept) {
  Skeleton s = four_bones(kMagicMhfu, {0, 4}, false);
  s.bones[2].kind = 2;
  s.bones[2].link = 1;
  s.bones[3].kind = 3;
  s.bones[1].bind_scale = {0.5f, 2, 1, 1};
  s.bones[1].bind_rotation = {0.1f, 0, -0.2f, 1};
  s.bones[1].stream = 7;
  s.bones[1].one = 9;
  const std::vector<uint8_t> b = write_skeleton(s);
  EXPECT_EQ(read_skeleton(b), s);
  EXPECT_EQ(write_skeleton(read_skeleton(b)), b);
}

TEST(MhSkeleton, BadInputIsAnErrorWithOffset) {
  std::vector<uint8_t> b = write_skeleton(four_bones(kMagicMhfu, {0, 4}, false));
  {
    auto bad = b;
    bad[0x20 + 0x0C] = 5;  // bone 0's index
    try {
      read_skeleton(bad);
      FAIL();
    } catch (const Error& e) {
      EXPECT_EQ(e.offset(), std::optional<uint64_t>(0x2C));
    }
  }
  {
    auto bad = b;
    bad[0x20 + 0x60] = 1;  // MHFU padding not zero
    EXPECT_THROW(read_skeleton(bad), Error);
  }
  {
    auto bad = b;
    std::memset(bad.data() + 0x20 + 0x28, 0, 4);  // bind scale w = 0
    EXPECT_THROW(read_skeleton(bad), Error);
  }
  for (size_t n = 0; n < b.size(); n += 7) {
    std::vector<uint8_t> cut(b.begin(), b.begin() + n);
    EXPECT_THROW(read_skeleton(cut), Error) << n;
  }
}

Clip dummy(uint32_t loop) {
  Clip c;
  c.loop = loop;
  c.tracks.push_back({{{bits::kRotX, {{1, 0, 0, 0}}}}});
  return c;
}

// notes 6, "Pack container": streams [[A, -, A], [], [-, B]], tail "pad".
TEST(MhPack, ContainerLayoutSharedEmptyTail) {
  AnimPack p;
  p.game = Game::kMhfu;
  p.clips = {dummy(7), dummy(9)};
  p.streams = {{0, kNoClip, 0}, {}, {kNoClip, 1}};
  p.tail = {'p', 'a', 'd'};
  const std::vector<uint8_t> b = write_pack(p);
  const uint32_t a_size = fu::clip_size(p.clips[0]);
  EXPECT_EQ(words(b, 0, 13), (std::vector<uint32_t>{3, 0x20, 0, 0x2C, 2, 0x2C, 0, 0x34, 0x34,
                                                    kEmptySlot, 0x34, kEmptySlot, 0x34 + a_size}));
  EXPECT_EQ(word(b, 0x34 + 12), 7u);  // A's loop
  EXPECT_EQ(word(b, 0x34 + a_size + 12), 9u);
  EXPECT_EQ(std::string(b.end() - 3, b.end()), "pad");
  const AnimPack back = read_pack(b);
  EXPECT_EQ(back, p);
  EXPECT_EQ(back.clips.size(), 2u);  // the shared clip stays one object
  EXPECT_EQ(back.streams[0][0], back.streams[0][2]);
  EXPECT_EQ(write_pack(back), b);
  EXPECT_TRUE(sniff_pack(b));
  EXPECT_FALSE(sniff_skeleton(b));
  EXPECT_FALSE(sniff_cut_skeleton(b));
}

// notes 6: two equal distinct clips in one stream are written twice.
TEST(MhPack, EqualDistinctClipsWrittenTwice) {
  AnimPack p;
  p.clips = {dummy(1), dummy(1)};
  p.streams = {{0, 1}};
  const std::vector<uint8_t> b = write_pack(p);
  const uint32_t size = fu::clip_size(p.clips[0]);
  EXPECT_EQ(words(b, 0, 6), (std::vector<uint32_t>{2, 0x10, 0, 0x18, 0x18, 0x18 + size}));
  EXPECT_EQ(read_pack(b).clips.size(), 2u);
}

// notes 6: MHP3rd tables: one stream of 6 slots; streams of 7, 2, 0 slots.
TEST(MhPack, Mhp3rdTables) {
  AnimPack one;
  one.game = Game::kMhp3rd;
  one.streams = {std::vector<int32_t>(6, kNoClip)};
  one.streams[0][0] = 0;
  one.clips = {dummy(1)};
  EXPECT_EQ(words(write_pack(one), 0, 5), (std::vector<uint32_t>{6, 0x10, 0, 0x28, 0x28}));
  AnimPack three;
  three.game = Game::kMhp3rd;
  three.streams = {std::vector<int32_t>(7, kNoClip), std::vector<int32_t>(2, kNoClip), {}};
  EXPECT_EQ(words(write_pack(three), 0, 8),
            (std::vector<uint32_t>{7, 0x20, 2, 0x3C, 0, 0x44, 0, 0x44}));
  const auto b = write_pack(three);
  EXPECT_EQ(write_pack(read_pack(b, Game::kMhp3rd)), b);
}

TEST(MhPack, BadOffsetsAreErrors) {
  AnimPack p;
  p.clips = {dummy(1), dummy(2)};
  p.streams = {{0, 1}};
  std::vector<uint8_t> b = write_pack(p);
  auto gap = b;
  gap[0x14] += 4;  // the second clip is not where the first ends
  EXPECT_THROW(read_pack(gap), Error);
  auto table = b;
  table[4] = 0x18;  // stream 0's table offset
  EXPECT_THROW(read_pack(table), Error);
  for (size_t n = 0; n + 1 < b.size(); n += 5) {
    std::vector<uint8_t> cut(b.begin(), b.begin() + n);
    EXPECT_THROW(read_pack(cut), Error) << n;
  }
}

// notes 6, "MHFU clip": tracks [empty; rot X,Y,Z each keys (-32768,0,3,-3),(32767,40);
// loc 0x40 key (5,0) + 0x100 no keys], loop 1, loop_start 12.5, alone in a 1x1 pack.
TEST(MhClip, MhfuLayout) {
  Clip c;
  c.loop = 1;
  c.loop_start = 12.5f;
  c.tracks.emplace_back();
  Track rot;
  for (uint16_t bit : {bits::kRotX, bits::kRotY, bits::kRotZ})
    rot.channels.push_back({bit, {{-32768, 0, 3, -3}, {32767, 40, 0, 0}}});
  c.tracks.push_back(rot);
  c.tracks.push_back({{{bits::kLocX, {{5, 0, 0, 0}}}, {bits::kLocZ, {}}}});
  AnimPack p;
  p.clips = {c};
  p.streams = {{0}};
  const std::vector<uint8_t> b = write_pack(p);
  ASSERT_EQ(b.size(), 0xC0u);
  EXPECT_EQ(words(b, 0x14, 5),
            (std::vector<uint32_t>{0x80000002, 3, 0xC0 - 0x14, 1, std::bit_cast<uint32_t>(12.5f)}));
  EXPECT_EQ(words(b, 0x28, 3), (std::vector<uint32_t>{0x80000000, 0, 12}));
  EXPECT_EQ(words(b, 0x34, 3), (std::vector<uint32_t>{0x80000038, 3, 96}));
  EXPECT_EQ(words(b, 0x40, 3), (std::vector<uint32_t>{0x80120008, 2, 28}));
  EXPECT_EQ(static_cast<int16_t>(half(b, 0x4C)), -32768);
  EXPECT_EQ(static_cast<int16_t>(half(b, 0x52)), -3);
  EXPECT_EQ(words(b, 0x94, 3), (std::vector<uint32_t>{0x80000140, 2, 44}));
  EXPECT_EQ(words(b, 0xB4, 3), (std::vector<uint32_t>{0x80120100, 0, 12}));
  const AnimPack back = read_pack(b);
  EXPECT_EQ(back.game, Game::kMhfu);
  EXPECT_EQ(back, p);
  EXPECT_EQ(write_pack(back), b);
}

// notes 6, "MHP3rd clip": [empty; loc 0x40 keys (44,0),(50,90); one track 0x20, 0x08 each key
// (-32768,0,1,2)], loop 1, 56.0.
TEST(MhClip, Mhp3rdLayout) {
  Clip c;
  c.loop = 1;
  c.loop_start = 56.f;
  c.tracks.emplace_back();
  c.tracks.push_back({{{bits::kLocX, {{44, 0, 0, 0}, {50, 90, 0, 0}}}}});
  c.tracks.push_back({{{bits::kRotZ, {{-32768, 0, 1, 2}}}, {bits::kRotX, {{-32768, 0, 1, 2}}}}});
  AnimPack p;
  p.game = Game::kMhp3rd;
  p.clips = {c};
  p.streams = {{0}};
  const std::vector<uint8_t> b = write_pack(p);
  ASSERT_EQ(b.size(), 0x68u);
  EXPECT_EQ(words(b, 0x14, 4),
            (std::vector<uint32_t>{3, 0x68 - 0x14, 1, std::bit_cast<uint32_t>(56.f)}));
  EXPECT_EQ(half(b, 0x24), 0);
  EXPECT_EQ(half(b, 0x26), 4);
  EXPECT_EQ(half(b, 0x28), 1);
  EXPECT_EQ(half(b, 0x2A), 28);
  EXPECT_EQ(half(b, 0x2C), 0x40);
  EXPECT_EQ(half(b, 0x2E), 2);
  EXPECT_EQ(word(b, 0x30), 24u);
  EXPECT_EQ(half(b, 0x34), 44);
  EXPECT_EQ(half(b, 0x44), 2);
  EXPECT_EQ(half(b, 0x46), 36);
  EXPECT_EQ(half(b, 0x48), 0x20);
  EXPECT_EQ(half(b, 0x4A), 1);
  EXPECT_EQ(word(b, 0x4C), 16u);
  const AnimPack back = read_pack(b);
  EXPECT_EQ(back.game, Game::kMhp3rd);  // sniffed: first clip word < 0x10000
  EXPECT_EQ(back, p);
  EXPECT_EQ(write_pack(back), b);
}

// Every bit, including the unnamed 0x001/0x002/0x004 and scale, and stored channel order.
TEST(MhClip, AllBitsAndChannelOrderRoundTrip) {
  Clip c;
  Track t;
  for (uint16_t bit : {0x40, 0x08, 0x800, 0x01, 0x02, 0x04, 0x200, 0x400, 0x100, 0x80, 0x10, 0x20})
    t.channels.push_back({bit, {{16, 0, 0, 0}, {17, 3, 1, -1}}});
  c.tracks = {t};
  for (Game g : {Game::kMhfu, Game::kMhp3rd}) {
    const std::vector<uint8_t> b = write_clip(c, g);
    Reader r(b);
    EXPECT_EQ(read_clip(r, g), c);
    EXPECT_TRUE(r.at_end());
  }
}

TEST(MhClip, MhfuMaskMustMatchChannels) {
  Clip c;
  c.tracks.push_back({{{bits::kRotX, {{1, 0, 0, 0}}}}});
  std::vector<uint8_t> b = write_clip(c, Game::kMhfu);
  b[0x14] = 0x18;  // track tag 0x80000018 while the channel is 0x08
  Reader r(b);
  EXPECT_THROW(fu::read_clip(r), Error);
}

TEST(MhClip, Mhp3rdTrackOverU16IsRefused) {
  Clip c;
  Track t;
  t.channels.push_back({bits::kRotX, std::vector<Keyframe>(9000)});
  c.tracks = {t};
  EXPECT_FALSE(p3rd::check_clip(c).empty());
  EXPECT_THROW(write_clip(c, Game::kMhp3rd), Error);
  EXPECT_NO_THROW(write_clip(c, Game::kMhfu));
}

TEST(MhRoundTrip, SyntheticMonstersBothGames) {
  for (Game g : {Game::kMhfu, Game::kMhp3rd}) {
    MonsterSpec spec;
    spec.game = g;
    spec.entries = 130;
    spec.severed = 2;
    spec.head_only = {24, 25};
    const Monster m = synthetic_monster(spec);
    const std::vector<uint8_t> sb = write_skeleton(m.skeleton);
    const std::vector<uint8_t> pb = write_pack(m.pack);
    EXPECT_EQ(read_skeleton(sb), m.skeleton);
    EXPECT_EQ(write_skeleton(read_skeleton(sb)), sb);
    EXPECT_EQ(read_pack(pb), m.pack);
    EXPECT_EQ(write_pack(read_pack(pb)), pb);
    EXPECT_EQ(sniff_pack_game(pb), std::optional<Game>(g));
  }
}

// notes 5: quantize with round-half-to-even, clamped to s16.
TEST(MhUnits, QuantizeVectors) {
  const double pi = 3.14159265358979323846;
  EXPECT_EQ(quantize(bits::kRotX, pi / 4), 2048);
  EXPECT_EQ(quantize(bits::kLocX, -2.5), -40);
  EXPECT_EQ(quantize(bits::kSclX, 0.5), 128);
  EXPECT_EQ(quantize(bits::kLocX, 0.03125), 0);
  EXPECT_EQ(quantize(bits::kLocX, 0.09375), 2);
  EXPECT_EQ(quantize(bits::kLocX, 2047.96875), 32767);
  EXPECT_EQ(quantize(bits::kLocX, -2048.03125), -32768);
  EXPECT_EQ(quantize(bits::kRotX, 4 * pi), 32767);
  EXPECT_EQ(quantize(bits::kRotX, -pi), -8192);
  // "Channels": 4096 = 90 degrees; location 1/16; scale 1/256.
  EXPECT_NEAR(dequantize(bits::kRotZ, 4096), pi / 2, 1e-6);
  EXPECT_EQ(dequantize(bits::kLocY, 16), 1.0f);
  EXPECT_EQ(dequantize(bits::kSclX, 256), 1.0f);
}

}  // namespace
}  // namespace animkit::monster_hunter

namespace animkit::monster_hunter {
namespace {

TEST(MhSkeleton, NameTextIsAlwaysPrintable) {
  Bone b;
  b.name = std::array<uint8_t, 8>{'A', 0xE9, '\\', 0x01, 0, 'x', 0, 0};
  EXPECT_EQ(b.name_text(), "A\\xe9\\x5c\\x01");
}

}  // namespace
}  // namespace animkit::monster_hunter
