#include "animkit/warriors/character.h"

#include <fmt/format.h>

#include <cstring>

namespace animkit::warriors {

// warriors.txt "The Anim Range List": a count word, then one 16-byte record per anim id.
AnimRangeList read_range_list(Reader& r) {
  AnimRangeList list;
  list.count = r.u32();
  if (list.count > r.remaining() / 16) {
    r.fail_at(r.pos() - 4, fmt::format("range list count {} needs {} bytes, {} left", list.count,
                                       uint64_t{list.count} * 16, r.remaining()));
  }
  list.records.resize(list.count);
  for (RangeRecord& rec : list.records) {
    rec.direction_x = r.i16();
    rec.direction_y = r.i16();
    rec.reach = r.f32();
    rec.far_range = r.i16();
    rec.damage = r.i16();
    rec.hit_code = r.i16();
    rec.flags = r.u16();
  }
  Bytes tail = r.bytes(r.remaining());
  list.tail.assign(tail.begin(), tail.end());
  return list;
}

void write_range_list(Writer& w, const AnimRangeList& list) {
  w.u32(list.count);
  for (const RangeRecord& rec : list.records) {
    w.i16(rec.direction_x);
    w.i16(rec.direction_y);
    w.f32(rec.reach);
    w.i16(rec.far_range);
    w.i16(rec.damage);
    w.i16(rec.hit_code);
    w.u16(rec.flags);
  }
  w.bytes(list.tail);
}

AnimList read_anim_list(Reader& r) {
  AnimList list;
  list.count = r.u32();
  if (list.count > r.remaining() / 8) {
    r.fail_at(r.pos() - 4, fmt::format("Anim List count {} needs {} bytes, {} left", list.count,
                                       uint64_t{list.count} * 8, r.remaining()));
  }
  list.records.resize(list.count);
  for (AnimListRecord& rec : list.records) {
    rec.hash = r.u32();
    rec.size = r.u32();
  }
  Bytes tail = r.bytes(r.remaining());
  list.tail.assign(tail.begin(), tail.end());
  return list;
}

void write_anim_list(Writer& w, const AnimList& list) {
  w.u32(list.count);
  for (const AnimListRecord& rec : list.records) {
    w.u32(rec.hash);
    w.u32(rec.size);
  }
  w.bytes(list.tail);
}

int rate_index(uint16_t flags) {
  if (flags & kRateFlag800) return 1;
  if (flags & kRateFlag1000) return 2;
  if (flags & kRateFlag2000) return 3;
  return 0;
}

BoneOffsets read_bone_offsets(Reader& r) {
  BoneOffsets b;
  for (auto& e : b.entries) {
    for (float& v : e) v = r.f32();
  }
  return b;
}

void write_bone_offsets(Writer& w, const BoneOffsets& b) {
  for (const auto& e : b.entries) {
    for (float v : e) w.f32(v);
  }
}

uint32_t CharacterData::slot(int anim_id) const {
  const size_t pos = size_t(anim_id) * 4;
  if (anim_id < 0 || pos + 4 > raw.size()) return 0xFFFFFFFFu;
  uint32_t v;
  std::memcpy(&v, raw.data() + pos, 4);
  return v;
}

int ClipSet::clip_for_anim(int anim_id) const {
  if (!character_data) return -1;
  const uint32_t s = character_data->slot(anim_id);
  if (s >= clips.size()) return -1;
  return static_cast<int>(clips.size() - 1 - s);  // counted from the last clip loaded
}

uint16_t ClipSet::range_flags(int anim_id) const {
  if (!range_list || anim_id < 0 || size_t(anim_id) >= range_list->records.size()) return 0;
  return range_list->records[anim_id].flags;
}

AnmClip read_clip(const Chunk& keyframes, const Chunk& descriptor) {
  if (descriptor.header.size != kDescriptorSize) {
    throw Error(fmt::format("Anim Data chunk of {} bytes, expected {}", descriptor.header.size,
                            kDescriptorSize),
                descriptor.offset + 4);
  }
  AnmClip clip;
  Reader dr(descriptor.data, descriptor.offset + 16);
  clip.descriptor = read_descriptor(dr);
  Reader kr(keyframes.data, keyframes.offset + 16);
  clip.keyframes = read_keyframes(kr, clip.descriptor);
  return clip;
}

ClipSet read_clip_set(const Resource& res) {
  ClipSet set;
  const auto& ch = res.chunks;
  for (size_t i = 0; i < ch.size(); ++i) {
    const uint32_t t = ch[i].header.type;
    if ((t == kAnimRotKeyframes || t == kAnimData) && i + 1 < ch.size()) {
      const uint32_t u = ch[i + 1].header.type;
      if ((t == kAnimRotKeyframes && u == kAnimData) ||
          (t == kAnimData && u == kAnimRotKeyframes)) {
        ClipEntry e;
        e.keyframes_chunk = t == kAnimRotKeyframes ? i : i + 1;
        e.descriptor_chunk = t == kAnimData ? i : i + 1;
        e.clip = read_clip(ch[e.keyframes_chunk], ch[e.descriptor_chunk]);
        set.clips.push_back(std::move(e));
        ++i;
        continue;
      }
    }
    Reader r(ch[i].data, ch[i].offset + 16);
    if (t == kCharacterData && !set.character_data) {
      set.character_data = CharacterData{ch[i].data};
    } else if (t == kAnimRangeList && !set.range_list) {
      set.range_list = read_range_list(r);
    } else if (t == kBoneOffsets && !set.bone_offsets && ch[i].data.size() >= 34 * 16) {
      set.bone_offsets = read_bone_offsets(r);
    } else if (t == kAnimList && !set.anim_list) {
      set.anim_list = read_anim_list(r);
    } else {
      set.other_chunks.push_back(i);
    }
  }
  return set;
}

Chunk keyframes_chunk(const AnmClip& clip, uint32_t hash) {
  Writer w;
  write_keyframes(w, clip.keyframes);
  Chunk c;
  c.header = {kAnimRotKeyframes, static_cast<uint32_t>(w.pos()), 0, hash};
  c.data = w.take();
  return c;
}

Chunk descriptor_chunk(const AnmClip& clip, uint32_t hash) {
  Writer w;
  write_descriptor(w, clip.descriptor);
  Chunk c;
  c.header = {kAnimData, static_cast<uint32_t>(w.pos()), 0, hash};
  c.data = w.take();
  return c;
}

}  // namespace animkit::warriors
