// Any bytes -> a .dat (container page): the header, the directory listed and every object read,
// each lookup repeated; animkit::Error is the only way out, and nothing loops (chains are read by
// count, directory nodes visited once, depth capped).
#include <cstddef>
#include <cstdint>

#include "animkit/asherons_call/dat.h"
#include "animkit/asherons_call/dat_objects.h"

using namespace animkit::asherons_call;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    const DatFile dat(animkit::Bytes(data, size));
    size_t n = 0;
    dat.for_each(0, 0xFFFFFFFFu, [&](const DatEntry& e) {
      if (++n > 256) return;
      try {
        if (!dat.find(e.id)) __builtin_trap();  // listed, so found
        const uint8_t type = static_cast<uint8_t>(e.id >> 24);
        if (type == kTypeMotionTable) {
          animations_for(dat, motion_table_from_dat(dat, e.id));
        } else if (type == kTypeAnimation) {
          animation_from_dat(dat, e.id);
        } else if (type == kTypeSetup) {
          const Setup s = setup_from_dat(dat, e.id);
          if (write_setup(s) != dat.read(e)) __builtin_trap();  // byte-exact
        } else {
          dat.read(e);
        }
      } catch (const animkit::Error&) {
      }
    });
    dat.find(0x09000001u);
  } catch (const animkit::Error&) {
  }
  return 0;
}
