#include "animkit/shadow_of_war/anix_document.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <unordered_map>
#include <unordered_set>

#include "animkit/shadow_of_war/keyword.h"
#include "animkit/shadow_of_war/text.h"

namespace animkit::shadow_of_war {

namespace {

std::string hex(uint32_t v) { return fmt::format("{:#010x}", v); }

}  // namespace

std::vector<Finding> check(const AnixFile& f, size_t actual_size) {
  std::vector<Finding> out;
  auto add = [&](Finding::Level level, std::string code, std::string where, std::string message,
                 std::string fix = {}) {
    out.push_back({level, std::move(code), printable(where), printable(message), std::move(fix)});
  };
  const auto E = Finding::Level::kError, W = Finding::Level::kWarning, I = Finding::Level::kInfo;
  const Header& h = f.header;
  // Spec, header: 'ANIX' | 0x2C | 0x30 | file size | ... | 1 | 1
  if (h.file_size != actual_size)
    add(E, "FILE_SIZE", "header +0x0C",
        fmt::format("file size field {} differs from the file's {} bytes", h.file_size,
                    actual_size));
  if (h.field_04 != 0x2C)
    add(W, "HEADER_WORD", "header +0x04", fmt::format("{} is not 0x2C", hex(h.field_04)));
  if (h.field_08 != 0x30)
    add(W, "HEADER_WORD", "header +0x08", fmt::format("{} is not 0x30", hex(h.field_08)));
  if (h.field_28 != 1)
    add(W, "HEADER_WORD", "header +0x28", fmt::format("{} is not 1", h.field_28));
  if (h.field_2c != 1)
    add(W, "HEADER_WORD", "header +0x2C", fmt::format("{} is not 1", h.field_2c));
  for (size_t i = 0; i < f.track_runs.size(); ++i)
    if (!*channel_name(f.track_runs[i].channel_hash))
      add(I, "CHANNEL", fmt::format("track run {}", i),
          fmt::format("channel hash {} is none of rotation 0x27436396, position 0x00CE66FC, "
                      "events 0x210C8F5A",
                      hex(f.track_runs[i].channel_hash)));

  const AnimChunk& a = f.anim_chunk;
  if (a.directory_offset != 0x10)
    add(W, "DIRECTORY_OFFSET", "anim chunk +0x00",
        fmt::format("directory offset {} is not 0x10", hex(a.directory_offset)));
  for (const DirectoryEntry& e : a.directory) {
    const Record* r = a.record_at(e.offset);
    if (r && keyword_hash(r->name()) != e.name_hash)
      add(I, "NAME_HASH", fmt::format("directory entry {}", hex(e.offset)),
          fmt::format("name hash {} is not the keyword hash of '{}' ({})", hex(e.name_hash),
                      r->name(), hex(keyword_hash(r->name()))));
  }
  for (const Record& r : a.records) {
    const std::string where = fmt::format("clip '{}' at anim chunk {}", r.name(), hex(r.offset));
    // Spec, record +0x30: (flag << 16) | (0x7C + 16 * blocksets + 8 * named)
    const uint32_t expect =
        kRecordFixedSize + 16 * r.blockset_table.size() + 8 * r.named_table.size();
    if (r.size_field != expect)
      add(E, "RECORD_SIZE_FIELD", where,
          fmt::format("+0x30 low half {:#x} is not 0x7C + 16 * {} blocksets + 8 * {} named = "
                      "{:#x}",
                      r.size_field, r.blockset_table.size(), r.named_table.size(), expect));
    // The root summary is a position and a rotation: a NaN or an infinity is no place.
    {
      const RootSummary& q = r.root;
      const float v[] = {q.start_position.x, q.start_position.y, q.start_position.z,
                         q.start_rotation.x, q.start_rotation.y, q.start_rotation.z,
                         q.start_rotation.w, q.end_position.x,   q.end_position.y,
                         q.end_position.z,   q.end_rotation.x,   q.end_rotation.y,
                         q.end_rotation.z,   q.end_rotation.w};
      for (size_t k = 0; k < std::size(v); ++k)
        if (!std::isfinite(v[k])) {
          add(E, "ROOT_SUMMARY", where,
              fmt::format("root summary +{:#x} is {} (not a finite number)", 0x3C + 4 * k,
                          std::isnan(v[k]) ? "NaN" : (v[k] > 0 ? "+Inf" : "-Inf")));
          break;
        }
    }
    for (size_t t = 0; t < r.track_groups.size(); ++t)
      if (r.track_groups[t] >= r.codecs.size()) {
        add(E, "TRACK_GROUP", where,
            fmt::format("track {} is in group {}, the clip has {} groups", t, r.track_groups[t],
                        r.codecs.size()));
        break;
      }
    if (r.track_groups.size() > h.track_count)
      add(W, "TRACK_COUNT", where,
          fmt::format("{} tracks, the file's track table has {}", r.track_groups.size(),
                      h.track_count));
    size_t stri = 0;
    for (const std::string& c : r.codecs) stri += c == "STRI";
    const Blockset* prev = nullptr;
    for (size_t k = 0; k < r.blockset_table.size(); ++k) {
      const BlocksetEntry& e = r.blockset_table[k];
      const std::string bw = fmt::format("{} blockset {} at {}", where, k, hex(e.offset));
      // Spec, blockset rules: u16 offsets, so a blockset holds at most 64 KB.
      if (e.size > kMaxBlocksetSize)
        add(E, "BLOCKSET_SIZE", bw,
            fmt::format("{:#x} bytes: group and LITH offsets are u16, a blockset holds at most "
                        "64 KB",
                        e.size),
            "split the clip into several blocksets sharing their boundary key");
      const Blockset* b = f.block_chunk.blockset_at(e.offset);
      if (!b) continue;
      const auto& times = b->lith.times;
      if (b->lith.end != 0)
        add(W, "LITH_END", bw, fmt::format("LITH ends with {}, expected 0", b->lith.end));
      for (size_t i = 1; i < times.size(); ++i)
        if (!(times[i] >= times[i - 1])) {
          add(E, "LITH_ORDER", bw, fmt::format("LITH time {} is before the one before it", i));
          break;
        }
      if (!times.empty() && (e.t0 != times.front() || e.t1 != times.back()))
        add(W, "BLOCKSET_TIMES", bw,
            fmt::format("table t0 / t1 ({}, {}) are not the LITH's first and last times ({}, {})",
                        e.t0, e.t1, times.front(), times.back()));
      // Spec: long clips use several blocksets that share their boundary key, with absolute
      // LITH times.
      if (prev && !prev->lith.times.empty() && !times.empty() &&
          prev->lith.times.back() != times.front())
        add(E, "BOUNDARY_KEY", bw,
            fmt::format("first LITH time {} is not the previous blockset's last time {} (blocksets "
                        "share their boundary key, with absolute times)",
                        times.front(), prev->lith.times.back()));
      const uint32_t start = b->body_offset();
      for (size_t g = 0; g < b->group_offsets.size(); ++g)
        if (b->group_offsets[g] < start || b->group_offsets[g] > b->size()) {
          add(E, "GROUP_OFFSET", bw,
              fmt::format("group {} offset {:#x} is outside the blockset's data [{:#x}, {:#x}]", g,
                          b->group_offsets[g], start, b->size()));
        }
      for (size_t n = 0; n < b->named_offsets.size(); ++n)
        if (b->named_offsets[n] < start || b->named_offsets[n] > b->size())
          add(E, "NAMED_OFFSET", bw,
              fmt::format("named {} offset {:#x} is outside the blockset's data", n,
                          b->named_offsets[n]));
      for (const GroupData& g : blockset_groups(*b, r.codecs)) {
        if (g.codec == "AQ03") {
          // Spec: an AQ03 block header of (start time, end time, keys).
          auto hd = aq03_header(g.bytes);
          if (!hd) {
            add(E, "AQ03_HEADER", bw, "AQ03 group shorter than its 12-byte block header");
          } else if (!times.empty() && (hd->start_time != times.front() ||
                                        hd->end_time != times.back() || hd->keys != times.size())) {
            add(W, "AQ03_HEADER", bw,
                fmt::format("AQ03 block header ({}, {}, {} keys) differs from the LITH ({}, {}, "
                            "{} keys)",
                            hd->start_time, hd->end_time, hd->keys, times.front(), times.back(),
                            times.size()));
          }
        } else if (g.codec == "SQ03" && !g.bytes.empty() &&
                   std::all_of(g.bytes.begin(), g.bytes.end(), [](uint8_t c) { return c == 0; })) {
          // Spec: unused SQ03 slots must hold a valid quaternion; zero bits assert.
          add(E, "SQ03_ZERO", bw,
              "SQ03 group is all zero bits: unused slots must hold a valid quaternion");
        }
      }
      prev = b;
    }
    if (r.blockset_table.size() > 1 && stri > 1)
      add(W, "STRI_GROUPS", where,
          fmt::format("{} STRI groups; a long clip has one STRI group per blockset", stri));
  }
  if (a.event_dictionary_offset != 0 && !a.event_dictionary) {
    add(W, "EVENT_DICTIONARY", "anim chunk +0x0C",
        "event dictionary not decoded (" + a.event_dictionary_error + "); its bytes are kept");
  }
  if (a.event_dictionary) {
    const EventDictionary& d = *a.event_dictionary;
    std::unordered_set<std::string> record_names;  // linear in clips, not clips x records
    for (const Record& r : a.records) record_names.insert(r.name());
    for (const ClipEvents& c : d.clips) {
      for (uint32_t w : c.events) {
        const uint32_t i = event_string_index(w);
        if (i != kNoText && i >= d.strings.size()) {
          add(E, "EVENT_STRING", fmt::format("event dictionary clip '{}'", c.name),
              fmt::format("event {} names string {} of {} (0xFF means no text)", hex(w), i,
                          d.strings.size()));
        }
        if (event_ms(w) > c.duration_ms)
          add(W, "EVENT_TIME", fmt::format("event dictionary clip '{}'", c.name),
              fmt::format("event at {} ms is past the clip's {} ms", event_ms(w), c.duration_ms));
      }
      if (!record_names.count(c.name))
        add(W, "EVENT_CLIP", fmt::format("event dictionary clip '{}'", c.name),
            "no clip record of this name");
    }
  }
  return out;
}

Animated to_neutral(const AnixFile& f) {
  Animated out;
  out.skeleton.add_joint("root", -1, Transform::identity());
  const EventDictionary* d =
      f.anim_chunk.event_dictionary ? &*f.anim_chunk.event_dictionary : nullptr;
  // EventDictionary::find by hash, once per dictionary clip (the first of a hash wins).
  std::unordered_map<uint32_t, const ClipEvents*> events_of;
  if (d)
    for (const ClipEvents& c : d->clips) events_of.emplace(keyword_hash(c.name), &c);
  for (const DirectoryEntry& e : f.anim_chunk.directory) {
    const Record* r = f.anim_chunk.record_at(e.offset);
    if (!r) continue;
    Clip c;
    c.name = r->name();  // the bytes: JSON and glTF writers apply the core text rule (issue 31)
    c.duration = r->duration_ms / 1000.f;
    c.joints.resize(1);
    JointTracks& jt = c.joints[0];
    jt.translation.interpolation = Interpolation::kLinear;
    jt.rotation.interpolation = Interpolation::kSlerp;
    jt.translation.add(0, r->root.start_position);
    jt.rotation.add(0, normalize(r->root.start_rotation));
    if (c.duration > 0) {
      jt.translation.add(c.duration, r->root.end_position);
      jt.rotation.add(c.duration, normalize(r->root.end_rotation));
    }
    if (d) {
      const auto found = events_of.find(keyword_hash(r->name()));
      if (const ClipEvents* ce = found != events_of.end() ? found->second : nullptr) {
        for (uint32_t w : ce->events) {
          Event ev;
          ev.time = event_ms(w) / 1000.f;
          ev.name = d->text(w);  // the bytes, as the clip's name
          ev.payload = "{}";
          c.events.push_back(ev);
        }
      }
    }
    out.clips.push_back(std::move(c));
  }
  out.notes.push_back(
      "the key codecs' layouts (SQ03, AQ03 past its block header) are not given by the spec: each "
      "clip gives its root summary only (the root moving from its start to its end position and "
      "rotation over the clip's duration)");
  return out;
}

Json AnixDocument::info() const {
  const AnixFile& f = file_;
  Json clips = Json::array(), hexes = Json::array();
  bool exact = false;  // a name whose text is not its bytes gets them beside (issue 31)
  for (const Record& r : f.anim_chunk.records) {
    const std::string name = r.name();
    clips.push_back(printable(name));
    const bool differs = clips.back() != name || name.find('\\') != std::string::npos;
    hexes.push_back(differs ? to_hex({reinterpret_cast<const uint8_t*>(name.data()), name.size()}) : "");
    exact = exact || differs;
  }
  Json info = {{"format", "sow-anix"},
          {"file_size", f.header.file_size},
          {"tracks", f.header.track_count},
          {"clips", f.anim_chunk.records.size()},
          {"blocksets", f.block_chunk.blocksets.size()},
          {"event_dictionary", f.anim_chunk.event_dictionary
                                   ? Json(printable(f.anim_chunk.event_dictionary->path))
                                   : Json(nullptr)},
          {"clip_names", clips}};
  if (exact) info["clip_names_hex"] = hexes;
  return info;
}

bool AnixDocument::print_dump(std::ostream& out, bool json) const {
  JsonPrint print(out, json ? JsonPrint::Layout::kJson : JsonPrint::Layout::kText);
  emit_json(file_, print);
  return true;
}

std::optional<Animated> AnixDocument::to_neutral() const {
  return shadow_of_war::to_neutral(file_);
}

}  // namespace animkit::shadow_of_war
