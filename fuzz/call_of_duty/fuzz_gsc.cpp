// Any bytes -> a script scan (references and diagnostics), never a crash.
#include <cstddef>
#include <cstdint>
#include <string>

#include "animkit/call_of_duty/gsc_scanner.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const animkit::call_of_duty::ScriptScan s = animkit::call_of_duty::scan_script(text, "fuzz.gsc");
  (void)s;
  return 0;
}
