#include "animkit/asherons_call/palette.h"

#include <fmt/format.h>

#include "animkit/asherons_call/command_ids.h"
#include "animkit/core/error.h"
#include "animkit/core/limits.h"
#include "animkit/core/writer.h"

namespace animkit::asherons_call {

Palette read_palette(Bytes bytes, uint64_t base) {
  Reader r(bytes, base);
  Palette p;
  p.id = r.u32();
  const uint64_t at = r.offset();
  const int32_t n = r.i32();
  if (n < 0 || !fits(static_cast<uint64_t>(n), 4, r.remaining()))
    throw Error(fmt::format("colours: count {} with {} bytes left", n, r.remaining()), at);
  p.colors.resize(static_cast<size_t>(n));
  for (uint32_t& c : p.colors) c = r.u32();
  const Bytes rest = r.bytes(r.remaining());
  p.tail.assign(rest.begin(), rest.end());
  return p;
}

std::vector<uint8_t> write_palette(const Palette& p) {
  Writer w;
  w.u32(p.id);
  w.i32(static_cast<int32_t>(p.colors.size()));
  for (uint32_t c : p.colors) w.u32(c);
  w.bytes(p.tail);
  return w.take();
}

Json to_json(const Palette& p) {
  Json cs = Json::array();
  for (uint32_t c : p.colors) cs.push_back(hex32(c));
  Json j{{"asherons_call", "palette"}, {"id", hex32(p.id)}, {"colors", cs}};
  if (!p.tail.empty()) j["tail_bytes"] = p.tail.size();
  return j;
}

}  // namespace animkit::asherons_call
