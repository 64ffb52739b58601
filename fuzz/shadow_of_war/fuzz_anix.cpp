// Fuzzes the .anix parser: any bytes give a parsed file or an animkit::Error; a parsed file is
// checked, dumped (streamed and whole, the same text), turned neutral and written back
// byte-exact, its dump builds the same bytes, and `sow build`'s checked writer takes it back
// whenever validate finds no error.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>

#include "animkit/shadow_of_war/anix_document.h"
#include "animkit/shadow_of_war/anix_layout.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace animkit::shadow_of_war;
  try {
    const animkit::Bytes bytes(data, size);
    const AnixFile f = parse_anix(bytes);
    const auto findings = check(f, size);
    // The streamed dump prints exactly what the whole Json prints.
    std::ostringstream streamed;
    JsonPrint print(streamed, JsonPrint::Layout::kJson);
    emit_json(f, print);
    if (streamed.str() != to_json(f).dump(1) + "\n") std::abort();
    to_neutral(f);
    const std::vector<uint8_t> back = write_anix(f);
    if (back.size() != size || !std::equal(back.begin(), back.end(), data)) std::abort();
    // dump --json -> sow build gives the same bytes.
    const auto text = to_json(f).dump();
    const std::vector<uint8_t> built = write_anix(anix_from_json(animkit::Json::parse(text)));
    if (built != back) std::abort();
    // `sow build`'s checked writer takes every file validate passes, and gives it back.
    const bool valid = std::none_of(findings.begin(), findings.end(), [](const animkit::Finding& x) {
      return x.level == animkit::Finding::Level::kError;
    });
    if (valid) {
      try {
        if (write_anix_checked(f) != back) std::abort();
      } catch (const animkit::Error&) {
        std::abort();
      }
    }
  } catch (const animkit::Error&) {
  }
  return 0;
}
