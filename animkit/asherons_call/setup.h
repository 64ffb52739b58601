// The Setup portal object (0x02xxxxxx), byte by byte (asherons-call-dat-container.md section 5):
// a creature's parts, optional parents and scales, holding and connection locations, placement
// frames (rest poses), physics spheres, lights and default objects. Read into structs that keep
// every field (flag-gated ones included) and written back identical.
#pragma once

#include <cstdint>
#include <vector>

#include "animkit/asherons_call/animation.h"
#include "animkit/core/json_util.h"
#include "animkit/core/reader.h"

namespace animkit::asherons_call {

// Setup flags (container page 5, field 2).
inline constexpr uint32_t kSetupHasParent = 0x1;
inline constexpr uint32_t kSetupHasDefaultScale = 0x2;
inline constexpr uint32_t kSetupAllowFreeHeading = 0x4;
inline constexpr uint32_t kSetupHasPhysicsBSP = 0x8;
inline constexpr uint32_t kNoParent = 0xFFFFFFFFu;

// Placement keys (container page 5, "Keys").
inline constexpr uint32_t kPlacementDefault = 0;
inline constexpr uint32_t kPlacementResting = 101;

// Fields 7 and 8: {i32 key, i32 part_index, Frame}, 36 bytes.
struct LocationType {
  int32_t key = 0;
  int32_t part_index = 0;
  AFrame frame;
  friend bool operator==(const LocationType&, const LocationType&) = default;
};

// Field 9: {u32 key, AnimationFrame(num_parts)}.
struct PlacementFrame {
  uint32_t key = 0;
  AnimationFrame frame;
  friend bool operator==(const PlacementFrame&, const PlacementFrame&) = default;
};

struct CylSphere {  // field 10, 20 bytes
  Vec3 origin{};
  float radius = 0;
  float height = 0;
  friend bool operator==(const CylSphere&, const CylSphere&) = default;
};

struct Sphere {  // fields 11, 16, 17: 16 bytes
  Vec3 origin{};
  float radius = 0;
  friend bool operator==(const Sphere&, const Sphere&) = default;
};

// Field 18, 48 bytes. Colour bytes are B, G, R, A (one u32 here).
struct LightInfo {
  int32_t key = 0;
  AFrame frame;
  uint32_t color = 0;
  float intensity = 0;
  float falloff = 0;
  float cone_angle = 0;
  friend bool operator==(const LightInfo&, const LightInfo&) = default;
};

struct Setup {
  uint32_t id = 0x02000000;
  uint32_t flags = 0;
  std::vector<uint32_t> parts;          // GfxObj ids (0x01...), num_parts = parts.size()
  std::vector<uint32_t> parent_index;   // flags & 1: one per part; 0xFFFFFFFF none
  std::vector<Vec3> default_scale;      // flags & 2: one per part
  std::vector<LocationType> holding_locations;
  std::vector<LocationType> connection_points;
  std::vector<PlacementFrame> placement_frames;
  std::vector<CylSphere> cyl_spheres;
  std::vector<Sphere> spheres;
  float height = 0, radius = 0, step_up_height = 0, step_down_height = 0;
  Sphere sorting_sphere, selection_sphere;
  std::vector<LightInfo> lights;
  uint32_t default_animation = 0, default_script = 0, default_motion_table = 0,
           default_sound_table = 0, default_script_table = 0;
  std::vector<uint8_t> tail;  // bytes after the object, kept for the round trip
  friend bool operator==(const Setup&, const Setup&) = default;

  // Container page 6: the rest pose is placement 101 (Resting), else 0 (Default); null if none.
  const PlacementFrame* rest_placement() const;
};

// Throws animkit::Error with the absolute offset; every count is guarded by the bytes left.
Setup read_setup(Bytes bytes);
std::vector<uint8_t> write_setup(const Setup& setup);
Json to_json(const Setup& setup);
// The `dump --json` form back; errors name the JSON path. Byte-exact with write_setup.
Setup setup_from_json(const Json& j);
// Binary Setup by its layout: id 0x02xxxxxx, flags within the four known bits, parts that fit.
bool looks_like_setup(Bytes head);

}  // namespace animkit::asherons_call
