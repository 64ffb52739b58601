// Any bytes -> a scenario run (no clip files exist, so every task naming a clip is an error) or
// an animkit::Error; never a crash.
#include <cstddef>
#include <cstdint>
#include <sstream>

#include "animkit/core/registry.h"
#include "animkit/warriors/scenario.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    animkit::Json j =
        animkit::parse_json(std::string_view(reinterpret_cast<const char*>(data), size));
    // Keep each run short.
    if (j.is_object() && j.contains("updates") && j["updates"].is_number() &&
        j["updates"].get<double>() > 1000) {
      j["updates"] = 1000;
    }
    std::ostringstream out;
    animkit::warriors::play_scenario(j, "/nonexistent-animkit-fuzz", true, out);
  } catch (const animkit::Error&) {
  }
  return 0;
}
