// Issue 28 item 1: GfxObj, Surface, SurfaceTexture, RenderSurface and Palette
// (asherons-call-meshes.md), with fixtures written here byte by byte from the page's tables and
// worked examples (an independent writer), the pixel formats and DXT blocks against the page's
// numbers, and a creature's meshes checked against the page's rules (7, 8) computed here.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fmt/format.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "animkit/asherons_call/creature.h"
#include "animkit/asherons_call/creature_mesh.h"
#include "animkit/asherons_call/dat_writer.h"
#include "animkit/asherons_call/gfx_obj.h"
#include "animkit/asherons_call/mesh_formats.h"
#include "animkit/asherons_call/module.h"
#include "animkit/asherons_call/palette.h"
#include "animkit/asherons_call/surface.h"
#include "animkit/asherons_call/surface_texture.h"
#include "animkit/asherons_call/synthetic.h"
#include "animkit/asherons_call/synthetic_meshes.h"
#include "animkit/asherons_call/texture.h"
#include "animkit/core/dxt.h"
#include "animkit/core/error.h"

namespace animkit::asherons_call {
namespace {

using B = std::vector<uint8_t>;

// ---- a little byte builder, independent of the module's writers ----------------------------
void add(B& b, std::initializer_list<int> bytes) {
  for (int x : bytes) b.push_back(static_cast<uint8_t>(x));
}
void u16(B& b, uint32_t v) { add(b, {int(v & 255), int(v >> 8 & 255)}); }
void u32(B& b, uint32_t v) { add(b, {int(v & 255), int(v >> 8 & 255), int(v >> 16 & 255), int(v >> 24)}); }
void f32(B& b, float f) {
  uint32_t v;
  std::memcpy(&v, &f, 4);
  u32(b, v);
}

// 3.5: the worked 244-byte quad, written from the table.
B worked_gfx_obj() {
  B b;
  add(b, {0xCD, 0xAB, 0x00, 0x01, 0x02, 0, 0, 0});          // id, flags HasDrawing
  add(b, {0x01, 0xB8, 0x01, 0x00, 0x08});                   // surfaces
  add(b, {1, 0, 0, 0, 4, 0, 0, 0});                         // vertex_type, count
  const B normal = {0, 0, 0, 0, 0, 0, 0x80, 0xBF, 0, 0, 0, 0};
  const float x[4] = {0.05f, 0.05f, -0.05f, -0.05f}, z[4] = {0, 0.1f, 0.1f, 0};
  const float u[4] = {1, 1, 0, 0}, v[4] = {1, 0, 0, 1};
  for (int k = 0; k < 4; ++k) {
    u16(b, k);
    u16(b, 1);
    f32(b, x[k]), f32(b, 0), f32(b, z[k]);
    b.insert(b.end(), normal.begin(), normal.end());
    f32(b, u[k]), f32(b, v[k]);
  }
  EXPECT_EQ(b.size(), 0xA5u);
  f32(b, 0), f32(b, 0), f32(b, 0.05f);                      // sort_center
  add(b, {0x01, 0x00, 0x00});                               // 1 polygon, key 0
  add(b, {4, 0, 0, 0, 0, 0, 0, 0, 0, 0});                   // n, stippling, sides, pos, neg
  add(b, {0, 0, 1, 0, 2, 0, 3, 0, 0, 0, 0, 0});             // vertex ids, pos_uv
  EXPECT_EQ(b.size(), 0xCAu);
  add(b, {0x4C, 0x4F, 0x50, 0x42});                         // BPOL
  b.insert(b.end(), normal.begin(), normal.end());
  add(b, {0, 0, 0, 0});                                     // plane d
  add(b, {0, 0, 0, 0, 0, 0, 0, 0, 0xCD, 0xCC, 0x4C, 0x3D, 0xC5, 0xD0, 0x90, 0x3D});
  add(b, {1, 0, 0, 0, 0, 0});
  EXPECT_EQ(b.size(), 244u);
  return b;
}

TEST(AcMeshes, CompressedU32Examples) {  // 1
  const B a = {0x05}, c = {0x81, 0x2C}, d = {0xC0, 0x01, 0x34, 0x12};
  Reader ra(a), rc(c), rd(d);
  EXPECT_EQ(read_cu32(ra).value, 5u);
  EXPECT_EQ(read_cu32(rc).value, 300u);
  const CompressedU32 v = read_cu32(rd);
  EXPECT_EQ(v.value, 0x00011234u);
  EXPECT_EQ(v.width, 4);
  Writer w;  // a long form writes back long (12.1)
  write_cu32(w, {5, 2});
  EXPECT_EQ(w.bytes(), (B{0x80, 0x05}));
}

TEST(AcMeshes, WorkedGfxObjReadsAndWritesBack) {  // 3.5
  const B bytes = worked_gfx_obj();
  const GfxObj g = read_gfx_obj(bytes);
  EXPECT_EQ(g.id, 0x0100ABCDu);
  EXPECT_EQ(g.flags, kGfxHasDrawing);
  ASSERT_EQ(g.surfaces, (std::vector<uint32_t>{0x080001B8}));
  ASSERT_EQ(g.vertices.size(), 4u);
  EXPECT_FLOAT_EQ(g.vertices[1].origin.z, 0.1f);
  EXPECT_FLOAT_EQ(g.vertices[3].uvs[0][1], 1.0f);
  EXPECT_FLOAT_EQ(g.sort_center.z, 0.05f);
  ASSERT_EQ(g.drawing_polygons.size(), 1u);
  EXPECT_EQ(g.drawing_polygons[0].vertex_ids, (std::vector<uint16_t>{0, 1, 2, 3}));
  EXPECT_EQ(g.drawing_bsp.size(), 244u - 0xCA);
  EXPECT_EQ(g.drawing_bsp_nodes, 1u);  // BPOL has no child (3.4)
  EXPECT_TRUE(g.tail.empty());
  EXPECT_EQ(write_gfx_obj(g), bytes);
  // 7: fan (0,1,2), (0,2,3); the right-hand normal is -Y like the stored normals.
  std::vector<std::string> notes;
  const auto t = gfx_obj_triangles(g, notes);
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t[0].indices, (std::vector<uint32_t>{0, 1, 2, 0, 2, 3}));
  const Vec3 n = cross(t[0].positions[1] - t[0].positions[0], t[0].positions[2] - t[0].positions[0]);
  EXPECT_LT(n.y, 0);
  EXPECT_TRUE(notes.empty());
  // Every prefix is an Error, never a crash; a tail is kept and written back.
  for (size_t k = 0; k < bytes.size(); ++k)
    EXPECT_THROW(read_gfx_obj(Bytes(bytes.data(), k)), Error) << k;
  B tailed = bytes;
  add(tailed, {1, 2, 3});
  const GfxObj gt = read_gfx_obj(tailed);
  EXPECT_EQ(gt.tail.size(), 3u);
  EXPECT_EQ(write_gfx_obj(gt), tailed);
}

// 3.4: physics tree (internal BPIN with a LEAF each side) and a drawing PORT; 3.3 stippling and
// sides 2 layout; a cu32 count in its 2-byte form.
TEST(AcMeshes, PhysicsTreeSidesAndStippling) {
  B b;
  u32(b, 0x01000077), u32(b, kGfxHasPhysics | kGfxHasDrawing | kGfxHasDidDegrade);
  add(b, {0x80, 0x01}), u32(b, 0x08000001);  // 1 surface, long form
  u32(b, 1), u32(b, 3);
  for (int k = 0; k < 3; ++k) {
    u16(b, k), u16(b, 0);
    f32(b, float(k == 1)), f32(b, float(k == 2)), f32(b, 0);
    f32(b, 0), f32(b, 0), f32(b, 1);
  }
  // 1 physics polygon, NoPos, sides 2 with neg uvs: 10 + 6 + 3 bytes.
  add(b, {1}), u16(b, 9), add(b, {3, 0x04}), u32(b, 2), u16(b, 0), u16(b, 0);
  u16(b, 0), u16(b, 1), u16(b, 2), add(b, {0, 0, 0});
  // physics BSP: BPIN, plane, LEAF(+), LEAF(-), sphere
  u32(b, 0x4250494E);
  for (int i = 0; i < 4; ++i) f32(b, 0);
  for (int s = 0; s < 2; ++s) {
    u32(b, 0x4C454146), u32(b, s), u32(b, 1);
    for (int i = 0; i < 4; ++i) f32(b, 0);
    u32(b, 1), u16(b, 9);
  }
  for (int i = 0; i < 4; ++i) f32(b, 0);
  f32(b, 1), f32(b, 2), f32(b, 3);  // sort_center
  // 1 drawing polygon, sides 1 (two-sided, no neg uvs)
  add(b, {1}), u16(b, 0), add(b, {3, 0}), u32(b, 1), u16(b, 0), u16(b, 0);
  u16(b, 0), u16(b, 1), u16(b, 2), add(b, {0, 0, 0});
  // drawing BSP: PORT, plane, LEAF, LEAF, sphere, m 1, p 1, key, portal
  u32(b, 0x504F5254);
  for (int i = 0; i < 4; ++i) f32(b, 0);
  u32(b, 0x4C454146), u32(b, 0), u32(b, 0x4C454146), u32(b, 1);
  for (int i = 0; i < 4; ++i) f32(b, 0);
  u32(b, 1), u32(b, 1), u16(b, 0), u16(b, 5), u16(b, 0);
  u32(b, 0x11000000);
  const GfxObj g = read_gfx_obj(b);
  EXPECT_EQ(g.num_surfaces.width, 2);
  ASSERT_EQ(g.physics_polygons.size(), 1u);
  EXPECT_TRUE(g.physics_polygons[0].pos_uv.empty());
  EXPECT_EQ(g.physics_polygons[0].neg_uv.size(), 3u);
  EXPECT_EQ(g.physics_bsp_nodes, 3u);
  EXPECT_EQ(g.drawing_bsp_nodes, 3u);
  EXPECT_FLOAT_EQ(g.sort_center.z, 3.0f);
  EXPECT_EQ(g.did_degrade, 0x11000000u);
  EXPECT_TRUE(g.tail.empty());
  EXPECT_EQ(write_gfx_obj(g), b);
  // sides_type 1 -> one double-sided list.
  std::vector<std::string> notes;
  const auto t = gfx_obj_triangles(g, notes);
  ASSERT_EQ(t.size(), 1u);
  EXPECT_TRUE(t[0].double_sided);
}

TEST(AcMeshes, DeepBspIsAnError) {  // 12.11
  B b;
  u32(b, 0x01000001), u32(b, kGfxHasDrawing), add(b, {0}), u32(b, 1), u32(b, 0);
  f32(b, 0), f32(b, 0), f32(b, 0), add(b, {0});
  for (int d = 0; d < 300; ++d) {  // BPnn chain: positive child only
    u32(b, 0x42506E6E);
    for (int i = 0; i < 4; ++i) f32(b, 0);
  }
  EXPECT_THROW(read_gfx_obj(b), Error);
}

TEST(AcMeshes, SidesTwoGivesReversedNegativeTriangles) {  // 7
  GfxObj g = read_gfx_obj(worked_gfx_obj());
  g.surfaces.push_back(0x08000002);
  Polygon& p = g.drawing_polygons[0];
  p.sides_type = 2;
  p.neg_surface = 1;
  p.neg_uv = {0, 0, 0, 0};
  std::vector<std::string> notes;
  const auto t = gfx_obj_triangles(g, notes);
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t[1].surface_id, 0x08000002u);
  EXPECT_EQ(t[1].indices, (std::vector<uint32_t>{0, 2, 1, 0, 3, 2}));
  EXPECT_FLOAT_EQ(t[1].normals[0].y, 1.0f);  // negated
}

