// Highway compiles this file once per target (foreach_target.h re-includes it); the HWY_ONCE part
// at the end dispatches to the best one at run time. Each kernel mirrors its scalar reference in
// soa_jobs.cpp operation for operation (only fused multiply-adds round differently).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "animkit/core/soa_kernels.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "animkit/core/quaternion_lanes-inl.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include "animkit/core/soa_jobs.h"
#include "animkit/core/soa_kernels.h"
#include "animkit/core/soa_pose.h"

HWY_BEFORE_NAMESPACE();
namespace animkit::soa_kernels::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
using D = hn::ScalableTag<float>;
using V = hn::Vec<D>;

// The fraction between the pair's keys, 0 while a key holds (inv == 0), clamped to [0, 1].
HWY_INLINE V Alpha(D d, const float* cache, size_t stride, size_t i, V time) {
  const V zero = hn::Zero(d);
  const V inv = hn::LoadU(d, cache + stride + i);
  const V x = hn::Mul(hn::Sub(time, hn::LoadU(d, cache + i)), inv);
  return hn::IfThenElseZero(hn::Gt(inv, zero), hn::Min(hn::Max(x, zero), hn::Set(d, 1.f)));
}

// Scales q to unit length; the identity where its squared length is 0 or not finite.
HWY_INLINE void Normalize(D d, V& x, V& y, V& z, V& w) {
  const V n2 = hn::MulAdd(x, x, hn::MulAdd(y, y, hn::MulAdd(z, z, hn::Mul(w, w))));
  const auto ok = hn::And(hn::Gt(n2, hn::Zero(d)),
                          hn::Lt(n2, hn::Set(d, std::numeric_limits<float>::infinity())));
  const V inv = hn::Div(hn::Set(d, 1.f), hn::Sqrt(n2));
  x = hn::IfThenElseZero(ok, hn::Mul(x, inv));
  y = hn::IfThenElseZero(ok, hn::Mul(y, inv));
  z = hn::IfThenElseZero(ok, hn::Mul(z, inv));
  w = hn::IfThenElse(ok, hn::Mul(w, inv), hn::Set(d, 1.f));
}

void SampleChannel(const float* cache, size_t stride, size_t padded, int dim, float time, float* out) {
  const D d;
  const size_t lanes = hn::Lanes(d);
  const V t = hn::Set(d, time);
  const float* left = cache + 2 * stride;
  const float* right = left + dim * stride;
  for (size_t i = 0; i < padded; i += lanes) {
    const V alpha = Alpha(d, cache, stride, i, t);
    V v[4];
    for (int k = 0; k < dim; ++k) {
      const V a = hn::LoadU(d, left + k * stride + i);
      v[k] = hn::MulAdd(hn::Sub(hn::LoadU(d, right + k * stride + i), a), alpha, a);
    }
    if (dim == 4) Normalize(d, v[0], v[1], v[2], v[3]);
    for (int k = 0; k < dim; ++k) hn::StoreU(v[k], d, out + k * stride + i);
  }
}

// kExact: SamplingJob's arithmetic lane by lane (this file is compiled without contracting a
// multiply and an add into one FMA, so every operation rounds as the scalar code's does).
using quaternion_lanes::HWY_NAMESPACE::NormalizeExact;  // quaternion_lanes-inl.h

