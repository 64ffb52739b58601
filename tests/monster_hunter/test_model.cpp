// The monster as players see it (issue 27, items 1 and 5): PMO tables and geometry, TMH banks,
// skinning through the running palette, and the glTF export of a skeleton with two roots.
// Fixtures are built here from monster-hunter-model.md's layouts and worked examples.
#include <gtest/gtest.h>

#include <bit>
#include <cstring>

#include "animkit/gltf/export.h"
#include "animkit/monster_hunter/document.h"
#include "animkit/monster_hunter/ge_color.h"
#include "animkit/monster_hunter/model_export.h"
#include "animkit/monster_hunter/pmo_geometry.h"
#include "animkit/monster_hunter/synthetic_model.h"
#include "animkit/monster_hunter/tmh.h"

namespace animkit::monster_hunter {
namespace {

void put32(std::vector<uint8_t>& b, size_t at, uint32_t v) { std::memcpy(b.data() + at, &v, 4); }
void putf(std::vector<uint8_t>& b, size_t at, float v) { put32(b, at, std::bit_cast<uint32_t>(v)); }
void bytes_at(std::vector<uint8_t>& b, size_t at, std::initializer_list<uint8_t> v) {
  std::copy(v.begin(), v.end(), b.begin() + at);
}

// model.md 3.6, row by row: one mesh, one group (a quad as a 4-index strip), one material.
std::vector<uint8_t> worked_pmo() {
  std::vector<uint8_t> b(0x120, 0);
  std::memcpy(b.data(), "pmo\0001.0\0", 8);
  put32(b, 0x08, 0x120);
  putf(b, 0x0C, 2.f);
  for (int k = 0; k < 3; ++k) putf(b, 0x10 + 4 * k, 2.f);
  bytes_at(b, 0x1C, {1, 0, 1, 0});
  for (auto [at, v] : {std::pair{0x20, 0x40}, {0x24, 0x60}, {0x28, 0x70}, {0x2C, 0x80},
                       {0x30, 0x90}, {0x34, 0xA0}})
    put32(b, at, v);
  putf(b, 0x40, 1.f);
  putf(b, 0x44, 1.f);
  put32(b, 0x48, 0x80000003);
  bytes_at(b, 0x50, {1, 0, 0, 0, 1, 0, 0, 0});
  bytes_at(b, 0x60, {0, 2, 0, 0});
  put32(b, 0x68, 0x30);
  put32(b, 0x6C, 0x70);
  bytes_at(b, 0x80, {0, 3, 1, 4});
  put32(b, 0x90, 0xFFFFFFFF);
  put32(b, 0x94, 0x007F7F7F);
  for (auto [at, v] : {std::pair{0xA0, 0x14000000u}, {0xA4, 0x10000000u}, {0xA8, 0x02000070u},
                       {0xAC, 0x01000030u}, {0xB0, 0x12004B22u}, {0xB4, 0x9B000000u},
                       {0xB8, 0x04040004u}, {0xBC, 0x13000000u}, {0xC0, 0x0B000000u}})
    put32(b, at, v);
  bytes_at(b, 0xD0, {0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x7F});
  bytes_at(b, 0xE0, {0x40, 0x40, 0x00, 0x80, 0x00, 0x00, 0x00, 0x7F, 0, 0, 0, 0x40});
  bytes_at(b, 0xF0, {0x00, 0x80, 0x00, 0x00, 0x00, 0x80, 0x00, 0x7F, 0, 0, 0, 0, 0, 0, 0, 0x40});
  bytes_at(b, 0x100, {0x80, 0x00, 0x00, 0x80, 0x00, 0x80, 0x00, 0x7F, 0, 0, 0, 0x40, 0, 0, 0, 0x40});
  bytes_at(b, 0x110, {0, 1, 2, 3});
  return b;
}

// 3.3's vectors and the worked example's type.
TEST(MhModel, VertexLayouts) {
  VertexType t = vertex_type(1 | (2 << 7));  // u8 uv + s16 pos
  EXPECT_EQ(t.uv_at, 0);
  EXPECT_EQ(t.position_at, 2);
  EXPECT_EQ(t.size, 8);
  t = vertex_type((1 << 9) | (2 << 14) | 2 | (1 << 5) | (2 << 7));  // u8 x3 w, u16 uv, s8 n, s16 p
  EXPECT_EQ(t.weights_at, 0);
  EXPECT_EQ(t.uv_at, 4);
  EXPECT_EQ(t.normal_at, 8);
  EXPECT_EQ(t.position_at, 12);
  EXPECT_EQ(t.size, 18);
  t = vertex_type((1 << 5) | (2 << 7));  // s8 normal + s16 pos
  EXPECT_EQ(t.position_at, 4);
  EXPECT_EQ(t.size, 10);
  t = vertex_type(0x004B22);
  EXPECT_EQ(t.weight_count, 2);
  EXPECT_EQ(t.index, 1);
  EXPECT_EQ(t.uv_at, 2);
  EXPECT_EQ(t.normal_at, 6);
  EXPECT_EQ(t.position_at, 10);
  EXPECT_EQ(t.stride, 16);
}

// 3.5's vectors.
TEST(MhModel, GeColours) {
  EXPECT_EQ(decode_color(GeColor::k5650, 0x0821), (Rgba{8, 4, 8, 255}));
  EXPECT_EQ(decode_color(GeColor::k5551, 0x8000), (Rgba{0, 0, 0, 255}));
  EXPECT_EQ(decode_color(GeColor::k4444, 0x1234), (Rgba{0x44, 0x33, 0x22, 0x11}));
  EXPECT_EQ(decode_color(GeColor::k8888, 0x11223344), (Rgba{0x44, 0x33, 0x22, 0x11}));
}

TEST(MhModel, WorkedPmoExample) {
  const std::vector<uint8_t> bytes = worked_pmo();
  const PmoModel m = read_pmo(bytes);
  ASSERT_EQ(m.meshes.size(), 1u);
  EXPECT_EQ(m.meshes[0].lighting, 0x80000003u);
  EXPECT_EQ(m.meshes[0].material_count, 1);
  ASSERT_EQ(m.groups.size(), 1u);
  EXPECT_EQ(m.groups[0].vertices, 0x30u);
  EXPECT_EQ(m.groups[0].indices, 0x70u);
  EXPECT_EQ(m.groups[0].bones, (std::vector<std::pair<uint8_t, uint8_t>>{{0, 3}, {1, 4}}));
  ASSERT_EQ(m.materials.size(), 1u);
  EXPECT_EQ(m.materials[0].texture, 0);
  EXPECT_EQ(m.remap, std::vector<uint8_t>{0});
  const GroupGeometry g = decode_group(bytes, m, 0);
  ASSERT_EQ(g.vertices.size(), 4u);
  const PmoVertex& v1 = g.vertices[1];
  EXPECT_EQ(v1.weights[0], 0.5f);
  EXPECT_EQ(v1.weights[1], 0.5f);
  EXPECT_EQ(v1.uv, (std::array<float, 2>{1, 0}));
  EXPECT_EQ(v1.normal->y, 0.9921875f);
  EXPECT_EQ(v1.position.x, 1.f);
  EXPECT_EQ(v1.position.y, 0.f);
  EXPECT_EQ(g.triangles, (std::vector<std::array<uint32_t, 3>>{{0, 1, 2}, {2, 1, 3}}));
}

// 4's vector: patches [(0,3),(1,4)], [(1,5)], [] -> tables [3,4], [3,5], [3,5].
TEST(MhModel, RunningPalette) {
  PmoModel m;
  m.groups.resize(3);
  m.groups[0].bones = {{0, 3}, {1, 4}};
  m.groups[1].bones = {{1, 5}};
  const auto t = running_palettes(m);
  EXPECT_EQ((std::pair{t[0][0], t[0][1]}), (std::pair{3, 4}));
  EXPECT_EQ((std::pair{t[1][0], t[1][1]}), (std::pair{3, 5}));
  EXPECT_EQ((std::pair{t[2][0], t[2][1]}), (std::pair{3, 5}));
  EXPECT_EQ(t[2][2], -1);
}

Skeleton chain(int bones) {
  MonsterSpec spec;
  spec.part_sizes = {bones};
  return synthetic_monster(spec).skeleton;
}

// The worked example skinned: palette [3, 4], v1 -> (3, 0.5), (4, 0.5); v0 -> (3, 1.0); its
// normals point +Y and its strip faces -Y, so the winding rule (9.1) flips it.
TEST(MhModel, WorkedExampleSkinnedAndFlipped) {
  const std::vector<uint8_t> bytes = worked_pmo();
  const PmoModel m = read_pmo(bytes);
  const Skeleton s = chain(5);
  MeshSet a;
  std::vector<std::string> notes;
  add_model({bytes, &m, nullptr, &s}, a, notes);
  ASSERT_EQ(a.meshes.size(), 1u);
  const Mesh& mesh = a.meshes[0];
  EXPECT_EQ(mesh.indices, (std::vector<uint32_t>{1, 0, 2, 1, 2, 3}));
  EXPECT_EQ(mesh.joints[1], (std::array<uint16_t, 4>{3, 4, 0, 0}));
  EXPECT_EQ(mesh.weights[1], (std::array<float, 4>{0.5f, 0.5f, 0, 0}));
  EXPECT_EQ(mesh.joints[0], (std::array<uint16_t, 4>{3, 0, 0, 0}));
  EXPECT_EQ(mesh.weights[0], (std::array<float, 4>{1, 0, 0, 0}));
  EXPECT_EQ(mesh.normals[1].y, 1.f);
  EXPECT_EQ(mesh.material, 0);
  ASSERT_EQ(a.materials.size(), 1u);
  EXPECT_EQ(a.materials[0].image, -1);  // texture 0, but no bank
  bool flipped = false;
  for (const std::string& n : notes) flipped |= n.find("flipped") != std::string::npos;
  EXPECT_TRUE(flipped);
}

TEST(MhModel, PmoCutShortIsAnErrorAtAnOffset) {
  std::vector<uint8_t> bytes = worked_pmo();
  put32(bytes, 0xB8, 0x04040040);  // a strip of 64 u8 indices: past the geometry
  const PmoModel m = read_pmo(bytes);
  try {
    decode_group(bytes, m, 0);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.offset(), 0xB8u) << e.what();
  }
  put32(bytes, 0xB8, 0x08000000);  // JUMP
  EXPECT_THROW(decode_group(bytes, read_pmo(bytes), 0), Error);
}

// model.md 5.6: one CLUT4 image 32x8, CLUT 8888 x 16, reserved 9 and 7, tail "xy".
std::vector<uint8_t> worked_tmh() {
  std::vector<uint8_t> b(0x102, 0);
  std::memcpy(b.data(), ".TMH0.14", 8);
  put32(b, 0x08, 1);
  put32(b, 0x0C, 9);
  for (auto [at, v] : {std::pair{0x10, 240}, {0x14, 7}, {0x18, 1}, {0x1C, 1}, {0x20, 144},
                       {0x24, 1}, {0x28, 4}, {0xB0, 80}, {0xB4, 2}, {0xB8, 3}, {0xBC, 16}})
    put32(b, at, v);
  bytes_at(b, 0x2C, {32, 0, 8, 0});
  for (int i = 0; i < 128; ++i) b[0x30 + i] = static_cast<uint8_t>(i * 37 + 1);
  for (int i = 0; i < 64; ++i) b[0xC0 + i] = static_cast<uint8_t>(i * 11);
  b[0x100] = 'x';
  b[0x101] = 'y';
  return b;
}

TEST(MhModel, WorkedTmhExampleRoundTripsAndDecodes) {
  const std::vector<uint8_t> bytes = worked_tmh();
  const TmhBank bank = read_tmh(bytes);
  EXPECT_EQ(bank.reserved, 9u);
  ASSERT_EQ(bank.images.size(), 1u);
  const TmhImage& im = bank.images[0];
  EXPECT_EQ(im.reserved, 7u);
  EXPECT_EQ(im.format, 4u);
  EXPECT_EQ(im.width, 32);
  EXPECT_EQ(im.height, 8);
  ASSERT_TRUE(im.clut);
  EXPECT_EQ(im.clut->entries, 16u);
  EXPECT_EQ(bank.tail, (std::vector<uint8_t>{'x', 'y'}));
  EXPECT_EQ(write_tmh(bank), bytes);
  EXPECT_TRUE(tmh_swizzled(im));  // 32 x 4 bits = 128, one block column: the identity
  const Image rgba = decode_tmh(im);
  const auto palette = [&](int k) {
    return std::vector<uint8_t>(bytes.begin() + 0xC0 + 4 * k, bytes.begin() + 0xC4 + 4 * k);
  };
  EXPECT_EQ(std::vector<uint8_t>(rgba.rgba.begin(), rgba.rgba.begin() + 4), palette(bytes[0x30] & 15));
  EXPECT_EQ(std::vector<uint8_t>(rgba.rgba.begin() + 4, rgba.rgba.begin() + 8), palette(bytes[0x30] >> 4));
}

TEST(MhModel, TmhSizesAndTagsAreChecked) {
  std::vector<uint8_t> bytes = worked_tmh();
  std::vector<uint8_t> bad = bytes;
  put32(bad, 0xB4, 5);  // CLUT tag
  try {
    read_tmh(bad);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.offset(), 0xB4u) << e.what();
  }
  bad = bytes;
  put32(bad, 0x10, 241);  // image size
  EXPECT_THROW(read_tmh(bad), Error);
  bad.assign(bytes.begin(), bytes.begin() + 0x90);  // cut inside the pixels
  EXPECT_THROW(read_tmh(bad), Error);
}