TEST(AcMeshes, SurfaceWorkedBytes) {  // 4
  const B solid = {0x01, 0, 0, 0, 0x16, 0x39, 0x6F, 0xFF, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80, 0x3F};
  const Surface s = read_surface(solid);
  EXPECT_EQ(s.type, kSurfaceBase1Solid);
  EXPECT_EQ(s.color >> 24, 255u);
  EXPECT_EQ((s.color >> 16) & 255, 111u);
  EXPECT_EQ((s.color >> 8) & 255, 57u);
  EXPECT_EQ(s.color & 255, 22u);
  EXPECT_FLOAT_EQ(s.diffuse, 1.0f);
  EXPECT_EQ(write_surface(s), solid);
  const B textured = {0x02, 0, 0, 0, 0xA0, 0x0F, 0x00, 0x05, 0, 0, 0, 0,
                      0, 0, 0, 0, 0, 0, 0, 0, 0xFC, 0xFF, 0x4C, 0x3F};
  const Surface t = read_surface(textured);
  EXPECT_TRUE(t.textured());
  EXPECT_EQ(t.orig_texture_id, 0x05000FA0u);
  EXPECT_EQ(t.orig_palette_id, 0u);
  EXPECT_NEAR(t.diffuse, 0.800781, 1e-6);
  EXPECT_EQ(write_surface(t), textured);
  B tailed = textured;
  add(tailed, {9, 9, 9, 9});
  const Surface tail = read_surface(tailed);  // 4 trailing bytes kept
  EXPECT_EQ(tail.tail.size(), 4u);
  EXPECT_EQ(write_surface(tail), tailed);
  for (size_t k = 0; k < textured.size(); ++k)
    EXPECT_THROW(read_surface(B(textured.begin(), textured.begin() + k)), Error);
}

