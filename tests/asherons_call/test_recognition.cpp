// Issue 28 items 2 and 3: every object recognised by its id and layout (a binary id ending in
// 0x7B starts with '{' and is still binary), Setups on their own (binary and a byte-exact JSON
// form), `validate DAT` over every object and reference, compressed entries, `--type iteration`.
#include <gtest/gtest.h>
#include <fmt/format.h>
#include <zlib.h>

#include <cstring>

#include "animkit/asherons_call/assets.h"
#include "animkit/asherons_call/creature.h"
#include "animkit/asherons_call/dat.h"
#include "animkit/asherons_call/dat_writer.h"
#include "animkit/asherons_call/module.h"
#include "fixture.h"

namespace animkit::asherons_call {
namespace {

namespace fs = std::filesystem;
using namespace test;

fs::path temp_dir(const char* name) {
  const fs::path d = fs::temp_directory_path() / (std::string("ac_recognition_") + name);
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

// The three kinds with ids whose low byte is 0x7B: their first byte is '{'.
MotionTable table_7b() {
  MotionTable t = humanoid_table();
  t.id = 0x0900007Bu;
  return t;
}
Animation animation_7b() {
  Animation a = humanoid_animations()[1];
  a.id = 0x0300007Bu;
  return a;
}
Setup setup_7b() {
  asherons_call::Setup s = humanoid_setup();
  s.id = 0x0200007Bu;
  return s;
}

TEST(AcRecognition, BinaryIdsEndingIn7BAreNotJson) {
  const std::vector<uint8_t> t = write_motion_table(table_7b());
  const std::vector<uint8_t> a = write_animation(animation_7b());
  const std::vector<uint8_t> s = write_setup(setup_7b());
  for (const auto* b : {&t, &a, &s}) {
    ASSERT_EQ((*b)[0], '{');
    EXPECT_FALSE(looks_like_json(*b));
  }
  EXPECT_EQ(recognize_object(t).kind, ObjectKind::kMotionTable);
  EXPECT_EQ(recognize_object(a).kind, ObjectKind::kAnimation);
  EXPECT_EQ(recognize_object(s).kind, ObjectKind::kSetup);
  EXPECT_TRUE(recognize_object(t).json.is_null());
  // Through the registry: each file opens as its binary format, and as nothing else.
  Registry reg;
  register_module(reg);
  const fs::path dir = temp_dir("7b");
  const std::pair<const std::vector<uint8_t>*, const char*> cases[] = {
      {&t, "ac-motion-table"}, {&a, "ac-animation"}, {&s, "ac-setup"}};
  for (const auto& [bytes, name] : cases) {
    const fs::path f = dir / (std::string(name) + ".bin");
    write_file(f, *bytes);
    const Format* used = nullptr;
    auto doc = reg.open(f, {}, &used);
    EXPECT_EQ(used->name, name);
    EXPECT_EQ(doc->info()["id"].get<std::string>().substr(8), "7B") << name;
    EXPECT_TRUE(doc->validate().empty() || name != std::string("ac-animation"));
  }
  // The loaders never take one kind for another.
  write_file(dir / "s.bin", s);
  EXPECT_THROW(load_animation(dir / "s.bin"), Error);
  EXPECT_THROW(load_motion_table(dir / "s.bin"), Error);
  EXPECT_EQ(load_setup(dir / "s.bin"), setup_7b());
  write_file(dir / "t.bin", t);
  EXPECT_EQ(load_motion_table(dir / "t.bin"), table_7b());
  EXPECT_THROW(load_animation(dir / "t.bin"), Error);
  // A folder of animations takes the 0x0300007B animation (binary), not as JSON.
  fs::create_directories(dir / "anims");
  write_file(dir / "anims" / "a.bin", a);
  write_file(dir / "anims" / "t.bin", t);
  EXPECT_EQ(load_animation_dir(dir / "anims").all().size(), 1u);
  ASSERT_TRUE(load_animation_dir(dir / "anims").find(0x0300007Bu));
}

TEST(AcRecognition, JsonOnlyWhenItParsesAsTheForm) {
  const std::string table = to_json(humanoid_table()).dump();
  const Bytes tb(reinterpret_cast<const uint8_t*>(table.data()), table.size());
  EXPECT_EQ(recognize_object(tb).kind, ObjectKind::kMotionTable);
  EXPECT_FALSE(recognize_object(tb).json.is_null());
  const std::string broken = table.substr(0, table.size() - 1);
  EXPECT_EQ(recognize_object(Bytes(reinterpret_cast<const uint8_t*>(broken.data()), broken.size()))
                .kind,
            ObjectKind::kUnknown);
  const std::string other = R"({"engine": "asherons_call", "motion_table": "x"})";
  EXPECT_EQ(recognize_object(Bytes(reinterpret_cast<const uint8_t*>(other.data()), other.size()))
                .kind,
            ObjectKind::kUnknown);
}

// A Setup with every flag-gated field, lights, hooks on a placement and trailing bytes.
Setup full_setup() {
  asherons_call::Setup s = humanoid_setup();
  s.flags = kSetupHasParent | kSetupHasDefaultScale | kSetupAllowFreeHeading;
  s.default_scale.assign(s.parts.size(), Vec3{1.5f, 0.25f, -2.0f});
  s.holding_locations.push_back({-3, 2, AFrame{{1, 2, 3}, Quat{0.5f, 0.5f, 0.5f, 0.5f}}});
  s.connection_points.push_back({7, -1, AFrame{{0.1f, 0, 0}, Quat{0, 0, 0, 1}}});
  s.placement_frames[0].frame.hooks.push_back(
      AnimHook{static_cast<uint32_t>(HookType::kSound), -1, {0x0A000001u}});
  s.cyl_spheres.push_back({{1, 2, 3}, 0.5f, 1.75f});
  s.spheres.push_back({{0, 0, 1}, 0.3f});
  s.lights.push_back({2, AFrame{{0, 1, 0}, Quat{0, 0, 0, 1}}, 0xFF8040C0u, 1.5f, 4, 0.7f});
  s.default_script = 0x33000005u;
  s.tail = {1, 2, 3};
  return s;
}

TEST(AcRecognition, SetupJsonIsByteExact) {
  const asherons_call::Setup s = full_setup();
  const std::vector<uint8_t> bytes = write_setup(s);
  EXPECT_EQ(read_setup(bytes), s);
  const Json j = to_json(s);
  EXPECT_EQ(setup_from_json(parse_json(j.dump())), s);
  EXPECT_EQ(write_setup(setup_from_json(parse_json(j.dump()))), bytes);
  // Errors name the JSON path.
  Json bad = j;
  bad["placement_frames"][1]["frames"][2]["origin"][1] = "x";
  try {
    setup_from_json(bad);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("placement_frames[1]: frames[2]"), std::string::npos)
        << e.what();
  }
  bad = j;
  bad["parts"].erase(0);
  EXPECT_THROW(setup_from_json(bad), Error);  // 4 parts, 5 frames per placement
}

// A loose Setup (as `ac extract` writes it): info, dump, validate (the 3 trailing bytes are a
// warning at their offset), export.
TEST(AcRecognition, LooseSetupIsAFormat) {
  Registry reg;
  register_module(reg);
  const fs::path dir = temp_dir("setup");
  const asherons_call::Setup s = full_setup();
  const std::vector<uint8_t> bytes = write_setup(s);
  write_file(dir / "s.bin", bytes);
  write_text(dir / "s.json", to_json(s).dump(1));
  for (const char* name : {"s.bin", "s.json"}) {
    const Format* used = nullptr;
    auto doc = reg.open(dir / name, {}, &used);
    EXPECT_EQ(used->name, std::string(name) == "s.bin" ? "ac-setup" : "ac-setup-json");
    EXPECT_EQ(doc->info()["kind"], "setup");
    EXPECT_EQ(doc->dump(), to_json(s));
    const std::vector<Finding> f = doc->validate();
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].code, "TRAILING_BYTES");
    EXPECT_NE(f[0].message.find(fmt::format("offset {:#x}", bytes.size() - 3)), std::string::npos)
        << f[0].message;
    const std::optional<Animated> a = doc->to_neutral();
    ASSERT_TRUE(a);
    EXPECT_EQ(a->skeleton.num_joints(), 1 + static_cast<int>(s.parts.size()));
  }
}

