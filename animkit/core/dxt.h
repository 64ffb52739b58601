// DXT1 / DXT3 / DXT5 (BC1 / BC2 / BC3) blocks to RGBA8, once for every engine: Asheron's Call
// RenderSurfaces (asherons-call-meshes.md 6, "DXT decoding", ACE's bit-exact rules) and Monster
// Hunter TMH images (monster-hunter-model.md 5.5, the PSP's block order). The engines differ in
// where the colour block keeps its words and how a 565 colour widens to 8 bits; the rest (block
// order, index bits, the colour mixes, DXT1's transparent case) is the same.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace animkit::dxt {

enum class Kind : uint8_t { kDxt1, kDxt3, kDxt5 };

// How a 565 colour widens: kRounded = (t / 32 + t) / 32 with t = c * 255 + 16 (ACE's DxtUtil,
// meshes.md 6); kShifted = c << 3 (5 bits) or c << 2 (6 bits) (PSP, model.md 5.5).
enum class Expand : uint8_t { kRounded, kShifted };

struct Layout {
  // false: u16 c0, u16 c1, u32 indices (PC, meshes.md 6); true: u32 indices, then c0, c1 (PSP).
  bool indices_first = false;
  Expand expand = Expand::kRounded;
};

inline constexpr Layout kPcLayout{false, Expand::kRounded};
inline constexpr Layout kPspLayout{true, Expand::kShifted};

// Bytes of a width x height image: ceil(w/4) * ceil(h/4) blocks of 8 (DXT1) or 16 bytes.
uint64_t image_bytes(Kind kind, uint64_t width, uint64_t height);

// Decodes `data` (at least image_bytes) into `rgba` (width * height * 4, rows top first):
// blocks left to right, then top to bottom; pixel p = 4y + x of a block; pixels past the image
// are dropped. DXT3/5 carry their alpha block (8 bytes) in front of the colour block.
void decode(Kind kind, std::span<const uint8_t> data, uint32_t width, uint32_t height,
            std::span<uint8_t> rgba, const Layout& layout = kPcLayout);

}  // namespace animkit::dxt
