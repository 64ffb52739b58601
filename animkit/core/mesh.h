// Neutral meshes, materials and images (DESIGN.md, "Meshes join the neutral model"): what an
// engine decodes its own mesh and texture formats into, and what the glTF export writes. Header
// only: plain data. They travel as a MeshSet beside the Animated (skeleton and clips) they are
// skinned to.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "animkit/core/json_util.h"
#include "animkit/core/math.h"

namespace animkit {

// One triangle list skinned to the skeleton: every per-vertex array is empty or holds one entry
// per position. A rigid part is a mesh whose vertices all weigh 1 on its joint.
struct Mesh {
  std::string name;
  std::vector<Vec3> positions;
  std::vector<Vec3> normals;                     // unit length
  std::vector<std::array<float, 2>> uvs;         // v = 0 is the image's top row
  std::vector<std::array<uint8_t, 4>> colors;    // RGBA8
  std::vector<std::array<uint16_t, 4>> joints;   // skeleton joint indices
  std::vector<std::array<float, 4>> weights;     // sum 1, unused slots 0
  std::vector<uint32_t> indices;                 // triangles, three per face
  int material = -1;                             // index into MeshSet::materials, -1 none
};

struct Material {
  enum class AlphaMode { kOpaque, kMask, kBlend };
  std::string name;
  std::array<float, 4> base_color{1, 1, 1, 1};
  int image = -1;  // index into MeshSet::images, -1 none
  AlphaMode alpha_mode = AlphaMode::kOpaque;
  float alpha_cutoff = 0.5f;  // kMask only
  Json extras = Json::object();  // the engine's raw words, kept for the curious
};

struct Image {
  std::string name;
  uint32_t width = 0, height = 0;
  std::vector<uint8_t> rgba;  // width * height * 4 bytes, rows top first
};

// The meshes of one model, skinned to the skeleton of the Animated they go with.
struct MeshSet {
  std::vector<Mesh> meshes;
  std::vector<Material> materials;
  std::vector<Image> images;
  bool empty() const { return meshes.empty() && materials.empty() && images.empty(); }
};

}  // namespace animkit