TEST(AcMeshes, SurfaceTextureAndTextureAndPaletteWorkedBytes) {  // 5.1, 5.2, 5.4, 6
  const B st = {0x0D, 0x33, 0x00, 0x05, 0, 0, 0, 0, 0x02, 0x01, 0, 0, 0, 0xCD, 0x74, 0x00, 0x06};
  const SurfaceTexture s = read_surface_texture(st);
  EXPECT_EQ(s.id, 0x0500330Du);
  EXPECT_EQ(s.texture_kind, 2);
  EXPECT_EQ(s.textures, (std::vector<uint32_t>{0x060074CD}));
  EXPECT_EQ(write_surface_texture(s), st);

  const B tex = {0x01, 0, 0, 0x06, 4, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 0x65, 0, 0, 0, 8, 0, 0, 0,
                 0, 0, 1, 0, 2, 0, 3, 0, 0x7E, 0, 0, 0x04};
  ASSERT_EQ(tex.size(), 36u);
  const Texture t = read_texture(tex);
  EXPECT_EQ(t.format, pixel::kIndex16);
  EXPECT_EQ(t.default_palette_id, 0x0400007Eu);
  EXPECT_EQ(write_texture(t), tex);
  const B pal = {0x7E, 0, 0, 0x04, 4, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0, 0xFF, 0, 0xFF,
                 0xFF, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
  const Palette p = read_palette(pal);
  EXPECT_EQ(write_palette(p), pal);
  std::vector<std::string> warnings;
  const Image im = decode_texture(t, &p, false, warnings);
  EXPECT_EQ(im.rgba, (B{255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255}));
  EXPECT_TRUE(warnings.empty());
  // Clip map: indices 0-7 become (0,0,0,0); an index past the palette: (0,0,0,0) + a warning.
  EXPECT_EQ(decode_texture(t, &p, true, warnings).rgba, B(16, 0));
  Palette three = p;
  three.colors.resize(3);
  EXPECT_EQ(decode_texture(t, &three, false, warnings).rgba[15], 0);
  EXPECT_EQ(warnings.size(), 1u);
  // Short data, no palette: errors (placeholders in the export, 12.4).
  EXPECT_THROW(decode_texture(t, nullptr, false, warnings), Error);
  Texture shortt = t;
  shortt.data.pop_back();
  EXPECT_THROW(decode_texture(shortt, &p, false, warnings), Error);
  // Every prefix of each object is an Error.
  for (size_t k = 0; k < st.size(); ++k) EXPECT_THROW(read_surface_texture(B(st.begin(), st.begin() + k)), Error);
  for (size_t k = 0; k < tex.size(); ++k) EXPECT_THROW(read_texture(B(tex.begin(), tex.begin() + k)), Error);
}

std::vector<uint8_t> decode_one(uint32_t format, const B& data, int w = 1, int h = 1) {
  Texture t;
  t.width = w, t.height = h, t.format = format, t.data = data;
  std::vector<std::string> warnings;
  return decode_texture(t, nullptr, false, warnings).rgba;
}

TEST(AcMeshes, PixelFormats) {  // 6
  EXPECT_EQ(decode_one(pixel::kR8G8B8, {1, 2, 3}), (B{3, 2, 1, 255}));
  EXPECT_EQ(decode_one(pixel::kA8R8G8B8, {1, 2, 3, 4}), (B{3, 2, 1, 4}));
  EXPECT_EQ(decode_one(pixel::kX8R8G8B8, {1, 2, 3, 4}), (B{3, 2, 1, 255}));
  EXPECT_EQ(decode_one(pixel::kR5G6B5, {0xFF, 0xFF}), (B{248, 252, 248, 255}));  // ACE shifts
  EXPECT_EQ(decode_one(pixel::kR5G6B5, {0x00, 0xF8}), (B{248, 0, 0, 255}));
  EXPECT_EQ(decode_one(pixel::kA4R4G4B4, {0x21, 0x43}), (B{3 * 17, 2 * 17, 1 * 17, 4 * 17}));
  EXPECT_EQ(decode_one(pixel::kA1R5G5B5, {0x1F, 0x00}), (B{0, 0, 248, 0}));
  EXPECT_EQ(decode_one(pixel::kA8, {7}), (B{7, 7, 7, 255}));
  EXPECT_THROW(decode_one(0x32545844 /* DXT2 */, B(8)), Error);
  EXPECT_THROW(decode_one(pixel::kRawJpeg, B(8)), Error);
}

TEST(AcMeshes, DxtWorkedBlocks) {  // 6, "Worked DXT1 block"
  B rgba(64);
  dxt::decode(dxt::Kind::kDxt1, B{0x00, 0xF8, 0x1F, 0x00, 0xE4, 0xE4, 0xE4, 0xE4}, 4, 4, rgba);
  for (int y = 0; y < 4; ++y) {
    const uint8_t* r = &rgba[y * 16];
    EXPECT_EQ(B(r, r + 16), (B{255, 0, 0, 255, 0, 0, 255, 255, 170, 0, 85, 255, 85, 0, 170, 255}));
  }
  dxt::decode(dxt::Kind::kDxt1, B{0x1F, 0x00, 0x00, 0xF8, 0xFF, 0x00, 0x00, 0x00}, 4, 4, rgba);
  EXPECT_EQ(B(rgba.begin(), rgba.begin() + 16), B(16, 0));  // row 0 transparent black
  for (int p = 4; p < 16; ++p) EXPECT_EQ(B(&rgba[p * 4], &rgba[p * 4 + 4]), (B{0, 0, 255, 255}));
  // DXT3: nibble p of the 8 alpha bytes (low nibble first) x 17; colour index 0 everywhere.
  B d3 = {0x10, 0x32, 0x54, 0x76, 0x98, 0xBA, 0xDC, 0xFE, 0x00, 0xF8, 0x1F, 0x00, 0, 0, 0, 0};
  dxt::decode(dxt::Kind::kDxt3, d3, 4, 4, rgba);
  for (int p = 0; p < 16; ++p) EXPECT_EQ(rgba[p * 4 + 3], p * 17) << p;
  EXPECT_EQ(rgba[0], 255);
  // DXT5: a0 200 > a1 100; pixel p index p % 8: 200, 100, (6*200+1*100)/7 = 185, ..., (1*200+6*100)/7 = 114.
  B d5 = {200, 100};
  uint64_t field = 0;
  for (int p = 0; p < 16; ++p) field |= uint64_t(p % 8) << (3 * p);
  for (int i = 0; i < 6; ++i) d5.push_back(static_cast<uint8_t>(field >> (8 * i)));
  add(d5, {0x00, 0xF8, 0x1F, 0x00, 0, 0, 0, 0});
  dxt::decode(dxt::Kind::kDxt5, d5, 4, 4, rgba);
  const int expect5[8] = {200, 100, 185, 171, 157, 142, 128, 114};
  for (int p = 0; p < 16; ++p) EXPECT_EQ(rgba[p * 4 + 3], expect5[p % 8]) << p;
  // a0 <= a1: 6 -> 0, 7 -> 255, 2 -> (4*a0 + a1)/5.
  d5[0] = 50, d5[1] = 100;
  dxt::decode(dxt::Kind::kDxt5, d5, 4, 4, rgba);
  EXPECT_EQ(rgba[2 * 4 + 3], (4 * 50 + 100) / 5);
  EXPECT_EQ(rgba[6 * 4 + 3], 0);
  EXPECT_EQ(rgba[7 * 4 + 3], 255);
  // A 2 x 2 image keeps the block's top-left pixels; a 5 x 5 needs 4 blocks.
  B small(16);
  dxt::decode(dxt::Kind::kDxt1, B{0x00, 0xF8, 0x1F, 0x00, 0xE4, 0xE4, 0xE4, 0xE4}, 2, 2, small);
  EXPECT_EQ(B(small.begin() + 8, small.end()), (B{255, 0, 0, 255, 0, 0, 255, 255}));
  EXPECT_EQ(dxt::image_bytes(dxt::Kind::kDxt5, 5, 5), 64u);
  B out(100);
  EXPECT_THROW(dxt::decode(dxt::Kind::kDxt1, B(8), 5, 5, out), Error);
}

// ---- a creature: the worked quad on a part, scaled, in a dat --------------------------------

struct MeshDat {
  std::vector<uint8_t> bytes;
  Setup setup;
};

MeshDat quad_creature(bool scaled) {
  MeshDat m;
  m.setup = humanoid_setup();
  m.setup.id = 0x02000009;
  m.setup.parts = {0x0100ABCD, 0x010001EC, 0x01000999};  // quad, invisible anchor, missing
  m.setup.parent_index = {kNoParent, 0, 0};
  for (PlacementFrame& p : m.setup.placement_frames) p.frame.parts.resize(3);
  m.setup.placement_frames.back().frame.parts[0].origin = {1, 2, 3};
  if (scaled) {
    m.setup.flags |= kSetupHasDefaultScale;
    m.setup.default_scale = {{2, 3, 4}, {1, 1, 1}, {1, 1, 1}};
  }
  m.setup.default_motion_table = 0;
  // Surface 0x080001B8: a textured one whose SurfaceTexture is missing (placeholder image).
  const B surface = {0x02, 0, 0, 0, 0xA0, 0x0F, 0x00, 0x05, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                     0xFC, 0xFF, 0x4C, 0x3F};
  std::vector<DatObject> objects = {{m.setup.id, write_setup(m.setup)},
                                    {0x0100ABCD, worked_gfx_obj()},
                                    {0x080001B8, surface}};
  m.bytes = write_dat(std::move(objects));
  return m;
}

TEST(AcMeshes, CreatureQuadOnItsJointScaled) {  // 8
  const MeshDat m = quad_creature(true);
  const DatFile dat{Bytes(m.bytes)};
  const Skeleton sk = creature_skeleton(m.setup, rig_parents(m.setup, Rig::kParents));
  const CreatureMeshes cm = creature_meshes(dat, m.setup, sk);
  ASSERT_EQ(cm.set.meshes.size(), 1u);
  const Mesh& mesh = cm.set.meshes[0];
  ASSERT_EQ(mesh.positions.size(), 4u);
  // Rest of part 0 = placement 101's frame (origin (1,2,3), identity): glTF (-1, 3, 2). Vertex 1
  // (0.05, 0, 0.1) scaled (2, 3, 4) = (0.1, 0, 0.4) -> glTF (-0.1, 0.4, 0) + (-1, 3, 2).
  const float rz = m.setup.placement_frames.back().frame.parts[0].origin.z;
  EXPECT_NEAR(mesh.positions[1].x, -1.1f, 1e-5);
  EXPECT_NEAR(mesh.positions[1].y, rz + 0.4f, 1e-5);
  EXPECT_NEAR(mesh.positions[1].z, 2.0f, 1e-5);
  EXPECT_NEAR(mesh.normals[0].z, -1.0f, 1e-5);  // AC -Y -> glTF -Z
  EXPECT_EQ(mesh.joints[0][0], 1);              // part_0
  EXPECT_FLOAT_EQ(mesh.weights[0][0], 1.0f);
  EXPECT_EQ(mesh.indices, (std::vector<uint32_t>{0, 1, 2, 0, 2, 3}));
  EXPECT_EQ(mesh.uvs[0], (std::array<float, 2>{1, 1}));
  // The glTF winding (CCW front) faces the mapped normal: cross of the first triangle ~ normal.
  const Vec3 c = cross(mesh.positions[1] - mesh.positions[0], mesh.positions[2] - mesh.positions[0]);
  EXPECT_LT(c.z, 0);
  // The missing SurfaceTexture gives the placeholder; the missing GfxObj a note.
  ASSERT_EQ(cm.set.materials.size(), 1u);
  ASSERT_EQ(cm.set.images.size(), 1u);
  EXPECT_EQ(cm.set.images[0].width, 8u);
  EXPECT_EQ(cm.set.materials[0].image, 0);
  bool missing = false;
  for (const std::string& n : cm.notes) missing |= n.find("0x01000999") != std::string::npos;
  EXPECT_TRUE(missing);
  EXPECT_EQ(cm.summary["meshes"][1]["mesh"], "invisible anchor");
}

TEST(AcMeshes, SolidMaterialIsLinear) {  // 8, "Material from a Surface"
  EXPECT_NEAR(srgb_to_linear(255), 1.0f, 1e-6);
  EXPECT_NEAR(srgb_to_linear(10), 10 / 255.0 / 12.92, 1e-7);
  EXPECT_NEAR(srgb_to_linear(111), std::pow((111 / 255.0 + 0.055) / 1.055, 2.4), 1e-6);
}

TEST(AcMeshes, IdMismatchRefusesTheExport) {  // 12.2
  MeshDat m = quad_creature(false);
  B bad = worked_gfx_obj();
  std::vector<DatObject> objects = {{m.setup.id, write_setup(m.setup)}, {0x0100ABCE, bad}};
  m.setup.parts[0] = 0x0100ABCE;
  objects[0].bytes = write_setup(m.setup);
  const B bytes = write_dat(std::move(objects));
  const DatFile dat{Bytes(bytes)};
  const Skeleton sk = creature_skeleton(m.setup, rig_parents(m.setup, Rig::kParents));
  EXPECT_THROW(creature_meshes(dat, m.setup, sk), Error);
  const auto doc = open_mesh_object(dat, 0x0100ABCE);
  const auto findings = doc->validate();
  ASSERT_FALSE(findings.empty());
  EXPECT_EQ(findings[0].code, "ID_MISMATCH");
}

TEST(AcMeshes, ReversedWindingIsAWarning) {  // 8 "Checks"
  Registry registry;
  register_module(registry);
  GfxObj g = read_gfx_obj(worked_gfx_obj());
  const Format* f = registry.format("ac-gfx-obj");
  ASSERT_NE(f, nullptr);
  EXPECT_TRUE(f->open("q.bin", worked_gfx_obj(), {})->validate().empty());
  std::swap(g.drawing_polygons[0].vertex_ids[1], g.drawing_polygons[0].vertex_ids[3]);
  const auto findings = f->open("q.bin", write_gfx_obj(g), {})->validate();
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].code, "WINDING");
  EXPECT_EQ(findings[0].level, Finding::Level::kWarning);
}


