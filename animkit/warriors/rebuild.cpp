#include "animkit/warriors/rebuild.h"

#include <fmt/format.h>

#include <algorithm>

#include "animkit/warriors/character.h"

namespace animkit::warriors {

namespace {

// Replaces a chunk's data; returns the size change (the chunk header's size follows it).
int64_t replace_data(Chunk& chunk, std::vector<uint8_t> data) {
  const int64_t change =
      static_cast<int64_t>(data.size()) - static_cast<int64_t>(chunk.data.size());
  chunk.header.size = static_cast<uint32_t>(static_cast<int64_t>(chunk.header.size) + change);
  chunk.data = std::move(data);
  return change;
}

std::vector<Resource*> resources_of(WadEntry& entry) {
  std::vector<Resource*> out;
  if (Pack* p = std::get_if<Pack>(&entry.content)) {
    for (Resource& r : p->resources) out.push_back(&r);
  } else {
    out.push_back(&std::get<Resource>(entry.content));
  }
  return out;
}

uint64_t written_size(const WadEntry& entry) {
  uint64_t n = 0;
  const auto resource = [&](const Resource& r) {
    n += 16;
    for (const Chunk& c : r.chunks) n += 16 + c.data.size();
  };
  if (const Pack* p = std::get_if<Pack>(&entry.content)) {
    n += 16;
    for (const Resource& r : p->resources) resource(r);
  } else {
    resource(std::get<Resource>(entry.content));
  }
  return n;
}

}  // namespace

std::vector<ClipPlacement> put_clip(WadEntry& entry, const AnmClip& clip,
                                    std::optional<int> anim_id) {
  if (anim_id && (*anim_id < 0 || *anim_id >= kNumAnimIds)) {
    throw Error(fmt::format("anim id {} is outside 0-{}", *anim_id, kNumAnimIds - 1));
  }
  const std::string name = clip.descriptor.name_text();
  const std::vector<uint8_t> keyframes = keyframes_chunk(clip, 0).data;
  const std::vector<uint8_t> descriptor = descriptor_chunk(clip, 0).data;
  if (keyframes.size() % 16 != 0) {
    throw Error(
        fmt::format("clip '{}': its keyframes take {} bytes, not a multiple of 16 (chunk "
                    "sizes always are, warriors-container.md)",
                    name, keyframes.size()));
  }
  std::vector<ClipPlacement> out;
  std::vector<Resource*> res = resources_of(entry);
  const uint64_t before = written_size(entry);
  int64_t pack_change = 0;
  for (size_t i = 0; i < res.size(); ++i) {
    const ClipSet set = read_clip_set(*res[i]);
    std::vector<size_t> targets;
    if (anim_id) {
      if (!set.character_data) continue;
      const int c = set.clip_for_anim(*anim_id);
      if (c >= 0) targets.push_back(static_cast<size_t>(c));
    } else {
      for (size_t c = 0; c < set.clips.size(); ++c) {
        if (set.clips[c].clip.descriptor.name_text() == name) targets.push_back(c);
      }
    }
    for (size_t c : targets) {
      const ClipEntry& e = set.clips[c];
      ClipPlacement p{i, e.keyframes_chunk, e.descriptor_chunk, e.clip.descriptor.name_bytes(),
                      false};
      Resource& r = *res[i];
      p.changed = r.chunks[e.keyframes_chunk].data != keyframes ||
                  r.chunks[e.descriptor_chunk].data != descriptor;
      const int64_t change = replace_data(r.chunks[e.keyframes_chunk], keyframes) +
                             replace_data(r.chunks[e.descriptor_chunk], descriptor);
      r.header.data_size = static_cast<uint32_t>(static_cast<int64_t>(r.header.data_size) + change);
      pack_change += change;
      out.push_back(std::move(p));
    }
  }
  if (Pack* p = std::get_if<Pack>(&entry.content)) {
    p->header.size = static_cast<uint32_t>(static_cast<int64_t>(p->header.size) + pack_change);
  }
  // A zero tail that padded the entry to 2,048 bytes (cut from the WAD) pads it likewise.
  const bool zero_tail =
      std::all_of(entry.tail.begin(), entry.tail.end(), [](uint8_t b) { return b == 0; });
  if (!entry.tail.empty() && zero_tail && (before + entry.tail.size()) % 2048 == 0) {
    entry.tail.assign((2048 - written_size(entry) % 2048) % 2048, 0);
  }
  if (out.empty()) {
    throw Error(anim_id ? fmt::format("no character resource gives anim id {} a clip", *anim_id)
                        : fmt::format("no clip named '{}' in the file (a clip is put in place of "
                                      "the clip of its name, or of --anim ID)",
                                      name));
  }
  return out;
}

}  // namespace animkit::warriors
