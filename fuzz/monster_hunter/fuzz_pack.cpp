// Any bytes -> a Monster Hunter animation pack (either game) or an animkit::Error; what parses
// writes back byte for byte.
#include <cstdlib>

#include "animkit/monster_hunter/pack.h"
#include "animkit/monster_hunter/rules.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace animkit::monster_hunter;
  const animkit::Bytes bytes(data, size);
  sniff_pack(bytes);
  for (Game g : {Game::kMhfu, Game::kMhp3rd}) {
    try {
      const AnimPack p = read_pack(bytes, g);
      validate(nullptr, &p);
      const std::vector<uint8_t> out = write_pack(p);
      if (out.size() != size || !std::equal(out.begin(), out.end(), data)) std::abort();
      AnimPack fixed = p;  // the fixes never crash and leave a writable pack
      fix(&fixed, nullptr);
      try {
        write_pack(fixed);
      } catch (const animkit::Error&) {  // e.g. a repaired MHP3rd track now over 0xFFFF bytes
      }
    } catch (const animkit::Error&) {
    }
  }
  return 0;
}
