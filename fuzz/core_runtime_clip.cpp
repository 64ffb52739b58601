// Fuzzes the runtime clip (issue 16): any neutral JSON document whose clips load must compile (or
// throw animkit::Error) and sample on the SIMD and the scalar path alike; the text helpers'
// parsers take the same bytes.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string_view>

#include "animkit/core/neutral_json.h"
#include "animkit/core/soa_jobs.h"
#include "animkit/core/text.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    animkit::parse_hex(text);
  } catch (const animkit::Error&) {
  }
  try {
    animkit::from_printable(text);
  } catch (const animkit::Error&) {
  }
  try {
    const animkit::Animated a = animkit::animated_from_json(animkit::parse_json(text));
    // One storage and one pair of cursors for every clip: each clip compiled into the place of
    // the last must be rebound to (issue 34, item 1), whatever its joint count.
    std::optional<animkit::RuntimeClip> storage;
    animkit::RuntimeCursor c0, c1;
    for (const animkit::Clip& clip : a.clips) {
      if (clip.joints.size() != a.skeleton.num_joints()) continue;
      storage.reset();
      const animkit::RuntimeClip& rc = storage.emplace(clip, a.skeleton.rest);
      animkit::SoaPose simd(rc.num_joints()), scalar(rc.num_joints());
      for (float t : {-1.f, 0.f, 0.25f, clip.duration * 0.5f, clip.duration, NAN, 0.1f}) {
        animkit::SoaSamplingJob{&rc, t, &c0, &simd, {}}.run();
        animkit::SoaSamplingJob{&rc, t, &c1, &scalar, {}}.run_scalar();
        for (size_t i = 0; i < simd.data.size(); ++i) {
          const float x = simd.data[i], y = scalar.data[i];
          if (!(std::fabs(x - y) <= 1e-5f * std::fmax(1.f, std::fabs(y)))) std::abort();
        }
      }
    }
  } catch (const animkit::Error&) {
  }
  return 0;
}