std::vector<uint8_t> compressed(const std::vector<uint8_t>& raw) {
  uLongf n = compressBound(raw.size());
  std::vector<uint8_t> out(4 + n);
  const uint32_t size = static_cast<uint32_t>(raw.size());
  std::memcpy(out.data(), &size, 4);
  EXPECT_EQ(compress(out.data() + 4, &n, raw.data(), raw.size()), Z_OK);
  out.resize(4 + n);
  return out;
}

// Container page 3, flags bit 0: the stored bytes are a u32 size and a zlib stream.
TEST(AcRecognition, CompressedEntriesAreInflatedWithinTheMemoryLimit) {
  const std::vector<uint8_t> raw = write_motion_table(humanoid_table());
  const std::vector<uint8_t> packed = compressed(raw);
  EXPECT_EQ(inflate_object(packed, "t"), raw);
  std::vector<uint8_t> lying = packed;
  const uint32_t more = static_cast<uint32_t>(raw.size() + 1);
  std::memcpy(lying.data(), &more, 4);
  EXPECT_THROW(inflate_object(lying, "t"), Error);
  std::vector<uint8_t> cut(packed.begin(), packed.end() - 4);
  EXPECT_THROW(inflate_object(cut, "t"), Error);
  // A declared 3 GB is refused before anything is inflated or allocated.
  std::vector<uint8_t> huge = packed;
  const uint32_t big = 3000000000u;
  std::memcpy(huge.data(), &big, 4);
  try {
    inflate_object(huge, "t");
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("--max-memory"), std::string::npos) << e.what();
  }
  // Through a dat: the entry's flag set, the object reads back inflated.
  std::vector<uint8_t> dat = write_dat({{0x09000101u, packed}});
  DatFile file(dat);
  DatEntry e = *file.find(0x09000101u);
  e.flags |= 1;
  EXPECT_EQ(file.read(e), raw);
}

