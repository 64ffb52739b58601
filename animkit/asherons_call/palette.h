// The Palette portal object (0x04xxxxxx, asherons-call-meshes.md 5.4): ARGB colours that P8 and
// INDEX16 RenderSurfaces index. Byte for byte, a tail kept.
#pragma once

#include <cstdint>
#include <vector>

#include "animkit/core/json_util.h"
#include "animkit/core/reader.h"

namespace animkit::asherons_call {

inline constexpr uint8_t kTypePalette = 0x04;

struct Palette {
  uint32_t id = 0x04000000;
  std::vector<uint32_t> colors;  // ARGB (disk B, G, R, A)
  std::vector<uint8_t> tail;
  friend bool operator==(const Palette&, const Palette&) = default;
};

Palette read_palette(Bytes bytes, uint64_t base = 0);
std::vector<uint8_t> write_palette(const Palette& p);
Json to_json(const Palette& p);

}  // namespace animkit::asherons_call
