// Highway compiles this file once per target (foreach_target.h re-includes it); the HWY_ONCE part
// at the end dispatches to the best one at run time. Compiled with -ffp-contract=off (CMakeLists):
// each multiply and add rounds as the scalar code's do.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "animkit/shadow_of_war/rotation_lanes.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include <limits>

#include "animkit/shadow_of_war/rotation_lanes.h"

HWY_BEFORE_NAMESPACE();
namespace animkit::shadow_of_war::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
using D = hn::ScalableTag<float>;
using V = hn::Vec<D>;

// math.h normalize(): the squared length summed x, y, z, w in order, 1 / sqrt of it, each
// component times that; the identity when the squared length is not in (0, inf).
HWY_INLINE void Normalize(D d, V& x, V& y, V& z, V& w) {
  const V n2 = hn::Add(hn::Add(hn::Add(hn::Mul(x, x), hn::Mul(y, y)), hn::Mul(z, z)), hn::Mul(w, w));
  const auto ok = hn::And(hn::Gt(n2, hn::Zero(d)),
                          hn::Lt(n2, hn::Set(d, std::numeric_limits<float>::infinity())));
  const V inv = hn::Div(hn::Set(d, 1.f), hn::Sqrt(n2));
  x = hn::IfThenElseZero(ok, hn::Mul(x, inv));
  y = hn::IfThenElseZero(ok, hn::Mul(y, inv));
  z = hn::IfThenElseZero(ok, hn::Mul(z, inv));
  w = hn::IfThenElse(ok, hn::Mul(w, inv), hn::Set(d, 1.f));
}

void RotationLanes(const float* af, const float* bf, const float* s, const float* held,
                   size_t count, bool full_layer, float* of) {
  const D d;
  const size_t lanes = hn::Lanes(d);
  const V zero = hn::Zero(d), one = hn::Set(d, 1.f);
  for (size_t i = 0; i < count; i += lanes) {
    V ax, ay, az, aw, bx, by, bz, bw;
    hn::LoadInterleaved4(d, af + 4 * i, ax, ay, az, aw);
    hn::LoadInterleaved4(d, bf + 4 * i, bx, by, bz, bw);
    const V t = hn::LoadU(d, s + i);
    const auto keep = hn::Gt(hn::LoadU(d, held + i), zero);
    // nlerp(a, b, t): s = dot(a, b) < 0 ? -t : t, r = 1 - t, normalize(a * r + b * s).
    const V dot = hn::Add(hn::Add(hn::Add(hn::Mul(ax, bx), hn::Mul(ay, by)), hn::Mul(az, bz)),
                          hn::Mul(aw, bw));
    const V signed_t = hn::IfThenElse(hn::Lt(dot, zero), hn::Neg(t), t);
    const V r = hn::Sub(one, t);
    V x = hn::Add(hn::Mul(ax, r), hn::Mul(bx, signed_t));
    V y = hn::Add(hn::Mul(ay, r), hn::Mul(by, signed_t));
    V z = hn::Add(hn::Mul(az, r), hn::Mul(bz, signed_t));
    V w = hn::Add(hn::Mul(aw, r), hn::Mul(bw, signed_t));
    Normalize(d, x, y, z, w);
    x = hn::IfThenElse(keep, ax, x);
    y = hn::IfThenElse(keep, ay, y);
    z = hn::IfThenElse(keep, az, z);
    w = hn::IfThenElse(keep, aw, w);
    if (full_layer) {  // BlendSum of the layer alone: 0 + q per component, normalised again
      x = hn::Add(zero, x);
      y = hn::Add(zero, y);
      z = hn::Add(zero, z);
      w = hn::Add(zero, w);
      Normalize(d, x, y, z, w);
    }
    hn::StoreInterleaved4(x, y, z, w, d, of + 4 * i);
  }
}

}  // namespace animkit::shadow_of_war::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace animkit::shadow_of_war {

HWY_EXPORT(RotationLanes);

void rotation_lanes(const float* a, const float* b, const float* s, const float* held,
                    size_t count, bool full_layer, float* out) {
  HWY_DYNAMIC_DISPATCH(RotationLanes)(a, b, s, held, count, full_layer, out);
}

}  // namespace animkit::shadow_of_war
#endif
