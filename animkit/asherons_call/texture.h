// The RenderSurface portal object ("Texture", 0x06xxxxxx / 0x07xxxxxx,
// asherons-call-meshes.md 5.2) and its decoding to RGBA8 (6): every pixel format the page names,
// DXT through the core's decoder, P8 / INDEX16 through a Palette. Byte for byte, a tail kept.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "animkit/asherons_call/palette.h"
#include "animkit/core/json_util.h"
#include "animkit/core/mesh.h"
#include "animkit/core/reader.h"

namespace animkit::asherons_call {

inline constexpr uint8_t kTypeTexture = 0x06;
inline constexpr uint8_t kTypeTextureHighres = 0x07;

// Pixel formats (6).
namespace pixel {
inline constexpr uint32_t kR8G8B8 = 20, kA8R8G8B8 = 21, kX8R8G8B8 = 22, kR5G6B5 = 23,
                          kX1R5G5B5 = 24, kA1R5G5B5 = 25, kA4R4G4B4 = 26, kA8 = 28, kP8 = 41,
                          kIndex16 = 101, kLscapeR8G8B8 = 243, kLscapeAlpha = 244, kRawJpeg = 500,
                          kDxt1 = 0x31545844, kDxt3 = 0x33545844, kDxt5 = 0x35545844;
}
// The format's name ("R8G8B8", "DXT1", ...), "unknown" for others.
std::string pixel_format_name(uint32_t format);
// True for the formats whose object ends with a default_palette_id (P8, INDEX16).
bool has_palette(uint32_t format);

struct Texture {
  uint32_t id = 0x06000000;
  uint32_t unknown = 0;  // DRW's "data category"
  int32_t width = 0, height = 0;
  uint32_t format = 0;
  std::vector<uint8_t> data;  // `length` bytes
  uint32_t default_palette_id = 0;  // P8 / INDEX16 only
  std::vector<uint8_t> tail;
  friend bool operator==(const Texture&, const Texture&) = default;
};

Texture read_texture(Bytes bytes, uint64_t base = 0);
std::vector<uint8_t> write_texture(const Texture& t);
Json to_json(const Texture& t);  // the data as its length, not its bytes

// The bytes `data` needs for the image (6: width·height·bpp, DXT by blocks); nullopt for a
// format with no fixed size (JPEG) or an unknown one.
std::optional<uint64_t> expected_length(const Texture& t);

// 6: the image as straight RGBA8, rows top first. P8 / INDEX16 need `palette`; `clip_map`
// clears indices 0-7 (the clip-map rule). An index past the palette decodes to (0,0,0,0) and
// adds a warning (12.3). Throws animkit::Error for a size <= 0, short data, a missing palette, JPEG
// or an unsupported format (the caller then uses the placeholder, 12.4).
Image decode_texture(const Texture& t, const Palette* palette, bool clip_map,
                     std::vector<std::string>& warnings);

// 12.4: the 8 x 8 magenta / black checkerboard.
Image placeholder_image();

}  // namespace animkit::asherons_call
