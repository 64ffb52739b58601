// RGBA8 pixels -> PNG bytes, through Debian's libpng (DESIGN.md: PNG through a Debian library).
#pragma once

#include <cstdint>
#include <vector>

#include "animkit/core/mesh.h"

namespace animkit::gltf {

// Throws animkit::Error when the image is empty or its pixel array has the wrong size.
std::vector<uint8_t> encode_png(const Image& image);

}  // namespace animkit::gltf
