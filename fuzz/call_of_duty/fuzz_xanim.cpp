// Any bytes -> an xanim parse; when it parses: the same bytes back, the loader's checks, poses at
// a few times (both platforms), the neutral clip and the sniff. Never a crash.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "animkit/call_of_duty/xanim_document.h"
#include "animkit/call_of_duty/xanim_file.h"
#include "animkit/call_of_duty/xanim_sample.h"
#include "animkit/core/error.h"

namespace cod = animkit::call_of_duty;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const animkit::Bytes bytes(data, size);
  (void)cod::sniff_xanim("fuzz", bytes);
  try {
    const cod::XAnimFile f = cod::parse_xanim(bytes, "fuzz");
    const std::vector<uint8_t> back = cod::write_xanim(f);
    if (back.size() != size || !std::equal(back.begin(), back.end(), data)) std::abort();
    (void)cod::check_xanim(f);
    for (float t : {0.0f, 0.3f, 0.7f, 0.99999994f, 1.0f}) {
      for (auto platform : {cod::XAnimPlatform::kLinux, cod::XAnimPlatform::kWindows}) {
        (void)cod::sample_json(f, t, platform);
      }
    }
    (void)cod::xanim_to_neutral(f);
    (void)cod::xanim_notes(f);
  } catch (const animkit::Error&) {
  }
  return 0;
}
