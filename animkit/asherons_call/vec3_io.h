// Three little-endian floats (x, y, z), as every Asheron's Call object stores a vector (dat page,
// "Frame"): read in order, written back the same way.
#pragma once

#include "animkit/core/math.h"
#include "animkit/core/reader.h"
#include "animkit/core/writer.h"

namespace animkit::asherons_call {

inline Vec3 read_vec3(Reader& r) {
  const float x = r.f32(), y = r.f32(), z = r.f32();  // sequenced: x, then y, then z
  return {x, y, z};
}

inline void write_vec3(Writer& w, Vec3 v) {
  w.f32(v.x);
  w.f32(v.y);
  w.f32(v.z);
}

}  // namespace animkit::asherons_call