// 5.4's check: mode 3, 8x8 (P 32): stored 0-15 = row 0 px 0-3, 16-31 = row 1 px 0-3,
// 128-143 = row 0 px 4-7.
TEST(MhModel, Unswizzle) {
  TmhImage im;
  im.format = 3;
  im.width = 8;
  im.height = 8;
  im.pixels.resize(256);
  for (size_t i = 0; i < 256; ++i) im.pixels[i] = static_cast<uint8_t>(i);
  const Image out = decode_tmh(im);
  EXPECT_EQ(out.rgba[0], 0);
  EXPECT_EQ(out.rgba[8 * 4], 16);       // row 1, pixel 0
  EXPECT_EQ(out.rgba[4 * 4], 128);      // row 0, pixel 4
  EXPECT_EQ(out.rgba[8 * 4 + 4 * 4 + 3], 128 + 16 + 3);  // row 1, pixel 4, alpha
}

// 5.5's vector: rows E4 00 FF 1B, c0 0xF800, c1 0x001F.
TEST(MhModel, Dxt1) {
  TmhImage im;
  im.format = 8;
  im.width = 4;
  im.height = 4;
  im.pixels = {0xE4, 0x00, 0xFF, 0x1B, 0x00, 0xF8, 0x1F, 0x00};
  const Image out = decode_tmh(im);
  const auto px = [&](int i) { return std::array<uint8_t, 4>{out.rgba[4 * i], out.rgba[4 * i + 1], out.rgba[4 * i + 2], out.rgba[4 * i + 3]}; };
  EXPECT_EQ(px(0), (std::array<uint8_t, 4>{248, 0, 0, 255}));
  EXPECT_EQ(px(1), (std::array<uint8_t, 4>{0, 0, 248, 255}));
  EXPECT_EQ(px(2), (std::array<uint8_t, 4>{165, 0, 82, 255}));
  EXPECT_EQ(px(3), (std::array<uint8_t, 4>{82, 0, 165, 255}));
  im.format = 9;
  EXPECT_THROW(decode_tmh(im), Error);  // DXT3: not decoded
}

