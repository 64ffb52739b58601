// Any bytes -> a .dat (container page): the header, the directory listed and every object read,
// each lookup repeated; animkit::Error is the only way out, and nothing loops (chains are read by
// count, directory nodes visited once, depth capped). Seeded (ANIMKIT_FUZZ_SEED, `make fuzz`) with
// dats the module's writer builds from the synthetic humanoid: its motion table and animations,
// in small blocks and small directory nodes so the chains and the B-tree have depth, and the
// textured humanoid's dat, whose mesh objects are checked as `validate DAT` checks them.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "animkit/asherons_call/dat.h"
#include "animkit/asherons_call/dat_objects.h"
#include "animkit/asherons_call/dat_writer.h"
#include "animkit/asherons_call/mesh_formats.h"
#include "animkit/asherons_call/synthetic.h"
#include "animkit/asherons_call/synthetic_meshes.h"
#include "fuzz/common/scenario_gen.h"

using namespace animkit::asherons_call;

namespace {
std::string humanoid_dat(uint32_t block_size, uint32_t max_entries) {
  std::vector<DatObject> objects{{0x09000001u, write_motion_table(humanoid_table())}};
  for (const Animation& a : humanoid_animations()) objects.push_back({a.id, write_animation(a)});
  DatWriteOptions o;
  o.block_size = block_size;
  o.max_entries = max_entries;
  const std::vector<uint8_t> bytes = write_dat(std::move(objects), o);
  return std::string(bytes.begin(), bytes.end());
}
}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  const std::vector<uint8_t> textured = textured_humanoid_dat();
  if (animkit::fuzz::write_seeds({humanoid_dat(1024, kDatMaxEntries), humanoid_dat(64, 3),
                                  std::string(textured.begin(), textured.end())}))
    std::exit(0);
  return 0;
}

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
          // The mesh objects as `validate DAT` checks them, references included (issue 28).
          std::vector<animkit::Finding> findings;
          validate_mesh_object(e.id, dat.read(e),
                               [&](uint32_t id) { return dat.find(id).has_value(); }, findings);
        }
      } catch (const animkit::Error&) {
      }
    });
    dat.find(0x09000001u);
  } catch (const animkit::Error&) {
  }
  return 0;
}
