#include "animkit/monster_hunter/pack.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <map>

#include "animkit/core/writer.h"
#include "animkit/monster_hunter/clip_fu.h"
#include "animkit/monster_hunter/clip_p3rd.h"

namespace animkit::monster_hunter {

namespace {

struct Layout {
  std::vector<uint32_t> slot_counts;
  uint32_t reserved = 0;
  size_t tables_end = 0;
};

// notes 4, "Anim pack read" 1-2.
Layout read_layout(Reader& r) {
  Layout l;
  r.seek(4);
  const uint32_t hsize = r.u32();
  if (hsize < 16 || hsize > std::min<size_t>(r.size(), 0x800) || hsize % 8 != 0) {
    r.fail_at(4, fmt::format("stream 0's table at {:#x}: not a multiple of 8 in 0x10..{:#x}", hsize,
                             std::min<size_t>(r.size(), 0x800)));
  }
  const size_t n = hsize / 8 - 1;
  r.seek(0);
  size_t expected = hsize;
  for (size_t i = 0; i < n; ++i) {
    const uint32_t slots = r.u32();
    const uint32_t table = r.u32();
    if (table != expected) {
      r.fail_at(8 * i + 4,
                fmt::format("stream {} table at {:#x}, expected {:#x}", i, table, expected));
    }
    if (slots > (r.size() - expected) / 4) {
      r.fail_at(8 * i, fmt::format("stream {} has {} slots, past the end of the file", i, slots));
    }
    expected += 4 * size_t{slots};
    l.slot_counts.push_back(slots);
  }
  l.reserved = r.u32();
  const uint32_t end = r.u32();
  if (end != expected) {
    r.fail_at(8 * n + 4,
              fmt::format("end of the slot tables {:#x}, expected {:#x}", end, expected));
  }
  l.tables_end = expected;
  return l;
}

// The offset of the first clip a slot names, if any.
std::optional<uint32_t> first_clip_offset(Reader& r, const Layout& l) {
  r.seek(8 * (l.slot_counts.size() + 1));
  for (uint32_t count : l.slot_counts) {
    for (uint32_t s = 0; s < count; ++s) {
      const uint32_t off = r.u32();
      if (off != kEmptySlot) return off;
    }
  }
  return std::nullopt;
}

std::optional<Game> game_of_word(uint32_t word) {
  if (word == fu::kClipTag) return Game::kMhfu;
  if (word < 0x10000) return Game::kMhp3rd;
  return std::nullopt;
}

}  // namespace

const Clip* AnimPack::clip(size_t stream, size_t slot) const {
  if (stream >= streams.size() || slot >= streams[stream].size()) return nullptr;
  const int32_t i = streams[stream][slot];
  return i < 0 || static_cast<size_t>(i) >= clips.size() ? nullptr : &clips[i];
}

Clip read_clip(Reader& reader, Game game, KeyBlock* keys) {
  return game == Game::kMhfu ? fu::read_clip(reader, keys) : p3rd::read_clip(reader, keys);
}

std::vector<uint8_t> write_clip(const Clip& clip, Game game) {
  Writer w;
  if (game == Game::kMhfu) {
    fu::write_clip(clip, w);
  } else {
    p3rd::write_clip(clip, w);
  }
  return w.take();
}

std::optional<Game> sniff_pack_game(Bytes bytes) {
  try {
    Reader r(bytes);
    const Layout l = read_layout(r);
    const auto first = first_clip_offset(r, l);
    if (!first || *first != l.tables_end || *first > bytes.size() - 4) return std::nullopt;
    uint32_t word;
    std::memcpy(&word, bytes.data() + *first, 4);
    return game_of_word(word);
  } catch (const Error&) {
    return std::nullopt;
  }
}

bool sniff_pack(Bytes bytes) {
  try {
    Reader r(bytes);
    const Layout l = read_layout(r);
    const auto first = first_clip_offset(r, l);
    if (!first) {
      // All slots empty: a container with at least one slot and no clip.
      size_t slots = 0;
      for (uint32_t c : l.slot_counts) slots += c;
      return slots > 0 && l.reserved == 0;
    }
    return l.reserved == 0 && sniff_pack_game(bytes).has_value();
  } catch (const Error&) {
    return false;
  }
}

bool sniff_pack_layout(Bytes bytes) {
  try {
    Reader r(bytes);
    const Layout l = read_layout(r);
    size_t slots = 0;
    for (uint32_t c : l.slot_counts) slots += c;
    const auto first = first_clip_offset(r, l);
    return slots > 0 && l.reserved == 0 && (!first || *first == l.tables_end);
  } catch (const Error&) {
    return false;
  }
}

bool pack_all_empty(Bytes bytes) {
  try {
    Reader r(bytes);
    const Layout l = read_layout(r);
    return !first_clip_offset(r, l).has_value();
  } catch (const Error&) {
    return false;
  }
}

AnimPack read_pack(Bytes bytes, std::optional<Game> game) {
  Reader r(bytes);
  const Layout l = read_layout(r);
  AnimPack pack;
  pack.reserved = l.reserved;
  if (!game) {
    if (auto first = first_clip_offset(r, l);
        first && *first == l.tables_end && *first <= bytes.size() - 4) {
      uint32_t word;
      std::memcpy(&word, bytes.data() + *first, 4);
      game = game_of_word(word);
      if (!game) r.fail_at(*first, fmt::format("first clip word {:#010x}: neither game's", word));
    }
  }
  pack.game = game.value_or(Game::kMhfu);
  // notes 4, "Anim pack read" 3: clips back to back in first-use order, no padding.
  std::map<uint32_t, int32_t> by_offset;
  size_t cursor = l.tables_end;
  // Every key lies after the tables: one allocation for the whole pack's keys (issue 27 item 5).
  KeyBlock keys((bytes.size() - std::min(bytes.size(), cursor)) / sizeof(Keyframe));
  r.seek(8 * (l.slot_counts.size() + 1));
  for (size_t s = 0; s < l.slot_counts.size(); ++s) {
    std::vector<int32_t> slots;
    slots.reserve(l.slot_counts[s]);
    for (uint32_t i = 0; i < l.slot_counts[s]; ++i) {
      const size_t at = r.pos();
      const uint32_t off = r.u32();
      if (off == kEmptySlot) {
        slots.push_back(kNoClip);
        continue;
      }
      if (auto it = by_offset.find(off); it != by_offset.end()) {
        slots.push_back(it->second);
        continue;
      }
      if (off != cursor) {
        r.fail_at(at, fmt::format("stream {} slot {}: clip at {:#x}, the next clip starts at {:#x}",
                                  s, i, off, cursor));
      }
      Reader clip_reader = r.sub(cursor, bytes.size() - cursor);
      pack.clips.push_back(read_clip(clip_reader, pack.game, &keys));
      const int32_t index = static_cast<int32_t>(pack.clips.size() - 1);
      by_offset[off] = index;
      slots.push_back(index);
      cursor += clip_reader.pos();
    }
    pack.streams.push_back(std::move(slots));
  }
  pack.tail.assign(bytes.begin() + cursor, bytes.end());
  return pack;
}

std::vector<uint8_t> write_pack(const AnimPack& pack) {
  const size_t n = pack.streams.size();
  size_t table = 8 * (n + 1);
  Writer w;
  for (const auto& slots : pack.streams) {
    w.u32(static_cast<uint32_t>(slots.size()));
    w.u32(static_cast<uint32_t>(table));
    table += 4 * slots.size();
  }
  w.u32(pack.reserved);
  w.u32(static_cast<uint32_t>(table));
  // Place each distinct clip at its first use.
  std::vector<int64_t> offset(pack.clips.size(), -1);
  std::vector<int32_t> order;
  size_t cursor = table;
  for (const auto& slots : pack.streams) {
    for (int32_t c : slots) {
      if (c < 0) {
        w.u32(kEmptySlot);
        continue;
      }
      if (static_cast<size_t>(c) >= pack.clips.size()) {
        throw Error(fmt::format("slot names clip {} of {}", c, pack.clips.size()));
      }
      if (offset[c] < 0) {
        offset[c] = static_cast<int64_t>(cursor);
        order.push_back(c);
        cursor += pack.game == Game::kMhfu ? fu::clip_size(pack.clips[c])
                                           : p3rd::clip_size(pack.clips[c]);
      }
      w.u32(static_cast<uint32_t>(offset[c]));
    }
  }
  for (int32_t c : order) {
    if (pack.game == Game::kMhfu) {
      fu::write_clip(pack.clips[c], w);
    } else {
      p3rd::write_clip(pack.clips[c], w);
    }
  }
  w.bytes(pack.tail);
  return w.take();
}

}  // namespace animkit::monster_hunter
