#include "animkit/monster_hunter/clip_p3rd.h"

#include <fmt/format.h>

#include <optional>

#include "animkit/core/error.h"
#include "animkit/core/work_budget.h"

namespace animkit::monster_hunter::p3rd {

Clip read_clip(Reader& r, KeyBlock* block) {
  const size_t start = r.pos();
  const uint32_t count = r.u32();
  const uint32_t size = r.u32();
  if (size < kClipHeader || size > r.size() - start) {
    r.fail_at(start + 4, fmt::format("clip size {:#x} outside {:#x}..{:#x}", size, kClipHeader,
                                     r.size() - start));
  }
  Clip out;
  out.loop = r.u32();
  out.loop_start = r.f32();
  const size_t clip_end = start + size;
  // Every key of the clip lies inside it after its header: one allocation holds them all,
  // unless the caller gives a block (read_pack: one for the whole pack).
  std::optional<KeyBlock> own;
  if (!block) block = &own.emplace((size - kClipHeader) / sizeof(Keyframe));
  KeyBlock& keys = *block;
  const size_t keys_before = keys.used();
  for (uint32_t t = 0; t < count; ++t) {
    const size_t track_start = r.pos();
    if (clip_end - track_start < kTrackHeader) {
      r.fail_at(track_start, fmt::format("track {} header runs past the clip end {:#x}", t,
                                         r.base() + clip_end));
    }
    const uint16_t channels = r.u16();
    const uint16_t track_size = r.u16();
    if (track_size < kTrackHeader || track_size > clip_end - track_start) {
      r.fail_at(track_start + 2, fmt::format("track size {:#x} outside {:#x}..{:#x}", track_size,
                                             kTrackHeader, clip_end - track_start));
    }
    const size_t track_end = track_start + track_size;
    Track tr;
    for (uint16_t c = 0; c < channels; ++c) {
      const size_t ch_start = r.pos();
      if (track_end - ch_start < kChannelHeader) {
        r.fail_at(ch_start, "channel header runs past the track end");
      }
      const uint16_t bit = r.u16();
      const uint16_t key_count = r.u16();
      const uint32_t ch_size = r.u32();
      if (ch_size != kChannelHeader + 8u * key_count) {
        r.fail_at(ch_start + 4,
                  fmt::format("channel size {:#x} is not 8 + 8 x {} keys", ch_size, key_count));
      }
      if (ch_size > track_end - ch_start) {
        r.fail_at(ch_start + 4, fmt::format("channel size {:#x} runs past the track end", ch_size));
      }
      tr.channels.push_back({bit, keys.read(r, key_count)});
    }
    if (r.pos() != track_end) {
      r.fail_at(track_start + 2, fmt::format("track size {:#x}, its channels end at {:#x}",
                                             track_size, r.pos() - track_start));
    }
    out.tracks.push_back(std::move(tr));
  }
  if (r.pos() != clip_end) {
    r.fail_at(start + 4,
              fmt::format("clip size {:#x}, its tracks end at {:#x}", size, r.pos() - start));
  }
  charge_work(Work::kKey, keys.used() - keys_before, "monster_hunter: clip keys");  // issue 30: the run's work
  return out;
}

namespace {
size_t track_bytes(const Track& t) {
  size_t size = kTrackHeader;
  for (const Channel& c : t.channels) size += kChannelHeader + 8 * c.keys.size();
  return size;
}
}  // namespace

uint32_t clip_size(const Clip& clip) {
  size_t size = kClipHeader;
  for (const Track& t : clip.tracks) size += track_bytes(t);
  return static_cast<uint32_t>(size);
}

std::string check_clip(const Clip& clip) {
  for (size_t t = 0; t < clip.tracks.size(); ++t) {
    const Track& tr = clip.tracks[t];
    if (tr.channels.size() > 0xFFFF) return fmt::format("track {} has over 0xFFFF channels", t);
    for (const Channel& c : tr.channels) {
      if (c.keys.size() > 0xFFFF) {
        return fmt::format("track {} channel {:#05x} has {} keys (at most 0xFFFF)", t, c.bit,
                           c.keys.size());
      }
    }
    if (track_bytes(tr) > 0xFFFF) {
      return fmt::format("track {} is {:#x} bytes, over the u16 size field", t, track_bytes(tr));
    }
  }
  return {};
}

void write_clip(const Clip& clip, Writer& w) {
  if (std::string why = check_clip(clip); !why.empty()) throw Error("MHP3rd clip: " + why);
  w.u32(static_cast<uint32_t>(clip.tracks.size()));
  w.u32(clip_size(clip));
  w.u32(clip.loop);
  w.f32(clip.loop_start);
  for (const Track& t : clip.tracks) {
    w.u16(static_cast<uint16_t>(t.channels.size()));
    w.u16(static_cast<uint16_t>(track_bytes(t)));
    for (const Channel& c : t.channels) {
      w.u16(c.bit);
      w.u16(static_cast<uint16_t>(c.keys.size()));
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

}  // namespace animkit::monster_hunter::p3rd
