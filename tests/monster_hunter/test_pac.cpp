// The PAC container (notes 4, "PAC"): the table, alignment 16/8/4 (the first that reproduces the
// file), zero padding, empty entries (0, 0), the tail and 0x800 padding, nested PACs; a model PAC
// through the registry (entry 0 skeleton, 1 PMO, 3 anim pack) with --game detected from the bytes;
// the PMO groups PALETTE_JOINT and EMPTY_GROUP read.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>

#include "animkit/core/writer.h"
#include "animkit/monster_hunter/document.h"
#include "animkit/monster_hunter/module.h"
#include "animkit/monster_hunter/pac.h"
#include "animkit/monster_hunter/pmo.h"
#include "animkit/monster_hunter/rules.h"
#include "animkit/monster_hunter/synthetic.h"

namespace animkit::monster_hunter {
namespace {

std::vector<uint8_t> bytes_of(std::initializer_list<int> v) {
  std::vector<uint8_t> out;
  for (int b : v) out.push_back(static_cast<uint8_t>(b));
  return out;
}

uint32_t word(const std::vector<uint8_t>& b, size_t at) {
  uint32_t w;
  std::memcpy(&w, b.data() + at, 4);
  return w;
}

std::vector<uint8_t> filled(size_t n, uint8_t v) { return std::vector<uint8_t>(n, v); }

// Entries laid out by hand at `gap` (the padding rule of notes 4), to read back.
std::vector<uint8_t> hand_pac(uint32_t first, uint32_t second, const std::vector<uint8_t>& tail) {
  Writer w;
  w.u32(3);
  w.u32(first), w.u32(2);   // entry 0: 2 bytes
  w.u32(0), w.u32(0);       // entry 1: empty
  w.u32(second), w.u32(5);  // entry 2: 5 bytes
  w.zeros(first - w.pos());
  w.bytes(filled(2, 0xAA));
  w.zeros(second - w.pos());
  w.bytes(filled(5, 0xBB));
  w.bytes(tail);
  return w.take();
}

TEST(MhPac, TableAndAlignmentSixteen) {
  Pac pac;
  pac.entries = {filled(2, 0xAA), {}, filled(5, 0xBB)};
  pac.tail = bytes_of({'e', 'n', 'd'});
  const std::vector<uint8_t> out = write_pac(pac);
  // Header 4 + 3 * 8 = 28 bytes; entry 0 at 32 (16-aligned), entry 2 at align16(34) = 48.
  EXPECT_EQ(word(out, 0), 3u);
  EXPECT_EQ(word(out, 4), 32u);
  EXPECT_EQ(word(out, 8), 2u);
  EXPECT_EQ(word(out, 12), 0u);  // the empty entry is (0, 0)
  EXPECT_EQ(word(out, 16), 0u);
  EXPECT_EQ(word(out, 20), 48u);
  EXPECT_EQ(word(out, 24), 5u);
  ASSERT_EQ(out.size(), 48u + 5 + 3);
  for (size_t i = 28; i < 32; ++i) EXPECT_EQ(out[i], 0) << i;  // zero padding
  for (size_t i = 34; i < 48; ++i) EXPECT_EQ(out[i], 0) << i;
  const Pac back = read_pac(out);
  EXPECT_EQ(back.alignment, 16u);
  EXPECT_EQ(back, pac);
  EXPECT_EQ(write_pac(back), out);
  EXPECT_TRUE(sniff_pac(out));
}

// "aligned to 16, 8 or 4 (first that reproduces the file)".
TEST(MhPac, FirstAlignmentThatReproduces) {
  // The 28-byte table: at 16 and 8 the first entry sits at 32, at 4 at 28.
  struct Case {
    uint32_t first, second, alignment;
  };
  for (const Case& c : {Case{32, 48, 16}, Case{32, 40, 8}, Case{28, 32, 4}}) {
    const auto [first, second, alignment] = c;
    const std::vector<uint8_t> file = hand_pac(first, second, {});
    const Pac pac = read_pac(file);
    EXPECT_EQ(pac.alignment, alignment) << second;
    EXPECT_EQ(write_pac(pac), file) << second;
  }
  // At 34 (no alignment puts it there) the reader names the entry's table row.
  try {
    read_pac(hand_pac(32, 34, {}));
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.offset(), 20u);
    EXPECT_NE(std::string(e.what()).find("entry 2"), std::string::npos) << e.what();
  }
}

TEST(MhPac, PaddingMustBeZeroAndUnderSixteen) {
  std::vector<uint8_t> file = hand_pac(32, 48, {});
  file[40] = 1;
  EXPECT_THROW(read_pac(file), Error);
  EXPECT_FALSE(sniff_pac(file));
  // 16 or more bytes of padding is not a PAC's.
  EXPECT_THROW(read_pac(hand_pac(48, 64, {})), Error);
}

TEST(MhPac, EmptyEntriesTailAndBlockPadding) {
  Pac pac;
  pac.entries = {{}, filled(100, 1), {}};
  pad_to_block(pac);
  const std::vector<uint8_t> out = write_pac(pac);
  EXPECT_EQ(out.size() % kPacBlock, 0u);
  EXPECT_EQ(out.size(), kPacBlock);
  const Pac back = read_pac(out);
  EXPECT_EQ(back.tail.size(), kPacBlock - 32 - 100);
  EXPECT_EQ(write_pac(back), out);
  // A row of size 0 with an offset is not the (0, 0) of an empty entry.
  std::vector<uint8_t> bad = out;
  bad[4] = 0x20;
  EXPECT_THROW(read_pac(bad), Error);
}

TEST(MhPac, AllEmptyReadsButDoesNotSniff) {
  const std::vector<uint8_t> file = bytes_of({1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
  const Pac pac = read_pac(file);
  EXPECT_EQ(pac.alignment, 4u);  // a 12-byte table padded to 16 or 8 would not reproduce it
  EXPECT_EQ(write_pac(pac), file);
  EXPECT_FALSE(sniff_pac(file));
}

TEST(MhPac, NestedPacRoundTrips) {
  Pac inner;
  inner.entries = {filled(7, 3), filled(9, 4)};
  inner.alignment = 4;
  Pac outer;
  outer.entries = {filled(3, 9), write_pac(inner)};
  pad_to_block(outer);
  const std::vector<uint8_t> out = write_pac(outer);
  const Pac back = read_pac(out);
  EXPECT_EQ(pac_entry_kind(back.entries[1]), "pac");
  EXPECT_EQ(read_pac(back.entries[1]), inner);
  EXPECT_EQ(write_pac(back), out);
}

TEST(MhPac, BadTablesAreErrors) {
  EXPECT_THROW(read_pac(bytes_of({1, 0, 0})), Error);
  EXPECT_THROW(read_pac(bytes_of({0, 1, 0, 0, 16, 0, 0, 0, 1, 0, 0, 0})), Error);  // 256 + 1 rows
  // An entry past the end of the file.
  std::vector<uint8_t> file = hand_pac(32, 48, {});
  file[24] = 0x40;
  try {
    read_pac(file);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.offset(), 20u);
  }
}

// A minimal PMO by the layout of pmo.h: one mesh, two groups; group 0 draws a triangle with
// palette (0 -> bone 1, 1 -> bone `far`), group 1 draws nothing.
std::vector<uint8_t> make_pmo(uint8_t far) {
  Writer w;
  w.bytes(bytes_of({'p', 'm', 'o', 0, '1', '.', '0', 0}));
  w.u32(0xC0);  // size: tables and geometry
  w.f32(1);
  w.f32(1), w.f32(1), w.f32(1);
  w.u16(1), w.u16(1);                   // meshes, materials
  w.u32(0x40), w.u32(0x60), w.u32(0x80);  // mesh table, groups, remap
  w.u32(0x90), w.u32(0xA0), w.u32(0xB0);  // palette, materials, geometry
  w.zeros(8);
  // mesh record (0x18): uv scale, lighting, blend, then counts
  w.f32(1), w.f32(1), w.u32(0), w.u32(0);
  w.u8(1), w.u8(0), w.u16(0), w.u16(2), w.u16(0);
  w.zeros(0x60 - w.pos());
  // groups: material, bone count, first bone, list, vertex and index offsets
  w.u8(0), w.u8(2), w.u16(0), w.u32(0), w.u32(0), w.u32(0);
  w.u8(0), w.u8(1), w.u16(2), w.u32(4 * 2), w.u32(0), w.u32(0);
  w.zeros(0x80 - w.pos());
  w.u8(0);  // remap
  w.zeros(0x90 - w.pos());
  w.u8(0), w.u8(1), w.u8(1), w.u8(far), w.u8(0), w.u8(far);  // palette
  w.zeros(0xB0 - w.pos());
  w.u32(0x04000000u | (3u << 16) | 3u);  // group 0: PRIM triangle strip, 3 vertices
  w.u32(0x0B000000u);                    // RET
  w.u32(0x0B000000u);                    // group 1: RET only
  w.zeros(0xC0 - w.pos());
  return w.take();
}

TEST(MhPmo, GroupsAndPalettes) {
  const PmoModel m = read_pmo(make_pmo(50));
  ASSERT_EQ(m.groups.size(), 2u);
  EXPECT_EQ(m.groups[0].bones.size(), 2u);
  EXPECT_EQ(m.groups[0].bones[1].second, 50);
  EXPECT_EQ(m.groups[0].draws, true);
  EXPECT_EQ(m.groups[1].draws, false);
  std::vector<uint8_t> cut = make_pmo(50);
  cut.resize(0x92);  // the palette runs past the data
  EXPECT_THROW(read_pmo(cut), Error);
}

// notes 1: PALETTE_JOINT "joints .. of B" (error), EMPTY_GROUP "groups .." (warning).
TEST(MhPmo, PaletteJointAndEmptyGroup) {
  const Monster monster = synthetic_monster();
  const PmoModel m = read_pmo(make_pmo(50));
  RuleInputs in;
  in.skeleton = &monster.skeleton;
  in.model = &m;
  const auto f = validate(in);
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(reference_line(f[0]),
            "warn EMPTY_GROUP: groups 1 (fix: an empty group still binds a slot)");
  EXPECT_EQ(reference_line(f[1]),
            "error PALETTE_JOINT: joints 50 of 8 (fix: a group's palette names skeleton bones)");
  const PmoModel ok = read_pmo(make_pmo(7));
  in.model = &ok;
  EXPECT_EQ(validate(in).size(), 1u);  // the empty group only
}

struct ModelFiles {
  std::filesystem::path dir, pac;
};

std::filesystem::path temp_dir(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("mh-pac-" + name + "-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()));
  std::filesystem::create_directories(dir);
  return dir;
}

Pac model_pac(const Monster& m, uint8_t far = 7) {
  Pac pac;
  std::vector<uint8_t> tmh = bytes_of({'.', 'T', 'M', 'H', '0', '.', '1', '4', 0, 0, 0, 0, 0, 0, 0, 0});
  pac.entries = {write_skeleton(m.skeleton), make_pmo(far), tmh, write_pack(m.pack)};
  pad_to_block(pac);
  return pac;
}

TEST(MhPac, ModelPacThroughTheRegistry) {
  Registry registry;
  register_module(registry);
  const Monster m = synthetic_monster();
  const auto dir = temp_dir("model");
  const auto path = dir / "file_06185";
  const std::vector<uint8_t> bytes = write_pac(model_pac(m));
  write_file(path, bytes);
  const Format* used = nullptr;
  const auto doc = registry.open(path, {}, &used);
  EXPECT_EQ(used->name, "mh-pac");
  const Json info = doc->info();
  EXPECT_EQ(info["pac"]["entries"], 4);
  EXPECT_EQ(info["pac"]["skeleton_entry"], 0);
  EXPECT_EQ(info["pac"]["model_entry"], 1);
  EXPECT_EQ(info["pac"]["pack_entry"], 3);
  EXPECT_EQ(info["pac"]["table"][2]["holds"], "tmh");
  EXPECT_EQ(info["pack"]["game"], "mhfu");
  const auto findings = doc->validate();
  ASSERT_EQ(findings.size(), 1u);  // the PMO's empty group 1
  EXPECT_EQ(findings[0].code, "EMPTY_GROUP");
  EXPECT_TRUE(doc->to_neutral().has_value());
  EXPECT_FALSE(doc->curves().empty());
  const Json dump = doc->dump();
  EXPECT_EQ(dump["pac"]["entries"][3]["holds"], "anim-pack");
  EXPECT_EQ(dump["pac"]["entries"][3]["offset"], info["pac"]["table"][3]["offset"]);
  EXPECT_EQ(dump["model"]["groups"].size(), 2u);
}

// A damaged anim pack in entry 3: the parser's error, at its offset in the file.
TEST(MhPac, DamagedEntryGivesTheFileOffset) {
  const Monster m = synthetic_monster();
  Pac pac = model_pac(m);
  const uint64_t at = pac_table(pac)[3].offset;
  std::vector<uint8_t>& pack = pac.entries[3];
  const uint32_t clip = word(pack, 8 * (m.pack.streams.size() + 1));  // stream 0 slot 0
  pack[clip + 0x14 + 3] ^= 0x40;  // the first track's tag (after the 0x14-byte clip header)
  const auto dir = temp_dir("damaged");
  write_file(dir / "file_06185", write_pac(pac));
  Registry registry;
  register_module(registry);
  try {
    registry.open(dir / "file_06185", {});
    FAIL();
  } catch (const Error& e) {
    ASSERT_TRUE(e.offset().has_value());
    EXPECT_GT(*e.offset(), at);
    EXPECT_NE(std::string(e.what()).find("entry 3"), std::string::npos) << e.what();
  }
}

// "--game is detected where the bytes decide it, and asked for where they do not".
TEST(MhPac, GameFromTheBytesOrAsked) {
  MonsterSpec spec;
  spec.game = Game::kMhp3rd;
  Monster m = synthetic_monster(spec);
  for (auto& stream : m.pack.streams)
    for (int32_t& c : stream) c = kNoClip;  // an all-empty pack: only the skeleton tells
  m.pack.clips.clear();
  const auto dir = temp_dir("game");
  write_file(dir / "model.pac", write_pac(model_pac(m)));
  write_file(dir / "pack.bin", write_pack(m.pack));
  Registry registry;
  register_module(registry);
  EXPECT_EQ(registry.open(dir / "model.pac", {})->info()["pack"]["game"], "mhp3rd");
  try {
    registry.open(dir / "pack.bin", {});
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("--game mhfu or --game mhp3rd"), std::string::npos);
  }
  EXPECT_EQ(registry.open(dir / "pack.bin", {{"game", "mhp3rd"}})->info()["game"], "mhp3rd");
}

}  // namespace
}  // namespace animkit::monster_hunter

