#include "animkit/core/demo_gltf.h"

#include <atomic>

namespace animkit {

namespace {
std::atomic<DemoGltfWriter> writer{nullptr};
}  // namespace

void set_demo_gltf_writer(DemoGltfWriter w) { writer.store(w); }

void write_demo_gltf(const Animated& animated, const std::filesystem::path& path) {
  const DemoGltfWriter w = writer.load();
  if (!w) throw Error("no glTF writer for the demo: the program must call set_demo_gltf_writer", std::nullopt, path.string());
  w(animated, path);
}

}  // namespace animkit
