#include "animkit/shadow_of_war/event_dictionary.h"

#include <fmt/format.h>

#include "animkit/core/writer.h"
#include "animkit/shadow_of_war/keyword.h"
#include "animkit/shadow_of_war/text.h"

namespace animkit::shadow_of_war {

const ClipEvents* EventDictionary::find(uint32_t clip_hash) const {
  for (const ClipEvents& c : clips)
    if (keyword_hash(c.name) == clip_hash) return &c;
  return nullptr;
}

std::string_view EventDictionary::text(uint32_t word) const {
  const uint32_t i = event_string_index(word);
  if (i == kNoText || i >= strings.size()) return {};
  return strings[i];
}

// Spec, "Clip keywords" (0x4CAB0C): compare each event name's hash with the key.
bool EventDictionary::carries_keyword(const ClipEvents& clip, uint32_t key) const {
  for (uint32_t w : clip.events) {
    const std::string_view t = text(w);
    if (!t.empty() && keyword_hash(event_keyword(t)) == key) return true;
  }
  return false;
}

EventDictionary parse_event_dictionary(Reader r) {
  EventDictionary d;
  const uint32_t clip_count = r.u32();
  const uint32_t string_count = r.u32();
  // Every name and string takes at least one byte, every clip 12: refuse counts the range cannot
  // hold before reserving anything.
  if (clip_count > r.remaining() / 13 || string_count > r.remaining()) {
    r.fail_at(0, fmt::format("event dictionary: {} clips and {} strings do not fit in {} bytes",
                             clip_count, string_count, r.size()));
  }
  if (string_count > kNoText) {
    r.fail_at(4, fmt::format("event dictionary: {} strings, but a string index is 8 bits and "
                             "0xFF means no text",
                             string_count));
  }
  d.path = r.c_string();
  d.clips.resize(clip_count);
  for (ClipEvents& c : d.clips) c.name = r.c_string();
  d.strings.resize(string_count);
  for (std::string& s : d.strings) s = r.c_string();
  while (r.pos() % 4 != 0) d.align_pad.push_back(r.u8());
  for (ClipEvents& c : d.clips) {
    c.frames = r.u32();
    c.duration_ms = r.u32();
    const uint32_t n = r.u32();
    if (n > r.remaining() / 4) {
      r.fail(fmt::format("event dictionary: clip '{}' has {} events, only {} bytes left",
                         printable(c.name), n, r.remaining()));
    }
    c.events.resize(n);
    for (uint32_t& e : c.events) e = r.u32();
  }
  Bytes rest = r.bytes(r.remaining());
  d.tail.assign(rest.begin(), rest.end());
  return d;
}

std::vector<uint32_t> event_frames(const ClipEvents& c) {
  std::vector<uint32_t> out;
  out.reserve(c.events.size());
  for (uint32_t w : c.events)
    out.push_back(c.duration_ms == 0 ? 0u
                                     : static_cast<uint32_t>(uint64_t{event_ms(w)} * c.frames /
                                                             c.duration_ms));
  return out;
}

std::vector<uint8_t> write_event_dictionary(const EventDictionary& d) {
  Writer w;
  w.u32(static_cast<uint32_t>(d.clips.size()));
  w.u32(static_cast<uint32_t>(d.strings.size()));
  w.c_string(d.path);
  for (const ClipEvents& c : d.clips) w.c_string(c.name);
  for (const std::string& s : d.strings) w.c_string(s);
  if (!d.align_pad.empty()) {
    w.bytes(d.align_pad);
  } else {
    w.align(4);
  }
  for (const ClipEvents& c : d.clips) {
    w.u32(c.frames);
    w.u32(c.duration_ms);
    w.u32(static_cast<uint32_t>(c.events.size()));
    for (uint32_t e : c.events) w.u32(e);
  }
  w.bytes(d.tail);
  return w.take();
}

}  // namespace animkit::shadow_of_war