void SampleChannelExact(const float* cache, size_t stride, size_t padded, int dim, float time,
                        float* out) {
  const D d;
  const size_t lanes = hn::Lanes(d);
  const V t = hn::Set(d, time), zero = hn::Zero(d), one = hn::Set(d, 1.f);
  const float* left = cache + 2 * stride;
  const float* right = left + dim * stride;
  const float* span = right + dim * stride;
  const float* mode = span + stride;
  for (size_t i = 0; i < padded; i += lanes) {
    const V t0 = hn::LoadU(d, cache + i), inv = hn::LoadU(d, cache + stride + i);
    const V since = hn::Sub(t, t0);
    const V x = hn::Mul(since, inv);  // SamplingJob: (time - t0) * slot.inv
    // A key holds (its value as stored) while inv is 0 and before the pair's first key.
    const auto holds = hn::Or(hn::Not(hn::Gt(inv, zero)), hn::Lt(t, t0));
    V a[4], b[4], v[4];
    for (int k = 0; k < dim; ++k) {
      a[k] = hn::LoadU(d, left + k * stride + i);
      b[k] = hn::LoadU(d, right + k * stride + i);
    }
    if (dim == 3) {  // lerp: a + (b - a) * x
      for (int k = 0; k < 3; ++k) v[k] = hn::IfThenElse(holds, a[k], hn::Add(a[k], hn::Mul(hn::Sub(b[k], a[k]), x)));
    } else {
      // nlerp: a * (1 - x) + b * (+-x), the sign from dot(a, b).
      const V dot = hn::Add(hn::Add(hn::Add(hn::Mul(a[0], b[0]), hn::Mul(a[1], b[1])), hn::Mul(a[2], b[2])),
                            hn::Mul(a[3], b[3]));
      const V s = hn::IfThenElse(hn::Lt(dot, zero), hn::Neg(x), x);
      const V r = hn::Sub(one, x);
      V n[4], l[4];
      for (int k = 0; k < 4; ++k) n[k] = hn::Add(hn::Mul(a[k], r), hn::Mul(b[k], s));
      NormalizeExact(d, n[0], n[1], n[2], n[3]);
      // kLinear (evaluate()): a + (b - a) * ((time - t0) / (t1 - t0)), held at time == t0 too.
      const V f = hn::Div(since, hn::LoadU(d, span + i));
      for (int k = 0; k < 4; ++k) l[k] = hn::Add(a[k], hn::Mul(hn::Sub(b[k], a[k]), f));
      NormalizeExact(d, l[0], l[1], l[2], l[3]);
      const auto linear = hn::Gt(hn::LoadU(d, mode + i), zero);
      const auto linear_holds = hn::And(linear, hn::Not(hn::Gt(t, t0)));
      const auto held = hn::Or(holds, linear_holds);
      for (int k = 0; k < 4; ++k) v[k] = hn::IfThenElse(held, a[k], hn::IfThenElse(linear, l[k], n[k]));
    }
    for (int k = 0; k < dim; ++k) hn::StoreU(v[k], d, out + k * stride + i);
  }
}

// Layers are summed in blocks of kLayerBlock: past one block the joints would have to come back
// from L2 for every lane group (a 32-byte group reads half of each 64-byte line, and the other
// half is evicted before the next group when the layers' lines outgrow L1: the per-layer cost at
// 48 layers was 1.6x that at 16). Between blocks the partial sums wait in `out` and the weight
// totals on the stack, a chunk of joints at a time; the arithmetic and its order are those of
// one pass (issue 34, item 3).
constexpr size_t kLayerBlock = 16;
constexpr size_t kJointChunk = 256;

struct Layer {  // one layer of the block being summed, its pointers read once per block
  const float* pose;
  float weight;
  const float* mask;  // or null
};

// The weight of `layer` for lane group i: its weight, times its joint weights when it has a mask
// (negative products count as 0).
HWY_INLINE V LayerWeight(D d, const Layer& layer, size_t i, size_t num_joints) {
  const size_t lanes = hn::Lanes(d);
  V w = hn::Set(d, layer.weight);
  if (!layer.mask) return w;
  V jw;
  if (i + lanes <= num_joints) {
    jw = hn::LoadU(d, layer.mask + i);
  } else {  // the tail: the mask has no padding, the missing joints weigh 0
    HWY_ALIGN float tail[kSoaLanes] = {};
    if (i < num_joints) std::memcpy(tail, layer.mask + i, (num_joints - i) * sizeof(float));
    jw = hn::LoadU(d, tail);
  }
  w = hn::Mul(w, jw);
  return hn::IfThenElseZero(hn::Gt(w, hn::Zero(d)), w);
}

