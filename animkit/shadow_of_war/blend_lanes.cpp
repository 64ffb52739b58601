// Highway compiles this file once per target (foreach_target.h re-includes it); the HWY_ONCE part
// at the end dispatches to the best one at run time. Compiled with -ffp-contract=off (CMakeLists):
// each multiply and add rounds as the scalar code's do.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "animkit/shadow_of_war/blend_lanes.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "animkit/core/quaternion_lanes-inl.h"

#include "animkit/core/blending_job.h"
#include "animkit/shadow_of_war/blend_lanes.h"

HWY_BEFORE_NAMESPACE();
namespace animkit::shadow_of_war::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
using D = hn::ScalableTag<float>;
using V = hn::Vec<D>;
using M = hn::Mask<D>;
using quaternion_lanes::HWY_NAMESPACE::NormalizeExact;

constexpr size_t kFloats = sizeof(Transform) / sizeof(float);  // 10: t xyz, r xyzw, s xyz
static_assert(kFloats == 10);
constexpr size_t kMaxLanes = 16;  // the widest vector of floats Highway may pick

// One BlendSum per lane, its ten sums and total.
struct Sums {
  V c[kFloats];
  V total;
};

// The joints' transforms as ten vectors, component c of lane i from joints[i].
struct Lanes {
  V c[kFloats];
  Lanes(D d, const Transform* joints, hn::Vec<hn::RebindToSigned<D>> index) {
    const float* f = reinterpret_cast<const float*>(joints);
    for (size_t k = 0; k < kFloats; ++k) c[k] = hn::GatherIndex(d, f + k, index);
  }
};

// BlendSum::add(x, w) in the lanes of `on`: the sign of w flipped where dot(sum rotation,
// x rotation) < 0, then each sum + x * w, the total + w.
HWY_INLINE void Add(D d, Sums& s, const Lanes& x, V w, M on) {
  const V dot = hn::Add(hn::Add(hn::Add(hn::Mul(s.c[3], x.c[3]), hn::Mul(s.c[4], x.c[4])),
                                hn::Mul(s.c[5], x.c[5])),
                        hn::Mul(s.c[6], x.c[6]));
  const V signed_w = hn::IfThenElse(hn::Lt(dot, hn::Zero(d)), hn::Neg(w), w);
  for (size_t k = 0; k < kFloats; ++k) {
    const V wk = k >= 3 && k <= 6 ? signed_w : w;
    s.c[k] = hn::IfThenElse(on, hn::Add(s.c[k], hn::Mul(x.c[k], wk)), s.c[k]);
  }
  s.total = hn::IfThenElse(on, hn::Add(s.total, w), s.total);
}

void BlendLanes(Transform* pose, const Transform* layer, const Transform* rest, const float* a,
                size_t count, float threshold) {
  const D d;
  const size_t n = hn::Lanes(d);
  const hn::RebindToSigned<D> di;
  const auto index = hn::Mul(hn::Iota(di, 0), hn::Set(di, static_cast<int32_t>(kFloats)));
  const V zero = hn::Zero(d), one = hn::Set(d, 1.f), thr = hn::Set(d, threshold);
  size_t j = 0;
  for (; j + n <= count; j += n) {
    const V w = hn::LoadU(d, a + j);
    const V keep = hn::Sub(one, w);
    Sums s;
    for (V& c : s.c) c = zero;
    s.total = zero;
    Add(d, s, Lanes(d, pose + j, index), keep, hn::Gt(keep, zero));
    Add(d, s, Lanes(d, layer + j, index), w, hn::Gt(w, zero));
    // BlendSum::result: the rest pose makes up a total below the threshold.
    const M low = hn::Lt(s.total, thr);
    if (!hn::AllFalse(d, low)) Add(d, s, Lanes(d, rest + j, index), hn::Sub(thr, s.total), low);
    const V inv = hn::Div(one, s.total);
    NormalizeExact(d, s.c[3], s.c[4], s.c[5], s.c[6]);
    HWY_ALIGN float out[kFloats][kMaxLanes];
    for (size_t k = 0; k < kFloats; ++k)
      hn::Store(k >= 3 && k <= 6 ? s.c[k] : hn::Mul(s.c[k], inv), d, out[k]);
    for (size_t i = 0; i < n; ++i) {
      float* f = reinterpret_cast<float*>(pose + j + i);
      for (size_t k = 0; k < kFloats; ++k) f[k] = out[k][i];
    }
  }
  // The last joints, fewer than a vector: the scalar rule (layer_blend.cpp's loop).
  for (; j < count; ++j) {
    const float keep = 1.f - a[j];
    BlendSum sum;
    if (keep > 0.f) sum.add(pose[j], keep);
    if (a[j] > 0.f) sum.add(layer[j], a[j]);
    pose[j] = sum.result(rest[j], threshold);
  }
}

}  // namespace animkit::shadow_of_war::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace animkit::shadow_of_war {

HWY_EXPORT(BlendLanes);

void blend_lanes(Transform* pose, const Transform* layer, const Transform* rest, const float* a,
                 size_t count, float threshold) {
  HWY_DYNAMIC_DISPATCH(BlendLanes)(pose, layer, rest, a, count, threshold);
}

}  // namespace animkit::shadow_of_war
#endif
