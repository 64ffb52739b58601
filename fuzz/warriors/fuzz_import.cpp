// Any bytes -> `animkit import --as warriors-anm` and `warriors rebuild --put` (issue 17): the
// bytes as a glTF imported onto a fixed template, and as a template (or a container) that its own
// export is imported onto and put back into; an animkit::Error or a result, never a crash.
#include <cstddef>
#include <cstdint>

#include "animkit/gltf/import.h"
#include "animkit/warriors/anm_import.h"
#include "animkit/warriors/builder.h"
#include "animkit/warriors/document.h"
#include "animkit/warriors/rebuild.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace animkit;
  using namespace animkit::warriors;
  const Bytes bytes(data, size);
  const float tolerance = size > 0 ? data[0] / 2048.f : 0.f;
  // The bytes as a glTF, onto a template made by the module's writer.
  try {
    ClipBuilder b;
    b.name = "t";
    b.velocity = {{0, {0, 1, 0}}};
    b.rotations[0] = {{0, Quat::identity()}};
    Writer w;
    write_resource(w, make_anm_resource(b.build()));
    const AnmTemplate t = read_anm_template(w.bytes());
    const Animated a = gltf::read("f.glb", bytes);
    (void)import_anm(a, &t, {"", tolerance});
  } catch (const Error&) {
  }
  // The bytes as a template: its own export imported back, and put into the entry.
  try {
    const AnmTemplate t = read_anm_template(bytes);
    const Animated a = *open_document("f.anm", bytes, FileKind::kAnm)->to_neutral();
    const AnmImport r = import_anm(a, &t, {"", tolerance});
    WadEntry e = read_entry(bytes);
    (void)put_clip(e, r.clip);
    (void)write_entry(e);
  } catch (const Error&) {
  }
  return 0;
}
