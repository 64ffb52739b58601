// The MHFU clip encoding (monster-hunter.txt, "Clips", fu.anim): sections of u32 tag, u32 count,
// u32 size; every size includes its own header; no alignment or padding (notes 4).
#pragma once

#include <cstdint>
#include <vector>

#include "animkit/core/reader.h"
#include "animkit/core/writer.h"
#include "animkit/monster_hunter/clip.h"

namespace animkit::monster_hunter::fu {

constexpr uint32_t kClipTag = 0x80000002;     // clip header: tag, count, size, loop, loop_start
constexpr uint32_t kTrackTag = 0x80000000;    // | mask
constexpr uint32_t kChannelTag = 0x80120000;  // | bit
constexpr uint32_t kClipHeader = 0x14, kTrackHeader = 12, kChannelHeader = 12;

// Reads one clip at the reader's cursor and moves past it (its size word). Throws animkit::Error
// naming the offset on a wrong tag, a size that disagrees with the content, a mask that is not
// the OR of the channel bits, or a section running past its parent.
// `keys`: the block the keys go to (shared with other clips); null: a block of the clip's own.
Clip read_clip(Reader& reader, KeyBlock* keys = nullptr);
// The clip's size in bytes when written.
uint32_t clip_size(const Clip& clip);
// Appends the clip; counts, masks and sizes are derived. Throws when a channel bit does not fit
// the tag's low half.
void write_clip(const Clip& clip, Writer& writer);

}  // namespace animkit::monster_hunter::fu
