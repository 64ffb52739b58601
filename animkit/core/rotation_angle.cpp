#include "animkit/core/rotation_angle.h"

#include <cmath>

namespace animkit {

double rotation_angle(Quat a, Quat b) {
  a = normalize(a);
  b = normalize(b);
  if (dot(a, b) < 0) b = -b;
  const double d[4] = {double(a.x) - b.x, double(a.y) - b.y, double(a.z) - b.z, double(a.w) - b.w};
  const double s[4] = {double(a.x) + b.x, double(a.y) + b.y, double(a.z) + b.z, double(a.w) + b.w};
  const double dn = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + d[3] * d[3]);
  const double sn = std::sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2] + s[3] * s[3]);
  return 4.0 * std::atan2(dn, sn);
}

}  // namespace animkit