// One lane group over the block's layers. kResumes: the sums so far are in `out` and `total`;
// kFinishes: the last block, so the rest pose and the normalisation follow (else the sums are
// stored back). Templates, so the usual single block compiles to the one-pass loop it was.
// The rotations are summed over the layers first, then the six linear components: ten sums and
// a layer's loads at once need more than AVX2's 16 vector registers (the sums spilled to the
// stack); each half fits. Every sum gets the same operations in the same order as in one pass.
template <bool kResumes, bool kFinishes>
HWY_INLINE void BlendGroup(D d, const Layer* layers, size_t count, const float* rest, V thr, float* out,
                           float* total_slot, size_t i, size_t num_joints, size_t stride) {
  const V zero = hn::Zero(d);
  constexpr int kLinear[6] = {kTx, kTy, kTz, kSx, kSy, kSz};
  // Rotations: each pose flips onto the hemisphere of the sum so far.
  V qx = kResumes ? hn::LoadU(d, out + kQx * stride + i) : zero;
  V qy = kResumes ? hn::LoadU(d, out + kQy * stride + i) : zero;
  V qz = kResumes ? hn::LoadU(d, out + kQz * stride + i) : zero;
  V qw = kResumes ? hn::LoadU(d, out + kQw * stride + i) : zero;
  V total = kResumes ? hn::Load(d, total_slot) : zero;
  const auto add_rotation = [&](const float* pose, V w) {
    const float* p = pose + i;
    const V x = hn::LoadU(d, p + kQx * stride), y = hn::LoadU(d, p + kQy * stride);
    const V z = hn::LoadU(d, p + kQz * stride), ww = hn::LoadU(d, p + kQw * stride);
    const V dot = hn::MulAdd(qx, x, hn::MulAdd(qy, y, hn::MulAdd(qz, z, hn::Mul(qw, ww))));
    const V sw = hn::IfThenElse(hn::Lt(dot, zero), hn::Neg(w), w);
    qx = hn::MulAdd(x, sw, qx);
    qy = hn::MulAdd(y, sw, qy);
    qz = hn::MulAdd(z, sw, qz);
    qw = hn::MulAdd(ww, sw, qw);
  };
  for (size_t l = 0; l < count; ++l) {
    const V w = LayerWeight(d, layers[l], i, num_joints);
    add_rotation(layers[l].pose, w);
    total = hn::Add(total, w);
  }
  // Below the threshold, the rest pose makes up the difference (skipped when no lane is:
  // adding it with weight 0 changes nothing).
  V rest_weight = zero;
  bool with_rest = false;
  if (kFinishes) {
    const auto below = hn::Lt(total, thr);
    with_rest = !hn::AllFalse(d, below);
    if (with_rest) {
      rest_weight = hn::IfThenElseZero(below, hn::Sub(thr, total));
      add_rotation(rest, rest_weight);
      total = hn::Add(total, rest_weight);
    }
  }
  if (kFinishes) {
    Normalize(d, qx, qy, qz, qw);
  } else {
    hn::Store(total, d, total_slot);
  }
  hn::StoreU(qx, d, out + kQx * stride + i);
  hn::StoreU(qy, d, out + kQy * stride + i);
  hn::StoreU(qz, d, out + kQz * stride + i);
  hn::StoreU(qw, d, out + kQw * stride + i);
  // The linear components, weighted the same way.
  V acc[6];
  for (int k = 0; k < 6; ++k) acc[k] = kResumes ? hn::LoadU(d, out + kLinear[k] * stride + i) : zero;
  const auto add_linear = [&](const float* pose, V w) {
    for (int k = 0; k < 6; ++k) acc[k] = hn::MulAdd(hn::LoadU(d, pose + kLinear[k] * stride + i), w, acc[k]);
  };
  for (size_t l = 0; l < count; ++l) add_linear(layers[l].pose, LayerWeight(d, layers[l], i, num_joints));
  if (with_rest) add_linear(rest, rest_weight);
  if (kFinishes) {
    const V inv = hn::Div(hn::Set(d, 1.f), total);
    for (int k = 0; k < 6; ++k) acc[k] = hn::Mul(acc[k], inv);
  }
  for (int k = 0; k < 6; ++k) hn::StoreU(acc[k], d, out + kLinear[k] * stride + i);
}

// The lane groups of joints [begin, end) over one block. A function of its own per case, so
// the compiler allocates registers for this loop alone (inlined into Blend(), its pointers and
// counters lived on the stack).
template <bool kResumes, bool kFinishes>
HWY_NOINLINE void BlendRange(const Layer* layers, size_t count, const float* rest, float threshold, float* out,
                             float* totals, size_t begin, size_t end, size_t num_joints, size_t stride) {
  const D d;
  const size_t lanes = hn::Lanes(d);
  const V thr = hn::Set(d, threshold);
  for (size_t i = begin; i < end; i += lanes) {
    BlendGroup<kResumes, kFinishes>(d, layers, count, rest, thr, out, totals + (i - begin), i, num_joints, stride);
  }
}

