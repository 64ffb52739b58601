// What a creature's parts draw (asherons-call-meshes.md 2, 7, 8, 12): each Setup part's GfxObj
// read from the dat, its drawing polygons fanned into triangles per Surface, every Surface a
// material and every RenderSurface an RGBA image, the part's mesh rigidly bound (weight 1) to its
// `part_<i>` joint at the rest pose with the part's default_scale. For `export`/`view DAT
// --setup ID` (Document::mesh_set) and the creature's `info`/`dump`.
#pragma once

#include <string>
#include <vector>

#include "animkit/asherons_call/dat.h"
#include "animkit/asherons_call/gfx_obj.h"
#include "animkit/asherons_call/setup.h"
#include "animkit/core/json_util.h"
#include "animkit/core/mesh.h"
#include "animkit/core/skeleton.h"

namespace animkit::asherons_call {

// 8, step 1: the invisible anchor part that never gets a mesh.
inline constexpr uint32_t kInvisibleAnchorGfxObj = 0x010001EC;

struct CreatureMeshes {
  MeshSet set;
  std::vector<std::string> notes;  // what was left out or replaced (12.4, 12.7, 12.10)
  Json summary = Json::object();   // meshes, vertex counts, materials, textures and formats
};

// The meshes of `setup`'s parts over `skeleton` (joints found by name, part_joint_name). Throws
// animkit::Error for an object that does not parse, or whose id, tail or vertex type is wrong
// (12.2); a missing object gives a note and no mesh or a placeholder image (12.4, 12.7).
CreatureMeshes creature_meshes(const DatFile& dat, const Setup& setup, const Skeleton& skeleton);

// 7: the triangles of one GfxObj in part-local AC space, one list per (surface index, double
// sided) in order of first use; for tests and the summary.
struct PartTriangles {
  uint32_t surface_id = 0;
  bool double_sided = false;
  std::vector<Vec3> positions, normals;       // AC part space, per glTF vertex
  std::vector<std::array<float, 2>> uvs;
  std::vector<uint32_t> indices;
};
std::vector<PartTriangles> gfx_obj_triangles(const GfxObj& g, std::vector<std::string>& notes);

// 8: sRGB -> linear of one 8-bit channel.
float srgb_to_linear(uint8_t c);

}  // namespace animkit::asherons_call
