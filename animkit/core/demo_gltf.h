// How an engine's part of `animkit demo` writes its .glb while the engine links the core alone:
// the program that runs the demos (the CLI, the Python module) links animkit_gltf and hands its
// writer in (DESIGN.md, "The house": demo code that needs glTF lives above the engines; issue 33).
#pragma once

#include <filesystem>

#include "animkit/core/registry.h"

namespace animkit {

using DemoGltfWriter = void (*)(const Animated& animated, const std::filesystem::path& path);

// Set once by the program before it runs the demos.
void set_demo_gltf_writer(DemoGltfWriter writer);
// Writes through the writer set; throws animkit::Error when none was.
void write_demo_gltf(const Animated& animated, const std::filesystem::path& path);

}  // namespace animkit
