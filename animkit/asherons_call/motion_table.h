// The MotionTable portal object (0x09xxxxxx), byte by byte (asherons-call-dat.md, "MotionTable",
// "MotionData", "AnimData"): read into structs that keep every byte, written back identical.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "animkit/core/json_util.h"
#include "animkit/core/math.h"
#include "animkit/core/reader.h"

namespace animkit::asherons_call {

// AnimData (16 bytes): which frames of which animation, at what rate (dat page, "AnimData").
struct AnimData {
  uint32_t anim_id = 0;  // 0x03xxxxxx
  int32_t low_frame = 0;
  int32_t high_frame = -1;  // -1: the animation's last frame
  float framerate = 30;     // negative: play backwards
  friend bool operator==(const AnimData&, const AnimData&) = default;
};

// MotionData flags (dat page, "MotionData").
inline constexpr uint8_t kHasVelocity = 0x01;
inline constexpr uint8_t kHasOmega = 0x02;
// MotionData bitfield (runtime page section 2).
inline constexpr uint8_t kClearsModifiers = 0x01;  // cycle clears and refuses modifiers
inline constexpr uint8_t kOnlyFromDefault = 0x02;  // may only be entered from the default

struct MotionData {
  uint8_t bitfield = 0;
  uint8_t flags = 0;             // bit 0 velocity, bit 1 omega
  std::array<uint8_t, 3> pad{};  // the alignment bytes as read (only the first n are used)
  std::vector<AnimData> anims;   // num_anims is a u8
  Vec3 velocity{};               // meaningful when flags & 1
  Vec3 omega{};                  // meaningful when flags & 2
  friend bool operator==(const MotionData&, const MotionData&) = default;
};

struct StyleDefault {
  uint32_t style = 0;
  uint32_t default_substate = 0;
  friend bool operator==(const StyleDefault&, const StyleDefault&) = default;
};

struct KeyedMotion {
  uint32_t key = 0;  // (style << 16) | (motion & 0xFFFFFF), or motion & 0xFFFFFF alone
  MotionData data;
  friend bool operator==(const KeyedMotion&, const KeyedMotion&) = default;
};

struct LinkTarget {
  uint32_t to_motion = 0;  // the full target id
  MotionData data;
  friend bool operator==(const LinkTarget&, const LinkTarget&) = default;
};

struct LinkSet {
  uint32_t key = 0;  // (style << 16) | (from_substate & 0xFFFFFF)
  std::vector<LinkTarget> targets;
  friend bool operator==(const LinkSet&, const LinkSet&) = default;
};

struct MotionTable {
  uint32_t id = 0x09000000;
  uint32_t default_style = 0;
  std::vector<StyleDefault> style_defaults;
  std::vector<KeyedMotion> cycles;
  std::vector<KeyedMotion> modifiers;
  std::vector<LinkSet> links;
  std::vector<uint8_t> tail;  // bytes after the object, kept for the round trip
  friend bool operator==(const MotionTable&, const MotionTable&) = default;
};

// The key of a style-qualified entry (runtime page section 2: style shifted unmasked).
inline uint32_t motion_key(uint32_t style, uint32_t motion) {
  return (style << 16) | (motion & 0xFFFFFFu);
}

// A readable label for a key: "NonCombat/WalkForward" (style from the high 16 bits).
std::string motion_key_label(uint32_t key);

// Throws animkit::Error with the absolute offset on bad input.
MotionTable read_motion_table(Bytes bytes);
std::vector<uint8_t> write_motion_table(const MotionTable& table);

// The JSON form: {"asherons_call": "motion_table", ...} (README.md describes it).
Json to_json(const MotionTable& table);
MotionTable motion_table_from_json(const Json& j);
Json to_json(const MotionData& data);
MotionData motion_data_from_json(const Json& j);

// True when the bytes start like a binary MotionTable (cheap checks, for sniffing).
bool looks_like_motion_table(Bytes head);

}  // namespace animkit::asherons_call
