#include "animkit/call_of_duty/xanim_header.h"

namespace animkit::call_of_duty {

float XAnimHeader::frequency() const {
  const uint16_t n = frame_count_minus_one();
  if (n == 0) return 0.0f;  // §1.1: "For N = 0 the loader stores frequency 0"
  return static_cast<float>(frame_rate) / static_cast<float>(n);
}

std::optional<float> XAnimHeader::length() const {
  if (frame_rate == 0) return std::nullopt;
  return static_cast<float>(frame_count_minus_one()) / static_cast<float>(frame_rate);
}

XAnimHeader read_xanim_header(Reader& r) {
  XAnimHeader h;
  h.version = r.i16();
  h.num_frames = r.u16();
  h.num_parts = r.i16();
  h.flags = r.u8();
  h.frame_rate = r.i16();
  return h;
}

}  // namespace animkit::call_of_duty
