// A PMO model's tables (monster-hunter-model.md 2): header, meshes, groups with their bone-palette
// patches (matrix slot -> skeleton bone), remap, materials, and whether each group's display list
// draws (notes 1: PALETTE_JOINT, EMPTY_GROUP). The geometry is decoded by pmo_geometry.h; the
// PMO itself stays raw bytes in its PAC entry.
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

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "animkit/core/reader.h"

namespace animkit::monster_hunter {

// model.md 2.2: a mesh record (0x18 in 1.0, 0x30 in 102).
struct PmoMesh {
  std::array<float, 4> scale{1, 1, 1, 1};  // 102: the mesh scale (x, y, z, w); 1.0: none
  std::array<float, 2> uv_scale{1, 1};
  std::array<float, 2> uv_offset{0, 0};    // 102 only
  uint32_t lighting = 0, blend = 0;
  uint8_t material_count = 0;
  uint16_t first_remap = 0, group_count = 0, first_group = 0;
};

// model.md 2.4: a material, 16 bytes.
struct PmoMaterial {
  uint32_t color = 0, ambient = 0;  // RGBA, red in the low byte
  uint8_t texture = 0xFF;           // TMH image index, 0xFF none
  uint32_t reserved = 0;
};

// model.md 2.3: a group record.
struct PmoGroup {
  uint8_t material = 0;  // index into its mesh's remap run
  uint16_t first_bone = 0;
  uint32_t list = 0, vertices = 0, indices = 0;  // offsets from the geometry region
  std::vector<std::pair<uint8_t, uint8_t>> bones;  // (matrix slot, skeleton bone) patches
  // True when the display list has a PRIM drawing at least one vertex; nullopt when the geometry
  // is not in this file (MHP3rd's companion geometry file).
  std::optional<bool> draws;
};

struct PmoModel {
  std::string version;  // "1.0" or "102"
  uint32_t size = 0;    // tables + geometry region
  float clip = 0;
  std::array<float, 3> scale{1, 1, 1};  // position scale (1.0)
  uint16_t material_count = 0;
  uint32_t meshes_at = 0, groups_at = 0, remap_at = 0, palette_at = 0, materials_at = 0,
           geometry_at = 0;
  std::vector<PmoMesh> meshes;
  std::vector<PmoGroup> groups;  // in table order (mesh by mesh)
  std::vector<uint8_t> remap;    // empty when remap_at is 0 (entry k is k)
  std::vector<PmoMaterial> materials;
  bool geometry_here = false;    // the region lies inside this PMO
};

bool sniff_pmo(Bytes bytes);
// Throws animkit::Error with the offset of a table that runs past the data.
PmoModel read_pmo(Bytes bytes);

}  // namespace animkit::monster_hunter