TEST(MhModel, SyntheticBankRoundTripsAndEveryImageDecodes) {
  const TmhBank bank = synthetic_tmh();
  const std::vector<uint8_t> bytes = write_tmh(bank);
  EXPECT_EQ(write_tmh(read_tmh(bytes)), bytes);
  for (const TmhImage& im : bank.images) EXPECT_NO_THROW(decode_tmh(im)) << tmh_format_name(im.format);
}

// issue 27 item 1: the notes' Tigrex has roots [0, 45]. The joints hang under one common root
// node that is not a joint; skins[0].skeleton names it.
TEST(MhModel, SeveredTailExportsUnderOneCommonRoot) {
  MonsterSpec spec;
  spec.part_sizes = {31, 9, 5};
  spec.severed = 3;
  spec.entries = 2;
  const Monster m = synthetic_monster(spec);
  const Animated a = to_animated(m.skeleton, &m.pack, {});
  ASSERT_EQ(a.skeleton.parents[45], -1);
  const gltf::Document doc = gltf::build(a);
  const Json& nodes = doc.json["nodes"];
  ASSERT_EQ(nodes.size(), 49u);
  EXPECT_EQ(nodes[48]["name"], "skeleton_root");
  EXPECT_EQ(nodes[48]["children"], Json::array({0, 45}));
  EXPECT_FALSE(nodes[48].contains("translation"));
  EXPECT_EQ(doc.json["skins"][0]["skeleton"], 48);
  EXPECT_EQ(doc.json["skins"][0]["joints"].size(), 48u);
  EXPECT_EQ(doc.json["scenes"][0]["nodes"], Json::array({48}));
  // One root: no extra node, the root is the skeleton.
  const Monster one = synthetic_monster({});
  const gltf::Document d1 = gltf::build(to_animated(one.skeleton, &one.pack, {}));
  EXPECT_EQ(d1.json["nodes"].size(), one.skeleton.bones.size());
  EXPECT_EQ(d1.json["skins"][0]["skeleton"], 0);
}

