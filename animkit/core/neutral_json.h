// The JSON form of the neutral model (Skeleton + Clips): animkit's first registered format,
// handy for hand-written test data and as the exchange form of `dump --json`.
//
//   {"animkit": "neutral",
//    "skeleton": {"joints": [{"name": "hips", "parent": -1, "translation": [0, 1, 0],
//                             "rotation": [0, 0, 0, 1], "scale": [1, 1, 1]}, ...]},
//    "clips": [{"name": "walk", "duration": 1.0, "frame_rate": 30, "looping": true,
//               "tracks": [{"joint": "hips", "channel": "rotation", "interpolation": "slerp",
//                           "times": [0, 1], "values": [[0, 0, 0, 1], [0, 0.7071, 0, 0.7071]],
//                           "in_slopes": [...], "out_slopes": [...]}],
//               "events": [{"time": 0.5, "name": "step", "payload": {}}]}]}
#pragma once

#include "animkit/core/json_util.h"
#include "animkit/core/registry.h"

namespace animkit {

Json to_json(const Skeleton& skeleton);
Json to_json(const Clip& clip, const Skeleton& skeleton);
Json to_json(const Animated& animated);
// Throws animkit::Error on a wrong shape, an unknown joint, or a model that fails validation.
Animated animated_from_json(const Json& j);

// Registers the neutral JSON format ("neutral-json") as the engine "core".
void register_neutral_format(Registry& registry);

}  // namespace animkit
