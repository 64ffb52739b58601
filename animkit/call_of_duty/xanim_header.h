// The 9-byte header of an xanim v14 file (cod-xanim-format.md, §1.1) and what it tells the tree
// builder without reading the rest: the looped flag and the length.
#pragma once

#include <cstdint>
#include <optional>

#include "animkit/core/reader.h"

namespace animkit::call_of_duty {

inline constexpr int16_t kXAnimVersion = 14;

struct XAnimHeader {
  int16_t version = kXAnimVersion;
  uint16_t num_frames = 0;  // F, as stored
  int16_t num_parts = 0;    // P
  uint8_t flags = 0;        // bit 0 looped, bit 1 delta motion; other bits kept, ignored
  int16_t frame_rate = 0;

  static constexpr uint8_t kLooped = 1 << 0;
  static constexpr uint8_t kDelta = 1 << 1;
  bool looped() const { return (flags & kLooped) != 0; }
  bool has_delta() const { return (flags & kDelta) != 0; }
  // T: a looped file also stores the frame that closes the loop (uint32: F + 1 may be 65536).
  uint32_t total_frames() const { return looped() ? uint32_t{num_frames} + 1 : num_frames; }
  // N = T - 1, as the uint16 the loader keeps.
  uint16_t frame_count_minus_one() const { return static_cast<uint16_t>(total_frames() - 1); }
  // Frame indices are one byte when T <= 256 (XANIM_SMALL_FRAME_KEY_LIMIT).
  bool small_indices() const { return frame_count_minus_one() < 256; }
  // frequency = frameRate / N (1/s), 0 for N = 0; length = N / frameRate seconds.
  float frequency() const;
  std::optional<float> length() const;  // nullopt when frameRate is 0
};

inline constexpr size_t kXAnimHeaderSize = 9;

// Reads the header; throws animkit::Error when the bytes are short. The version is not checked
// here (the caller reports `out of date`).
XAnimHeader read_xanim_header(Reader& r);

}  // namespace animkit::call_of_duty