// The usual case: one block and no joint weights. Every lane then has the same weights, so the
// total, the rest pose's share and 1 / total are computed once instead of per lane group (the
// same operations in the same order, so the same bits as BlendGroup<false, true>).
HWY_NOINLINE void BlendUnmasked(const Layer* layers, size_t count, const float* rest, float threshold, float* out,
                                size_t begin, size_t end, size_t stride) {
  const D d;
  const size_t lanes = hn::Lanes(d);
  const V zero = hn::Zero(d), thr = hn::Set(d, threshold);
  V total = zero;
  for (size_t l = 0; l < count; ++l) total = hn::Add(total, hn::Set(d, layers[l].weight));
  const auto below = hn::Lt(total, thr);
  const bool with_rest = !hn::AllFalse(d, below);
  const V rest_weight = hn::IfThenElseZero(below, hn::Sub(thr, total));
  if (with_rest) total = hn::Add(total, rest_weight);
  const V inv = hn::Div(hn::Set(d, 1.f), total);
  constexpr int kLinear[6] = {kTx, kTy, kTz, kSx, kSy, kSz};
  for (size_t i = begin; i < end; i += lanes) {
    V qx = zero, qy = zero, qz = zero, qw = zero;
    const auto add_rotation = [&](const float* p, V w) {
      const V x = hn::LoadU(d, p + kQx * stride), y = hn::LoadU(d, p + kQy * stride);
      const V z = hn::LoadU(d, p + kQz * stride), ww = hn::LoadU(d, p + kQw * stride);
      const V dot = hn::MulAdd(qx, x, hn::MulAdd(qy, y, hn::MulAdd(qz, z, hn::Mul(qw, ww))));
      const V sw = hn::IfThenElse(hn::Lt(dot, zero), hn::Neg(w), w);
      qx = hn::MulAdd(x, sw, qx);
      qy = hn::MulAdd(y, sw, qy);
      qz = hn::MulAdd(z, sw, qz);
      qw = hn::MulAdd(ww, sw, qw);
    };
    for (size_t l = 0; l < count; ++l) add_rotation(layers[l].pose + i, hn::Set(d, layers[l].weight));
    if (with_rest) add_rotation(rest + i, rest_weight);
    Normalize(d, qx, qy, qz, qw);
    hn::StoreU(qx, d, out + kQx * stride + i);
    hn::StoreU(qy, d, out + kQy * stride + i);
    hn::StoreU(qz, d, out + kQz * stride + i);
    hn::StoreU(qw, d, out + kQw * stride + i);
    V acc[6] = {zero, zero, zero, zero, zero, zero};
    const auto add_linear = [&](const float* p, V w) {
      for (int k = 0; k < 6; ++k) acc[k] = hn::MulAdd(hn::LoadU(d, p + kLinear[k] * stride), w, acc[k]);
    };
    for (size_t l = 0; l < count; ++l) add_linear(layers[l].pose + i, hn::Set(d, layers[l].weight));
    if (with_rest) add_linear(rest + i, rest_weight);
    for (int k = 0; k < 6; ++k) hn::StoreU(hn::Mul(acc[k], inv), d, out + kLinear[k] * stride + i);
  }
}

