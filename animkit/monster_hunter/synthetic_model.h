// A synthetic model built in code from monster-hunter-model.md's layouts (never copied from a
// game): a PMO of quad strips skinned through bone palettes, a TMH bank with every decoded pixel
// format, and a model PAC (skeleton, PMO, TMH, pack) around them. For the demo, tests and fuzz.
#pragma once

#include <cstdint>
#include <vector>

#include "animkit/monster_hunter/synthetic.h"
#include "animkit/monster_hunter/tmh.h"

namespace animkit::monster_hunter {

// One mesh of `groups` quads (a 4-index strip each, the VTYPE of model.md 3.6: u8 weights x 2,
// u16 UV, s8 normal, s16 position, u8 indices), group g patching slots 0 and 1 with bones
// g % bones and (g + 1) % bones; one material per TMH image, cycled over the groups; the last
// group an unindexed triangle list in f32 positions with 8888 colours, rigid on its slot 0.
std::vector<uint8_t> synthetic_pmo(int groups, int bones, int images);

// Images in the formats 5.2 decodes: CLUT4 (8888 CLUT), CLUT8 (5551 CLUT), 5650, 8888, DXT1,
// 4444 (not swizzled), CLUT32 (a short swizzle band).
TmhBank synthetic_tmh();

// A model PAC: 0 skeleton, 1 PMO, 2 TMH, 3 pack, zero padded to 0x800.
std::vector<uint8_t> synthetic_model_pac(const Monster& monster, int groups);

}  // namespace animkit::monster_hunter
