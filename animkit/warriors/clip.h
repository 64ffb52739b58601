// A clip (warriors.txt, "Data"): the descriptor (chunk 0x02, 80 bytes) and the keyframes (chunk
// 0x00: sections A, B, C, then the events), every byte kept.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "animkit/core/math.h"
#include "animkit/core/reader.h"
#include "animkit/core/writer.h"

namespace animkit::warriors {

inline constexpr int kNumBones = 34;  // pose bones 0-33 (warriors.txt, "The pose")
inline constexpr size_t kDescriptorSize = 80;
inline constexpr size_t kKeySize = 8;
inline constexpr size_t kEventSize = 24;
inline constexpr uint32_t kDescriptorVtable = 0x0045de40;

// Descriptor (chunk 0x02, 80 bytes), warriors.txt "Descriptor".
struct Descriptor {
  uint32_t vtable = kDescriptorVtable;  // +0x00 placeholder, replaced on load
  float displacement_x = 0;             // +0x04
  float displacement_y = 0;             // +0x08
  float duration = 0;                   // +0x0c seconds
  uint16_t section_a_size = 0;          // +0x10 root velocity bytes
  uint16_t section_b_size = 0;          // +0x12 root translation bytes
  uint32_t section_c_size = 0;          // +0x14 rotation bytes
  uint16_t num_channels = 0;            // +0x18 rotation channels
  uint16_t num_events = 0;              // +0x1a
  uint32_t keyframes_pointer = 0;       // +0x1c set on load
  std::array<uint8_t, 5> bone_mask{};   // +0x20-+0x24
  std::array<uint8_t, 30> name{};       // +0x25 the name (NUL-cut) and what follows it, raw
  uint8_t reference_count = 0;          // +0x43 runtime
  uint32_t flags = 0;                   // +0x44 clip flags
  std::array<uint8_t, 8> tail{};        // +0x48-+0x4f, not described by the spec; kept
  friend bool operator==(const Descriptor&, const Descriptor&) = default;

  std::string name_text() const;         // up to the first NUL, as core printable (kAscii) text:
                                         // messages and text output (JSON: name_bytes, put_text)
  std::string name_bytes() const;        // up to the first NUL, raw: what the tools' CRC-32 hashes
  void set_name(std::string_view text);  // writes the name and NUL-fills the rest
  bool has_bone(int bone) const {
    return bone >= 0 && bone < 40 && (bone_mask[bone / 8] >> (bone % 8) & 1);
  }
  void set_bone(int bone) { bone_mask[bone / 8] |= uint8_t(1u << (bone % 8)); }
  int mask_bit_count() const;
};

// A key (8 bytes), warriors.txt "Keyframes".
struct Key {
  uint8_t delta = 0;    // +0 frames since the previous key (0 starts a channel)
  uint8_t unknown = 0;  // +1 not read by the sampler; kept
  int16_t x = 0, y = 0, z = 0;
  friend bool operator==(const Key&, const Key&) = default;
};

struct Channel {
  std::vector<Key> keys;
  friend bool operator==(const Channel&, const Channel&) = default;
};

// An event (24 bytes), warriors.txt "Events".
struct AnimEvent {
  uint16_t frame = 0;                 // +0x00
  uint16_t type = 0;                  // +0x02
  uint16_t arg0 = 0;                  // +0x04
  uint16_t arg1 = 0;                  // +0x06
  std::array<int16_t, 3> position{};  // +0x08 /1023, /1023, /2047
  std::array<int16_t, 3> rotation{};  // +0x0e x, y, z * 2^-15
  std::array<uint8_t, 4> code{};      // +0x14 three-letter code (type 0x21) and its 4th byte
  friend bool operator==(const AnimEvent&, const AnimEvent&) = default;
};

// Keyframes (chunk 0x00): sections A (root velocity), B (root translation), C (rotations), the
// events, and any bytes after the events (the chunk's padding to 16), kept.
struct Keyframes {
  std::vector<Channel> section_a;
  std::vector<Channel> section_b;
  std::vector<Channel> section_c;
  std::vector<AnimEvent> events;
  std::vector<uint8_t> tail;
  friend bool operator==(const Keyframes&, const Keyframes&) = default;
};

struct AnmClip {
  Descriptor descriptor;
  Keyframes keyframes;
  friend bool operator==(const AnmClip&, const AnmClip&) = default;
};

// Decoding (warriors.txt "Keyframes", "Decoding").
inline float decode_position(int16_t v, int axis) { return axis == 2 ? v / 2047.f : v / 1023.f; }
Vec3 decode_position(const Key& k);
// x, y, z * 2^-15, w = sqrt(1 - x^2 - y^2 - z^2), never negative (0 when the sum exceeds 1).
Quat decode_rotation(int16_t x, int16_t y, int16_t z);
inline Quat decode_rotation(const Key& k) { return decode_rotation(k.x, k.y, k.z); }
// Encoders for the writer (rounded to nearest, clamped to s16).
int16_t encode_position(float v, int axis);
int16_t encode_rotation_component(float v);

Descriptor read_descriptor(Reader& r);
void write_descriptor(Writer& w, const Descriptor& d);
// Splits a section into channels: a key whose +0 is 0 starts the next channel (warriors.txt,
// "Keyframes"). The first key starts the first channel whatever its +0.
std::vector<Channel> split_channels(Reader& r, size_t bytes);
Keyframes read_keyframes(Reader& r, const Descriptor& d);  // reads r to its end
void write_keyframes(Writer& w, const Keyframes& k);
size_t section_bytes(const std::vector<Channel>& channels);
// Sets the descriptor's section sizes and counts from the keyframes.
void update_descriptor(Descriptor& d, const Keyframes& k);

// The event's decoded payload as JSON text, by the documented types (warriors.txt, "Events",
// "Event types documented elsewhere").
std::string event_name(uint16_t type);
std::string event_payload_json(const AnimEvent& e);

}  // namespace animkit::warriors
