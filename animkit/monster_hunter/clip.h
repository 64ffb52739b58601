// Monster Hunter clips (monster-hunter.txt, "Clips" and "Channels"): one track per bone a clip
// drives, one channel per animated component, keyframes of four s16 words. Both games hold the
// same content; only the encoding differs (clip_fu.h, clip_p3rd.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "animkit/core/reader.h"
#include "animkit/monster_hunter/key_list.h"

namespace animkit::monster_hunter {

enum class Game : uint8_t { kMhfu, kMhp3rd };
const char* to_string(Game game);
// "mhfu" / "mhp3rd"; throws animkit::Error on anything else.
Game parse_game(const std::string& text);

// Channel bits ("Channels").
namespace bits {
constexpr uint16_t kUnnamed0 = 0x001, kUnnamed1 = 0x002, kUnnamed2 = 0x004;
constexpr uint16_t kRotX = 0x008, kRotY = 0x010, kRotZ = 0x020;
constexpr uint16_t kLocX = 0x040, kLocY = 0x080, kLocZ = 0x100;
constexpr uint16_t kSclX = 0x200, kSclY = 0x400, kSclZ = 0x800;
constexpr uint16_t kRotation = kRotX | kRotY | kRotZ;
constexpr uint16_t kLocation = kLocX | kLocY | kLocZ;
constexpr uint16_t kScale = kSclX | kSclY | kSclZ;
}  // namespace bits

// "rotation.x", "location.y", "scale.z", "unnamed.0x001", or "bit 0x..." for other bits.
std::string channel_name(uint16_t bit);

// One raw unit of a channel ("Channels"): rotation pi/8192 rad, location 1/16, scale 1/256; the
// unnamed bits and unknown bits 1/16 (notes 5, the add-on's guess).
float channel_step(uint16_t bit);
constexpr float kRotationStep = 3.14159265358979323846f / 8192;
constexpr float kLocationStep = 1.0f / 16;
constexpr float kScaleStep = 1.0f / 256;

// notes 5: quantize = round(v / step), half to even, clamped to s16; dequantize = raw * step.
int16_t quantize(uint16_t bit, double value);
float dequantize(uint16_t bit, int raw);

struct Channel {
  uint16_t bit = 0;  // MHFU: the low half of the 0x8012xxxx tag; MHP3rd: the u16 bit
  KeyList keys;  // a slice of its clip's one block when parsed (key_list.h)
  friend bool operator==(const Channel&, const Channel&) = default;
};

struct Track {
  std::vector<Channel> channels;  // in stored order
  // The OR of the channel bits (MHFU's track tag is 0x80000000 | mask).
  uint32_t mask() const;
  friend bool operator==(const Track&, const Track&) = default;
};

struct Clip {
  uint32_t loop = 0;     // nonzero: the clip loops
  float loop_start = 0;  // the clip frame a looping clip restarts at
  std::vector<Track> tracks;
  friend bool operator==(const Clip& a, const Clip& b);
};

// notes 2, motion.frames: the last key frame over every channel (0 if none). A clip runs to it
// ("How the engine plays a clip": there is no separate duration).
int frames(const Clip& clip);

// notes 2, motion.rest: one track of rot X, Y, Z, each keyed (0, frame 0) and (0, frame `frames`).
Track rest(int frames);

}  // namespace animkit::monster_hunter
