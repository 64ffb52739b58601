// The motion objects of a dat (container page 4): a MotionTable or Animation read from its
// chain, its leading id checked against the key, and the animations a table plays.
#pragma once

#include <cstdint>

#include "animkit/asherons_call/animation.h"
#include "animkit/asherons_call/dat.h"
#include "animkit/asherons_call/motion_table.h"
#include "animkit/asherons_call/sequence.h"
#include "animkit/asherons_call/setup.h"

namespace animkit::asherons_call {

// Throws animkit::Error "object 0x09000001: ..." (offsets inside the object) on a bad object,
// one whose own id differs from its key, or an absent id.
MotionTable motion_table_from_dat(const DatFile& dat, uint32_t id);
Animation animation_from_dat(const DatFile& dat, uint32_t id);
Setup setup_from_dat(const DatFile& dat, uint32_t id);
// Every animation the table's cycles, modifiers and links name that the dat holds.
AnimationStore animations_for(const DatFile& dat, const MotionTable& table);
// The animation ids a table names, ascending, each once.
std::vector<uint32_t> animation_ids(const MotionTable& table);

}  // namespace animkit::asherons_call
