#include "animkit/warriors/builder.h"

#include <fmt/format.h>

namespace animkit::warriors {

namespace {
Key position_key(int delta, Vec3 v) {
  return {static_cast<uint8_t>(delta), 0, encode_position(v.x, 0), encode_position(v.y, 1),
          encode_position(v.z, 2)};
}
Key rotation_key(int delta, Quat q) {
  q = normalize(q);
  if (q.w < 0) q = -q;  // w is rebuilt non-negative
  return {static_cast<uint8_t>(delta), 0, encode_rotation_component(q.x),
          encode_rotation_component(q.y), encode_rotation_component(q.z)};
}
template <class T, class Make>
Channel channel(const std::vector<std::pair<int, T>>& keys, Make make) {
  Channel c;
  int prev = 0;
  for (size_t i = 0; i < keys.size(); ++i) {
    const int delta = i == 0 ? 0 : keys[i].first - prev;
    if (i == 0 ? keys[i].first != 0 : (delta < 1 || delta > 255)) {
      throw Error(fmt::format("key {} at frame {}: keys start at 0 and step 1-255 frames", i,
                              keys[i].first));
    }
    prev = keys[i].first;
    c.keys.push_back(make(delta, keys[i].second));
  }
  return c;
}
}  // namespace

AnmClip ClipBuilder::build() const {
  AnmClip clip;
  Descriptor& d = clip.descriptor;
  d.displacement_x = displacement_x;
  d.displacement_y = displacement_y;
  d.duration = static_cast<float>(frames) / 30.0f;
  d.flags = flags;
  // The name, NUL, then as much of the tool's "<name>.anm.b.cnk" as fits.
  const std::string cnk = name + ".anm.b.cnk";
  std::string field = name.substr(0, 29);
  field.push_back('\0');
  field += cnk;
  d.set_name(field);
  Keyframes& k = clip.keyframes;
  if (!velocity.empty()) k.section_a.push_back(channel(velocity, position_key));
  if (!translation.empty()) k.section_b.push_back(channel(translation, position_key));
  for (const auto& [bone, keys] : rotations) {
    if (bone < 0 || bone >= kNumBones || keys.empty()) continue;
    d.set_bone(bone);
    k.section_c.push_back(channel(keys, rotation_key));
  }
  k.events = events;
  update_descriptor(d, k);
  const size_t size = section_bytes(k.section_a) + section_bytes(k.section_b) +
                      section_bytes(k.section_c) + k.events.size() * kEventSize;
  k.tail.assign((16 - size % 16) % 16, 0);  // chunk sizes are multiples of 16
  return clip;
}

Resource make_anm_resource(const AnmClip& clip, bool descriptor_first) {
  const std::string name = clip.descriptor.name_bytes();  // hashed as the bytes it is
  Resource r;
  r.header.name_hash = crc32(name + ".anm");
  Chunk kf = keyframes_chunk(clip, crc32(name + ".anm.b.cnk"));
  Chunk de = descriptor_chunk(clip, crc32(name + ".anm.a.cnk"));
  if (descriptor_first) {
    r.chunks = {de, kf};
  } else {
    r.chunks = {kf, de};
  }
  update_sizes(r);
  return r;
}

Resource make_character_resource(const std::string& name, const std::vector<AnmClip>& clips,
                                 const std::vector<int>& anim_ids,
                                 const std::map<int, uint16_t>& range_flags) {
  Resource r;
  r.header.name_hash = crc32(name);
  for (const AnmClip& c : clips) {
    const std::string n = c.descriptor.name_bytes();
    r.chunks.push_back(keyframes_chunk(c, crc32(n + ".anm.b.cnk")));
    r.chunks.push_back(descriptor_chunk(c, crc32(n + ".anm.a.cnk")));
  }
  // Character Data: 722 slots at +0, empty slots 0xFFFFFFFF, 2,912 bytes.
  Writer cd;
  std::vector<uint32_t> slots(kNumAnimIds, 0xFFFFFFFFu);
  for (size_t i = 0; i < anim_ids.size() && i < clips.size(); ++i) {
    if (anim_ids[i] >= 0 && anim_ids[i] < kNumAnimIds) {
      slots[anim_ids[i]] = static_cast<uint32_t>(clips.size() - 1 - i);
    }
  }
  for (uint32_t s : slots) cd.u32(s);
  cd.zeros(2912 - cd.pos());
  r.chunks.push_back(Chunk{{kCharacterData, 2912, 0, crc32(name + ".chr")}, cd.take(), 0});
  AnimRangeList list;
  list.records.resize(kNumAnimIds);
  for (auto& rec : list.records) rec.direction_y = 1000;
  for (const auto& [id, flags] : range_flags) {
    if (id >= 0 && id < kNumAnimIds) list.records[id].flags = flags;
  }
  list.tail.assign(11568 - 4 - 16 * kNumAnimIds, 0);
  Writer rl;
  write_range_list(rl, list);
  r.chunks.push_back(Chunk{{kAnimRangeList, 11568, 0, crc32(name + ".rng")}, rl.take(), 0});
  update_sizes(r);
  return r;
}

Chunk make_bone_offsets_chunk(const BoneOffsets& offsets) {
  Writer w;
  write_bone_offsets(w, offsets);
  return Chunk{{kBoneOffsets, 544, 0, 0}, w.take(), 0};
}

Pack make_pack(std::vector<Resource> resources) {
  Pack p;
  p.resources = std::move(resources);
  update_sizes(p);
  return p;
}

}  // namespace animkit::warriors
