// Fuzzes the neutral JSON reader: any bytes must give a document or an animkit::Error.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "animkit/core/neutral_json.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    const auto doc = animkit::parse_json(std::string_view(reinterpret_cast<const char*>(data), size));
    animkit::animated_from_json(doc);
  } catch (const animkit::Error&) {
  }
  return 0;
}
