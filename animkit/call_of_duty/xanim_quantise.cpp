#include "animkit/call_of_duty/xanim_quantise.h"

#include <algorithm>
#include <cmath>
#include <tuple>

namespace animkit::call_of_duty {

namespace {

constexpr double kScale = 32767.0;

int16_t clamp_lane(long v) { return static_cast<int16_t>(std::clamp<long>(v, -32768, 32767)); }

Quat unit_or_identity(Quat q) {
  const float len = std::sqrt(dot(q, q));
  if (!(len > 0) || !std::isfinite(len)) return Quat::identity();
  return {q.x / len, q.y / len, q.z / len, q.w / len};
}

double distance2(Quat a, Quat b, double s) {
  const double d[4] = {a.x - s * b.x, a.y - s * b.y, a.z - s * b.z, a.w - s * b.w};
  return d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + d[3] * d[3];
}

}  // namespace

bool yaw_only(Quat q) {
  q = unit_or_identity(q);
  return std::fabs(q.x * kScale) < 0.5 && std::fabs(q.y * kScale) < 0.5;
}

XAnimQuantisedKey quantise_key(Quat target, bool two_component, const XAnimQuatKey* previous,
                               bool allow_sign, const XAnimQuantisedKey* preferred) {
  const Quat q = unit_or_identity(target);
  const double lanes[3] = {q.x * kScale, q.y * kScale, q.z * kScale};
  XAnimQuantisedKey best;
  double best_any = INFINITY, best_signed = INFINITY;
  bool best_preferred = false;
  const int n = two_component ? 1 : 3;
  const int combos = two_component ? 3 : 27;
  for (int s = 1; s >= -1; s -= 2) {
    long base[3];
    for (int i = 0; i < n; ++i) base[i] = std::lround(s * lanes[two_component ? 2 : i]);
    for (int c = 0; c < combos; ++c) {
      XAnimQuantisedKey k;
      int code = c;
      for (int i = 0; i < n; ++i, code /= 3) {
        // offsets in the order 0, +1, -1: the plain rounding first
        const int off = code % 3 == 0 ? 0 : code % 3 == 1 ? 1 : -1;
        k.stored[i] = clamp_lane(base[i] + off);
      }
      k.sign = !previous && allow_sign && s < 0;
      k.key = decode_key(k.stored.data(), two_component, previous, k.sign);
      const Quat r = key_rotation(k.key);
      const double same = distance2(r, q, 1.0);
      const double any = std::min(same, distance2(r, q, -1.0));
      const bool is_preferred = preferred && *preferred == k;
      // Exact ties (two stored forms decoding alike, e.g. w = 0): the template's key, else the
      // smallest (sign, lanes), so the choice depends on the rotation, not on its sign.
      const bool tie = any == best_any && same == best_signed;
      const bool lower = std::tie(k.sign, k.stored) < std::tie(best.sign, best.stored);
      if (any < best_any || (any == best_any && same < best_signed) ||
          (tie && is_preferred && !best_preferred) ||
          (tie && is_preferred == best_preferred && lower)) {
        best = k;
        best_any = any;
        best_signed = same;
        best_preferred = is_preferred;
      }
    }
  }
  return best;
}

}  // namespace animkit::call_of_duty