// The usual case with at most kFewLayers weighing layers and no joint weights (FewPoses,
// gathered by SoaBlendingJob as it validates: no second walk over the layers here): the pose
// count is a template argument, so the loops unroll and every pose's pointer and weight stays in
// a register. Each pass walks one pointer per pose (a component's neighbours are `stride`, 2
// `stride` and 3 `stride` floats on, x86 addressing modes) over one group of components: the
// rotations (normalised in the same pass), then the translations, then the scales.
// BlendUnmasked kept the ten component offsets of every layer on the stack (~20 instructions per
// joint for two layers). The same operations in the same order as BlendUnmasked, so the same
// bits, but for the first pose's products: x * w, where BlendUnmasked's fma(x, w, 0) makes a -0
// product +0 (a register copy fewer per sum) (issue 34, item 6).
template <size_t N>
HWY_NOINLINE void BlendFew(const float* const* poses, const float* weights, float inv_total, float* out,
                           size_t padded, size_t stride) {
  const D d;
  const size_t lanes = hn::Lanes(d);
  const V zero = hn::Zero(d);
  V w[N];
  for (size_t l = 0; l < N; ++l) w[l] = hn::Set(d, weights[l]);
  const size_t s1 = stride, s2 = 2 * stride, s3 = 3 * stride;
  const float* HWY_RESTRICT p[N];
  // Rotations. The first layer's dot with the zero sum is never < 0 (0 or NaN): it keeps its
  // sign, as BlendUnmasked's test decides for it.
  for (size_t l = 0; l < N; ++l) p[l] = poses[l] + kQx * stride;
  float* HWY_RESTRICT o = out + kQx * stride;
  for (size_t i = 0; i < padded; i += lanes) {
    V qx = hn::Mul(hn::LoadU(d, p[0]), w[0]);
    V qy = hn::Mul(hn::LoadU(d, p[0] + s1), w[0]);
    V qz = hn::Mul(hn::LoadU(d, p[0] + s2), w[0]);
    V qw = hn::Mul(hn::LoadU(d, p[0] + s3), w[0]);
#pragma GCC unroll 8
    for (size_t l = 1; l < N; ++l) {
      const V x = hn::LoadU(d, p[l]), y = hn::LoadU(d, p[l] + s1);
      const V z = hn::LoadU(d, p[l] + s2), ww = hn::LoadU(d, p[l] + s3);
      const V dot = hn::MulAdd(qx, x, hn::MulAdd(qy, y, hn::MulAdd(qz, z, hn::Mul(qw, ww))));
      const V sw = hn::IfThenElse(hn::Lt(dot, zero), hn::Neg(w[l]), w[l]);
      qx = hn::MulAdd(x, sw, qx);
      qy = hn::MulAdd(y, sw, qy);
      qz = hn::MulAdd(z, sw, qz);
      qw = hn::MulAdd(ww, sw, qw);
    }
    Normalize(d, qx, qy, qz, qw);
    hn::StoreU(qx, d, o);
    hn::StoreU(qy, d, o + s1);
    hn::StoreU(qz, d, o + s2);
    hn::StoreU(qw, d, o + s3);
#pragma GCC unroll 8
    for (size_t l = 0; l < N; ++l) p[l] += lanes;
    o += lanes;
  }
  // Translations, then scales: weighted sums times 1 / total.
  const V inv = hn::Set(d, inv_total);
  for (const int first : {kTx, kSx}) {
    for (size_t l = 0; l < N; ++l) p[l] = poses[l] + first * stride;
    o = out + first * stride;
    for (size_t i = 0; i < padded; i += lanes) {
      V a = hn::Mul(hn::LoadU(d, p[0]), w[0]);
      V b = hn::Mul(hn::LoadU(d, p[0] + s1), w[0]);
      V c = hn::Mul(hn::LoadU(d, p[0] + s2), w[0]);
#pragma GCC unroll 8
      for (size_t l = 1; l < N; ++l) {
        a = hn::MulAdd(hn::LoadU(d, p[l]), w[l], a);
        b = hn::MulAdd(hn::LoadU(d, p[l] + s1), w[l], b);
        c = hn::MulAdd(hn::LoadU(d, p[l] + s2), w[l], c);
      }
      hn::StoreU(hn::Mul(a, inv), d, o);
      hn::StoreU(hn::Mul(b, inv), d, o + s1);
      hn::StoreU(hn::Mul(c, inv), d, o + s2);
#pragma GCC unroll 8
      for (size_t l = 0; l < N; ++l) p[l] += lanes;
      o += lanes;
    }
  }
}

void BlendFewEntry(const FewPoses& few, float* out, size_t padded, size_t stride) {
  const float* const* p = few.pose;
  const float* w = few.weight;
  switch (few.count) {
    case 1: return BlendFew<1>(p, w, few.inv_total, out, padded, stride);
    case 2: return BlendFew<2>(p, w, few.inv_total, out, padded, stride);
    case 3: return BlendFew<3>(p, w, few.inv_total, out, padded, stride);
    case 4: return BlendFew<4>(p, w, few.inv_total, out, padded, stride);
    case 5: return BlendFew<5>(p, w, few.inv_total, out, padded, stride);
    default: return;  // SoaBlendingJob never sends another count
  }
}

