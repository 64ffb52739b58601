#include "animkit/asherons_call/surface.h"

#include <fmt/format.h>

#include "animkit/asherons_call/command_ids.h"
#include "animkit/core/writer.h"

namespace animkit::asherons_call {

Surface read_surface(Bytes bytes, uint64_t base) {
  Reader r(bytes, base);
  Surface s;
  s.type = r.u32();
  if (s.textured()) {
    s.orig_texture_id = r.u32();
    s.orig_palette_id = r.u32();
  } else {
    s.color = r.u32();
  }
  s.translucency = r.f32();
  s.luminosity = r.f32();
  s.diffuse = r.f32();
  const Bytes rest = r.bytes(r.remaining());
  s.tail.assign(rest.begin(), rest.end());
  return s;
}

std::vector<uint8_t> write_surface(const Surface& s) {
  Writer w;
  w.u32(s.type);
  if (s.textured()) {
    w.u32(s.orig_texture_id);
    w.u32(s.orig_palette_id);
  } else {
    w.u32(s.color);
  }
  w.f32(s.translucency);
  w.f32(s.luminosity);
  w.f32(s.diffuse);
  w.bytes(s.tail);
  return w.take();
}

std::string surface_type_names(uint32_t type) {
  static const std::pair<uint32_t, const char*> kNames[] = {
      {0x1, "Base1Solid"},        {0x2, "Base1Image"},   {0x4, "Base1ClipMap"},
      {0x10, "Translucent"},      {0x20, "Diffuse"},     {0x40, "Luminous"},
      {0x100, "Alpha"},           {0x200, "InvAlpha"},   {0x10000, "Additive"},
      {0x20000, "Detail"},        {0x10000000, "Gouraud"}, {0x40000000, "Stippled"},
      {0x80000000u, "Perspective"}};
  std::string out;
  uint32_t left = type;
  for (const auto& [bit, name] : kNames) {
    if (!(type & bit)) continue;
    if (!out.empty()) out += '|';
    out += name;
    left &= ~bit;
  }
  if (left) out += fmt::format("{}0x{:X}", out.empty() ? "" : "|", left);
  return out;
}

Json to_json(const Surface& s) {
  Json j{{"asherons_call", "surface"}, {"type", s.type}, {"type_names", surface_type_names(s.type)}};
  if (s.textured()) {
    j["orig_texture_id"] = hex32(s.orig_texture_id);
    j["orig_palette_id"] = hex32(s.orig_palette_id);
  } else {
    j["color"] = hex32(s.color);
  }
  j["translucency"] = json_float(s.translucency);
  j["luminosity"] = json_float(s.luminosity);
  j["diffuse"] = json_float(s.diffuse);
  if (!s.tail.empty()) j["tail_bytes"] = s.tail.size();
  return j;
}

}  // namespace animkit::asherons_call
