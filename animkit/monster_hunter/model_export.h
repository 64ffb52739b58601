// A monster as players see it (monster-hunter-model.md 4, 6, 9): the PMO's groups as neutral
// meshes skinned to the skeleton through the running bone palette, the TMH images as RGBA8, the
// PMO materials pointing at them.
#pragma once

#include <string>
#include <vector>

#include "animkit/core/mesh.h"
#include "animkit/monster_hunter/pmo.h"
#include "animkit/monster_hunter/skeleton.h"
#include "animkit/monster_hunter/tmh.h"

namespace animkit::monster_hunter {

struct ModelSources {
  Bytes pmo;                          // the PMO entry's bytes
  const PmoModel* model = nullptr;    // read_pmo of them
  const TmhBank* textures = nullptr;  // may be null
  const Skeleton* skeleton = nullptr;  // null: unskinned meshes
};

// 4: the matrix slot -> bone table after each group's patch, in table order, never reset.
std::vector<std::array<int, 8>> running_palettes(const PmoModel& model);

// Appends the meshes, materials and images to `out` (skinned to `sources.skeleton`'s neutral
// skeleton: joint i is bone i), and to `notes` a line for each thing left out or repaired.
// Throws animkit::Error (PMO offsets) on geometry that cannot be read.
void add_model(const ModelSources& sources, MeshSet& out, std::vector<std::string>& notes);

}  // namespace animkit::monster_hunter