void Blend(const SoaBlendingLayer* layers, size_t count, const float* rest, float threshold, float* out,
           size_t num_joints, size_t padded, size_t stride) {
  // Blocks of equal size (33 layers: 11 + 11 + 11, not 16 + 16 + 1), each block's overhead
  // (reloading and storing the sums) shared by as many layers as possible.
  const size_t blocks = std::max<size_t>(1, (count + kLayerBlock - 1) / kLayerBlock);
  const size_t size = std::max<size_t>(1, (count + blocks - 1) / blocks);  // 0 layers: one pass, rest alone
  Layer block[kLayerBlock];
  HWY_ALIGN float totals[kJointChunk];
  for (size_t chunk = 0; chunk < padded; chunk += kJointChunk) {
    const size_t chunk_end = std::min(padded, chunk + kJointChunk);
    for (size_t first = 0; first == 0 || first < count; first += size) {
      size_t used = 0;  // the block's layers that weigh anything
      for (size_t l = first; l < std::min(count, first + size); ++l) {
        const SoaBlendingLayer& x = layers[l];
        if (x.weight > 0.f) {
          block[used++] = {x.pose->data.data(), x.weight, x.joint_weights.empty() ? nullptr : x.joint_weights.data()};
        }
      }
      const bool resumes = first > 0, finishes = first + size >= count;
      bool masked = false;
      for (size_t l = 0; l < used; ++l) masked |= block[l].mask != nullptr;
      if (!resumes && finishes && !masked) {
        BlendUnmasked(block, used, rest, threshold, out, chunk, chunk_end, stride);
      } else if (!resumes && finishes) {
        BlendRange<false, true>(block, used, rest, threshold, out, totals, chunk, chunk_end, num_joints, stride);
      } else if (!resumes) {
        BlendRange<false, false>(block, used, rest, threshold, out, totals, chunk, chunk_end, num_joints, stride);
      } else if (finishes) {
        BlendRange<true, true>(block, used, rest, threshold, out, totals, chunk, chunk_end, num_joints, stride);
      } else {
        BlendRange<true, false>(block, used, rest, threshold, out, totals, chunk, chunk_end, num_joints, stride);
      }
    }
  }
}

// The local matrices of the `lanes` joints at `locals` (to_matrix's formula): columns 0-2 (rows
// 0-2) and the translation, one row of m per value, one lane per joint.
using Block = float[12][kSoaLanes];
HWY_INLINE void ToMatrices(const float* locals, size_t stride, Block& m) {
  const D d;
  const auto at = [&](int c) { return hn::LoadU(d, locals + c * stride); };
  const V qx = at(kQx), qy = at(kQy), qz = at(kQz), qw = at(kQw);
  const V one = hn::Set(d, 1.f), two = hn::Set(d, 2.f);
  const auto diag = [&](V a, V b, V s) { return hn::Mul(hn::Sub(one, hn::Mul(two, hn::Add(a, b))), s); };
  const auto off = [&](V a, V b, V s) { return hn::Mul(hn::Mul(two, hn::Add(a, b)), s); };
  const auto offm = [&](V a, V b, V s) { return hn::Mul(hn::Mul(two, hn::Sub(a, b)), s); };
  // Each pair of products with the two entries it makes, a scale read where it is used: few
  // values live at once, so nothing spills beside the walk's registers (GCC allocates registers
  // in this order on x86).
  {
    const V xx = hn::Mul(qx, qx), yy = hn::Mul(qy, qy), zz = hn::Mul(qz, qz);
    hn::Store(diag(yy, zz, at(kSx)), d, m[0]);
    hn::Store(diag(xx, zz, at(kSy)), d, m[4]);
    hn::Store(diag(xx, yy, at(kSz)), d, m[8]);
  }
  {
    const V xy = hn::Mul(qx, qy), wz = hn::Mul(qw, qz);
    hn::Store(off(xy, wz, at(kSx)), d, m[1]);
    hn::Store(offm(xy, wz, at(kSy)), d, m[3]);
  }
  {
    const V xz = hn::Mul(qx, qz), wy = hn::Mul(qw, qy);
    hn::Store(offm(xz, wy, at(kSx)), d, m[2]);
    hn::Store(off(xz, wy, at(kSz)), d, m[6]);
  }
  {
    const V yz = hn::Mul(qy, qz), wx = hn::Mul(qw, qx);
    hn::Store(off(yz, wx, at(kSy)), d, m[5]);
    hn::Store(offm(yz, wx, at(kSz)), d, m[7]);
  }
  hn::Store(at(kTx), d, m[9]);
  hn::Store(at(kTy), d, m[10]);
  hn::Store(at(kTz), d, m[11]);
}

