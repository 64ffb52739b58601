// JSON of the Monster Hunter structures, every field by the spec's name (for `animkit dump`).
#pragma once

#include "animkit/core/json_util.h"
#include "animkit/core/text.h"  // to_hex, for the dumps
#include "animkit/monster_hunter/pack.h"
#include "animkit/monster_hunter/skeleton.h"

namespace animkit::monster_hunter {

// A float of the files as dump writes it: the shortest decimal, or for a non-finite value (bind
// vectors and loop_start are raw f32) the strings "NaN", "Infinity", "-Infinity", which JSON
// numbers cannot hold (a plain number would print as null and lose which it was).
Json dump_float(float v);
Json to_json(const Keyframe& key);
Json to_json(const Clip& clip, Game game);
Json to_json(const Skeleton& skeleton);
// streams -> slots (clip index or null); clips -> tracks -> channels -> keys.
Json to_json(const AnimPack& pack);

}  // namespace animkit::monster_hunter
