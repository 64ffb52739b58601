#include "animkit/shadow_of_war/anix_build.h"

#include <numeric>

#include "animkit/core/writer.h"
#include "animkit/shadow_of_war/keyword.h"

namespace animkit::shadow_of_war {

namespace {

void pad_to(Writer& w, size_t alignment) { w.align(alignment); }

std::vector<uint8_t> blockset_bytes(const BlocksetBuild& b) {
  const size_t header = 4 + 2 * b.groups.size() + 2 * b.named.size();
  size_t at = (header + 3) / 4 * 4 + 4 + 12 + 4 * b.times.size() + 4;
  std::vector<uint16_t> group_offsets, named_offsets;
  for (const auto& g : b.groups) {
    at = (at + 3) / 4 * 4;
    group_offsets.push_back(static_cast<uint16_t>(at));
    at += g.size();
  }
  for (const auto& n : b.named) {
    at = (at + 3) / 4 * 4;
    named_offsets.push_back(static_cast<uint16_t>(at));
    at += n.size();
  }
  Writer w;
  w.u32(static_cast<uint32_t>(b.named.size()));
  for (uint16_t o : group_offsets) w.u16(o);
  for (uint16_t o : named_offsets) w.u16(o);
  pad_to(w, 4);
  w.u32(kLithTag);
  w.u32(static_cast<uint32_t>(b.times.size()));
  w.u32(b.n2);
  w.u32(b.n3);
  for (float t : b.times) w.f32(t);
  w.u32(0);
  for (const auto& g : b.groups) pad_to(w, 4), w.bytes(g);
  for (const auto& n : b.named) pad_to(w, 4), w.bytes(n);
  pad_to(w, 4);
  return w.take();
}

}  // namespace

std::vector<uint8_t> build_anix_bytes(const AnixBuild& build) {
  const size_t clips = build.clips.size();
  std::vector<size_t> order = build.position_order;
  if (order.empty()) {
    order.resize(clips);
    std::iota(order.begin(), order.end(), size_t{0});
  }

  // Block chunk: each clip's blocksets, 16-aligned, in position order.
  Writer block;
  std::vector<std::vector<BlocksetEntry>> tables(clips);
  for (size_t k : order) {
    for (const BlocksetBuild& b : build.clips[k].blocksets) {
      pad_to(block, 16);
      const std::vector<uint8_t> bytes = blockset_bytes(b);
      BlocksetEntry e;
      e.offset = static_cast<uint32_t>(block.pos());
      e.size = static_cast<uint32_t>(bytes.size());
      e.t0 = b.times.empty() ? 0.f : b.times.front();
      e.t1 = b.times.empty() ? 0.f : b.times.back();
      tables[k].push_back(e);
      block.bytes(bytes);
    }
  }
  pad_to(block, 16);

  // Anim chunk: header, directory (directory order), records (position order), dictionary.
  Writer anim;
  anim.u32(0x10);
  anim.u32(static_cast<uint32_t>(clips));
  anim.u32(0);
  anim.u32(0);  // patched: event dictionary offset
  anim.zeros(8 * clips);
  for (size_t k : order) {
    const ClipBuild& c = build.clips[k];
    anim.patch<uint32_t>(0x10 + 8 * k, keyword_hash(c.name));
    anim.patch<uint32_t>(0x14 + 8 * k, static_cast<uint32_t>(anim.pos()));
    Record rec;
    rec.set_name(c.name);
    const size_t start = anim.pos();
    anim.bytes(rec.name_bytes);
    anim.u32(static_cast<uint32_t>(c.flag) << 16 |
             (kRecordFixedSize + 16 * c.blocksets.size() + 8 * c.named.size()));
    anim.u16(static_cast<uint16_t>(c.blocksets.size()));
    anim.u16(static_cast<uint16_t>(c.named.size()));
    anim.u16(static_cast<uint16_t>(c.codecs.size()));
    anim.u16(static_cast<uint16_t>(c.track_groups.size()));
    const RootSummary& r = c.root;
    for (float v : {r.start_position.x, r.start_position.y, r.start_position.z, r.start_rotation.x,
                    r.start_rotation.y, r.start_rotation.z, r.start_rotation.w, r.end_position.x,
                    r.end_position.y, r.end_position.z, r.end_rotation.x, r.end_rotation.y,
                    r.end_rotation.z, r.end_rotation.w})
      anim.f32(v);
    anim.u32(c.field_74);
    anim.u32(c.duration_ms);
    for (const std::string& codec : c.codecs) anim.fixed_string(codec, 4);
    anim.bytes(c.track_groups);
    for (size_t i = 0; i < c.track_groups.size(); ++i)
      anim.u16(i < c.remap.size() ? c.remap[i] : static_cast<uint16_t>(i));
    if (c.align_tables)
      while ((anim.pos() - start) % 4 != 0) anim.u8(0);
    for (const BlocksetEntry& e : tables[k]) {
      anim.u32(e.offset), anim.u32(e.size), anim.f32(e.t0), anim.f32(e.t1);
    }
    for (const NamedEntry& e : c.named) anim.u32(e.hash), anim.u32(e.offset);
    anim.bytes(c.key_strings);
    pad_to(anim, 4);  // part of the KeyString blob: a record ends where the next one starts
  }
  if (build.events) {
    anim.patch<uint32_t>(0x0C, static_cast<uint32_t>(anim.pos()));
    anim.bytes(write_event_dictionary(*build.events));
  }
  pad_to(anim, 4);

  // The file: header, track table, block chunk, anim chunk.
  Writer t;
  uint32_t tracks = 0;
  for (const TrackRun& run : build.track_runs) {
    t.u32(run.channel_hash);
    t.u32(static_cast<uint32_t>(run.node_hashes.size()));
    for (uint32_t n : run.node_hashes) t.u32(n);
    tracks += static_cast<uint32_t>(run.node_hashes.size());
  }
  Writer f;
  f.zeros(kHeaderSize);
  f.bytes(t.bytes());
  pad_to(f, 16);
  const uint32_t block_offset = static_cast<uint32_t>(f.pos());
  f.bytes(block.bytes());
  pad_to(f, 16);
  const uint32_t anim_offset = static_cast<uint32_t>(f.pos());
  f.bytes(anim.bytes());
  const uint32_t header[] = {kAnixMagic,
                             0x2C,
                             0x30,
                             static_cast<uint32_t>(f.pos()),
                             tracks,
                             kHeaderSize,
                             block_offset,
                             static_cast<uint32_t>(block.pos()),
                             anim_offset,
                             static_cast<uint32_t>(anim.pos()),
                             1,
                             1};
  for (size_t i = 0; i < 12; ++i) f.patch<uint32_t>(4 * i, header[i]);
  return f.take();
}

std::vector<uint8_t> aq03_group(float start_time, float end_time, uint32_t keys,
                                size_t payload_bytes) {
  Writer w;
  w.f32(start_time);
  w.f32(end_time);
  w.u32(keys);
  for (size_t i = 0; i < payload_bytes; ++i) w.u8(static_cast<uint8_t>(0x5A ^ i));
  return w.take();
}

std::vector<uint8_t> stri_group(const std::vector<std::string>& strings) {
  Writer w;
  for (const std::string& s : strings) w.c_string(s);
  return w.take();
}

std::vector<uint8_t> opaque_group(size_t bytes, uint8_t seed) {
  std::vector<uint8_t> out(bytes);
  for (size_t i = 0; i < bytes; ++i) out[i] = static_cast<uint8_t>(seed + 7 * i + 1) | 1;
  return out;
}

}  // namespace animkit::shadow_of_war
