// libFuzzer target: glTF bytes -> neutral skeleton + clips (animkit import's reader, issue 17).
// Any input either reads or throws animkit::Error; nothing else may happen.
#include <cstddef>
#include <cstdint>

#include "animkit/core/error.h"
#include "animkit/gltf/import.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    // A folder that does not exist: external buffer URIs cannot reach real files.
    animkit::gltf::read("/nonexistent-animkit-fuzz/in.glb", {data, size});
  } catch (const animkit::Error&) {
  }
  return 0;
}
