#include "animkit/asherons_call/frame_ops.h"

#include <cmath>

namespace animkit::asherons_call {

void combine(AFrame& frame, const AFrame& pos) {
  frame.origin = frame.origin + rotate(frame.orientation, pos.origin);
  frame.orientation = normalize(frame.orientation * pos.orientation);
}

void subtract(AFrame& frame, const AFrame& pos) {
  frame.orientation = normalize(frame.orientation * conjugate(pos.orientation));
  frame.origin = frame.origin - rotate(frame.orientation, pos.origin);
}

void rotate_local(AFrame& frame, Vec3 v) {
  const float angle = length(v);
  if (!(angle >= kEpsilon)) return;
  frame.orientation = normalize(frame.orientation * axis_angle(v * (1.0f / angle), angle));
}

AFrame compose(const AFrame& base, const AFrame& delta) {
  AFrame out = base;
  out.origin = base.origin + rotate(base.orientation, delta.origin);
  out.orientation = normalize(base.orientation * delta.orientation);
  return out;
}

}  // namespace animkit::asherons_call
