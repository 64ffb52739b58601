#include "animkit/asherons_call/gfx_obj.h"

#include <fmt/format.h>

#include "animkit/asherons_call/command_ids.h"
#include "animkit/asherons_call/vec3_io.h"
#include "animkit/core/error.h"
#include "animkit/core/limits.h"

namespace animkit::asherons_call {

// meshes.md 1: the compressed u32.
CompressedU32 read_cu32(Reader& r) {
  const uint8_t b0 = r.u8();
  if ((b0 & 0x80) == 0) return {b0, 1};
  const uint8_t b1 = r.u8();
  if ((b0 & 0x40) == 0) return {static_cast<uint32_t>(((b0 & 0x7F) << 8) | b1), 2};
  const uint16_t s = r.u16();
  return {((((b0 & 0x3Fu) << 8) | b1) << 16) | s, 4};
}

uint8_t cu32_width(uint32_t v) { return v < 0x80 ? 1 : v < 0x4000 ? 2 : v < 0x40000000 ? 4 : 0; }

void write_cu32(Writer& w, CompressedU32 v) {
  uint8_t width = v.width;
  if (width < cu32_width(v.value) || (width != 1 && width != 2 && width != 4)) width = cu32_width(v.value);
  if (width == 0) throw Error(fmt::format("count {} does not fit a compressed u32", v.value));
  if (width == 1) {
    w.u8(static_cast<uint8_t>(v.value));
  } else if (width == 2) {
    w.u8(static_cast<uint8_t>(0x80 | (v.value >> 8)));
    w.u8(static_cast<uint8_t>(v.value));
  } else {
    w.u8(static_cast<uint8_t>(0xC0 | (v.value >> 24)));
    w.u8(static_cast<uint8_t>(v.value >> 16));
    w.u16(static_cast<uint16_t>(v.value));
  }
}

bool GfxObj::operator==(const GfxObj& o) const {
  return id == o.id && flags == o.flags && num_surfaces == o.num_surfaces && surfaces == o.surfaces &&
         vertex_type == o.vertex_type && vertices == o.vertices &&
         num_physics_polygons == o.num_physics_polygons && physics_polygons == o.physics_polygons &&
         physics_bsp == o.physics_bsp && sort_center == o.sort_center &&
         num_drawing_polygons == o.num_drawing_polygons && drawing_polygons == o.drawing_polygons &&
         drawing_bsp == o.drawing_bsp && did_degrade == o.did_degrade && tail == o.tail;
}

namespace {


// A count of items of at least `min_size` bytes each, checked against the bytes left.
void check_count(Reader& r, uint64_t n, uint64_t min_size, const char* what, uint64_t at) {
  if (!fits(n, min_size, r.remaining()))
    throw Error(fmt::format("{}: {} x {} bytes, {} left", what, n, min_size, r.remaining()), at);
}

Polygon read_polygon(Reader& r) {
  Polygon p;
  p.key = r.u16();
  const uint8_t n = r.u8();
  p.stippling = r.u8();
  p.sides_type = r.i32();
  p.pos_surface = r.i16();
  p.neg_surface = r.i16();
  p.vertex_ids.resize(n);
  for (uint16_t& v : p.vertex_ids) v = r.u16();
  if (p.stores_pos_uv()) {
    const Bytes b = r.bytes(n);
    p.pos_uv.assign(b.begin(), b.end());
  }
  if (p.stores_neg_uv()) {
    const Bytes b = r.bytes(n);
    p.neg_uv.assign(b.begin(), b.end());
  }
  return p;
}

void put_polygon(Writer& w, const Polygon& p) {
  if (p.vertex_ids.size() > 255) throw Error(fmt::format("polygon {}: {} corners (max 255)", p.key, p.vertex_ids.size()));
  const size_t n = p.vertex_ids.size();
  if (p.pos_uv.size() != (p.stores_pos_uv() ? n : 0) || p.neg_uv.size() != (p.stores_neg_uv() ? n : 0))
    throw Error(fmt::format("polygon {}: UV index lists do not match its corners and flags", p.key));
  w.u16(p.key);
  w.u8(static_cast<uint8_t>(n));
  w.u8(p.stippling);
  w.i32(p.sides_type);
  w.i16(p.pos_surface);
  w.i16(p.neg_surface);
  for (uint16_t v : p.vertex_ids) w.u16(v);
  w.bytes(p.pos_uv);
  w.bytes(p.neg_uv);
}

std::vector<Polygon> read_polygons(Reader& r, CompressedU32& count, const char* what) {
  const uint64_t at = r.offset();
  count = read_cu32(r);
  check_count(r, count.value, 12, what, at);  // key + the fixed 10 bytes
  std::vector<Polygon> out(count.value);
  for (Polygon& p : out) p = read_polygon(r);
  return out;
}

// 3.4: child presence by tag.
constexpr uint32_t kLeaf = 0x4C454146, kPort = 0x504F5254;
bool positive_child(uint32_t tag) {
  return tag == 0x42506E6E || tag == 0x4250496E || tag == 0x4250494E || tag == 0x42506E4E;
}
bool negative_child(uint32_t tag) {
  return tag == 0x4270494E || tag == 0x42706E4E || tag == 0x4250494E || tag == 0x42506E4E;
}

// Walks one tree (pre-order), counting nodes; the bytes are kept by the caller.
void walk_bsp(Reader& r, bool drawing, int depth, uint32_t& nodes) {
  if (depth > kMaxBspDepth)
    throw Error(fmt::format("BSP tree deeper than {} levels", kMaxBspDepth), r.offset());
  if (++nodes == 0) throw Error("BSP tree: too many nodes", r.offset());
  const uint32_t tag = r.u32();
  if (tag == kLeaf) {
    r.skip(4);  // leaf_index
    if (!drawing) {
      r.skip(4 + 16);  // solid, sphere
      const uint64_t at = r.offset();
      const uint32_t m = r.u32();
      check_count(r, m, 2, "BSP leaf polygons", at);
      r.skip(size_t{m} * 2);
    }
    return;
  }
  r.skip(16);  // plane
  if (tag == kPort) {
    if (!drawing) {  // 3.4: ACE would read two children and nothing more; DRW rejects it
      throw Error("PORT node in a physics BSP tree", r.offset() - 20);
    }
    walk_bsp(r, drawing, depth + 1, nodes);
    walk_bsp(r, drawing, depth + 1, nodes);
    r.skip(16);
    const uint64_t at = r.offset();
    const uint32_t m = r.u32(), p = r.u32();
    check_count(r, uint64_t{m} * 2 + uint64_t{p} * 4, 1, "BSP portal lists", at);
    r.skip(size_t{m} * 2 + size_t{p} * 4);
    return;
  }
  if (positive_child(tag)) walk_bsp(r, drawing, depth + 1, nodes);
  if (negative_child(tag)) walk_bsp(r, drawing, depth + 1, nodes);
  r.skip(16);  // sphere
  if (drawing) {
    const uint64_t at = r.offset();
    const uint32_t m = r.u32();
    check_count(r, m, 2, "BSP node polygons", at);
    r.skip(size_t{m} * 2);
  }
}

std::vector<uint8_t> read_bsp(Reader& r, bool drawing, uint32_t& nodes) {
  const size_t start = r.pos();
  walk_bsp(r, drawing, 0, nodes);
  const Bytes all = r.data().subspan(start, r.pos() - start);
  return {all.begin(), all.end()};
}

}  // namespace

GfxObj read_gfx_obj(Bytes bytes, uint64_t base) {
  Reader r(bytes, base);
  GfxObj g;
  g.id = r.u32();
  g.flags = r.u32();
  uint64_t at = r.offset();
  g.num_surfaces = read_cu32(r);
  check_count(r, g.num_surfaces.value, 4, "surfaces", at);
  g.surfaces.resize(g.num_surfaces.value);
  for (uint32_t& s : g.surfaces) s = r.u32();
  g.vertex_type = r.i32();
  at = r.offset();
  const uint32_t nv = r.u32();
  check_count(r, nv, 28, "vertices", at);
  g.vertices.resize(nv);
  for (SWVertex& v : g.vertices) {
    v.key = r.u16();
    const uint16_t nuv = r.u16();
    v.origin = read_vec3(r);
    v.normal = read_vec3(r);
    at = r.offset();
    check_count(r, nuv, 8, "vertex UVs", at);
    v.uvs.resize(nuv);
    for (auto& uv : v.uvs) {
      uv[0] = r.f32();
      uv[1] = r.f32();
    }
  }
  if (g.flags & kGfxHasPhysics) {
    g.physics_polygons = read_polygons(r, g.num_physics_polygons, "physics polygons");
    g.physics_bsp = read_bsp(r, false, g.physics_bsp_nodes);
  }
  g.sort_center = read_vec3(r);
  if (g.flags & kGfxHasDrawing) {
    g.drawing_polygons = read_polygons(r, g.num_drawing_polygons, "drawing polygons");
    g.drawing_bsp = read_bsp(r, true, g.drawing_bsp_nodes);
  }
  if (g.flags & kGfxHasDidDegrade) g.did_degrade = r.u32();
  const Bytes rest = r.bytes(r.remaining());
  g.tail.assign(rest.begin(), rest.end());
  return g;
}

std::vector<uint8_t> write_gfx_obj(const GfxObj& g) {
  Writer w;
  w.u32(g.id);
  w.u32(g.flags);
  write_cu32(w, {static_cast<uint32_t>(g.surfaces.size()), g.num_surfaces.width});
  for (uint32_t s : g.surfaces) w.u32(s);
  w.i32(g.vertex_type);
  w.u32(static_cast<uint32_t>(g.vertices.size()));
  for (const SWVertex& v : g.vertices) {
    if (v.uvs.size() > 0xFFFF) throw Error(fmt::format("vertex {}: {} UVs (max 65535)", v.key, v.uvs.size()));
    w.u16(v.key);
    w.u16(static_cast<uint16_t>(v.uvs.size()));
    write_vec3(w, v.origin);
    write_vec3(w, v.normal);
    for (const auto& uv : v.uvs) {
      w.f32(uv[0]);
      w.f32(uv[1]);
    }
  }
  if (g.flags & kGfxHasPhysics) {
    write_cu32(w, {static_cast<uint32_t>(g.physics_polygons.size()), g.num_physics_polygons.width});
    for (const Polygon& p : g.physics_polygons) put_polygon(w, p);
    w.bytes(g.physics_bsp);
  }
  write_vec3(w, g.sort_center);
  if (g.flags & kGfxHasDrawing) {
    write_cu32(w, {static_cast<uint32_t>(g.drawing_polygons.size()), g.num_drawing_polygons.width});
    for (const Polygon& p : g.drawing_polygons) put_polygon(w, p);
    w.bytes(g.drawing_bsp);
  }
  if (g.flags & kGfxHasDidDegrade) w.u32(g.did_degrade);
  w.bytes(g.tail);
  return w.take();
}

namespace {
Json polygon_json(const Polygon& p) {
  return Json{{"key", p.key},           {"stippling", p.stippling},     {"sides_type", p.sides_type},
              {"pos_surface", p.pos_surface}, {"neg_surface", p.neg_surface},
              {"vertex_ids", p.vertex_ids}, {"pos_uv", p.pos_uv},        {"neg_uv", p.neg_uv}};
}
}  // namespace

Json to_json(const GfxObj& g) {
  Json surfaces = Json::array();
  for (uint32_t s : g.surfaces) surfaces.push_back(hex32(s));
  Json vertices = Json::array();
  for (const SWVertex& v : g.vertices) {
    Json uvs = Json::array();
    for (const auto& uv : v.uvs) uvs.push_back({json_float(uv[0]), json_float(uv[1])});
    vertices.push_back({{"key", v.key}, {"origin", to_json(v.origin)}, {"normal", to_json(v.normal)},
                        {"uvs", uvs}});
  }
  Json j{{"asherons_call", "gfx_obj"}, {"id", hex32(g.id)}, {"flags", g.flags},
         {"surfaces", surfaces},       {"vertex_type", g.vertex_type}, {"vertices", vertices},
         {"sort_center", to_json(g.sort_center)}};
  if (g.flags & kGfxHasPhysics) {
    Json ps = Json::array();
    for (const Polygon& p : g.physics_polygons) ps.push_back(polygon_json(p));
    j["physics_polygons"] = ps;
    j["physics_bsp"] = {{"bytes", g.physics_bsp.size()}, {"nodes", g.physics_bsp_nodes}};
  }
  if (g.flags & kGfxHasDrawing) {
    Json ps = Json::array();
    for (const Polygon& p : g.drawing_polygons) ps.push_back(polygon_json(p));
    j["drawing_polygons"] = ps;
    j["drawing_bsp"] = {{"bytes", g.drawing_bsp.size()}, {"nodes", g.drawing_bsp_nodes}};
  }
  if (g.flags & kGfxHasDidDegrade) j["did_degrade"] = hex32(g.did_degrade);
  if (!g.tail.empty()) j["tail_bytes"] = g.tail.size();
  return j;
}

}  // namespace animkit::asherons_call
