// Any bytes -> an MHFU clip or an animkit::Error; what parses writes back byte for byte.
#include <cstdlib>

#include "animkit/monster_hunter/clip_fu.h"
#include "animkit/monster_hunter/playback.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace animkit::monster_hunter;
  animkit::Reader r(animkit::Bytes(data, size));
  try {
    const Clip c = fu::read_clip(r);
    animkit::Writer w;
    fu::write_clip(c, w);
    if (w.bytes().size() != r.pos() || !std::equal(w.bytes().begin(), w.bytes().end(), data))
      std::abort();
    const Motion m = prepare(c, c.tracks.size());
    for (const ChannelCurve& curve : m.curves) sample(curve, 3.5f);
  } catch (const animkit::Error&) {
  }
  return 0;
}
