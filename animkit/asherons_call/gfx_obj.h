// The GfxObj portal object (0x01xxxxxx), byte by byte (asherons-call-meshes.md 3): a part's
// surfaces, vertex array, physics and drawing polygons and their BSP trees. Every field is kept
// (the BSP trees as their walked bytes, each compressed count with its stored width) so that a
// GfxObj writes back identical.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "animkit/core/json_util.h"
#include "animkit/core/math.h"
#include "animkit/core/reader.h"
#include "animkit/core/writer.h"

namespace animkit::asherons_call {

inline constexpr uint8_t kTypeGfxObj = 0x01;

// GfxObj flags (3.1, field 2).
inline constexpr uint32_t kGfxHasPhysics = 0x1;
inline constexpr uint32_t kGfxHasDrawing = 0x2;
inline constexpr uint32_t kGfxHasDidDegrade = 0x8;

// Polygon stippling bits that change the layout (3.3).
inline constexpr uint8_t kStippleNoPos = 0x04;
inline constexpr uint8_t kStippleNoNeg = 0x08;

// 1: a cu32 and the width it was stored in (1, 2 or 4 bytes), so a long form writes back long
// (meshes.md 12.1: decoded by the rule, never refused).
struct CompressedU32 {
  uint32_t value = 0;
  uint8_t width = 1;
  friend bool operator==(const CompressedU32&, const CompressedU32&) = default;
};
CompressedU32 read_cu32(Reader& r);
void write_cu32(Writer& w, CompressedU32 v);
uint8_t cu32_width(uint32_t value);  // the shortest form; values >= 2^30 have none (0)

// 3.2: one vertex with its key.
struct SWVertex {
  uint16_t key = 0;
  Vec3 origin{};
  Vec3 normal{};
  std::vector<std::array<float, 2>> uvs;
  friend bool operator==(const SWVertex&, const SWVertex&) = default;
};

// 3.3: one polygon with its key.
struct Polygon {
  uint16_t key = 0;
  uint8_t stippling = 0;
  int32_t sides_type = 0;
  int16_t pos_surface = 0;
  int16_t neg_surface = 0;
  std::vector<uint16_t> vertex_ids;  // n = size (u8 on disk)
  std::vector<uint8_t> pos_uv;       // n entries, or empty when NoPos
  std::vector<uint8_t> neg_uv;       // n entries when sides_type 2 without NoNeg, else empty
  bool stores_pos_uv() const { return (stippling & kStippleNoPos) == 0; }
  bool stores_neg_uv() const { return sides_type == 2 && (stippling & kStippleNoNeg) == 0; }
  friend bool operator==(const Polygon&, const Polygon&) = default;
};

struct GfxObj {
  uint32_t id = 0x01000000;
  uint32_t flags = 0;
  CompressedU32 num_surfaces;
  std::vector<uint32_t> surfaces;  // Surface ids (0x08...)
  int32_t vertex_type = 1;
  std::vector<SWVertex> vertices;  // count is a plain u32
  CompressedU32 num_physics_polygons;
  std::vector<Polygon> physics_polygons;      // flags & 1
  std::vector<uint8_t> physics_bsp;           // flags & 1: the tree's bytes (3.4)
  Vec3 sort_center{};
  CompressedU32 num_drawing_polygons;
  std::vector<Polygon> drawing_polygons;      // flags & 2
  std::vector<uint8_t> drawing_bsp;           // flags & 2
  uint32_t did_degrade = 0;                   // flags & 8
  std::vector<uint8_t> tail;                  // bytes after the object (an error of validate)
  // Counts of the BSP nodes walked (for info / dump).
  uint32_t physics_bsp_nodes = 0, drawing_bsp_nodes = 0;
  bool operator==(const GfxObj& o) const;
};

inline constexpr int kMaxBspDepth = 256;  // meshes.md 12.11

// Throws animkit::Error with the absolute offset (`base` is the object's offset in its file).
GfxObj read_gfx_obj(Bytes bytes, uint64_t base = 0);
std::vector<uint8_t> write_gfx_obj(const GfxObj& g);
Json to_json(const GfxObj& g);

}  // namespace animkit::asherons_call
