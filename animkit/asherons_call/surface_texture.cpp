#include "animkit/asherons_call/surface_texture.h"

#include <fmt/format.h>

#include "animkit/asherons_call/command_ids.h"
#include "animkit/core/error.h"
#include "animkit/core/limits.h"
#include "animkit/core/writer.h"

namespace animkit::asherons_call {

SurfaceTexture read_surface_texture(Bytes bytes, uint64_t base) {
  Reader r(bytes, base);
  SurfaceTexture s;
  s.id = r.u32();
  s.unknown = r.u32();
  s.texture_kind = r.u8();
  const uint64_t at = r.offset();
  const int32_t n = r.i32();
  if (n < 0 || !fits(static_cast<uint64_t>(n), 4, r.remaining()))
    throw Error(fmt::format("textures: count {} with {} bytes left", n, r.remaining()), at);
  s.textures.resize(static_cast<size_t>(n));
  for (uint32_t& t : s.textures) t = r.u32();
  const Bytes rest = r.bytes(r.remaining());
  s.tail.assign(rest.begin(), rest.end());
  return s;
}

std::vector<uint8_t> write_surface_texture(const SurfaceTexture& s) {
  Writer w;
  w.u32(s.id);
  w.u32(s.unknown);
  w.u8(s.texture_kind);
  w.i32(static_cast<int32_t>(s.textures.size()));
  for (uint32_t t : s.textures) w.u32(t);
  w.bytes(s.tail);
  return w.take();
}

Json to_json(const SurfaceTexture& s) {
  Json ts = Json::array();
  for (uint32_t t : s.textures) ts.push_back(hex32(t));
  Json j{{"asherons_call", "surface_texture"}, {"id", hex32(s.id)}, {"unknown", s.unknown},
         {"texture_kind", s.texture_kind}, {"textures", ts}};
  if (!s.tail.empty()) j["tail_bytes"] = s.tail.size();
  return j;
}

}  // namespace animkit::asherons_call
