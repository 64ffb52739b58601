#include "animkit/shadow_of_war/anix_events.h"

#include <fmt/format.h>

#include <algorithm>
#include <bitset>

#include "animkit/core/error.h"
#include "animkit/shadow_of_war/json_sink.h"
#include "animkit/shadow_of_war/keyword.h"
#include "animkit/shadow_of_war/text.h"

namespace animkit::shadow_of_war {

namespace {

// The keyword names of `table` that the strings `used` carry (Choices 8: an event's keyword is
// its text up to the first blank, '(', ':' or '='); `keys[i]` is string i's keyword hash.
std::vector<std::string_view> carried(std::span<const Keyword> table, const std::bitset<256>& used,
                                      const std::vector<uint32_t>& keys) {
  std::vector<std::string_view> out;
  for (const Keyword& k : table)
    for (size_t i = 0; i < keys.size(); ++i)
      if (used[i] && keys[i] == k.hash) {
        out.push_back(k.name);
        break;
      }
  return out;
}

}  // namespace

void print_events(const AnixFile& f, std::ostream& out, bool json) {
  const AnimChunk& a = f.anim_chunk;
  if (!a.event_dictionary) {
    const uint64_t at = uint64_t{f.header.anim_chunk_offset} + 0x0C;
    if (a.event_dictionary_offset == 0)
      throw Error("no event dictionary: the anim chunk's event dictionary offset (+0x0C) is 0, "
                  "the file has none",
                  at);
    throw Error(fmt::format("the event dictionary at anim chunk {:#x} does not decode: {}",
                            a.event_dictionary_offset, a.event_dictionary_error),
                at);
  }
  const EventDictionary& d = *a.event_dictionary;
  // At most 255 strings: each one's keyword hash once, not once per event and keyword.
  std::vector<uint32_t> keys(d.strings.size());
  for (size_t i = 0; i < keys.size(); ++i)
    keys[i] = d.strings[i].empty() ? 0 : keyword_hash(event_keyword(d.strings[i]));
  JsonPrint print(out, JsonPrint::Layout::kJson);
  if (json) print.begin_array("");
  for (const ClipEvents& c : d.clips) {
    std::bitset<256> used;
    for (uint32_t w : c.events) {
      const uint32_t i = event_string_index(w);
      if (i < d.strings.size() && !d.strings[i].empty()) used.set(i);
    }
    const auto ragdoll = carried(kRagdollKeywords, used, keys);
    const auto sync = carried(kSyncActionKeywords, used, keys);
    const std::vector<uint32_t> frames = event_frames(c);
    if (json) {
      // A text that is not its bytes (\xNN, or a kept backslash) carries them beside it as
      // `<key>_hex`, as the dump does (issue 31, item 2).
      const auto exact = [](const std::string& s) {
        return printable(s) != s || s.find('\\') != std::string::npos
                   ? Json(to_hex({reinterpret_cast<const uint8_t*>(s.data()), s.size()}))
                   : Json(nullptr);
      };
      print.begin_object("");
      print.value("clip", printable(c.name));
      if (Json h = exact(c.name); !h.is_null()) print.value("clip_hex", h);
      print.value("frames", c.frames);
      print.value("duration_ms", c.duration_ms);
      print.begin_array("events");
      for (size_t i = 0; i < c.events.size(); ++i) {
        const std::string text(d.text(c.events[i]));
        Json e = {{"ms", event_ms(c.events[i])}, {"frame", frames[i]}, {"text", printable(text)}};
        if (Json h = exact(text); !h.is_null()) e["text_hex"] = h;
        print.value("", e);
      }
      print.end();
      print.begin_array("frame_table");
      for (uint32_t frame : frames) print.value("", frame);
      print.end();
      print.value("ragdoll_keywords", ragdoll);
      print.value("sync_action_keywords", sync);
      print.end();
      continue;
    }
    out << fmt::format("{} ({} frames, {} ms):", printable(c.name), c.frames, c.duration_ms);
    for (size_t i = 0; i < c.events.size(); ++i) {
      const std::string_view text = d.text(c.events[i]);
      out << fmt::format(" {}ms/f{}:{}", event_ms(c.events[i]), frames[i],
                         text.empty() ? "-" : printable(text));
    }
    auto names = [](const std::vector<std::string_view>& list) {
      std::string s;
      for (std::string_view n : list) s += " " + std::string(n);
      return list.empty() ? std::string(" none") : s;
    };
    out << " | ragdoll:" << names(ragdoll) << " | sync action:" << names(sync) << "\n";
  }
  if (json) print.end();
}

}  // namespace animkit::shadow_of_war
