// `animkit warriors rebuild FILE --put CLIP.anm -o OUT` (issue 17): an .anm clip put back into a
// character resource or a pack in place of the clip it replaces. A clip is two chunks (0x00 + 0x02,
// warriors.txt "Where clips are found"); the replacement writes the new clip's data into those two
// chunks and keeps everything else: the chunks' types, zero words and CRC-32 name hashes, their
// order, the Character Data slots (which count clips from the last one, so the clip count and
// order never change), the Anim Range List, every other chunk and resource, and the file's tail.
// The chunk sizes, the resource's data_size and the pack's size follow the size change
// (warriors-container.md, "Headers"), as differences, so a field that was off stays as it was.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "animkit/warriors/clip.h"
#include "animkit/warriors/container.h"

namespace animkit::warriors {

// Where a clip was put: the resource (index in the entry), the two chunks, the name replaced.
struct ClipPlacement {
  size_t resource = 0;
  size_t keyframes_chunk = 0, descriptor_chunk = 0;
  std::string replaced;  // the descriptor name (bytes) of the clip that was there
  bool changed = false;  // the bytes differ from what was there
};

// Which clips `clip` replaces: those whose descriptor name (up to its NUL) is `clip`'s, or with
// `anim_id` the one each character resource's Character Data gives that id
// (CharacterInstance_GetAnim). Throws animkit::Error when none matches.
std::vector<ClipPlacement> put_clip(WadEntry& entry, const AnmClip& clip,
                                    std::optional<int> anim_id = std::nullopt);

}  // namespace animkit::warriors
