// Any bytes -> an Anim Range List or bone offsets, or an animkit::Error; never a crash.
#include <cstddef>
#include <cstdint>

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
  return 0;
}
