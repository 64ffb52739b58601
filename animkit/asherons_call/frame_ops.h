// Frame arithmetic of the sequence (asherons-call-runtime.md 1.3, 1.4): combining and
// subtracting a pos frame into the tick's delta, and the physics step's local rotation.
#pragma once

#include "animkit/asherons_call/animation.h"

namespace animkit::asherons_call {

// The universal "effectively zero" (runtime page: EPS = f32 0.0002).
inline constexpr float kEpsilon = 0.000199999995f;

// Runtime 1.4 "Combine": origin += rotate(orientation, pos.origin); orientation := normalise(
// orientation x pos.orientation).
void combine(AFrame& frame, const AFrame& pos);
// Its exact inverse: orientation := normalise(orientation x conj(pos.orientation)), then
// origin -= rotate(new orientation, pos.origin).
void subtract(AFrame& frame, const AFrame& pos);
// Rotates the frame by the rotation vector `v` (axis-angle, angle = |v|) in its local axes;
// nothing below EPS (runtime 1.3, OpenAC/dereth form).
void rotate_local(AFrame& frame, Vec3 v);
// Frame::combine (motion spec Q5): `delta` expressed in `base`'s space.
AFrame compose(const AFrame& base, const AFrame& delta);

}  // namespace animkit::asherons_call
