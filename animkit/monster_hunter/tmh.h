// TMH texture banks (monster-hunter-model.md 5): ".TMH0.14", images back to back, each its pixel
// section and an optional CLUT; read and written byte for byte, decoded to RGBA8 (indexed 4/8/16/
// 32-bit through palette 0, 16/32-bit colours, DXT1, unswizzled).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "animkit/core/mesh.h"
#include "animkit/core/reader.h"

namespace animkit::monster_hunter {

// 5.1 CLUT: colours in format 0-3 (ge_color.h).
struct TmhClut {
  uint32_t format = 3;
  uint32_t entries = 0;  // stored; the bytes x 8 / format bits
  std::vector<uint8_t> colors;
};

// 5.1 image; 5.2 pixel formats 0..10.
struct TmhImage {
  uint32_t reserved = 0;  // +0x04
  uint32_t one = 1;       // +0x08
  uint32_t format = 3;    // +0x18
  uint16_t width = 0, height = 0;
  std::vector<uint8_t> pixels;  // as stored (swizzled when 5.4 says so)
  std::optional<TmhClut> clut;
};

struct TmhBank {
  uint32_t reserved = 0;  // 0x0C
  std::vector<TmhImage> images;
  std::vector<uint8_t> tail;
};

bool sniff_tmh(Bytes bytes);
// Throws animkit::Error at the offset of a size or tag that does not add up.
TmhBank read_tmh(Bytes bytes);
std::vector<uint8_t> write_tmh(const TmhBank& bank);

const char* tmh_format_name(uint32_t format);
// 5.4: swizzled exactly when mode < 8, width > 0 and width x bpp is a multiple of 128 bits.
bool tmh_swizzled(const TmhImage& image);

// RGBA8, rows top first. Throws animkit::Error when the pixels or palette fall short, an index is
// past the palette, or the format is not decoded (DXT3 / DXT5, model.md 9.10).
Image decode_tmh(const TmhImage& image);

}  // namespace animkit::monster_hunter
