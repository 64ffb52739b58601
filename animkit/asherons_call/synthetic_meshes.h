// A textured humanoid built in code (issue 28): the synthetic humanoid's Setup with default
// scales, a box GfxObj per part, and Surfaces covering a solid colour, a clip map and every
// decoded pixel format (P8, INDEX16, R8G8B8, A8R8G8B8, R5G6B5, A4R4G4B4, DXT1/3/5) — for
// `animkit demo`, the validator test, fuzz seeds and the bench. Written with the module's own
// writers: the tests of the layouts use bytes built from the spec instead.
#pragma once

#include <cstdint>
#include <vector>

#include "animkit/asherons_call/dat_writer.h"

namespace animkit::asherons_call {

// The objects: Setup 0x02000002 (parts 0x01000001..5), GfxObjs, Surfaces 0x08000001.., their
// SurfaceTextures, textures and palettes. The humanoid's table and animations are not included.
std::vector<DatObject> textured_humanoid_objects();
// The humanoid dat (table, animations) with those objects: `DAT --setup 0x02000002`.
std::vector<uint8_t> textured_humanoid_dat();

}  // namespace animkit::asherons_call
