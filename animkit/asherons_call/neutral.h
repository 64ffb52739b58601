// Motion tables and animations as neutral clips (for `animkit export`): each cycle and link of
// a table as one clip over the parts; a part hierarchy from the parts JSON, or flat (every part
// a child of the object's root joint, which carries the pos_frames motion).
#pragma once

#include "animkit/asherons_call/assets.h"
#include "animkit/asherons_call/sequence.h"
#include "animkit/core/registry.h"

namespace animkit::asherons_call {

Animated table_to_neutral(const MotionTable& table, const AnimationStore& store,
                          const Parts* parts);
Animated animation_to_neutral(const Animation& animation, const Parts* parts);

}  // namespace animkit::asherons_call