// Loose objects are recognised by their id's type byte and layout, a first byte 0x7B ('{')
// included; every textured-humanoid object detects as its own format and validates clean.
TEST(AcMeshes, LooseObjectsDetectByIdAndLayout) {
  Registry registry;
  register_module(registry);
  const std::map<uint8_t, std::string> names = {{0x01, "ac-gfx-obj"},   {0x08, "ac-surface"},
                                                {0x05, "ac-surface-texture"}, {0x06, "ac-texture"},
                                                {0x04, "ac-palette"}};
  size_t checked = 0;
  for (DatObject o : textured_humanoid_objects()) {
    const auto it = names.find(static_cast<uint8_t>(o.id >> 24));
    if (it == names.end()) continue;
    for (int brace = 0; brace < 2; ++brace) {
      if (brace && it->first != 0x08) o.bytes[0] = 0x7B;  // the id 0x..00007B
      const Format* f = registry.detect("object.bin", o.bytes);
      ASSERT_NE(f, nullptr) << std::hex << o.id;
      EXPECT_EQ(f->name, it->second) << std::hex << o.id;
      const auto doc = f->open("object.bin", o.bytes, {});
      EXPECT_TRUE(doc->validate().empty()) << std::hex << o.id;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 2u * (5 + 10 + 9 + 9 + 1));
  // One byte more or less is no longer the layout.
  const B gfx = worked_gfx_obj();
  const Format* f = registry.detect("q.bin", gfx);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->name, "ac-gfx-obj");
  B longer = gfx;
  longer.push_back(0);
  f = registry.detect("q.bin", longer);
  EXPECT_TRUE(f == nullptr || f->name != "ac-gfx-obj");
  // 20 bytes with a textured Surface type is no Surface (it needs 24), and no crash.
  const B twenty = {0x02, 0, 0, 0, 0xA0, 0x0F, 0x00, 0x05, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  f = registry.detect("s.bin", twenty);
  EXPECT_TRUE(f == nullptr || f->name != "ac-surface");
}

// `DAT --setup ID` opens the creature with its meshes: mesh_set for export / view, and `info`
// listing meshes, vertex counts and every texture's format.
TEST(AcMeshes, TexturedHumanoidThroughTheRegistry) {
  Registry registry;
  register_module(registry);
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() / fmt::format("ac_meshes_{}.dat", ::getpid());
  {
    const std::vector<uint8_t> bytes = textured_humanoid_dat();
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()),
                                                static_cast<std::streamsize>(bytes.size()));
  }
  const auto doc = registry.open(path, {{"setup", "0x02000002"}});
  std::filesystem::remove(path);
  std::vector<std::string> notes;
  const std::optional<MeshSet> set = doc->mesh_set(notes);
  ASSERT_TRUE(set);
  EXPECT_TRUE(notes.empty()) << notes.front();
  // 5 boxes of 6 quads; part 3 (sides 2) draws both sides; surfaces rotate over 10.
  size_t triangles = 0;
  for (const Mesh& m : set->meshes) triangles += m.indices.size() / 3;
  EXPECT_EQ(triangles, 5u * 12 + 12);
  EXPECT_EQ(set->images.size(), 9u);  // one per pixel format
  const Json info = doc->info();
  ASSERT_EQ(info["meshes"]["meshes"].size(), 5u);
  EXPECT_EQ(info["meshes"]["meshes"][3]["triangles"], 24);
  std::set<std::string> formats;
  for (const Json& t : info["meshes"]["textures"]) formats.insert(t["format"].get<std::string>());
  EXPECT_EQ(formats, (std::set<std::string>{"P8", "INDEX16", "R8G8B8", "A8R8G8B8", "R5G6B5",
                                            "A4R4G4B4", "DXT1", "DXT3", "DXT5"}));
  // Every vertex bound with weight 1 to one part joint; the skeleton has 6 joints.
  const std::optional<Animated> a = doc->to_neutral();
  ASSERT_TRUE(a);
  for (const Mesh& m : set->meshes)
    for (size_t v = 0; v < m.joints.size(); ++v) {
      EXPECT_GE(m.joints[v][0], 1);
      EXPECT_LT(m.joints[v][0], a->skeleton.num_joints());
      EXPECT_EQ(m.weights[v][0], 1.0f);
    }
}

