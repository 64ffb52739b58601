// Any bytes -> a PMO (tables, every group's geometry, the skinned neutral meshes) and a TMH bank
// (every image decoded), or an animkit::Error; a bank that parses writes back byte for byte
// (issue 27 item 5). With ANIMKIT_FUZZ_SEED set, writes the synthetic PMO and bank as seeds.
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "animkit/monster_hunter/model_export.h"
#include "animkit/monster_hunter/pmo_geometry.h"
#include "animkit/monster_hunter/synthetic_model.h"
#include "animkit/monster_hunter/tmh.h"

namespace {

using namespace animkit::monster_hunter;

const Skeleton& skeleton() {
  static const Skeleton s = [] {
    MonsterSpec spec;
    spec.severed = 2;
    return synthetic_monster(spec).skeleton;
  }();
  return s;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  if (const char* out = std::getenv("ANIMKIT_FUZZ_SEED")) {
    std::filesystem::create_directories(out);
    const auto seed = [&](const char* name, const std::vector<uint8_t>& b) {
      std::ofstream(std::filesystem::path(out) / name, std::ios::binary)
          .write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
    };
    seed("seed-pmo", synthetic_pmo(6, static_cast<int>(skeleton().bones.size()), 7));
    seed("seed-tmh", write_tmh(synthetic_tmh()));
    std::exit(0);
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const animkit::Bytes bytes(data, size);
  try {
    const PmoModel m = read_pmo(bytes);
    for (size_t g = 0; g < m.groups.size(); ++g) {
      try {
        decode_group(bytes, m, g);
      } catch (const animkit::Error&) {
      }
    }
    animkit::MeshSet set;
    std::vector<std::string> notes;
    add_model({bytes, &m, nullptr, &skeleton()}, set, notes);
  } catch (const animkit::Error&) {
  }
  try {
    const TmhBank bank = read_tmh(bytes);
    const std::vector<uint8_t> out = write_tmh(bank);
    if (out.size() != size || !std::equal(out.begin(), out.end(), data)) std::abort();
    for (const TmhImage& im : bank.images) {
      try {
        decode_tmh(im);
      } catch (const animkit::Error&) {
      }
    }
  } catch (const animkit::Error&) {
  }
  return 0;
}
