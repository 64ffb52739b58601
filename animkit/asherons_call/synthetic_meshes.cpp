#include "animkit/asherons_call/synthetic_meshes.h"

#include "animkit/asherons_call/gfx_obj.h"
#include "animkit/asherons_call/palette.h"
#include "animkit/asherons_call/surface.h"
#include "animkit/asherons_call/surface_texture.h"
#include "animkit/asherons_call/synthetic.h"
#include "animkit/asherons_call/texture.h"
#include "animkit/core/writer.h"

#include <iterator>

namespace animkit::asherons_call {

namespace {

Vec3 normalize_vec(Vec3 v) { return v * (1.0f / length(v)); }

// A box of half sizes h around c, 6 quads facing out (counter-clockwise seen from outside,
// meshes.md 7), quad k on surface index k % surfaces; 4 UVs per corner vertex use UV k % 2.
GfxObj box(uint32_t id, Vec3 c, Vec3 h, std::vector<uint32_t> surfaces, int sides_type) {
  GfxObj g;
  g.id = id;
  g.flags = kGfxHasDrawing;
  g.surfaces = std::move(surfaces);
  g.num_surfaces = {static_cast<uint32_t>(g.surfaces.size()), 1};
  const Vec3 corners[8] = {{-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, 1, -1},
                           {-1, -1, 1},  {1, -1, 1},  {1, 1, 1},  {-1, 1, 1}};
  for (uint16_t i = 0; i < 8; ++i) {
    SWVertex v;
    v.key = i;
    v.origin = c + corners[i] * h;
    v.normal = normalize_vec(corners[i]);
    v.uvs = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
    g.vertices.push_back(v);
  }
  const uint16_t quads[6][4] = {{0, 3, 2, 1}, {4, 5, 6, 7}, {0, 1, 5, 4},
                                {2, 3, 7, 6}, {1, 2, 6, 5}, {3, 0, 4, 7}};
  for (uint16_t k = 0; k < 6; ++k) {
    Polygon p;
    p.key = k;
    p.sides_type = sides_type;
    p.pos_surface = static_cast<int16_t>(k % g.surfaces.size());
    p.neg_surface = p.pos_surface;
    p.vertex_ids.assign(quads[k], quads[k] + 4);
    p.pos_uv = {0, 1, 2, 3};
    if (p.stores_neg_uv()) p.neg_uv = {3, 2, 1, 0};
    g.drawing_polygons.push_back(p);
  }
  g.num_drawing_polygons = {6, 1};
  // A drawing BSP of one childless BPOL node listing every polygon (meshes.md 3.4, 3.5).
  Writer w;
  w.u32(0x42504F4C);
  for (int i = 0; i < 8; ++i) w.f32(i == 7 ? 0.5f : 0.0f);  // plane, sphere centre / radius
  w.u32(6);
  for (uint16_t k = 0; k < 6; ++k) w.u16(k);
  g.drawing_bsp = w.take();
  return g;
}

// 4 x 4 pixels of `format` (a gradient; block formats one 4 x 4 block).
Texture texture(uint32_t id, uint32_t format, uint32_t palette) {
  Texture t;
  t.id = id;
  t.width = t.height = 4;
  t.format = format;
  t.default_palette_id = palette;
  const auto bpp = [&]() -> int {
    switch (format) {
      case pixel::kR8G8B8: return 3;
      case pixel::kA8R8G8B8: return 4;
      case pixel::kR5G6B5: case pixel::kA4R4G4B4: case pixel::kIndex16: return 2;
      case pixel::kP8: return 1;
      default: return 0;
    }
  }();
  if (bpp) {
    for (int i = 0; i < 16 * bpp; ++i) t.data.push_back(static_cast<uint8_t>(format == pixel::kIndex16
                                                                                ? (i % 2 ? 0 : i / 2 % 4)
                                                                                : format == pixel::kP8 ? i % 4
                                                                                : 17 * i));
  } else {
    const std::vector<uint8_t> colour = {0x00, 0xF8, 0x1F, 0x00, 0xE4, 0xE4, 0xE4, 0xE4};
    if (format != pixel::kDxt1) {
      for (int i = 0; i < 8; ++i) t.data.push_back(static_cast<uint8_t>(format == pixel::kDxt3 ? 0x9F : i == 0 ? 255 : i == 1 ? 0 : 0x49));
    }
    t.data.insert(t.data.end(), colour.begin(), colour.end());
  }
  return t;
}

}  // namespace

std::vector<DatObject> textured_humanoid_objects() {
  std::vector<DatObject> out;
  Setup s = humanoid_setup();
  s.id = 0x02000002;
  s.flags |= kSetupHasDefaultScale;
  s.default_scale = {{1, 1, 1}, {1, 1, 1.2f}, {0.8f, 0.8f, 0.8f}, {1, 1, 1}, {1, 1, 1}};
  out.push_back({s.id, write_setup(s)});

  Palette pal;
  pal.id = 0x0400007E;
  pal.colors = {0xFFFF0000, 0xFF00FF00, 0xFF0000FF, 0xFFFFFFFF};
  out.push_back({pal.id, write_palette(pal)});

  const uint32_t formats[] = {pixel::kP8,      pixel::kIndex16, pixel::kR8G8B8, pixel::kA8R8G8B8,
                              pixel::kR5G6B5,  pixel::kA4R4G4B4, pixel::kDxt1,  pixel::kDxt3,
                              pixel::kDxt5};
  std::vector<uint32_t> surfaces;
  Surface solid;
  solid.type = kSurfaceBase1Solid;
  solid.color = 0xFF6F3916;
  solid.diffuse = 1.0f;
  out.push_back({0x08000001, write_surface(solid)});
  surfaces.push_back(0x08000001);
  for (uint32_t k = 0; k < std::size(formats); ++k) {
    const uint32_t tid = 0x06000001 + k, stid = 0x05000001 + k, sid = 0x08000002 + k;
    out.push_back({tid, write_texture(texture(tid, formats[k], pixel::kP8 == formats[k] ||
                                                                   pixel::kIndex16 == formats[k]
                                                               ? pal.id
                                                               : 0))});
    SurfaceTexture st;
    st.id = stid;
    st.textures = {tid};
    out.push_back({stid, write_surface_texture(st)});
    Surface surf;
    surf.type = k == 0 ? kSurfaceBase1ClipMap : kSurfaceBase1Image;
    if (k == 3) surf.type |= kSurfaceTranslucent;
    surf.orig_texture_id = stid;
    surf.luminosity = k == 4 ? 0.5f : 0.0f;
    surf.diffuse = 0.800781f;
    out.push_back({sid, write_surface(surf)});
    surfaces.push_back(sid);
  }
  // Part boxes (part-local, metres); part 4 two-sided (sides 1), part 3 with negative sides (2).
  const Vec3 half[5] = {{0.15f, 0.1f, 0.25f}, {0.1f, 0.1f, 0.1f}, {0.05f, 0.05f, 0.3f},
                        {0.05f, 0.05f, 0.3f}, {0.05f, 0.05f, 0.4f}};
  for (uint32_t p = 0; p < 5; ++p) {
    std::vector<uint32_t> mine;
    for (size_t k = 0; k < 6; ++k) mine.push_back(surfaces[(p * 2 + k) % surfaces.size()]);
    const GfxObj g = box(0x01000001 + p, {0, 0, 0}, half[p], mine, p == 4 ? 1 : p == 3 ? 2 : 0);
    out.push_back({g.id, write_gfx_obj(g)});
  }
  return out;
}

std::vector<uint8_t> textured_humanoid_dat() {
  std::vector<DatObject> objects = textured_humanoid_objects();
  objects.push_back({0x09000101, write_motion_table(humanoid_table())});
  for (const Animation& a : humanoid_animations()) objects.push_back({a.id, write_animation(a)});
  return write_dat(std::move(objects));
}

}  // namespace animkit::asherons_call
