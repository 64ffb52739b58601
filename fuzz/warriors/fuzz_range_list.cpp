// Any bytes -> an Anim Range List, bone offsets or an Anim List (0x4E), or an animkit::Error;
// never a crash; an Anim List read is written back byte for byte.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "animkit/warriors/character.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace animkit::warriors;
  try {
    animkit::Reader r(animkit::Bytes(data, size));
    const AnimRangeList list = read_range_list(r);
    for (const RangeRecord& rec : list.records) (void)rec.far();
  } catch (const animkit::Error&) {
  }
  try {
    animkit::Reader r(animkit::Bytes(data, size));
    (void)read_bone_offsets(r);
  } catch (const animkit::Error&) {
  }
  try {
    animkit::Reader r(animkit::Bytes(data, size));
    const AnimList list = read_anim_list(r);
    animkit::Writer w;
    write_anim_list(w, list);
    if (w.pos() != size || std::memcmp(w.bytes().data(), data, size) != 0) std::abort();
  } catch (const animkit::Error&) {
  }
  return 0;
}
