// Any bytes -> an xanim parse; when it parses, its neutral form (what `animkit export` writes)
// imported back (`animkit import --as cod-xanim`), with and without the file as template. Never a
// crash; and an imported file is a fixed point: its own export imports to the same bytes.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "animkit/call_of_duty/xanim_document.h"
#include "animkit/call_of_duty/xanim_file.h"
#include "animkit/call_of_duty/xanim_import.h"
#include "animkit/core/error.h"

namespace cod = animkit::call_of_duty;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const animkit::Bytes bytes(data, size);
  cod::XAnimFile f;
  try {
    f = cod::parse_xanim(bytes, "fuzz");
  } catch (const animkit::Error&) {
    return 0;
  }
  // Every frame is sampled for the report: keep the work per input small.
  if (f.total_frames() > 4096 || f.parts.size() > 128) return 0;
  const animkit::Animated a = cod::xanim_to_neutral(f);
  try {
    cod::XAnimImportSettings with;
    with.original = &f;
    (void)cod::import_xanim(a, with);
  } catch (const animkit::Error&) {
  }
  try {
    const cod::XAnimImport first = cod::import_xanim(a, {});
    const cod::XAnimFile x = cod::parse_xanim(first.bytes, "first");
    const cod::XAnimImport second = cod::import_xanim(cod::xanim_to_neutral(x), {});
    if (second.bytes != first.bytes) std::abort();
  } catch (const animkit::Error&) {
  }
  return 0;
}
