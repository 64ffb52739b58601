// What the engine rules need of a PMO model (notes 1: PALETTE_JOINT, EMPTY_GROUP): its groups,
// each group's bone-palette patch (matrix slot -> skeleton bone) and whether its display list
// draws anything. The rest of the PMO stays raw bytes in its PAC entry.
//
// Layout (the notes name the rules, not the layout; read from the public mhp_formats.pmo, see
// the README "Choices"): a 0x40 header "pmo\0", version "1.0\0" (MHFU) or "102\0" (MHP3rd),
// u32 size, f32 clip, f32 scale[3], u16 meshes, u16 materials, then u32 offsets of the mesh
// table, group table, remap table, bone palette, materials and geometry region. A mesh record
// (0x18 MHFU, 0x30 MHP3rd) ends with u8 materials, u8 0, u16 first material, u16 groups, u16
// first group; a group record is 16 bytes: u8 material, u8 bone count, u16 first bone, u32
// display list, vertex and index offsets in the geometry region; the palette is (u8 slot,
// u8 bone) pairs, each group's run after the previous one's.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "animkit/core/reader.h"

namespace animkit::monster_hunter {

struct PmoGroup {
  std::vector<std::pair<uint8_t, uint8_t>> bones;  // (matrix slot, skeleton bone) patches
  // True when the display list has a PRIM drawing at least one vertex; nullopt when the geometry
  // is not in this file (MHP3rd's companion geometry file).
  std::optional<bool> draws;
};

struct PmoModel {
  std::string version;  // "1.0" or "102"
  std::vector<PmoGroup> groups;  // in table order (mesh by mesh)
};

bool sniff_pmo(Bytes bytes);
// Throws animkit::Error with the offset of a table that runs past the data.
PmoModel read_pmo(Bytes bytes);

}  // namespace animkit::monster_hunter