#if HWY_TARGET != HWY_SCALAR
using D4 = hn::FixedTag<float, 4>;
using V4 = hn::Vec<D4>;
struct Carry {  // the model columns of joint `last`, kept from one block to the next
  V4 c0, c1, c2, c3;
  int last = -2;  // none yet: no parent is -2
};

// The columns of lane l's local matrix (a root with no placement). Out of line: inlined into
// the walk, its reads of the twelve values made the compiler load all twelve into registers up
// front for every joint (and spill them) instead of broadcasting each from memory where used.
HWY_NOINLINE void LocalColumns(const float (*m)[kSoaLanes], size_t l, V4& c0, V4& c1, V4& c2, V4& c3) {
  const D4 d4;
  const auto column = [&](int k, float w) {
    HWY_ALIGN const float v[4] = {m[k][l], m[k + 1][l], m[k + 2][l], w};
    return hn::Load(d4, v);
  };
  c0 = column(0, 0.f);
  c1 = column(3, 0.f);
  c2 = column(6, 0.f);
  c3 = column(9, 1.f);
}

// Goes down the parent table one joint at a time over joints [base, base + count), a matrix
// column per vector, as ozz does. A joint whose parent is the joint just computed (a chain: most
// of a skeleton) takes the parent's columns from registers, not from the matrix just stored: in
// a chain every joint waits for its parent, and a load of a just-stored vector adds the
// store-to-load forwarding latency to each link. The carried columns keep whatever their fourth
// lane holds (the stores put 0 0 0 1 there): every operation is lane by lane, so that lane never
// reaches the other three (issue 34, item 6).
HWY_INLINE void WalkBlock(const float (*m)[kSoaLanes], size_t base, size_t count, const int16_t* parents,
                          const Mat4* root, Mat4* out, Carry& carry) {
  const D4 d4;
  const auto xyz = hn::FirstN(d4, 3);
  const V4 one4 = hn::Set(d4, 1.f);
  V4 c0 = carry.c0, c1 = carry.c1, c2 = carry.c2, c3 = carry.c3;
  int last = carry.last;
  float* o = out[base].m.data();
  // The walk is bound by how fast the core takes in instructions (~60 a joint), not by the
  // 9-cycle link: the chain's path below has no work but the link's (the parent's matrix and the
  // root case are looked up only off it).
#pragma GCC unroll 2  // the new columns and the carried ones alternate registers: no copies
  for (size_t l = 0; l < count; ++l, o += 16) {
    const int parent = parents[base + l];
    if (HWY_UNLIKELY(parent != last)) {  // else c0-c3 hold the parent's columns
      const Mat4* a = parent >= 0 ? &out[parent] : root;
      if (!a) {  // a root with no placement: its local matrix
        V4 l0, l1, l2, l3;  // (c0-c3 passed by address would live in memory, every link too)
        LocalColumns(m, l, l0, l1, l2, l3);
        c0 = l0, c1 = l1, c2 = l2, c3 = l3;
        last = static_cast<int>(base + l);
        hn::StoreU(c0, d4, o), hn::StoreU(c1, d4, o + 4), hn::StoreU(c2, d4, o + 8), hn::StoreU(c3, d4, o + 12);
        continue;
      }
      const float* x = a->m.data();
      c0 = hn::LoadU(d4, x), c1 = hn::LoadU(d4, x + 4), c2 = hn::LoadU(d4, x + 8), c3 = hn::LoadU(d4, x + 12);
    }
    // mul_affine's operations in its order, unfused: the same bits as the scalar reference.
    // (Fused, the rounding differences grew down a chain past 1e-6 by 50 joints; and the two
    // products of the first add run side by side: 9 cycles a link instead of 11.)
    const auto column = [&](int k) {
      return hn::Add(hn::Add(hn::Mul(c0, hn::Set(d4, m[k][l])), hn::Mul(c1, hn::Set(d4, m[k + 1][l]))),
                     hn::Mul(c2, hn::Set(d4, m[k + 2][l])));
    };
    const V4 n0 = column(0), n1 = column(3), n2 = column(6);
    c3 = hn::Add(column(9), c3);
    c0 = n0, c1 = n1, c2 = n2;
    last = static_cast<int>(base + l);
    hn::StoreU(hn::IfThenElseZero(xyz, c0), d4, o);
    hn::StoreU(hn::IfThenElseZero(xyz, c1), d4, o + 4);
    hn::StoreU(hn::IfThenElseZero(xyz, c2), d4, o + 8);
    hn::StoreU(hn::IfThenElse(xyz, c3, one4), d4, o + 12);
  }
  carry.c0 = c0, carry.c1 = c1, carry.c2 = c2, carry.c3 = c3;
  carry.last = last;
}
#endif