namespace animkit::monster_hunter {
namespace {

// Damaged model PACs (bytes flipped, cut short) give an animkit::Error or a document, never a
// crash; what parses as a PAC writes back byte for byte.
TEST(MhPac, DamagedModelPacsNeverCrash) {
  const std::vector<uint8_t> good = write_pac(model_pac(synthetic_monster(), 50));
  uint32_t seed = 12345;
  const auto next = [&seed] {
    seed = seed * 1103515245u + 12345u;
    return seed >> 8;
  };
  int parsed = 0;
  for (int round = 0; round < 1500; ++round) {
    std::vector<uint8_t> bytes = good;
    const int flips = 1 + static_cast<int>(next() % 4);
    for (int i = 0; i < flips; ++i) bytes[next() % bytes.size()] ^= static_cast<uint8_t>(1 + next() % 255);
    if (round % 7 == 0) bytes.resize(next() % bytes.size());
    try {
      const Pac pac = read_pac(bytes);
      EXPECT_EQ(write_pac(pac), bytes);
      const ModelPac m = read_model_pac(bytes, std::nullopt);
      RuleInputs in;
      in.skeleton = m.skeleton ? &*m.skeleton : nullptr;
      in.pack = m.pack ? &*m.pack : nullptr;
      in.model = m.model ? &*m.model : nullptr;
      in.strict = true;
      validate(in);
      ++parsed;
    } catch (const Error&) {
    }
  }
  EXPECT_GT(parsed, 0);
}

}  // namespace
}  // namespace animkit::monster_hunter
