// Any bytes -> a clip (descriptor = the first 80 bytes, keyframes = the rest), decoded, played
// and sampled, or an animkit::Error; never a crash.
#include <cstddef>
#include <cstdint>

#include "animkit/warriors/clock.h"
#include "animkit/warriors/cursor.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace animkit::warriors;
  try {
    animkit::Reader r(animkit::Bytes(data, size));
    AnmClip clip;
    clip.descriptor = read_descriptor(r);
    animkit::Reader k = r.sub(r.pos(), r.remaining());
    clip.keyframes = read_keyframes(k, clip.descriptor);
    const PlayClip p = make_play_clip(clip);
    const WarPose defaults = default_pose();
    WarPose pose;
    AnimCursor c;
    c.init(&p);
    for (int i = 0; i < 64; ++i) {
      if (c.advance(clock_step_size(kDt, 0.75f), nullptr) != 0.0f) c.restart();
      c.sample(0.75f, {&defaults, 0}, pose);
    }
    sample_clip(p, 3.5f, 0.8f, {&defaults, 0}, pose);
    for (const AnimEvent& e : clip.keyframes.events) (void)event_payload_json(e);
  } catch (const animkit::Error&) {
  }
  return 0;
}
