// The PSP GE's colour formats (monster-hunter-model.md 3.5): red in the low bits; 5- and 6-bit
// fields widened by replication. Shared by PMO vertex colours and TMH pixels and palettes.
#pragma once

#include <array>
#include <cstdint>

namespace animkit::monster_hunter {

using Rgba = std::array<uint8_t, 4>;

// GE colour format: 0 5650, 1 5551, 2 4444, 3 8888 (TMH pixel modes 0-3 and CLUT formats).
enum class GeColor : uint8_t { k5650 = 0, k5551 = 1, k4444 = 2, k8888 = 3 };

constexpr int color_bytes(GeColor f) { return f == GeColor::k8888 ? 4 : 2; }

// `raw` is the 16- or 32-bit little-endian word.
Rgba decode_color(GeColor format, uint32_t raw);

}  // namespace animkit::monster_hunter
