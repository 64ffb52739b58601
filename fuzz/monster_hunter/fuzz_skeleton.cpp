// Any bytes -> a Monster Hunter skeleton (written back identically) or an animkit::Error.
#include <cstdlib>

#include "animkit/monster_hunter/skeleton.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace animkit::monster_hunter;
  const animkit::Bytes bytes(data, size);
  try {
    const Skeleton s = read_skeleton(bytes);
    const std::vector<uint8_t> out = write_skeleton(s);
    if (out.size() != size || !std::equal(out.begin(), out.end(), data)) std::abort();
  } catch (const animkit::Error&) {
  }
  return 0;
}
