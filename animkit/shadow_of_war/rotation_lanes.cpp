// Highway compiles this file once per target (foreach_target.h re-includes it); the HWY_ONCE part
// at the end dispatches to the best one at run time. Compiled with -ffp-contract=off (CMakeLists):
// each multiply and add rounds as the scalar code's do.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "animkit/shadow_of_war/rotation_lanes.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "animkit/core/quaternion_lanes-inl.h"

#include <limits>

#include "animkit/shadow_of_war/rotation_lanes.h"

HWY_BEFORE_NAMESPACE();
namespace animkit::shadow_of_war::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
using D = hn::ScalableTag<float>;
using V = hn::Vec<D>;

// math.h normalize() lane by lane (quaternion_lanes-inl.h, shared with the core's kernels).
using quaternion_lanes::HWY_NAMESPACE::NormalizeExact;

// Lane i's quaternion (x, y, z, w) to out + i * stride, for lanes i < count: per 128-bit block a
// 4 x 4 transpose, so vector k holds lane 4 b + k's quaternion in block b, stored as it is.
template <class DF, class VF = hn::Vec<DF>>
HWY_INLINE void StoreQuats(DF d, VF x, VF y, VF z, VF w, size_t count, float* out,
                           size_t stride) {
  constexpr size_t kN = hn::MaxLanes(DF());
#if HWY_TARGET != HWY_SCALAR
  static_assert(kN == 4 || kN == 8);
  const hn::Repartition<double, DF> dd;
  const auto xy_lo = hn::BitCast(dd, hn::InterleaveLower(d, x, y));  // x0 y0 x1 y1 | x4 ..
  const auto xy_hi = hn::BitCast(dd, hn::InterleaveUpper(d, x, y));  // x2 y2 x3 y3 | x6 ..
  const auto zw_lo = hn::BitCast(dd, hn::InterleaveLower(d, z, w));
  const auto zw_hi = hn::BitCast(dd, hn::InterleaveUpper(d, z, w));
  const VF q[4] = {hn::BitCast(d, hn::InterleaveLower(dd, xy_lo, zw_lo)),
                   hn::BitCast(d, hn::InterleaveUpper(dd, xy_lo, zw_lo)),
                   hn::BitCast(d, hn::InterleaveLower(dd, xy_hi, zw_hi)),
                   hn::BitCast(d, hn::InterleaveUpper(dd, xy_hi, zw_hi))};
  for (size_t k = 0; k < 4 && k < count; ++k) {
    if constexpr (kN == 8) {
      const hn::Half<DF> d4;
      hn::StoreU(hn::LowerHalf(d4, q[k]), d4, out + k * stride);
      if (k + 4 < count) hn::StoreU(hn::UpperHalf(d4, q[k]), d4, out + (k + 4) * stride);
    } else {
      hn::StoreU(q[k], d, out + k * stride);
    }
  }
#else  // one lane: through a buffer
  HWY_ALIGN float buf[4 * kN];
  hn::StoreInterleaved4(x, y, z, w, d, buf);
  for (size_t i = 0; i < count && i < kN; ++i)
    for (size_t c = 0; c < 4; ++c) out[i * stride + c] = buf[4 * i + c];
#endif
}

// kRows: the blocks of `rows` read a and b from the rows, s and held from `rows`.
template <bool kRows>
HWY_INLINE void RotationLoop(const float* af, const float* bf, const float* s, const float* held,
                             size_t count, bool full_layer, float* of, size_t stride,
                             const RotationRows* rows) {
  const D d;
  const size_t lanes = hn::Lanes(d);
  static_assert(kRotationLanePad % hn::MaxLanes(D()) == 0);
  const V zero = hn::Zero(d), one = hn::Set(d, 1.f);
  for (size_t i = 0; i < count; i += lanes) {
    const bool from_rows = kRows && (rows->blocks >> (i / kRotationLanePad) & 1);
    V ax, ay, az, aw, bx, by, bz, bw;
    hn::LoadInterleaved4(d, (from_rows ? rows->a_row : af) + 4 * i, ax, ay, az, aw);
    hn::LoadInterleaved4(d, (from_rows ? rows->b_row : bf) + 4 * i, bx, by, bz, bw);
    const V t = from_rows ? hn::Set(d, rows->s) : hn::LoadU(d, s + i);
    const auto keep = hn::Gt(from_rows ? hn::Set(d, rows->held) : hn::LoadU(d, held + i), zero);
    // nlerp(a, b, t): s = dot(a, b) < 0 ? -t : t, r = 1 - t, normalize(a * r + b * s).
    const V dot = hn::Add(hn::Add(hn::Add(hn::Mul(ax, bx), hn::Mul(ay, by)), hn::Mul(az, bz)),
                          hn::Mul(aw, bw));
    const V signed_t = hn::IfThenElse(hn::Lt(dot, zero), hn::Neg(t), t);
    const V r = hn::Sub(one, t);
    V x = hn::Add(hn::Mul(ax, r), hn::Mul(bx, signed_t));
    V y = hn::Add(hn::Mul(ay, r), hn::Mul(by, signed_t));
    V z = hn::Add(hn::Mul(az, r), hn::Mul(bz, signed_t));
    V w = hn::Add(hn::Mul(aw, r), hn::Mul(bw, signed_t));
    NormalizeExact(d, x, y, z, w);
    x = hn::IfThenElse(keep, ax, x);
    y = hn::IfThenElse(keep, ay, y);
    z = hn::IfThenElse(keep, az, z);
    w = hn::IfThenElse(keep, aw, w);
    if (full_layer) {  // BlendSum of the layer alone: 0 + q per component, normalised again
      x = hn::Add(zero, x);
      y = hn::Add(zero, y);
      z = hn::Add(zero, z);
      w = hn::Add(zero, w);
      NormalizeExact(d, x, y, z, w);
    }
    StoreQuats(d, x, y, z, w, count - i, of + i * stride, stride);
  }
}

void RotationLanes(const float* af, const float* bf, const float* s, const float* held,
                   size_t count, bool full_layer, float* of, size_t stride,
                   const RotationRows* rows) {
  if (rows)
    RotationLoop<true>(af, bf, s, held, count, full_layer, of, stride, rows);
  else
    RotationLoop<false>(af, bf, s, held, count, full_layer, of, stride, nullptr);
}

}  // namespace animkit::shadow_of_war::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace animkit::shadow_of_war {

HWY_EXPORT(RotationLanes);

void rotation_lanes(const float* a, const float* b, const float* s, const float* held,
                    size_t count, bool full_layer, float* out, size_t stride) {
  HWY_DYNAMIC_DISPATCH(RotationLanes)(a, b, s, held, count, full_layer, out, stride, nullptr);
}

void rotation_lanes(const float* a, const float* b, const float* s, const float* held,
                    size_t count, bool full_layer, float* out, size_t stride,
                    const RotationRows& rows) {
  HWY_DYNAMIC_DISPATCH(RotationLanes)(a, b, s, held, count, full_layer, out, stride, &rows);
}

}  // namespace animkit::shadow_of_war
#endif
