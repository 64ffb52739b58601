// The Surface portal object (0x08xxxxxx, asherons-call-meshes.md 4): how a polygon side is
// coloured, a solid ARGB colour or a SurfaceTexture. The one object of the chain with no id of
// its own; read and written back byte for byte (a tail kept).
#pragma once

#include <cstdint>
#include <vector>

#include "animkit/core/json_util.h"
#include "animkit/core/reader.h"

namespace animkit::asherons_call {

inline constexpr uint8_t kTypeSurface = 0x08;

// Type flags (4).
inline constexpr uint32_t kSurfaceBase1Solid = 0x1;
inline constexpr uint32_t kSurfaceBase1Image = 0x2;
inline constexpr uint32_t kSurfaceBase1ClipMap = 0x4;
inline constexpr uint32_t kSurfaceTranslucent = 0x10;
inline constexpr uint32_t kSurfaceAlpha = 0x100;
inline constexpr uint32_t kSurfaceInvAlpha = 0x200;
inline constexpr uint32_t kSurfaceAdditive = 0x10000;
// Every named flag (4): a sniff accepts no other bit.
inline constexpr uint32_t kSurfaceKnownFlags = 0x1 | 0x2 | 0x4 | 0x10 | 0x20 | 0x40 | 0x100 | 0x200 |
                                               0x10000 | 0x20000 | 0x10000000 | 0x40000000 |
                                               0x80000000u;

struct Surface {
  uint32_t type = 0;
  uint32_t orig_texture_id = 0;  // textured only
  uint32_t orig_palette_id = 0;  // textured only
  uint32_t color = 0;            // solid only: ARGB (disk B, G, R, A)
  float translucency = 0, luminosity = 0, diffuse = 0;
  std::vector<uint8_t> tail;
  bool textured() const { return (type & (kSurfaceBase1Image | kSurfaceBase1ClipMap)) != 0; }
  friend bool operator==(const Surface&, const Surface&) = default;
};

Surface read_surface(Bytes bytes, uint64_t base = 0);
std::vector<uint8_t> write_surface(const Surface& s);
Json to_json(const Surface& s);
// The names of the set type flags, e.g. "Base1Image|Translucent".
std::string surface_type_names(uint32_t type);

}  // namespace animkit::asherons_call
