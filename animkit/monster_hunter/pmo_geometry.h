// A PMO group's geometry (monster-hunter-model.md 3): its GE display list walked (3.1), the
// vertex type decoded (3.2, 3.3), the vertices read and scaled, the primitives turned into
// triangles (3.4).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "animkit/core/math.h"
#include "animkit/core/reader.h"
#include "animkit/monster_hunter/ge_color.h"
#include "animkit/monster_hunter/pmo.h"

namespace animkit::monster_hunter {

// 3.2 VTYPE fields and 3.3 the layout they give: byte offsets in a vertex, -1 when absent.
struct VertexType {
  uint32_t word = 0;
  int texcoord = 0, color = 0, normal = 0, position = 0, weight = 0, index = 0;
  int weight_count = 1, morph_count = 1;
  bool through = false;
  int weights_at = -1, uv_at = -1, color_at = -1, normal_at = -1, position_at = -1;
  int size = 0;    // one copy, padded to its largest component
  int stride = 0;  // size x morph count
};
VertexType vertex_type(uint32_t vtype);

struct PmoVertex {
  std::array<float, 8> weights{};  // weight_count of them (0 when the type has none)
  std::array<float, 2> uv{};       // x UV scale + UV offset
  std::optional<Rgba> color;
  std::optional<Vec3> normal;      // as stored (not normalised)
  Vec3 position;                   // x header or mesh scale
};

struct GroupGeometry {
  std::optional<VertexType> type;  // none: the list sets no VTYPE and draws nothing (9.4)
  std::vector<PmoVertex> vertices;
  std::vector<std::array<uint32_t, 3>> triangles;  // FFACE 0 orientation, counter-clockwise
  int draws = 0;                   // PRIMs that drew
};

// Group `g` of the PMO in `bytes` (its geometry region in this file). Throws animkit::Error at
// the offset of a command, index or vertex that does not fit.
GroupGeometry decode_group(Bytes bytes, const PmoModel& model, size_t g);

}  // namespace animkit::monster_hunter
