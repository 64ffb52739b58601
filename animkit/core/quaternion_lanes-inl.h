// Quaternion arithmetic on SIMD lanes shared by the Highway kernels (core/soa_kernels.cpp,
// shadow_of_war/rotation_lanes.cpp). Highway's per-target header: each kernel file includes it
// inside its own foreach_target pass, so the guard below toggles per target. Include it only from
// a file compiled with -ffp-contract=off, where each multiply and add rounds as the scalar code's.
#if defined(ANIMKIT_CORE_QUATERNION_LANES_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ANIMKIT_CORE_QUATERNION_LANES_INL_H_
#undef ANIMKIT_CORE_QUATERNION_LANES_INL_H_
#else
#define ANIMKIT_CORE_QUATERNION_LANES_INL_H_
#endif

#include <limits>

#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace animkit::quaternion_lanes::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// math.h normalize() lane by lane: the squared length summed x, y, z, w in order, 1 / sqrt of
// it, each component times that; the identity where the squared length is not in (0, inf).
template <class D, class V = hn::Vec<D>>
HWY_INLINE void NormalizeExact(D d, V& x, V& y, V& z, V& w) {
  const V n2 = hn::Add(hn::Add(hn::Add(hn::Mul(x, x), hn::Mul(y, y)), hn::Mul(z, z)), hn::Mul(w, w));
  const auto ok = hn::And(hn::Gt(n2, hn::Zero(d)),
                          hn::Lt(n2, hn::Set(d, std::numeric_limits<float>::infinity())));
  const V inv = hn::Div(hn::Set(d, 1.f), hn::Sqrt(n2));
  x = hn::IfThenElseZero(ok, hn::Mul(x, inv));
  y = hn::IfThenElseZero(ok, hn::Mul(y, inv));
  z = hn::IfThenElseZero(ok, hn::Mul(z, inv));
  w = hn::IfThenElse(ok, hn::Mul(w, inv), hn::Set(d, 1.f));
}

}  // namespace animkit::quaternion_lanes::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // ANIMKIT_CORE_QUATERNION_LANES_INL_H_