// The local matrices of a block are computed one block ahead of the walk down the parent table
// (two arrays in turn): the next block's arithmetic has no link to the chain being walked, so
// the core runs it in the chain's latency, and a chain never waits for the block it starts on
// (issue 34, item 6: 0.68-0.72 of ozz -> 0.63-0.69 at 64-1,024 joints).
void LocalToModel(const float* locals, size_t num_joints, size_t stride, const int16_t* parents,
                  const Mat4* root, Mat4* out) {
  const D d;
  const size_t lanes = hn::Lanes(d);
  HWY_ALIGN Block m[2];
  if (num_joints == 0) return;
  ToMatrices(locals, stride, m[0]);
#if HWY_TARGET != HWY_SCALAR
  Carry carry;
  carry.c0 = carry.c1 = carry.c2 = carry.c3 = hn::Zero(D4());
#endif
  for (size_t base = 0, b = 0; base < num_joints; base += lanes, b ^= 1) {
    if (base + lanes < num_joints) ToMatrices(locals + base + lanes, stride, m[b ^ 1]);
    const size_t count = std::min(lanes, num_joints - base);
#if HWY_TARGET == HWY_SCALAR  // one lane: no 4-float vector for a column
    (void)count;
    const int parent = parents[base];
    const Mat4* a = parent >= 0 ? &out[parent] : root;
    Mat4 local;
    for (int c = 0; c < 4; ++c) {
      for (int r = 0; r < 3; ++r) local.m[c * 4 + r] = m[b][c * 3 + r][0];
      local.m[c * 4 + 3] = c < 3 ? 0.f : 1.f;
    }
    if (a) {
      mul_affine(*a, local, out[base]);
    } else {
      out[base] = local;
    }
#else
    WalkBlock(m[b], base, count, parents, root, out, carry);
#endif
  }
}

const char* TargetName() { return hwy::TargetName(HWY_TARGET); }

}  // namespace animkit::soa_kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace animkit::soa_kernels {

HWY_EXPORT(SampleChannel);
HWY_EXPORT(SampleChannelExact);
HWY_EXPORT(Blend);
HWY_EXPORT(BlendFewEntry);
HWY_EXPORT(LocalToModel);
HWY_EXPORT(TargetName);

void sample_channel(const float* cache, size_t stride, size_t padded, int dim, float time, float* out) {
  HWY_DYNAMIC_DISPATCH(SampleChannel)(cache, stride, padded, dim, time, out);
}
void sample_channel_exact(const float* cache, size_t stride, size_t padded, int dim, float time,
                          float* out) {
  HWY_DYNAMIC_DISPATCH(SampleChannelExact)(cache, stride, padded, dim, time, out);
}
void blend(const SoaBlendingLayer* layers, size_t count, const float* rest, float threshold, float* out,
           size_t num_joints, size_t padded, size_t stride) {
  HWY_DYNAMIC_DISPATCH(Blend)(layers, count, rest, threshold, out, num_joints, padded, stride);
}
void blend_few(const FewPoses& few, float* out, size_t padded, size_t stride) {
  HWY_DYNAMIC_DISPATCH(BlendFewEntry)(few, out, padded, stride);
}
void local_to_model(const float* locals, size_t num_joints, size_t stride, const int16_t* parents,
                    const Mat4* root, Mat4* out) {
  HWY_DYNAMIC_DISPATCH(LocalToModel)(locals, num_joints, stride, parents, root, out);
}
const char* target_name() { return HWY_DYNAMIC_DISPATCH(TargetName)(); }
int64_t compiled_targets() { return HWY_TARGETS; }  // this file's set (HWY_DISABLED_TARGETS applied)

}  // namespace animkit::soa_kernels
#endif
