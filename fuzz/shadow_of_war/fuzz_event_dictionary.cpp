// Fuzzes the event dictionary reader: any bytes give a dictionary or an animkit::Error; a parsed
// dictionary writes back byte-exact and answers keyword queries.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "animkit/shadow_of_war/event_dictionary.h"
#include "animkit/shadow_of_war/keyword.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace animkit::shadow_of_war;
  try {
    const EventDictionary d = parse_event_dictionary(animkit::Reader(animkit::Bytes(data, size)));
    for (const ClipEvents& c : d.clips) d.carries_keyword(c, kRagdollKeywords[0].hash);
    const std::vector<uint8_t> back = write_event_dictionary(d);
    if (back.size() != size || !std::equal(back.begin(), back.end(), data)) std::abort();
  } catch (const animkit::Error&) {
  }
  return 0;
}
