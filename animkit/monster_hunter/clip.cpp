#include "animkit/monster_hunter/clip.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <bit>
#include <cmath>

#include "animkit/core/error.h"
#include "animkit/core/work_budget.h"

namespace animkit::monster_hunter {

const char* to_string(Game game) { return game == Game::kMhfu ? "mhfu" : "mhp3rd"; }

Game parse_game(const std::string& text) {
  if (text == "mhfu") return Game::kMhfu;
  if (text == "mhp3rd") return Game::kMhp3rd;
  throw Error(fmt::format("unknown game '{}' (mhfu or mhp3rd)", text));
}

std::string channel_name(uint16_t bit) {
  switch (bit) {
    case bits::kRotX:
      return "rotation.x";
    case bits::kRotY:
      return "rotation.y";
    case bits::kRotZ:
      return "rotation.z";
    case bits::kLocX:
      return "location.x";
    case bits::kLocY:
      return "location.y";
    case bits::kLocZ:
      return "location.z";
    case bits::kSclX:
      return "scale.x";
    case bits::kSclY:
      return "scale.y";
    case bits::kSclZ:
      return "scale.z";
    case bits::kUnnamed0:
    case bits::kUnnamed1:
    case bits::kUnnamed2:
      return fmt::format("unnamed.{:#05x}", bit);
    default:
      return fmt::format("bit {:#05x}", bit);
  }
}

float channel_step(uint16_t bit) {
  if (bit & bits::kRotation) return kRotationStep;
  if (bit & bits::kScale) return kScaleStep;
  return kLocationStep;
}

int16_t quantize(uint16_t bit, double value) {
  const double step = (bit & bits::kRotation) ? 3.14159265358979323846 / 8192
                      : (bit & bits::kScale)  ? 1.0 / 256
                                              : 1.0 / 16;
  const double r = std::nearbyint(value / step);  // default rounding: half to even
  if (!(r >= -32768)) return -32768;              // also NaN
  if (r > 32767) return 32767;
  return static_cast<int16_t>(r);
}

float dequantize(uint16_t bit, int raw) { return static_cast<float>(raw) * channel_step(bit); }

uint32_t Track::mask() const {
  uint32_t m = 0;
  for (const Channel& c : channels) m |= c.bit;
  return m;
}

bool operator==(const Clip& a, const Clip& b) {
  return a.loop == b.loop &&
         std::bit_cast<uint32_t>(a.loop_start) == std::bit_cast<uint32_t>(b.loop_start) &&
         a.tracks == b.tracks;
}

int frames(const Clip& clip) {
  int last = 0;
  for (const Track& t : clip.tracks)
    for (const Channel& c : t.channels)
      for (const Keyframe& k : c.keys) last = std::max<int>(last, k.frame);
  return last;
}

Track rest(int frames) {
  Track t;
  for (uint16_t bit : {bits::kRotX, bits::kRotY, bits::kRotZ}) {
    t.channels.push_back({bit, {{0, 0, 0, 0}, {0, static_cast<int16_t>(frames), 0, 0}}});
  }
  return t;
}

}  // namespace animkit::monster_hunter
