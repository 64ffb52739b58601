// The SurfaceTexture portal object (0x05xxxxxx, asherons-call-meshes.md 5.1): the RenderSurfaces
// a textured Surface draws with (5.3: the first one is used). Byte for byte, a tail kept.
#pragma once

#include <cstdint>
#include <vector>

#include "animkit/core/json_util.h"
#include "animkit/core/reader.h"

namespace animkit::asherons_call {

inline constexpr uint8_t kTypeSurfaceTexture = 0x05;

struct SurfaceTexture {
  uint32_t id = 0x05000000;
  uint32_t unknown = 0;     // DRW's "data category"
  uint8_t texture_kind = 2; // 1 Undefined, 2 Texture2D, 3 Texture3D, 4 Cube, 5 Movie2D
  std::vector<uint32_t> textures;  // RenderSurface ids (0x06 / 0x07)
  std::vector<uint8_t> tail;
  friend bool operator==(const SurfaceTexture&, const SurfaceTexture&) = default;
};

SurfaceTexture read_surface_texture(Bytes bytes, uint64_t base = 0);
std::vector<uint8_t> write_surface_texture(const SurfaceTexture& s);
Json to_json(const SurfaceTexture& s);

}  // namespace animkit::asherons_call