TEST(AcRecognition, TypeNamesAsInfoPrintsThem) {
  EXPECT_EQ(dat_type_from_name("iteration"), 0xFF);
  EXPECT_EQ(dat_type_from_name("setup"), kTypeSetup);
  EXPECT_EQ(dat_type_from_name("gfx-object"), 0x01);
  EXPECT_THROW(dat_type_from_name("nonsense"), Error);
}

// validate DAT: every object, every reference, naming the ids; what `--id` finds, the whole
// validate finds too.
TEST(AcRecognition, ValidateDatChecksEveryObjectAndReference) {
  Registry reg;
  register_module(reg);
  const fs::path dir = temp_dir("validate");
  std::vector<DatObject> objects;
  MotionTable t = humanoid_table();
  t.id = 0x0900007Bu;
  t.cycles[0].data.anims[0].anim_id = 0x03000999u;  // absent
  objects.push_back({t.id, write_motion_table(t)});
  for (const Animation& a : humanoid_animations()) objects.push_back({a.id, write_animation(a)});
  asherons_call::Setup s = humanoid_setup();
  s.default_motion_table = 0x0900007Bu;
  s.tail = {9, 9, 9};
  objects.push_back({s.id, write_setup(s)});
  asherons_call::Setup dangling = humanoid_setup();
  dangling.id = 0x02000002u;
  dangling.default_motion_table = 0x09000555u;  // absent
  objects.push_back({dangling.id, write_setup(dangling)});
  objects.push_back({0x0A000001u, std::vector<uint8_t>(3000, 7)});  // a Wave over 3 blocks
  std::vector<uint8_t> bytes = write_dat(objects);
  // Break the Wave's chain: its second block points nowhere sensible.
  DatFile before(bytes);
  const DatEntry wave = *before.find(0x0A000001u);
  uint32_t second;
  std::memcpy(&second, bytes.data() + wave.offset, 4);
  const uint32_t bad = 0x7FFFFC00u;
  std::memcpy(bytes.data() + second, &bad, 4);
  write_file(dir / "x.dat", bytes);

  auto codes = [](const std::vector<Finding>& f, const std::string& code) {
    std::vector<std::string> out;
    for (const Finding& x : f)
      if (x.code == code) out.push_back(x.where + ": " + x.message);
    return out;
  };
  const std::vector<Finding> by_id = reg.open(dir / "x.dat", {{"id", "0x0900007B"}})->validate();
  const std::vector<Finding> all = reg.open(dir / "x.dat", {})->validate();
  ASSERT_EQ(codes(by_id, "MISSING_ANIMATION").size(), 1u);
  ASSERT_EQ(codes(all, "MISSING_ANIMATION"), codes(by_id, "MISSING_ANIMATION"));
  EXPECT_NE(codes(all, "MISSING_ANIMATION")[0].find("0x03000999"), std::string::npos);
  const auto missing_table = codes(all, "MISSING_MOTION_TABLE");
  ASSERT_EQ(missing_table.size(), 1u);
  EXPECT_NE(missing_table[0].find("0x02000002"), std::string::npos);
  EXPECT_NE(missing_table[0].find("0x09000555"), std::string::npos);
  const auto broken = codes(all, "BAD_OBJECT");
  ASSERT_EQ(broken.size(), 1u);
  EXPECT_NE(broken[0].find("0x0A000001"), std::string::npos);
  const auto trailing = codes(all, "TRAILING_BYTES");
  ASSERT_EQ(trailing.size(), 1u);
  EXPECT_NE(trailing[0].find(fmt::format("offset {:#x}: 3 bytes", write_setup(s).size() - 3)),
            std::string::npos)
      << trailing[0];
}

