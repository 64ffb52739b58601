// The one measure of rotation error (issue 32, item 4).
#pragma once

#include "animkit/core/math.h"

namespace animkit {

// The angle of the rotation that takes a to b, in radians, in [0, pi] (either sign of either
// quaternion): the measure of every --tolerance and `max_error` on rotations. Both are
// normalised; phi, the angle between them as 4-vectors, is 2 atan2(|a - b|, |a + b|) in double
// (precise near 0, where acos of a dot product is not), and the rotation turns by 2 phi (a
// quaternion holds the half angle).
double rotation_angle(Quat a, Quat b);

}  // namespace animkit
