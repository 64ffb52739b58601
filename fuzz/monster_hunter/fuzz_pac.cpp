// Any bytes -> a PAC container, a model PAC's entries (skeleton, PMO groups, anim pack) or an
// animkit::Error; what parses writes back byte for byte.
#include <cstdlib>

#include "animkit/monster_hunter/document.h"
#include "animkit/monster_hunter/pac.h"
#include "animkit/monster_hunter/pmo.h"
#include "animkit/monster_hunter/rules.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace animkit::monster_hunter;
  const animkit::Bytes bytes(data, size);
  sniff_pac(bytes);
  try {
    const Pac pac = read_pac(bytes);
    const std::vector<uint8_t> out = write_pac(pac);
    if (out.size() != size || !std::equal(out.begin(), out.end(), data)) std::abort();
    for (const auto& e : pac.entries) pac_entry_kind(e);
  } catch (const animkit::Error&) {
  }
  try {
    const ModelPac m = read_model_pac(bytes, std::nullopt);
    RuleInputs in;
    in.skeleton = m.skeleton ? &*m.skeleton : nullptr;
    in.pack = m.pack ? &*m.pack : nullptr;
    in.model = m.model ? &*m.model : nullptr;
    in.strict = true;
    validate(in);
  } catch (const animkit::Error&) {
  }
  try {
    read_pmo(bytes);
  } catch (const animkit::Error&) {
  }
  return 0;
}
