// Any bytes -> an Asheron's Call RenderSurface (0x06) object (asherons-call-meshes.md; issue 28): animkit::Error
// is the only way out, and what parses writes back byte for byte. Seeded (ANIMKIT_FUZZ_SEED) with
// the textured humanoid's objects of this type (synthetic_meshes.h).
#include <cstddef>
#include <cstdint>
#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "animkit/asherons_call/texture.h"
#include "animkit/asherons_call/synthetic_meshes.h"
#include "animkit/core/error.h"
#include "fuzz/common/scenario_gen.h"

using namespace animkit::asherons_call;

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  std::vector<std::string> seeds;
  for (const DatObject& o : textured_humanoid_objects())
    if ((o.id >> 24) == 0x06u) seeds.emplace_back(o.bytes.begin(), o.bytes.end());
  const auto at = [&](size_t i) -> std::string_view { return seeds[i % seeds.size()]; };
  if (animkit::fuzz::write_seeds({at(0), at(1), at(2), at(3)})) std::exit(0);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    const auto g = read_texture(animkit::Bytes(data, size));
    const std::vector<uint8_t> back = write_texture(g);
    if (back.size() != size || !std::equal(back.begin(), back.end(), data)) __builtin_trap();
    std::vector<std::string> warnings;
    Palette palette;
    palette.colors = {0xFF0000FFu, 0x80FFFFFFu, 0u};
    try {
      decode_texture(g, &palette, (size & 1) != 0, warnings);  // 6: every pixel format
    } catch (const animkit::Error&) {
    }
  } catch (const animkit::Error&) {
  }
  return 0;
}
