// Fuzzes the .anix parser: any bytes give a parsed file or an animkit::Error; a parsed file is
// checked, dumped, turned neutral and written back byte-exact, and its dump builds the same bytes.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "animkit/shadow_of_war/anix_document.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace animkit::shadow_of_war;
  try {
    const animkit::Bytes bytes(data, size);
    const AnixFile f = parse_anix(bytes);
    check(f, size);
    to_json(f).dump();
    to_neutral(f);
    const std::vector<uint8_t> back = write_anix(f);
    if (back.size() != size || !std::equal(back.begin(), back.end(), data)) std::abort();
    // dump --json -> sow build gives the same bytes.
    const auto text = to_json(f).dump();
    const std::vector<uint8_t> built = write_anix(anix_from_json(animkit::Json::parse(text)));
    if (built != back) std::abort();
  } catch (const animkit::Error&) {
  }
  return 0;
}
