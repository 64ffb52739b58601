// Any bytes as a glTF -> `import --as ac-animation` (issue 17 item 4): an Animation that reads
// back and writes identical, or animkit::Error. The importer's joint mapping, sampling, pos
// frame recovery, hook events and error report all run on whatever skeleton and clip the glTF
// reader accepts.
#include <cstddef>
#include <cstdint>

#include "animkit/asherons_call/animation.h"
#include "animkit/asherons_call/import.h"
#include "animkit/gltf/import.h"

using namespace animkit::asherons_call;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    animkit::ImportRequest request;
    request.source = animkit::gltf::read("fuzz.glb", animkit::Bytes(data, size));
    const animkit::ImportResult r = import_animation(request, false);
    if (write_animation(read_animation(r.bytes)) != r.bytes) __builtin_trap();
  } catch (const animkit::Error&) {
  }
  return 0;
}
