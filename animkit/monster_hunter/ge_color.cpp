#include "animkit/monster_hunter/ge_color.h"

namespace animkit::monster_hunter {

namespace {

uint8_t widen5(uint32_t v) { return static_cast<uint8_t>((v << 3) | (v >> 2)); }
uint8_t widen6(uint32_t v) { return static_cast<uint8_t>((v << 2) | (v >> 4)); }

}  // namespace

// model.md 3.5: 5650 R 0-4, G 5-10, B 11-15; 5551 R 0-4, G 5-9, B 10-14, A bit 15 x 255;
// 4444 nibbles R, G, B, A from bit 0, x 17; 8888 bytes R, G, B, A.
Rgba decode_color(GeColor format, uint32_t c) {
  switch (format) {
    case GeColor::k5650:
      return {widen5(c & 31), widen6((c >> 5) & 63), widen5((c >> 11) & 31), 255};
    case GeColor::k5551:
      return {widen5(c & 31), widen5((c >> 5) & 31), widen5((c >> 10) & 31),
              static_cast<uint8_t>((c >> 15) & 1 ? 255 : 0)};
    case GeColor::k4444:
      return {static_cast<uint8_t>((c & 15) * 17), static_cast<uint8_t>(((c >> 4) & 15) * 17),
              static_cast<uint8_t>(((c >> 8) & 15) * 17), static_cast<uint8_t>(((c >> 12) & 15) * 17)};
    case GeColor::k8888:
      break;
  }
  return {static_cast<uint8_t>(c), static_cast<uint8_t>(c >> 8), static_cast<uint8_t>(c >> 16),
          static_cast<uint8_t>(c >> 24)};
}

}  // namespace animkit::monster_hunter
