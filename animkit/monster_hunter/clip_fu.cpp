#include "animkit/monster_hunter/clip_fu.h"

#include <fmt/format.h>

#include <optional>

#include <algorithm>
#include <cstring>

#include "animkit/core/work_budget.h"

namespace animkit::monster_hunter::fu {

namespace {

// A section header: tag, count, size; the size must cover the header and fit in `end`.
struct Header {
  uint32_t tag, count, size;
  size_t start;
};

// Out of line: the message's formatting kept off the parse's hot path.
[[noreturn, gnu::noinline, gnu::cold]] void bad_size(const Reader& r, const Header& h, size_t end,
                                                     uint32_t header_size, const char* what) {
  r.fail_at(h.start + 8, fmt::format("{} size {:#x} outside {:#x}..{:#x}", what, h.size,
                                     header_size, end - h.start));
}

inline Header read_header(Reader& r, size_t end, uint32_t header_size, const char* what) {
  Header h;
  h.start = r.pos();
  const Bytes b = r.bytes(12);  // one bounds check for the three words (the parse's hot path)
  std::memcpy(&h.tag, b.data(), 4);
  std::memcpy(&h.count, b.data() + 4, 4);
  std::memcpy(&h.size, b.data() + 8, 4);
  if (h.size < header_size || h.size > end - h.start) bad_size(r, h, end, header_size, what);
  return h;
}

}  // namespace

Clip read_clip(Reader& r, KeyBlock* block) {
  const size_t end = r.size();
  const Header clip = read_header(r, end, kClipHeader, "clip");
  if (clip.tag != kClipTag) {
    r.fail_at(clip.start, fmt::format("clip tag {:#010x}, expected {:#010x}", clip.tag, kClipTag));
  }
  Clip out;
  out.loop = r.u32();
  out.loop_start = r.f32();
  const size_t clip_end = clip.start + clip.size;
  // Every key of the clip lies inside it after its header: one allocation holds them all,
  // unless the caller gives a block (read_pack: one for the whole pack).
  std::optional<KeyBlock> own;
  if (!block) block = &own.emplace((clip.size - kClipHeader) / sizeof(Keyframe));
  KeyBlock& keys = *block;
  const size_t keys_before = keys.used();
  out.tracks.reserve(std::min<size_t>(clip.count, (clip.size - kClipHeader) / kTrackHeader));
  for (uint32_t t = 0; t < clip.count; ++t) {
    const Header track = read_header(r, clip_end, kTrackHeader, "track");
    if ((track.tag & 0x80000000u) == 0) {
      r.fail_at(track.start, fmt::format("track tag {:#010x} lacks 0x80000000", track.tag));
    }
    const size_t track_end = track.start + track.size;
    Track tr;
    tr.channels.reserve(std::min<size_t>(track.count, (track.size - kTrackHeader) / kChannelHeader));
    for (uint32_t c = 0; c < track.count; ++c) {
      const Header ch = read_header(r, track_end, kChannelHeader, "channel");
      if ((ch.tag & 0xFFFF0000u) != kChannelTag) {
        r.fail_at(ch.start, fmt::format("channel tag {:#010x}, expected 0x8012xxxx", ch.tag));
      }
      if (ch.count > (ch.size - kChannelHeader) / 8 || ch.size != kChannelHeader + 8 * ch.count) {
        r.fail_at(ch.start + 8,
                  fmt::format("channel size {:#x} is not 12 + 8 x {} keys", ch.size, ch.count));
      }
      tr.channels.push_back({static_cast<uint16_t>(ch.tag & 0xFFFF), keys.read(r, ch.count)});
    }
    if (r.pos() != track_end) {
      r.fail_at(track.start + 8, fmt::format("track size {:#x}, its channels end at {:#x}",
                                             track.size, r.pos() - track.start));
    }
    if (track.tag != (kTrackTag | tr.mask())) {
      r.fail_at(track.start, fmt::format("track tag {:#010x}, its channels make {:#010x}",
                                         track.tag, kTrackTag | tr.mask()));
    }
    out.tracks.push_back(std::move(tr));
  }
  if (r.pos() != clip_end) {
    r.fail_at(clip.start + 8, fmt::format("clip size {:#x}, its tracks end at {:#x}", clip.size,
                                          r.pos() - clip.start));
  }
  charge_work(Work::kKey, keys.used() - keys_before, "monster_hunter: clip keys");  // issue 30: the run's work
  return out;
}

uint32_t clip_size(const Clip& clip) {
  size_t size = kClipHeader;
  for (const Track& t : clip.tracks) {
    size += kTrackHeader;
    for (const Channel& c : t.channels) size += kChannelHeader + 8 * c.keys.size();
  }
  return static_cast<uint32_t>(size);
}

void write_clip(const Clip& clip, Writer& w) {
  w.u32(kClipTag);
  w.u32(static_cast<uint32_t>(clip.tracks.size()));
  w.u32(clip_size(clip));
  w.u32(clip.loop);
  w.f32(clip.loop_start);
  for (const Track& t : clip.tracks) {
    uint32_t size = kTrackHeader;
    for (const Channel& c : t.channels) size += kChannelHeader + 8 * c.keys.size();
    w.u32(kTrackTag | t.mask());
    w.u32(static_cast<uint32_t>(t.channels.size()));
    w.u32(size);
    for (const Channel& c : t.channels) {
      w.u32(kChannelTag | c.bit);
      w.u32(static_cast<uint32_t>(c.keys.size()));
      w.u32(static_cast<uint32_t>(kChannelHeader + 8 * c.keys.size()));
      for (const Keyframe& k : c.keys) {
        w.i16(k.value);
        w.i16(k.frame);
        w.i16(k.ease_in);
        w.i16(k.ease_out);
      }
    }
  }
}

}  // namespace animkit::monster_hunter::fu
