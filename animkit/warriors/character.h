// What a character data resource holds besides the clips (warriors.txt, "Where clips are found",
// "The Anim Range List"; warriors-container.md): the Anim Range List (0x45), Character Data
// (0x08, kept raw), the bone offsets (0x28), and the clips found in a resource.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "animkit/core/math.h"
#include "animkit/warriors/clip.h"
#include "animkit/warriors/container.h"

namespace animkit::warriors {

inline constexpr int kNumAnimIds = 722;

// One 16-byte record of the Anim Range List, warriors.txt "The Anim Range List (chunk 0x45)".
struct RangeRecord {
  int16_t direction_x = 0;  // +0x00 s16 x 0.001
  int16_t direction_y = 0;  // +0x02 s16 x 0.001
  float reach = 0;          // +0x04 0: no range data
  int16_t far_range = 0;    // +0x08 s16 x 0.001; 0 -> reach x 1.25
  int16_t damage = 0;       // +0x0a
  int16_t hit_code = 0;     // +0x0c bits 0-1 direction, 2-3 height, 4-5 strength
  uint16_t flags = 0;       // +0x0e 0x400 stuns; 0x800/0x1000/0x2000 pick the rate
  friend bool operator==(const RangeRecord&, const RangeRecord&) = default;

  float far() const { return far_range == 0 ? reach * 1.25f : far_range * 0.001f; }
  bool stuns() const { return (flags & 0x400) != 0; }
};

inline constexpr uint16_t kRateFlag800 = 0x800, kRateFlag1000 = 0x1000, kRateFlag2000 = 0x2000;

struct AnimRangeList {
  uint32_t count = kNumAnimIds;
  std::vector<RangeRecord> records;
  std::vector<uint8_t> tail;  // the zero padding to a multiple of 16
  friend bool operator==(const AnimRangeList&, const AnimRangeList&) = default;
};
AnimRangeList read_range_list(Reader& r);  // reads r to its end
void write_range_list(Writer& w, const AnimRangeList& list);

// The Anim List (chunk 0x4E, in warriors.glr): a count word, then {hash, size} records (564 on
// the disc; inferred: the clips SetDynamicAnimation can load), warriors.txt "Where clips are
// found". Kept byte for byte, the padding after the records as `tail`.
struct AnimListRecord {
  uint32_t hash = 0;
  uint32_t size = 0;
  friend bool operator==(const AnimListRecord&, const AnimListRecord&) = default;
};
struct AnimList {
  uint32_t count = 0;
  std::vector<AnimListRecord> records;
  std::vector<uint8_t> tail;
  friend bool operator==(const AnimList&, const AnimList&) = default;
};
inline constexpr uint32_t kAnimListCountOnDisc = 564;
AnimList read_anim_list(Reader& r);  // reads r to its end
void write_anim_list(Writer& w, const AnimList& list);

// CfgAnimSpeeds(default, f800, f1000, f2000), warriors.txt "Playback rate".
struct AnimSpeeds {
  std::array<float, 4> rates{0.75f, 0.8f, 1.0f, 0.9f};  // the values at runtime (level99)
  static AnimSpeeds data_defaults() { return {{1.0f, 0.85f, 1.0f, 1.0f}}; }
};
// Anim_RateMultiplier (0x00104a38): flag 0x800, 0x1000 or 0x2000 picks its rate, none the
// default. Several flags: the first of 0x800, 0x1000, 0x2000 (a choice, README).
int rate_index(uint16_t range_flags);
inline float anim_rate(const AnimSpeeds& s, uint16_t range_flags) {
  return s.rates[rate_index(range_flags)];
}

// Chunk Bone Offsets (0x28): 34 entries of four f32 (warriors-container.md).
struct BoneOffsets {
  std::array<std::array<float, 4>, kNumBones> entries{};
  friend bool operator==(const BoneOffsets&, const BoneOffsets&) = default;
  Vec3 offset(int bone) const { return {entries[bone][0], entries[bone][1], entries[bone][2]}; }
  // The pelvis bind height the sampler adds to section B's z: entry 1's float at byte +4
  // (warriors-container.md; Coney reads byte 4 of the chunk instead).
  float bind_height() const { return entries[1][1]; }
};
BoneOffsets read_bone_offsets(Reader& r);
void write_bone_offsets(Writer& w, const BoneOffsets& b);

// Character Data (0x08, 2,912 bytes) is kept raw. Its slots are read as 722 u32 at +0 (a choice,
// README): slot n holds the clip's place counted from the last clip loaded (0 = the last);
// values at or beyond the clip count are empty slots.
struct CharacterData {
  std::vector<uint8_t> raw;
  uint32_t slot(int anim_id) const;
  friend bool operator==(const CharacterData&, const CharacterData&) = default;
};

// A clip found in a resource: its two chunks' indices and the parsed clip.
struct ClipEntry {
  size_t keyframes_chunk = 0;
  size_t descriptor_chunk = 0;
  AnmClip clip;
};

// A resource read as clips and character tables (the chunks themselves stay in the Resource).
struct ClipSet {
  std::vector<ClipEntry> clips;  // in file order
  std::optional<CharacterData> character_data;
  std::optional<AnimRangeList> range_list;
  std::optional<BoneOffsets> bone_offsets;
  std::optional<AnimList> anim_list;
  std::vector<size_t> other_chunks;  // indices of chunks not read here

  // CharacterInstance_GetAnim: the clip an anim id gets, or -1 (slot counted from the last).
  int clip_for_anim(int anim_id) const;
  uint16_t range_flags(int anim_id) const;
};
// Pairs 0x00 + 0x02 chunks (in either order) into clips; reads 0x08, 0x45, 0x28, 0x4E.
ClipSet read_clip_set(const Resource& resource);
AnmClip read_clip(const Chunk& keyframes, const Chunk& descriptor);
// The two chunks of a clip (sizes set; hashes from the name: "<name>.anm.b.cnk" for 0x00).
Chunk keyframes_chunk(const AnmClip& clip, uint32_t hash);
Chunk descriptor_chunk(const AnmClip& clip, uint32_t hash);

}  // namespace animkit::warriors