// `DAT --id 0x09...` exports through the creature path (Y up, modifiers included), the same as
// `DAT --setup` with the Setup that names the table.
TEST(AcRecognition, TableFromADatExportsAsTheCreature) {
  Registry reg;
  register_module(reg);
  const fs::path dir = temp_dir("export");
  std::vector<DatObject> objects{{0x09000101u, write_motion_table(humanoid_table())},
                                 {0x02000001u, write_setup(humanoid_setup())}};
  for (const Animation& a : humanoid_animations()) objects.push_back({a.id, write_animation(a)});
  write_file(dir / "h.dat", write_dat(objects));
  const Animated by_id = *reg.open(dir / "h.dat", {{"id", "0x09000101"}})->to_neutral();
  const Animated by_setup = *reg.open(dir / "h.dat", {{"setup", "0x02000001"}})->to_neutral();
  ASSERT_EQ(by_id.clips.size(), by_setup.clips.size());
  for (size_t i = 0; i < by_id.clips.size(); ++i)
    EXPECT_EQ(by_id.clips[i].name, by_setup.clips[i].name);
  EXPECT_EQ(by_id.skeleton.num_joints(), by_setup.skeleton.num_joints());
  // The creature's joints: root + one per part (the older export had no root joint).
  EXPECT_EQ(by_id.skeleton.names[0], "root");
}

// Container page 6: a valid forest whose parent comes after its child is exported hierarchical;
// each joint's world rest transform is the part's rest frame, as the flat rig has it.
TEST(AcRecognition, ParentAfterChildIsStillHierarchical) {
  asherons_call::Setup s = humanoid_setup();
  s.parts.resize(4);
  s.flags |= kSetupHasParent;
  s.parent_index = {2, kNoParent, 1, 1};
  for (PlacementFrame& p : s.placement_frames) {
    p.frame.parts.resize(4);
    for (size_t i = 0; i < 4; ++i) {
      p.frame.parts[i].origin = Vec3{0.1f * i, 0.2f, 0.3f * i + 1};
      p.frame.parts[i].orientation = normalize(Quat{0.1f * i, 0.2f, 0.05f, 1});
    }
  }
  const std::vector<int> parents = rig_parents(s, Rig::kParents);
  EXPECT_EQ(parents, (std::vector<int>{2, -1, 1, 1}));
  const Skeleton sk = creature_skeleton(s, parents);
  EXPECT_EQ(sk.names, (std::vector<std::string>{"root", "part_1", "part_2", "part_0", "part_3"}));
  EXPECT_EQ(std::vector<int>(sk.parents.begin(), sk.parents.end()), (std::vector<int>{-1, 0, 1, 2, 1}));
  EXPECT_TRUE(sk.validate().empty()) << sk.validate();
  const Skeleton flat = creature_skeleton(s, rig_parents(s, Rig::kFlat));
  std::vector<Transform> world(sk.num_joints());
  for (size_t j = 0; j < sk.num_joints(); ++j) {
    world[j] = sk.parents[j] < 0 ? sk.rest[j] : compose(world[sk.parents[j]], sk.rest[j]);
    if (j == 0) continue;
    const size_t part = static_cast<size_t>(std::stoi(sk.names[j].substr(5)));  // "part_<i>"
    const Transform& want = flat.rest[part + 1];
    EXPECT_NEAR(length(world[j].translation - want.translation), 0.0f, 1e-5) << sk.names[j];
    EXPECT_NEAR(std::fabs(dot(world[j].rotation, want.rotation)), 1.0f, 1e-5);
  }
  // A cycle is not a forest: flat.
  s.parent_index = {1, 0, kNoParent, kNoParent};
  EXPECT_EQ(rig_parents(s, Rig::kParents), (std::vector<int>{-1, -1, -1, -1}));
}

}  // namespace
}  // namespace animkit::asherons_call
