#include "animkit/monster_hunter/synthetic_model.h"

#include <bit>
#include <cstring>

#include "animkit/monster_hunter/pac.h"

namespace animkit::monster_hunter {

namespace {

// A byte buffer written at chosen offsets (the PMO's tables point at each other).
struct Bytes_ {
  std::vector<uint8_t> b;
  void at_least(size_t n) {
    if (b.size() < n) b.resize(n, 0);
  }
  void u8(size_t at, uint8_t v) {
    at_least(at + 1);
    b[at] = v;
  }
  void u16(size_t at, uint16_t v) {
    at_least(at + 2);
    std::memcpy(b.data() + at, &v, 2);
  }
  void u32(size_t at, uint32_t v) {
    at_least(at + 4);
    std::memcpy(b.data() + at, &v, 4);
  }
  void f32(size_t at, float v) { u32(at, std::bit_cast<uint32_t>(v)); }
  size_t align(size_t to) {
    at_least((b.size() + to - 1) / to * to);
    return b.size();
  }
};

uint32_t ge(uint8_t op, uint32_t arg) { return uint32_t{op} << 24 | (arg & 0xFFFFFF); }

constexpr uint32_t kQuadVtype = 0x004B22;  // model.md 3.6: stride 16
// f32 position, 8888 colour, rigid, unindexed: colour @0, position @4, stride 16.
constexpr uint32_t kListVtype = (7 << 2) | (3 << 7);

}  // namespace

std::vector<uint8_t> synthetic_pmo(int groups, int bones, int images) {
  Bytes_ p;
  const int materials = std::max(images, 1);
  // 2.1 header; tables at fixed, 16-aligned places.
  std::memcpy((p.at_least(0x40), p.b.data()), "pmo\0001.0\0", 8);
  p.f32(0x0C, 8.f);
  for (int k = 0; k < 3; ++k) p.f32(0x10 + 4 * k, 8.f);  // positions x 8 units
  p.u16(0x1C, 1);
  p.u16(0x1E, static_cast<uint16_t>(materials));
  const size_t meshes_at = 0x40, groups_at = 0x60;
  const size_t remap_at = (groups_at + 16 * groups + 15) / 16 * 16;
  const size_t palette_at = (remap_at + materials + 15) / 16 * 16;
  const size_t materials_at = (palette_at + 4 * groups + 15) / 16 * 16;
  const size_t region = materials_at + 16 * materials;
  p.u32(0x20, meshes_at);
  p.u32(0x24, groups_at);
  p.u32(0x28, remap_at);
  p.u32(0x2C, palette_at);
  p.u32(0x30, materials_at);
  p.u32(0x34, region);
  // 2.2 the mesh: UV scale 1, lighting, its materials and groups.
  p.f32(meshes_at, 1.f);
  p.f32(meshes_at + 4, 1.f);
  p.u32(meshes_at + 8, 0x80000003);
  p.u8(meshes_at + 0x10, static_cast<uint8_t>(materials));
  p.u16(meshes_at + 0x14, static_cast<uint16_t>(groups));
  for (int m = 0; m < materials; ++m) {
    p.u8(remap_at + m, static_cast<uint8_t>(materials - 1 - m));  // a remap that is not identity
    const size_t at = materials_at + 16 * m;
    p.u32(at, 0xFFFFFFFF);
    p.u32(at + 4, 0x007F7F7F);
    p.u8(at + 8, images > 0 ? static_cast<uint8_t>(m) : 0xFF);
  }
  p.at_least(region);
  for (int g = 0; g < groups; ++g) {
    const bool last = g == groups - 1 && groups > 1;
    const size_t rec = groups_at + 16 * g;
    const uint8_t a = static_cast<uint8_t>(g % bones), b = static_cast<uint8_t>((g + 1) % bones);
    p.u8(rec, static_cast<uint8_t>(g % materials));
    p.u8(rec + 1, 2);
    p.u16(rec + 2, static_cast<uint16_t>(2 * g));
    p.u8(palette_at + 4 * g, 0);
    p.u8(palette_at + 4 * g + 1, a);
    p.u8(palette_at + 4 * g + 2, 1);
    p.u8(palette_at + 4 * g + 3, b);
    const size_t list = p.align(16);
    const size_t vertices = list + 0x30, indices = vertices + 0x60;
    p.u32(rec + 4, static_cast<uint32_t>(list - region));
    p.u32(rec + 8, static_cast<uint32_t>(vertices - region));
    p.u32(rec + 12, last ? 0 : static_cast<uint32_t>(indices - region));
    // 3.1 the display list: ORIGIN, BASE, IADDR, VADDR, VTYPE, FFACE, PRIM, RET.
    const std::vector<uint32_t> words = {
        ge(0x14, 0), ge(0x10, 0), ge(0x02, static_cast<uint32_t>(indices - list)),
        ge(0x01, static_cast<uint32_t>(vertices - list)), ge(0x12, last ? kListVtype : kQuadVtype),
        ge(0x9B, 0), last ? ge(0x04, (3 << 16) | 3) : ge(0x04, (4 << 16) | 4), ge(0x0B, 0)};
    for (size_t w = 0; w < words.size(); ++w) p.u32(list + 4 * w, words[w]);
    const float x0 = static_cast<float>(g % 8) / 8.f - 0.5f;
    if (last) {  // f32 positions (x 8), 8888 colours
      const float corners[3][3] = {{x0, 0, 0}, {x0 + 0.1f, 0.1f, 0}, {x0, 0.1f, 0.1f}};
      for (int v = 0; v < 3; ++v) {
        p.u32(vertices + 16 * v, 0xFF0000FFu | (uint32_t(v) * 0x40) << 8);
        for (int k = 0; k < 3; ++k) p.f32(vertices + 16 * v + 4 + 4 * k, corners[v][k]);
      }
      p.at_least(indices);
      continue;
    }
    // 3.6's quad: weights (1, 0) and (0.75, 0.25); UVs at the corners; normals +Y.
    const int16_t xs[4] = {static_cast<int16_t>(x0 * 32767), static_cast<int16_t>((x0 + 0.1f) * 32767),
                           static_cast<int16_t>(x0 * 32767), static_cast<int16_t>((x0 + 0.1f) * 32767)};
    const int16_t zs[4] = {0, 0, 3276, 3276};
    for (int v = 0; v < 4; ++v) {
      const size_t at = vertices + 16 * v;
      p.u8(at, v % 2 ? 96 : 128);
      p.u8(at + 1, v % 2 ? 32 : 0);
      p.u16(at + 2, v % 2 ? 0x8000 : 0);
      p.u16(at + 4, v / 2 ? 0x8000 : 0);
      p.u8(at + 7, 0x7F);
      p.u16(at + 10, static_cast<uint16_t>(xs[v]));
      p.u16(at + 14, static_cast<uint16_t>(zs[v]));
    }
    for (int i = 0; i < 4; ++i) p.u8(indices + i, static_cast<uint8_t>(i));
    p.at_least(indices + 16);
  }
  p.align(16);
  p.u32(0x08, static_cast<uint32_t>(p.b.size()));
  return p.b;
}

TmhBank synthetic_tmh() {
  TmhBank bank;
  const auto image = [&](uint32_t format, uint16_t w, uint16_t h, size_t bytes) -> TmhImage& {
    TmhImage im;
    im.format = format;
    im.width = w;
    im.height = h;
    im.pixels.resize(bytes);
    for (size_t i = 0; i < bytes; ++i) im.pixels[i] = static_cast<uint8_t>(i * 7 + format);
    bank.images.push_back(std::move(im));
    return bank.images.back();
  };
  const auto clut = [](uint32_t format, uint32_t entries) {
    TmhClut c;
    c.format = format;
    c.entries = entries;
    c.colors.resize(entries * (format == 3 ? 4 : 2));
    for (size_t i = 0; i < c.colors.size(); ++i) c.colors[i] = static_cast<uint8_t>(i * 13 + 5);
    return c;
  };
  image(4, 32, 8, 128).clut = clut(3, 16);   // CLUT4, the layout of model.md 5.6
  image(5, 16, 16, 256).clut = clut(1, 256);  // CLUT8 through 5551 colours
  image(0, 8, 8, 128);                        // 5650, swizzled (8 x 16 bits = 128)
  image(3, 4, 4, 64);                         // 8888, swizzled
  image(8, 8, 8, 32);                         // DXT1: 4 blocks
  image(2, 3, 3, 18);                         // 4444, 48 bits a row: linear
  TmhImage& c32 = image(7, 4, 2, 32);         // CLUT32, one short band of 2 rows
  c32.clut = clut(2, 8);
  for (size_t i = 0; i < c32.pixels.size(); i += 4) {  // indices inside the 8-colour palette
    c32.pixels[i] = static_cast<uint8_t>(i / 4 % 8);
    c32.pixels[i + 1] = c32.pixels[i + 2] = c32.pixels[i + 3] = 0;
  }
  return bank;
}

std::vector<uint8_t> synthetic_model_pac(const Monster& monster, int groups) {
  Pac pac;
  const TmhBank bank = synthetic_tmh();
  pac.entries = {write_skeleton(monster.skeleton),
                 synthetic_pmo(groups, static_cast<int>(monster.skeleton.bones.size()),
                               static_cast<int>(bank.images.size())),
                 write_tmh(bank), write_pack(monster.pack)};
  pad_to_block(pac);
  return write_pac(pac);
}

}  // namespace animkit::monster_hunter
