// Builds .anix files from clip descriptions (the module's writer for tests, the demo and the
// bench): lays out the header, track table, block chunk and anim chunk, then parses the bytes so
// the result is exactly what parse_anix gives for them.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "animkit/shadow_of_war/anix.h"

namespace animkit::shadow_of_war {

struct BlocksetBuild {
  std::vector<std::vector<uint8_t>> groups;  // one per record codec, in codec order
  std::vector<std::vector<uint8_t>> named;
  std::vector<float> times;  // LITH key times (absolute); t0 / t1 are the first and last
  uint32_t n2 = 0, n3 = 0;
};

struct ClipBuild {
  std::string name;
  uint16_t flag = 0;
  RootSummary root;
  uint32_t field_74 = 0;
  uint32_t duration_ms = 0;
  std::vector<std::string> codecs;
  std::vector<uint8_t> track_groups;
  std::vector<uint16_t> remap;
  bool align_tables = false;  // pad to 4 (from the record's start) before the blockset table
  std::vector<BlocksetBuild> blocksets;
  std::vector<NamedEntry> named;
  std::vector<uint8_t> key_strings;
};

struct AnixBuild {
  std::vector<TrackRun> track_runs;
  std::vector<ClipBuild> clips;  // directory order
  // Record positions in the anim chunk: position_order[k] is the clip placed k-th (empty:
  // directory order).
  std::vector<size_t> position_order;
  std::optional<EventDictionary> events;
};

std::vector<uint8_t> build_anix_bytes(const AnixBuild& build);
inline AnixFile build_anix(const AnixBuild& build) { return parse_anix(build_anix_bytes(build)); }

// Group payloads for synthetic files (the layouts past what the spec states are unknown; these
// are placeholders that only carry the stated parts).
std::vector<uint8_t> aq03_group(float start_time, float end_time, uint32_t keys,
                                size_t payload_bytes);
std::vector<uint8_t> stri_group(const std::vector<std::string>& strings);
std::vector<uint8_t> opaque_group(size_t bytes, uint8_t seed);  // never all zero

}  // namespace animkit::shadow_of_war
