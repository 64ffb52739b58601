#include "animkit/core/dxt.h"

#include <array>

#include "animkit/core/error.h"

namespace animkit::dxt {

namespace {

using Rgba = std::array<uint8_t, 4>;

uint32_t le(const uint8_t* p, int n) {
  uint32_t v = 0;
  for (int i = n - 1; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

Rgba widen(uint32_t c, Expand e) {
  const uint32_t r = c >> 11, g = (c >> 5) & 63, b = c & 31;
  if (e == Expand::kShifted) return {uint8_t(r << 3), uint8_t(g << 2), uint8_t(b << 3), 255};
  const uint32_t tr = r * 255 + 16, tg = g * 255 + 32, tb = b * 255 + 16;
  return {uint8_t((tr / 32 + tr) / 32), uint8_t((tg / 64 + tg) / 64), uint8_t((tb / 32 + tb) / 32),
          255};
}

// The colour block's 16 pixels. `dxt1`: the c0 <= c1 case gives the midpoint and transparency.
void colour_block(const uint8_t* p, bool dxt1, const Layout& l, std::array<Rgba, 16>& px) {
  const uint32_t c0 = le(p + (l.indices_first ? 4 : 0), 2);
  const uint32_t c1 = le(p + (l.indices_first ? 6 : 2), 2);
  const uint32_t bits = le(p + (l.indices_first ? 0 : 4), 4);
  std::array<Rgba, 4> c{widen(c0, l.expand), widen(c1, l.expand), Rgba{}, Rgba{}};
  const bool four = !dxt1 || c0 > c1;
  for (int k = 0; k < 3; ++k) {
    const int a = c[0][k], b = c[1][k];
    c[2][k] = uint8_t(four ? (2 * a + b) / 3 : (a + b) / 2);
    c[3][k] = uint8_t(four ? (a + 2 * b) / 3 : 0);
  }
  c[2][3] = 255;
  c[3][3] = four ? 255 : 0;
  for (int i = 0; i < 16; ++i) px[i] = c[(bits >> (2 * i)) & 3];
}

void dxt3_alpha(const uint8_t* p, std::array<Rgba, 16>& px) {
  for (int i = 0; i < 16; ++i) {
    const uint8_t nib = (i % 2 == 0) ? (p[i / 2] & 15) : (p[i / 2] >> 4);
    px[i][3] = uint8_t(nib * 17);
  }
}

void dxt5_alpha(const uint8_t* p, std::array<Rgba, 16>& px) {
  const int a0 = p[0], a1 = p[1];
  uint64_t field = 0;
  for (int i = 5; i >= 0; --i) field = (field << 8) | p[2 + i];
  for (int i = 0; i < 16; ++i) {
    const int k = static_cast<int>((field >> (3 * i)) & 7);
    int a;
    if (k == 0) a = a0;
    else if (k == 1) a = a1;
    else if (a0 > a1) a = ((8 - k) * a0 + (k - 1) * a1) / 7;
    else if (k == 6) a = 0;
    else if (k == 7) a = 255;
    else a = ((6 - k) * a0 + (k - 1) * a1) / 5;
    px[i][3] = uint8_t(a);
  }
}

}  // namespace

uint64_t image_bytes(Kind kind, uint64_t width, uint64_t height) {
  return ((width + 3) / 4) * ((height + 3) / 4) * (kind == Kind::kDxt1 ? 8 : 16);
}

void decode(Kind kind, std::span<const uint8_t> data, uint32_t width, uint32_t height,
            std::span<uint8_t> rgba, const Layout& layout) {
  if (data.size() < image_bytes(kind, width, height) || rgba.size() < uint64_t{width} * height * 4)
    throw Error("dxt: too few bytes for the image");
  const uint32_t bw = (width + 3) / 4, bh = (height + 3) / 4;
  const size_t block = kind == Kind::kDxt1 ? 8 : 16;
  std::array<Rgba, 16> px;
  for (uint32_t by = 0; by < bh; ++by) {
    for (uint32_t bx = 0; bx < bw; ++bx) {
      const uint8_t* p = data.data() + (size_t{by} * bw + bx) * block;
      colour_block(kind == Kind::kDxt1 ? p : p + 8, kind == Kind::kDxt1, layout, px);
      if (kind == Kind::kDxt3) dxt3_alpha(p, px);
      if (kind == Kind::kDxt5) dxt5_alpha(p, px);
      for (uint32_t i = 0; i < 16; ++i) {
        const uint32_t x = bx * 4 + i % 4, y = by * 4 + i / 4;
        if (x >= width || y >= height) continue;
        const size_t at = (size_t{y} * width + x) * 4;
        for (int k = 0; k < 4; ++k) rgba[at + k] = px[i][k];
      }
    }
  }
}

}  // namespace animkit::dxt
