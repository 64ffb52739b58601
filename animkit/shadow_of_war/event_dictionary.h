// The event dictionary (spec: "A loaded clip", events are pre-parsed): a path, clip names, every
// event string, then each clip's events as (string index << 24) | ms, 0xFF meaning no text.
// The spec names the parts and their order but not their binary layout; this module's layout is
// stated in the README under Choices:
//   u32 clip count | u32 string count | path\0 | clip name\0 x clips | event string\0 x strings |
//   align 4 | per clip: u32 frames | u32 duration (ms) | u32 event count | u32 event x count |
//   the rest of the dictionary's range (kept as `tail`)
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "animkit/core/reader.h"

namespace animkit::shadow_of_war {

inline constexpr uint32_t kNoText = 0xFF;  // string index of an event without text

constexpr uint32_t event_word(uint32_t string_index, uint32_t ms) {
  return (string_index << 24) | (ms & 0xFFFFFF);
}
constexpr uint32_t event_string_index(uint32_t word) { return word >> 24; }
constexpr uint32_t event_ms(uint32_t word) { return word & 0xFFFFFF; }

struct ClipEvents {
  std::string name;
  uint32_t frames = 0;
  uint32_t duration_ms = 0;
  std::vector<uint32_t> events;  // (string index << 24) | ms
  friend bool operator==(const ClipEvents&, const ClipEvents&) = default;
};

struct EventDictionary {
  std::string path;
  std::vector<std::string> strings;
  std::vector<ClipEvents> clips;
  std::vector<uint8_t> align_pad;
  std::vector<uint8_t> tail;
  friend bool operator==(const EventDictionary&, const EventDictionary&) = default;

  const ClipEvents* find(uint32_t clip_hash) const;  // by keyword_hash(name)
  // The text of an event, or "" for kNoText / an index past the strings.
  std::string_view text(uint32_t word) const;
  // Spec, "Clip keywords": does the clip carry keyword `key` (any case) among its events.
  bool carries_keyword(const ClipEvents& clip, uint32_t key) const;
};

// The loaded clip object's frame per event (+0x20, spec "A loaded clip"): the event's ms on the
// clip's frames, floor(ms x frames / duration ms), 0 for a clip of 0 ms (README, Choices 6).
std::vector<uint32_t> event_frames(const ClipEvents& clip);

// `reader` spans the dictionary's range; throws animkit::Error on bad input.
EventDictionary parse_event_dictionary(Reader reader);
std::vector<uint8_t> write_event_dictionary(const EventDictionary& dictionary);

}  // namespace animkit::shadow_of_war
