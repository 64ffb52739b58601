#include "animkit/asherons_call/texture.h"

#include <fmt/format.h>

#include "animkit/asherons_call/command_ids.h"
#include "animkit/core/dxt.h"
#include "animkit/core/error.h"
#include "animkit/core/limits.h"
#include "animkit/core/writer.h"

namespace animkit::asherons_call {

std::string pixel_format_name(uint32_t f) {
  using namespace pixel;
  switch (f) {
    case kR8G8B8: return "R8G8B8";
    case kA8R8G8B8: return "A8R8G8B8";
    case kX8R8G8B8: return "X8R8G8B8";
    case kR5G6B5: return "R5G6B5";
    case kX1R5G5B5: return "X1R5G5B5";
    case kA1R5G5B5: return "A1R5G5B5";
    case kA4R4G4B4: return "A4R4G4B4";
    case kA8: return "A8";
    case kP8: return "P8";
    case kIndex16: return "INDEX16";
    case kLscapeR8G8B8: return "CUSTOM_LSCAPE_R8G8B8";
    case kLscapeAlpha: return "CUSTOM_LSCAPE_ALPHA";
    case kRawJpeg: return "CUSTOM_RAW_JPEG";
    case kDxt1: return "DXT1";
    case kDxt3: return "DXT3";
    case kDxt5: return "DXT5";
    default: return "unknown";
  }
}

bool has_palette(uint32_t f) { return f == pixel::kP8 || f == pixel::kIndex16; }

Texture read_texture(Bytes bytes, uint64_t base) {
  Reader r(bytes, base);
  Texture t;
  t.id = r.u32();
  t.unknown = r.u32();
  t.width = r.i32();
  t.height = r.i32();
  t.format = r.u32();
  const uint64_t at = r.offset();
  const int32_t length = r.i32();
  if (length < 0 || static_cast<uint64_t>(length) > r.remaining())
    throw Error(fmt::format("data: length {} with {} bytes left", length, r.remaining()), at);
  const Bytes d = r.bytes(static_cast<size_t>(length));
  t.data.assign(d.begin(), d.end());
  if (has_palette(t.format)) t.default_palette_id = r.u32();
  const Bytes rest = r.bytes(r.remaining());
  t.tail.assign(rest.begin(), rest.end());
  return t;
}

std::vector<uint8_t> write_texture(const Texture& t) {
  if (t.data.size() > 0x7FFFFFFF) throw Error("texture data over 2 GiB");
  Writer w;
  w.u32(t.id);
  w.u32(t.unknown);
  w.i32(t.width);
  w.i32(t.height);
  w.u32(t.format);
  w.i32(static_cast<int32_t>(t.data.size()));
  w.bytes(t.data);
  if (has_palette(t.format)) w.u32(t.default_palette_id);
  w.bytes(t.tail);
  return w.take();
}

Json to_json(const Texture& t) {
  Json j{{"asherons_call", "texture"}, {"id", hex32(t.id)},       {"unknown", t.unknown},
         {"width", t.width},          {"height", t.height},      {"format", t.format},
         {"format_name", pixel_format_name(t.format)}, {"length", t.data.size()}};
  if (has_palette(t.format)) j["default_palette_id"] = hex32(t.default_palette_id);
  if (const auto e = expected_length(t)) j["expected_length"] = *e;
  if (!t.tail.empty()) j["tail_bytes"] = t.tail.size();
  return j;
}

namespace {
int bytes_per_pixel(uint32_t f) {
  using namespace pixel;
  switch (f) {
    case kR8G8B8: case kLscapeR8G8B8: return 3;
    case kA8R8G8B8: case kX8R8G8B8: return 4;
    case kR5G6B5: case kX1R5G5B5: case kA1R5G5B5: case kA4R4G4B4: case kIndex16: return 2;
    case kA8: case kP8: case kLscapeAlpha: return 1;
    default: return 0;
  }
}
std::optional<dxt::Kind> dxt_kind(uint32_t f) {
  if (f == pixel::kDxt1) return dxt::Kind::kDxt1;
  if (f == pixel::kDxt3) return dxt::Kind::kDxt3;
  if (f == pixel::kDxt5) return dxt::Kind::kDxt5;
  return std::nullopt;
}
}  // namespace

std::optional<uint64_t> expected_length(const Texture& t) {
  if (t.width <= 0 || t.height <= 0) return std::nullopt;
  const uint64_t w = static_cast<uint64_t>(t.width), h = static_cast<uint64_t>(t.height);
  if (const auto k = dxt_kind(t.format)) return dxt::image_bytes(*k, w, h);
  if (const int bpp = bytes_per_pixel(t.format)) return w * h * static_cast<uint64_t>(bpp);
  return std::nullopt;
}

Image placeholder_image() {
  Image im;
  im.name = "placeholder";
  im.width = im.height = 8;
  im.rgba.resize(8 * 8 * 4);
  for (uint32_t y = 0; y < 8; ++y)
    for (uint32_t x = 0; x < 8; ++x) {
      const bool magenta = (x + y) % 2 == 0;
      uint8_t* p = &im.rgba[(y * 8 + x) * 4];
      p[0] = magenta ? 255 : 0;
      p[1] = 0;
      p[2] = magenta ? 255 : 0;
      p[3] = 255;
    }
  return im;
}

Image decode_texture(const Texture& t, const Palette* palette, bool clip_map,
                     std::vector<std::string>& warnings) {
  using namespace pixel;
  const std::string what = fmt::format("texture {}", hex32(t.id));
  if (t.width <= 0 || t.height <= 0)
    throw Error(fmt::format("{}: size {} x {}", what, t.width, t.height));
  if (t.format == kRawJpeg) throw Error(fmt::format("{}: JPEG data is not decoded", what));
  const std::optional<uint64_t> need = expected_length(t);
  if (!need) throw Error(fmt::format("{}: pixel format {} ({}) is not decoded", what, t.format,
                                     pixel_format_name(t.format)));
  if (t.data.size() < *need)
    throw Error(fmt::format("{}: {} {} x {} needs {} bytes, has {}", what, pixel_format_name(t.format),
                            t.width, t.height, *need, t.data.size()));
  if (has_palette(t.format) && !palette)
    throw Error(fmt::format("{}: palette {} is missing", what, hex32(t.default_palette_id)));
  Image im;
  im.width = static_cast<uint32_t>(t.width);
  im.height = static_cast<uint32_t>(t.height);
  im.rgba.resize(checked_size(uint64_t{im.width} * im.height, 4, "texture pixels"));
  if (const auto k = dxt_kind(t.format)) {
    dxt::decode(*k, t.data, im.width, im.height, im.rgba);
    return im;
  }
  const uint8_t* d = t.data.data();
  const uint64_t n = uint64_t{im.width} * im.height;
  size_t past = 0;
  const auto u16 = [&](uint64_t i) { return static_cast<uint32_t>(d[2 * i] | (d[2 * i + 1] << 8)); };
  for (uint64_t i = 0; i < n; ++i) {
    uint8_t* p = &im.rgba[i * 4];
    const auto set = [p](uint32_t r, uint32_t g, uint32_t b, uint32_t a) {
      p[0] = uint8_t(r); p[1] = uint8_t(g); p[2] = uint8_t(b); p[3] = uint8_t(a);
    };
    switch (t.format) {
      case kR8G8B8: set(d[3 * i + 2], d[3 * i + 1], d[3 * i], 255); break;
      case kLscapeR8G8B8: set(d[3 * i], d[3 * i + 1], d[3 * i + 2], 255); break;
      case kA8R8G8B8: set(d[4 * i + 2], d[4 * i + 1], d[4 * i], d[4 * i + 3]); break;
      case kX8R8G8B8: set(d[4 * i + 2], d[4 * i + 1], d[4 * i], 255); break;
      case kR5G6B5: {
        const uint32_t v = u16(i);
        set((v >> 11) << 3, ((v >> 5) & 63) << 2, (v & 31) << 3, 255);
        break;
      }
      case kX1R5G5B5: case kA1R5G5B5: {
        const uint32_t v = u16(i);
        set(((v >> 10) & 31) << 3, ((v >> 5) & 31) << 3, (v & 31) << 3,
            t.format == kX1R5G5B5 || (v & 0x8000) ? 255 : 0);
        break;
      }
      case kA4R4G4B4: {
        const uint32_t v = u16(i);
        set(((v >> 8) & 15) * 17, ((v >> 4) & 15) * 17, (v & 15) * 17, (v >> 12) * 17);
        break;
      }
      case kA8: case kLscapeAlpha: set(d[i], d[i], d[i], 255); break;
      case kP8: case kIndex16: {
        const uint32_t index = t.format == kP8 ? d[i] : u16(i);
        if (clip_map && index < 8) {
          set(0, 0, 0, 0);
        } else if (index >= palette->colors.size()) {
          ++past;
          set(0, 0, 0, 0);
        } else {
          const uint32_t c = palette->colors[index];
          set((c >> 16) & 255, (c >> 8) & 255, c & 255, c >> 24);
        }
        break;
      }
      default: break;
    }
  }
  if (past)
    warnings.push_back(fmt::format("{}: {} pixel(s) index past palette {} ({} colours): (0,0,0,0)",
                                   what, past, hex32(palette->id), palette->colors.size()));
  return im;
}

}  // namespace animkit::asherons_call
