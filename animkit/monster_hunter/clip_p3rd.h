// The MHP3rd clip encoding (monster-hunter.txt, "Clips", p3rd.anim): the MHFU nesting with compact
// headers and no tags. Clip: u32 tracks, u32 size, u32 loop, f32 loop_start; track: u16
// channels, u16 size; channel: u16 bit, u16 keys, u32 size = 8 + 8 x keys (notes 4).
#pragma once

#include <cstdint>
#include <string>

#include "animkit/core/reader.h"
#include "animkit/core/writer.h"
#include "animkit/monster_hunter/clip.h"

namespace animkit::monster_hunter::p3rd {

constexpr uint32_t kClipHeader = 0x10, kTrackHeader = 4, kChannelHeader = 8;

// `keys`: the block the keys go to (shared with other clips); null: a block of the clip's own.
Clip read_clip(Reader& reader, KeyBlock* keys = nullptr);
uint32_t clip_size(const Clip& clip);
// Empty when the clip fits the encoding; else why not (a track over 0xFFFF bytes, a channel
// over 0xFFFF keys).
std::string check_clip(const Clip& clip);
// Appends the clip; throws animkit::Error when check_clip() fails.
void write_clip(const Clip& clip, Writer& writer);

}  // namespace animkit::monster_hunter::p3rd
