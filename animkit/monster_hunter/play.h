// `animkit play` for Monster Hunter: a scripted scenario over the engine's players, one trace line
// per game frame.
//
//   {"engine": "monster_hunter", "skeleton": "s.bin", "pack": "p.bin", "game": "mhfu", "em": 75,
//    "speed": 1, "joints": [0, 5],
//    "steps": [{"play": 1}, {"advance": 10}, {"play": 24, "parts": [1]}, {"advance": 5}]}
//
// MHFU: "play" is an entry (parts optional); MHP3rd: "play" is a clip id. "advance" runs that many
// game frames, each moving every part's phase by "speed" clip frames (CLIP_BLOCK SPEED, notes 5).
#pragma once

#include <filesystem>
#include <iosfwd>

#include "animkit/core/registry.h"

namespace animkit::monster_hunter {

int play(const Json& scenario, const std::filesystem::path& base, const PlayOptions& options,
         std::ostream& out);

}  // namespace animkit::monster_hunter
