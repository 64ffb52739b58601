// The .dat container (asherons-call-dat-container.md sections 1-4): dats built in code by
// dat_writer from the container page, read back; damaged chains and directories.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <sstream>

#include "animkit/asherons_call/dat.h"
#include "animkit/asherons_call/dat_objects.h"
#include "animkit/asherons_call/dat_writer.h"
#include "animkit/asherons_call/module.h"
#include "animkit/asherons_call/player.h"
#include "fixture.h"

namespace animkit::asherons_call {
namespace {

namespace fs = std::filesystem;

std::vector<uint8_t> pattern(size_t n, uint32_t seed) {
  std::vector<uint8_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<uint8_t>((i * 131 + seed * 7) ^ (i >> 8));
  return v;
}

uint32_t u32_at(const std::vector<uint8_t>& b, size_t at) {
  uint32_t v;
  std::memcpy(&v, b.data() + at, 4);
  return v;
}
void put_u32(std::vector<uint8_t>& b, size_t at, uint32_t v) { std::memcpy(b.data() + at, &v, 4); }

template <class F>
void expect_error_at(F&& f, uint64_t offset, const std::string& text) {
  try {
    f();
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.offset(), offset) << e.what();
    EXPECT_NE(e.message().find(text), std::string::npos) << e.what();
  }
}

// The header's version text (the preamble up to its NUL) as core printable text: ASCII kept,
// other bytes as \xNN (before issue 16 item 5 they became '?', which lost them); version_major
// as core to_hex.
TEST(AcDat, HeaderJsonVersionTextIsPrintable) {
  DatHeader h;
  const uint8_t text[] = {'A', 'C', 0x01, 0xE9, '\\', 0};
  std::memcpy(h.preamble.data(), text, sizeof text);
  for (size_t i = 0; i < h.version_major.size(); ++i) h.version_major[i] = static_cast<uint8_t>(i * 17);
  const Json j = to_json(h);
  EXPECT_EQ(j["version"], "AC\\x01\\xe9\\x5c");
  EXPECT_EQ(j["version_major"], "00112233445566778899aabbccddeeff");
}

// Container page 1: the header fields at 0x140.
TEST(AcDat, HeaderFields) {
  const std::vector<uint8_t> bytes = write_dat({{0x09000001u, pattern(10, 1)}});
  EXPECT_EQ(u32_at(bytes, 0x140), 0x00005442u);
  EXPECT_EQ(bytes[0x140], 0x42);
  EXPECT_EQ(bytes[0x141], 0x54);
  const DatHeader h = read_dat_header(bytes);
  EXPECT_EQ(h.block_size, 1024u);
  EXPECT_EQ(h.file_size, bytes.size());
  EXPECT_EQ(h.data_set, 1u);
  EXPECT_EQ(h.engine_pack_version, 110u);
  EXPECT_EQ(h.version_minor, 6657u);
  EXPECT_EQ(u32_at(bytes, 0x160), h.btree_root);
  EXPECT_EQ(h.btree_root % 1024, 0u);
  std::vector<uint8_t> bad = bytes;
  bad[0x140] = 0x43;
  expect_error_at([&] { read_dat_header(bad); }, 0x140, "magic");
  expect_error_at([&] { read_dat_header(Bytes(bytes).first(0x18F)); }, 0, "header");
}

// Container page 2: a chain of ceil(N / (block_size - 4)) blocks, each next an absolute offset,
// the last 0; the payload is block_size - 4 bytes.
TEST(AcDat, ChainsRoundTripAtBothBlockSizes) {
  for (uint32_t bs : {1024u, 256u}) {
    std::vector<DatObject> objects;
    const size_t payload = bs - 4;
    const std::vector<size_t> sizes = {1, payload - 1, payload, payload + 1, 3 * payload, 5000};
    for (size_t i = 0; i < sizes.size(); ++i) {
      objects.push_back({0x03000100u + static_cast<uint32_t>(i), pattern(sizes[i], i)});
    }
    DatWriteOptions o;
    o.block_size = bs;
    const std::vector<uint8_t> bytes = write_dat(objects, o);
    const DatFile dat(bytes);
    for (const DatObject& obj : objects) {
      const std::optional<DatEntry> e = dat.find(obj.id);
      ASSERT_TRUE(e) << obj.id;
      EXPECT_EQ(e->size, obj.bytes.size());
      EXPECT_EQ(e->offset % bs, 0u);
      EXPECT_EQ(dat.read(*e), obj.bytes);
      // The chain's length and its final 0.
      const size_t blocks = (obj.bytes.size() + payload - 1) / payload;
      uint32_t at = e->offset;
      for (size_t k = 1; k < blocks; ++k) at = u32_at(bytes, at);
      EXPECT_EQ(u32_at(bytes, at), 0u);
    }
    EXPECT_FALSE(dat.find(0x03000000u));
    EXPECT_FALSE(dat.find(0x03000200u));
  }
}

// Container page 3: a tree of many levels (3 entries a node) enumerates in ascending order,
// prunes by range, and finds every id.
TEST(AcDat, DirectoryOrderLookupAndRanges) {
  std::vector<DatObject> objects;
  for (uint32_t i = 0; i < 150; ++i) objects.push_back({0x03000000u + i * 3, pattern(i % 7, i)});
  for (uint32_t i = 0; i < 20; ++i) objects.push_back({0x09000000u + i, pattern(8, i)});
  objects.push_back({0x02000001u, pattern(40, 9)});
  DatWriteOptions o;
  o.max_entries = 3;
  const std::vector<uint8_t> bytes = write_dat(objects, o);
  const DatFile dat(bytes);
  const std::vector<DatEntry> all = dat.list();
  ASSERT_EQ(all.size(), objects.size() + 1);  // + 0xFFFF0001
  for (size_t i = 1; i < all.size(); ++i) EXPECT_LT(all[i - 1].id, all[i].id);
  EXPECT_EQ(all.back().id, kIterationId);
  EXPECT_EQ(dat.list_type(kTypeMotionTable).size(), 20u);
  EXPECT_EQ(dat.list_type(kTypeAnimation).size(), 150u);
  EXPECT_EQ(dat.list_type(kTypeSetup).size(), 1u);
  const std::vector<DatEntry> range = dat.list(0x03000010u, 0x03000020u);
  ASSERT_EQ(range.size(), 5u);  // 0x12, 0x15, 0x18, 0x1B, 0x1E
  EXPECT_EQ(range.front().id, 0x03000012u);
  for (const DatObject& obj : objects) {
    const std::optional<DatEntry> e = dat.find(obj.id);
    ASSERT_TRUE(e);
    EXPECT_EQ(dat.read(*e), obj.bytes);
    EXPECT_FALSE(dat.find(obj.id + 0x00800000u));
  }
  // Container page 1: the Iteration object, (total, -total, 1).
  const std::vector<uint8_t> it = dat.read_object(kIterationId);
  ASSERT_EQ(it.size(), 12u);
  EXPECT_EQ(static_cast<int32_t>(u32_at(it, 0)), 1);
  EXPECT_EQ(static_cast<int32_t>(u32_at(it, 4)), -1);
  EXPECT_EQ(static_cast<int32_t>(u32_at(it, 8)), 1);
}

// Container page 2: a free-list link (bit 31), a chain that ends early, one that does not end,
// a block past the file: errors at the pointer's offset, never a loop.
TEST(AcDat, DamagedChainsAreErrors) {
  const std::vector<uint8_t> good = write_dat({{0x03000001u, pattern(3000, 1)}});
  const DatFile gdat(good);
  const DatEntry e = *gdat.find(0x03000001u);
  const uint32_t second = u32_at(good, e.offset);
  {
    std::vector<uint8_t> b = good;
    put_u32(b, e.offset, second | 0x80000000u);
    expect_error_at([&] { DatFile(b).read(e); }, e.offset, "free-list");
  }
  {
    std::vector<uint8_t> b = good;
    put_u32(b, e.offset, 0);
    expect_error_at([&] { DatFile(b).read(e); }, e.offset, "ends early");
  }
  {
    std::vector<uint8_t> b = good;  // the second block points to itself: counted, then caught
    put_u32(b, second, second);
    expect_error_at([&] { DatFile(b).read(e); }, second, "does not end");
  }
  {
    std::vector<uint8_t> b = good;
    put_u32(b, e.offset, 0x7FFFFC00u);
    expect_error_at([&] { DatFile(b).read(e); }, e.offset, "inside");
  }
  {
    DatEntry huge = e;
    huge.size = 0xFFFFFFF0u;  // more blocks than the file has
    expect_error_at([&] { gdat.read(huge); }, e.offset, "blocks");
    DatEntry packed = e;
    packed.flags = 1;
    // Flag bit 0: the bytes are not a u32 size + zlib stream, so inflating them fails.
    EXPECT_THROW(gdat.read(packed), Error);
  }
}

// Container page 3: a node count past 61, a branch back to the root (a loop), depth.
TEST(AcDat, DamagedDirectoryNeverLoops) {
  std::vector<DatObject> objects;
  for (uint32_t i = 0; i < 40; ++i) objects.push_back({0x03000000u + i, pattern(4, i)});
  DatWriteOptions o;
  o.max_entries = 3;
  const std::vector<uint8_t> good = write_dat(objects, o);
  const uint32_t root = read_dat_header(good).btree_root;
  ASSERT_NE(u32_at(good, root + 4), 0u);  // branch[0]: the root is internal
  {
    std::vector<uint8_t> b = good;
    put_u32(b, root + 4 + 0xF8, 62);  // entry_count
    expect_error_at([&] { DatFile(b).list(); }, root, "entry_count 62");
  }
  {
    std::vector<uint8_t> b = good;
    put_u32(b, root + 4, root);  // branch[0] -> the root itself
    expect_error_at([&] { DatFile(b).list(); }, root, "reached twice");
    // A lookup below the first separator descends into the loop until the depth cap.
    EXPECT_THROW(DatFile(b).find(0x02000000u), Error);
  }
  {
    std::vector<uint8_t> b = good;  // entries out of order inside the root
    const size_t e0 = root + 4 + 0xFC;
    put_u32(b, e0 + 4, 0x03FFFFFFu);
    EXPECT_THROW(DatFile(b).list(), Error);
  }
}

fs::path temp_dir(const std::string& name) {
  const fs::path dir =
      fs::temp_directory_path() / ("animkit_ac_dat_" + name + "_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// A dat holding the humanoid table and its animations (and a Setup-typed blob).
fs::path write_humanoid_dat(const fs::path& dir) {
  std::vector<DatObject> objects;
  objects.push_back({0x09000101u, write_motion_table(humanoid_table())});
  for (const Animation& a : humanoid_animations()) objects.push_back({a.id, write_animation(a)});
  asherons_call::Setup setup;
  setup.id = 0x02000001u;
  setup.parts = {0x01000001u, 0x01000002u, 0x01000003u, 0x01000004u, 0x01000005u};
  setup.default_motion_table = 0x09000101u;
  objects.push_back({setup.id, write_setup(setup)});
  write_file(dir / "client_portal.dat", write_dat(objects));
  return dir / "client_portal.dat";
}

TEST(AcDat, MotionObjectsFromTheDat) {
  const fs::path path = write_humanoid_dat(temp_dir("objects"));
  const DatFile dat = DatFile::open(path);
  EXPECT_EQ(motion_table_from_dat(dat, 0x09000101u), humanoid_table());
  EXPECT_EQ(animations_for(dat, humanoid_table()).all().size(), humanoid_animations().size());
  EXPECT_EQ(dat.read_object(0x03000101u), write_animation(humanoid_animations()[1]));
  EXPECT_THROW(motion_table_from_dat(dat, 0x09000102u), Error);  // absent
  EXPECT_THROW(motion_table_from_dat(dat, 0x03000101u), Error);  // not a table
  // Container page 4: the object's own id must equal its key.
  std::vector<uint8_t> table = write_motion_table(humanoid_table());
  const std::vector<uint8_t> bytes = write_dat({{0x09000202u, table}});
  expect_error_at([&] { motion_table_from_dat(DatFile(bytes), 0x09000202u); }, 0,
                  "object 0x09000202: starts with id 0x09000101");
}

// The registry: `info DAT`, `DAT --id`, and `play` with "dat".
TEST(AcDat, RegistryInfoIdAndPlay) {
  Registry reg;
  register_module(reg);
  const fs::path dir = temp_dir("registry");
  const fs::path path = write_humanoid_dat(dir);
  const Format* used = nullptr;
  auto doc = reg.open(path, {}, &used);
  EXPECT_EQ(used->name, "ac-dat");
  const Json info = doc->info();
  EXPECT_EQ(info["kind"], "dat");
  EXPECT_EQ(info["entries"], 1 + 1 + humanoid_animations().size() + 1);
  EXPECT_EQ(info["types"]["motion-table"], 1);
  EXPECT_EQ(info["types"]["animation"], humanoid_animations().size());
  EXPECT_EQ(info["types"]["setup"], 1);
  EXPECT_EQ(info["types"]["iteration"], 1);
  for (const Finding& f : doc->validate()) ADD_FAILURE() << f.code << " " << f.where << " " << f.message;

  doc = reg.open(path, {{"id", "0x09000101"}}, &used);
  EXPECT_EQ(doc->info()["kind"], "motion_table");
  EXPECT_EQ(doc->info()["animations"], humanoid_animations().size());
  EXPECT_EQ(doc->dump(), to_json(humanoid_table()));
  ASSERT_TRUE(doc->to_neutral());
  EXPECT_GT(doc->to_neutral()->clips.size(), 5u);
  doc = reg.open(path, {{"id", "0x03000101"}});
  EXPECT_EQ(doc->info()["kind"], "animation");
  doc = reg.open(path, {{"id", "0x02000001"}});
  EXPECT_EQ(doc->info()["kind"], "setup");
  EXPECT_EQ(doc->info()["num_parts"], 5);
  EXPECT_EQ(doc->info()["default_motion_table"], "0x09000101");
  EXPECT_THROW(reg.open(path, {{"id", "0x09000999"}}), Error);

  const Json scenario = Json::parse(R"({"engine": "asherons_call", "dat": "client_portal.dat",
      "motion_table": "0x09000101",
      "ticks": [{"dt": 0.0333, "do": [{"motion": "WalkForward"}]}, {"dt": 0.0333}]})");
  std::ostringstream out;
  EXPECT_EQ(play_scenario(scenario, dir, true, out), 0);
  std::istringstream lines(out.str());
  std::string line;
  std::getline(lines, line);
  const Json first = Json::parse(line);
  EXPECT_EQ(first["substate"], "0x45000005");
  EXPECT_EQ(first["nodes"][0]["anim"], "0x03000110");  // the Ready -> Walk link, from the dat
}

// A damaged dat through the registry: `file: offset: what`.
TEST(AcDat, DamagedDatNamesFileAndOffset) {
  Registry reg;
  register_module(reg);
  const fs::path dir = temp_dir("damaged");
  const fs::path path = write_humanoid_dat(dir);
  std::vector<uint8_t> bytes = read_file(path);
  const uint32_t root = read_dat_header(bytes).btree_root;
  put_u32(bytes, root + 4 + 0xF8, 99);
  write_file(path, bytes);
  try {
    reg.open(path, {})->info();
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("entry_count 99"), std::string::npos) << e.what();
  }
  try {
    reg.open(path, {{"id", "0x09000101"}});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("client_portal.dat"), std::string::npos) << e.what();
    EXPECT_EQ(e.offset(), root);
  }
}

}  // namespace
}  // namespace animkit::asherons_call