// The synthetic model PAC through the document: meshes skinned to the skeleton, images, and
// materials pointing at them, in the glTF.
TEST(MhModel, ModelPacExportsMeshesMaterialsAndImages) {
  MonsterSpec spec;
  spec.severed = 2;
  const Monster m = synthetic_monster(spec);
  const std::vector<uint8_t> pac = synthetic_model_pac(m, 5);
  const auto doc = open_pac("m.pac", pac, {});
  std::vector<std::string> notes;
  const std::optional<MeshSet> a = static_cast<const MonsterDocument&>(*doc).mesh_set(notes);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->meshes.size(), 5u);
  EXPECT_EQ(a->images.size(), 7u);
  EXPECT_EQ(a->materials.size(), 7u);
  for (const Mesh& mesh : a->meshes) {
    ASSERT_EQ(mesh.joints.size(), mesh.positions.size());
    for (const auto& w : mesh.weights) EXPECT_NEAR(w[0] + w[1] + w[2] + w[3], 1.f, 1e-6f);
  }
  EXPECT_EQ(a->meshes[4].colors.size(), 3u);  // the f32 list with 8888 colours
  const gltf::Document g = gltf::build(*doc->to_neutral(), {}, &*a);
  EXPECT_EQ(g.json["images"].size(), 7u);
  EXPECT_EQ(g.json["meshes"][0]["primitives"].size(), 5u);
  EXPECT_EQ(g.json["materials"][0]["pbrMetallicRoughness"]["baseColorTexture"]["index"], 0);
  const Json info = doc->info();
  EXPECT_EQ(info["model"]["groups"], 5);
  EXPECT_EQ(info["model"]["vertices"], 4 * 4 + 3);
  EXPECT_EQ(info["textures"]["images"].size(), 7u);
  EXPECT_EQ(info["textures"]["images"][4]["format_name"], "dxt1");
}

}  // namespace
}  // namespace animkit::monster_hunter
