// What `animkit import` (and Python's import_gltf) may hold, bounded by --max-memory before the
// work is done (issue 32, item 5, "key counts and output size bounded by --max-memory before
// writing"). The rule, in two checks:
//
// 1. Decoding (gltf::read, before any key is decoded): from the accessors' counts, every channel's
//    keys as the neutral clip holds them (track_key_bytes per key) plus the decode buffers of the
//    channel being read (4 bytes per time and per value component) must stay within
//    --max-memory. Each accessor is first checked against its buffer, so a claimed count its
//    buffer cannot hold (2^31 keys in a few bytes) is refused as not fitting, never allocated.
// 2. Writing (check_import_budget, after the template fit and before the format's writer): the
//    neutral keys held plus what the format's layout samples (Format::import_joint_frame_bytes
//    per animated joint per frame, frames = duration x rate + 1 at the format's rate, else
//    --frame-rate, else the clip's) must stay within --max-memory. The clips counted are the one
//    --clip names, else all of them.
//
// Both are lower bounds of what the run holds (the file and tinygltf's copy of its buffers come on
// top; the CLI's counting allocator, tools/animkit/memory_budget.h, still bounds the whole run):
// they refuse early, naming the file, the animation and the budget, what could never fit.
#pragma once

#include <cstdint>
#include <string>

#include "animkit/core/registry.h"

namespace animkit::gltf {

// Bytes one key of a neutral track holds: its float time and its value (`value_size` bytes:
// 12 for a Vec3, 16 for a Quat), and the two slopes of a Hermite key.
constexpr uint64_t track_key_bytes(uint64_t value_size, bool hermite) {
  return 4 + value_size * (hermite ? 3 : 1);
}

// The bytes a clip's keys hold, by track_key_bytes.
uint64_t clip_key_bytes(const Clip& clip);

// Check 2 above: throws animkit::Error ("FILE: import --as FORMAT: animation 'NAME' ...: N
// bytes ..., over the memory limit of M bytes (--max-memory)") when the request cannot fit.
// `file` names the glTF in the error.
// `max_memory` 0: limits().max_memory (--max-memory).
void check_import_budget(const ImportRequest& request, const Format& format, const std::string& file,
                         uint64_t max_memory = 0);

}  // namespace animkit::gltf