// Issue 28 item 3: `validate DAT` parses every mesh object and checks each reference of the
// resolution chain (2) naming both ids; a missing target is a warning (export goes on with a
// placeholder or a white material, 12.4), trailing bytes an error (12.2), an object that does
// not parse a BAD_OBJECT with its offset. What `validate DAT --id` finds for an object, the
// whole-dat validate finds too, word for word.
TEST(AcMeshes, ValidateDatChecksMeshObjectsAndReferences) {
  Registry registry;
  register_module(registry);
  std::vector<DatObject> objects;
  for (DatObject& o : textured_humanoid_objects()) {
    if (o.id == 0x08000003 || o.id == 0x0400007E) continue;  // a Surface and the Palette removed
    if (o.id == 0x01000003) add(o.bytes, {1, 2, 3});          // a GfxObj with 3 trailing bytes
    if (o.id == 0x05000005) o.bytes.resize(15);  // id, u32, kind, count 1, then 2 of 4 bytes
    objects.push_back(std::move(o));
  }
  objects.push_back({0x09000101, write_motion_table(humanoid_table())});  // the Setup's table
  for (const Animation& a : humanoid_animations()) objects.push_back({a.id, write_animation(a)});
  const size_t gfx3_size = [&] {
    for (const DatObject& o : objects)
      if (o.id == 0x01000003) return o.bytes.size() - 3;
    return size_t{0};
  }();
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() / fmt::format("ac_mesh_validate_{}.dat", ::getpid());
  {
    const std::vector<uint8_t> bytes = write_dat(objects);
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()),
                                                static_cast<std::streamsize>(bytes.size()));
  }
  const std::vector<Finding> all = registry.open(path, {})->validate();
  std::map<std::string, std::vector<const Finding*>> by_code;
  for (const Finding& f : all) by_code[f.code].push_back(&f);
  const auto text = [](const Finding* f) { return f->where + ": " + f->message; };
  const auto names = [&](const Finding* f, std::initializer_list<const char*> ids) {
    for (const char* id : ids) EXPECT_NE(text(f).find(id), std::string::npos) << text(f);
  };
  std::string listed;
  for (const Finding& f : all) listed += f.code + " " + text(&f) + "\n";
  EXPECT_EQ(all.size(), 3u + 2u + 1u + 1u) << listed;
  // GfxObj p lists surfaces[(2p + k) % 10], k < 6, of 0x08000001..0x0800000A (synthetic_meshes):
  // 0x08000003 (index 2) is surface 2 of part 0's box, 0 of part 1's, 4 of part 4's.
  ASSERT_EQ(by_code["MISSING_SURFACE"].size(), 3u);
  const char* gfx[3][2] = {{"0x01000001", "surface 2"}, {"0x01000002", "surface 0"},
                           {"0x01000005", "surface 4"}};
  for (size_t i = 0; i < 3; ++i) {
    const Finding* f = by_code["MISSING_SURFACE"][i];
    EXPECT_EQ(f->level, Finding::Level::kWarning);
    EXPECT_EQ(f->where, std::string(gfx[i][0]) + " " + gfx[i][1]);
    names(f, {gfx[i][0], "0x08000003"});
  }
  // The P8 (0x06000001) and INDEX16 (0x06000002) textures name palette 0x0400007E.
  ASSERT_EQ(by_code["MISSING_PALETTE"].size(), 2u);
  names(by_code["MISSING_PALETTE"][0], {"0x06000001", "0x0400007E"});
  names(by_code["MISSING_PALETTE"][1], {"0x06000002", "0x0400007E"});
  for (const Finding* f : by_code["MISSING_PALETTE"]) EXPECT_EQ(f->level, Finding::Level::kWarning);
  ASSERT_EQ(by_code["TRAILING_BYTES"].size(), 1u);
  EXPECT_EQ(by_code["TRAILING_BYTES"][0]->level, Finding::Level::kError);
  names(by_code["TRAILING_BYTES"][0],
        {"0x01000003", fmt::format("offset 0x{:X}: 3 bytes", gfx3_size).c_str()});
  ASSERT_EQ(by_code["BAD_OBJECT"].size(), 1u);
  // The count at offset 9 (5.1) names more ids than the bytes left hold.
  names(by_code["BAD_OBJECT"][0], {"0x05000005", "offset 0x9"});
  // `--id` gives each object's findings, the same as the whole validate's for that object.
  size_t compared = 0;
  for (const DatObject& o : objects) {
    const uint8_t type = static_cast<uint8_t>(o.id >> 24);
    if (type != 0x01 && type != 0x04 && type != 0x05 && type != 0x06 && type != 0x08) continue;
    const std::string id = fmt::format("0x{:08X}", o.id);
    if (o.id == 0x05000005) {
      EXPECT_THROW(registry.open(path, {{"id", id}}), Error);
      continue;
    }
    std::vector<std::string> alone, in_all;
    for (const Finding& f : registry.open(path, {{"id", id}})->validate())
      alone.push_back(fmt::format("{} {} {}", static_cast<int>(f.level), f.code, text(&f)));
    for (const Finding& f : all)
      if (f.where.rfind(id, 0) == 0)
        in_all.push_back(fmt::format("{} {} {}", static_cast<int>(f.level), f.code, text(&f)));
    EXPECT_EQ(alone, in_all) << id;
    ++compared;
  }
  EXPECT_EQ(compared, 5u + 9u + 8u + 9u);  // GfxObjs, Surfaces, SurfaceTextures, textures
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace animkit::asherons_call
