// Neutral skeleton + clips -> glTF 2.0 (.glb, or .gltf with the buffer embedded): one node per
// joint in the hierarchy (a forest of roots under one common root node), a skin with inverse
// bind matrices, the meshes skinned to it with their materials and PNG images, one animation per
// clip, events in the animation's `extras`. The document is built with nlohmann-json and packed by hand (the GLB
// container is a 12-byte header and two chunks); tinygltf reads the result back in the tests.
#pragma once

#include <cstdint>
#include <filesystem>
#include <vector>

#include "animkit/core/mesh.h"
#include "animkit/core/registry.h"

namespace animkit::gltf {

struct ExportOptions {
  bool binary = true;       // .glb; false writes .gltf with a base64 data URI
  float resample_rate = 0;  // Hermite tracks are resampled at this rate (0: the clip's frame rate)
};

// The glTF JSON document and its binary buffer.
struct Document {
  Json json;
  std::vector<uint8_t> buffer;
};

// Throws animkit::Error when the skeleton or a clip is not well formed.
// `meshes` (optional) are skinned to the animated's skeleton.
Document build(const Animated& animated, const ExportOptions& options = {},
               const MeshSet* meshes = nullptr);
std::vector<uint8_t> to_glb(const Document& document);
std::string to_gltf_text(const Document& document);  // buffer embedded as a data URI
// Writes .glb (binary) or .gltf, streaming the buffer to the file.
void write(const Document& document, const std::filesystem::path& path, bool binary);
// Writes .glb or .gltf (chosen by options.binary).
void write(const Animated& animated, const std::filesystem::path& path,
           const ExportOptions& options = {}, const MeshSet* meshes = nullptr);

}  // namespace animkit::gltf
