// The module's writer for new clips and resources: a clip from keys given as frames and values
// (encoded as the format stores them), wrapped in the chunks and resources of the container.
// Used by the tests, the demo and the benchmarks (fixtures are made, never copied).
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "animkit/warriors/character.h"
#include "animkit/warriors/clip.h"
#include "animkit/warriors/container.h"

namespace animkit::warriors {

struct ClipBuilder {
  std::string name = "clip";
  int frames = 30;  // F; the duration is F / 30 s
  float displacement_x = 0, displacement_y = 0;
  uint32_t flags = 0;
  std::vector<std::pair<int, Vec3>> velocity;                  // section A keys (frame, m/s)
  std::vector<std::pair<int, Vec3>> translation;               // section B keys (frame, m)
  std::map<int, std::vector<std::pair<int, Quat>>> rotations;  // section C by bone
  std::vector<AnimEvent> events;

  // Keys must have ascending frames, the first at 0, gaps of 1-255 frames. Quaternions are
  // normalised and turned to w >= 0 before encoding.
  AnmClip build() const;
};

// The .anm resource: chunk 0x00 then 0x02 (or 0x02 first when `descriptor_first`). Hashes:
// crc32("<name>.anm") for the resource, crc32("<name>.anm.b.cnk") for 0x00,
// crc32("<name>.anm.a.cnk") for 0x02 (a choice, README).
Resource make_anm_resource(const AnmClip& clip, bool descriptor_first = false);
// A character resource: the clips' pairs, then 0x08 (slots for `anim_ids`: slot of anim_ids[i]
// names clip i) and 0x45 (722 records, the given flags per id).
Resource make_character_resource(const std::string& name, const std::vector<AnmClip>& clips,
                                 const std::vector<int>& anim_ids,
                                 const std::map<int, uint16_t>& range_flags);
Chunk make_bone_offsets_chunk(const BoneOffsets& offsets);
Pack make_pack(std::vector<Resource> resources);

}  // namespace animkit::warriors
