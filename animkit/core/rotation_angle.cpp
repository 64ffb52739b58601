#include "animkit/core/rotation_angle.h"

#include <cmath>

namespace animkit {

double rotation_angle(Quat a, Quat b) {
  // In double throughout, normalising there too: a float normalisation would round away the
  // differences of the last bits that a refit's report measures.
  double p[4] = {a.x, a.y, a.z, a.w}, q[4] = {b.x, b.y, b.z, b.w};
  double np = 0, nq = 0, d = 0;
  for (int i = 0; i < 4; ++i) np += p[i] * p[i], nq += q[i] * q[i];
  if (!(np > 0 && np < INFINITY)) p[0] = p[1] = p[2] = 0, p[3] = 1, np = 1;  // as normalize(): identity
  if (!(nq > 0 && nq < INFINITY)) q[0] = q[1] = q[2] = 0, q[3] = 1, nq = 1;
  np = std::sqrt(np), nq = std::sqrt(nq);
  for (int i = 0; i < 4; ++i) p[i] /= np, q[i] /= nq, d += p[i] * q[i];
  const double sign = d < 0 ? -1 : 1;
  double dn = 0, sn = 0;
  for (int i = 0; i < 4; ++i) {
    dn += (p[i] - sign * q[i]) * (p[i] - sign * q[i]);
    sn += (p[i] + sign * q[i]) * (p[i] + sign * q[i]);
  }
  return 4.0 * std::atan2(std::sqrt(dn), std::sqrt(sn));
}

}  // namespace animkit
