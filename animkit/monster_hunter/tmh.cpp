#include "animkit/monster_hunter/tmh.h"

#include <fmt/format.h>

#include <algorithm>

#include "animkit/core/dxt.h"
#include "animkit/core/limits.h"
#include "animkit/core/writer.h"
#include "animkit/monster_hunter/ge_color.h"

namespace animkit::monster_hunter {

namespace {

constexpr char kMagic[] = ".TMH0.14";
constexpr uint32_t kPixelTag = 1, kClutTag = 2;
constexpr uint32_t kDxt1 = 8, kLastFormat = 10;

// 5.2 bits per pixel of modes 0..10.
constexpr uint32_t kBpp[] = {16, 16, 16, 32, 4, 8, 16, 32, 4, 8, 8};

uint32_t word(const std::vector<uint8_t>& b, uint64_t at, int bytes) {
  uint32_t v = 0;
  for (int i = 0; i < bytes; ++i) v |= uint32_t{b[at + i]} << (8 * i);
  return v;
}

uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

// 5.4: the stored bytes a swizzled image reads (whole 16-byte x 8-row blocks; a short last band
// needs the bytes of the rows it has, model.md 9.10).
uint64_t swizzled_bytes(uint64_t pitch, uint64_t height) {
  const uint64_t bands = height / 8, rows = height % 8;
  uint64_t need = bands * 8 * pitch;
  if (rows != 0) need += (pitch / 16 - 1) * 128 + rows * 16;
  return need;
}

// 5.4: linear byte (x, y) <- stored (y/8)*8P + (x/16)*128 + (y%8)*16 + x%16.
std::vector<uint8_t> unswizzle(const std::vector<uint8_t>& stored, uint64_t pitch, uint64_t height) {
  std::vector<uint8_t> out(pitch * height);
  for (uint64_t y = 0; y < height; ++y)
    for (uint64_t x = 0; x < pitch; ++x)
      out[y * pitch + x] = stored[(y / 8) * 8 * pitch + (x / 16) * 128 + (y % 8) * 16 + x % 16];
  return out;
}

}  // namespace

const char* tmh_format_name(uint32_t format) {
  static const char* kNames[] = {"5650",   "5551",   "4444", "8888", "clut4", "clut8",
                                 "clut16", "clut32", "dxt1", "dxt3", "dxt5"};
  return format <= kLastFormat ? kNames[format] : "unknown";
}

bool tmh_swizzled(const TmhImage& im) {
  return im.format < kDxt1 && im.width > 0 && (uint64_t{im.width} * kBpp[im.format]) % 128 == 0;
}

bool sniff_tmh(Bytes bytes) {
  return bytes.size() >= 16 && std::equal(kMagic, kMagic + 8, bytes.begin());
}

TmhBank read_tmh(Bytes bytes) {
  Reader r(bytes);
  if (!sniff_tmh(bytes)) r.fail_at(0, "not a TMH bank (\".TMH0.14\")");
  TmhBank bank;
  r.seek(8);
  const uint32_t count = r.u32();
  bank.reserved = r.u32();
  if (!fits(count, 32, r.remaining()))
    r.fail_at(8, fmt::format("{} images cannot fit in the {} bytes after the header", count, r.remaining()));
  for (uint32_t i = 0; i < count; ++i) {
    const size_t at = r.pos();
    TmhImage im;
    const uint32_t size = r.u32();
    im.reserved = r.u32();
    im.one = r.u32();
    const uint32_t has_clut = r.u32();
    const uint32_t pixel_section = r.u32();
    const uint32_t tag = r.u32();
    im.format = r.u32();
    im.width = r.u16();
    im.height = r.u16();
    if (size < 32 || size > bytes.size() - at)
      r.fail_at(at, fmt::format("image {}: size {} runs past the bank", i, size));
    if (has_clut > 1) r.fail_at(at + 0x0C, fmt::format("image {}: CLUT flag {}, not 0 or 1", i, has_clut));
    if (tag != kPixelTag) r.fail_at(at + 0x14, fmt::format("image {}: pixel tag {}, not 1", i, tag));
    if (im.format > kLastFormat)
      r.fail_at(at + 0x18, fmt::format("image {}: pixel format {}, not 0..10", i, im.format));
    if (pixel_section < 16 || pixel_section - 16 > size - 32)
      r.fail_at(at + 0x10, fmt::format("image {}: pixel section of {} bytes in an image of {}", i,
                                       pixel_section, size));
    const Bytes pixels = r.bytes(pixel_section - 16);
    im.pixels.assign(pixels.begin(), pixels.end());
    uint64_t expected = 32 + uint64_t{pixel_section} - 16;
    if (has_clut) {
      const size_t clut_at = r.pos();
      TmhClut clut;
      const uint32_t clut_size = r.u32();
      const uint32_t clut_tag = r.u32();
      clut.format = r.u32();
      clut.entries = r.u32();
      if (clut_tag != kClutTag) r.fail_at(clut_at + 4, fmt::format("image {}: CLUT tag {}, not 2", i, clut_tag));
      if (clut.format > 3)
        r.fail_at(clut_at + 8, fmt::format("image {}: CLUT colour format {}, not 0..3", i, clut.format));
      if (clut_size < 16 || clut_size - 16 > r.remaining())
        r.fail_at(clut_at, fmt::format("image {}: CLUT of {} bytes runs past the bank", i, clut_size));
      const uint32_t bytes_per = color_bytes(static_cast<GeColor>(clut.format));
      if (clut.entries != (clut_size - 16) / bytes_per || (clut_size - 16) % bytes_per != 0)
        r.fail_at(clut_at + 12, fmt::format("image {}: {} CLUT entries in {} bytes of {}-bit colours",
                                            i, clut.entries, clut_size - 16, bytes_per * 8));
      const Bytes colors = r.bytes(clut_size - 16);
      clut.colors.assign(colors.begin(), colors.end());
      expected += 16 + uint64_t{clut_size} - 16;
      im.clut = std::move(clut);
    }
    if (size != expected)
      r.fail_at(at, fmt::format("image {}: size {}, its sections make {}", i, size, expected));
    bank.images.push_back(std::move(im));
  }
  const Bytes tail = r.bytes(r.remaining());
  bank.tail.assign(tail.begin(), tail.end());
  return bank;
}

std::vector<uint8_t> write_tmh(const TmhBank& bank) {
  Writer w;
  w.bytes({reinterpret_cast<const uint8_t*>(kMagic), 8});
  w.u32(static_cast<uint32_t>(bank.images.size()));
  w.u32(bank.reserved);
  for (const TmhImage& im : bank.images) {
    const size_t clut_bytes = im.clut ? 16 + im.clut->colors.size() : 0;
    w.u32(static_cast<uint32_t>(32 + im.pixels.size() + clut_bytes));
    w.u32(im.reserved);
    w.u32(im.one);
    w.u32(im.clut ? 1 : 0);
    w.u32(static_cast<uint32_t>(16 + im.pixels.size()));
    w.u32(kPixelTag);
    w.u32(im.format);
    w.u16(im.width);
    w.u16(im.height);
    w.bytes(im.pixels);
    if (im.clut) {
      w.u32(static_cast<uint32_t>(16 + im.clut->colors.size()));
      w.u32(kClutTag);
      w.u32(im.clut->format);
      w.u32(im.clut->entries);
      w.bytes(im.clut->colors);
    }
  }
  w.bytes(bank.tail);
  return w.take();
}

Image decode_tmh(const TmhImage& im) {
  const uint32_t mode = im.format;
  if (im.width == 0 || im.height == 0) throw Error("an empty image (width or height 0)");
  if (mode > kDxt1) throw Error(fmt::format("{} is not decoded (neither game ships it)", tmh_format_name(mode)));
  Image out;
  out.width = im.width;
  out.height = im.height;
  const uint64_t w = im.width, h = im.height;
  if (mode == kDxt1) {
    const uint64_t need = ceil_div(w, 4) * ceil_div(h, 4) * 8;
    if (im.pixels.size() < need)
      throw Error(fmt::format("dxt1 {}x{} needs {} bytes, has {}", w, h, need, im.pixels.size()));
    out.rgba.resize(checked_size(w * h, 4, "TMH image pixels"));
    // 5.5: the PSP's block order (index rows first) and shift widening, decoded by the core.
    dxt::decode(dxt::Kind::kDxt1, im.pixels, im.width, im.height, out.rgba, dxt::kPspLayout);
    return out;
  }
  const uint64_t bpp = kBpp[mode];
  std::vector<uint8_t> linear;
  const std::vector<uint8_t>* px = &im.pixels;
  if (tmh_swizzled(im)) {
    const uint64_t pitch = w * bpp / 8;
    const uint64_t need = swizzled_bytes(pitch, h);
    if (im.pixels.size() < need)
      throw Error(fmt::format("swizzled {} {}x{} needs {} bytes, has {}", tmh_format_name(mode), w, h,
                              need, im.pixels.size()));
    linear = unswizzle(im.pixels, pitch, h);
    px = &linear;
  } else if (const uint64_t need = ceil_div(w * h * bpp, 8); im.pixels.size() < need) {
    throw Error(fmt::format("{} {}x{} needs {} bytes, has {}", tmh_format_name(mode), w, h, need,
                            im.pixels.size()));
  }
  out.rgba.resize(checked_size(w * h, 4, "TMH image pixels"));
  // 5.3: modes 4 / 5 read palette 0 of 16 / 256 colours; 6 / 7 the whole CLUT.
  std::vector<Rgba> palette;
  if (mode >= 4) {
    if (!im.clut) throw Error(fmt::format("{} without a CLUT", tmh_format_name(mode)));
    const GeColor cf = static_cast<GeColor>(im.clut->format);
    const uint64_t cb = color_bytes(cf);
    uint64_t n = im.clut->colors.size() / cb;
    if (mode == 4) n = std::min<uint64_t>(n, 16);
    if (mode == 5) n = std::min<uint64_t>(n, 256);
    for (uint64_t k = 0; k < n; ++k)
      palette.push_back(decode_color(cf, word(im.clut->colors, k * cb, static_cast<int>(cb))));
  }
  for (uint64_t i = 0; i < w * h; ++i) {
    Rgba c;
    if (mode < 4) {
      c = decode_color(static_cast<GeColor>(mode), word(*px, i * bpp / 8, static_cast<int>(bpp / 8)));
    } else {
      // CLUT4: low nibble = left pixel; odd widths pack across rows (model.md 9.10).
      const uint32_t index = mode == 4 ? ((*px)[i / 2] >> (4 * (i % 2))) & 15
                                       : word(*px, i * bpp / 8, static_cast<int>(bpp / 8));
      if (index >= palette.size())
        throw Error(fmt::format("pixel {} indexes colour {} of a {}-colour palette", i, index,
                                palette.size()));
      c = palette[index];
    }
    std::copy(c.begin(), c.end(), out.rgba.begin() + i * 4);
  }
  return out;
}

}  // namespace animkit::monster_hunter
