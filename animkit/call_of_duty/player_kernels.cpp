#include "animkit/call_of_duty/player_kernels.h"

#include <cmath>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define ANIMKIT_COD_X86 1
#endif

namespace animkit::call_of_duty::player_kernels {

namespace {

// The compiler's generic vectors (SSE2 on any x86-64, NEON on arm64; AVX in the functions marked
// for it). Highway's static target under this build's baseline flags is its scalar one.
typedef float V4 __attribute__((vector_size(16)));
typedef int32_t V4i __attribute__((vector_size(16)));

// IEEE square root per lane (correctly rounded, as std::sqrt on a float).
inline V4 sqrt4(V4 v) {
#ifdef ANIMKIT_COD_X86
  return _mm_sqrt_ps(v);
#else
  return V4{std::sqrt(v[0]), std::sqrt(v[1]), std::sqrt(v[2]), std::sqrt(v[3])};
#endif
}

}  // namespace

// The loops are macros so that the same text is compiled for 4 lanes and, in the AVX functions,
// for 8. Every argument is copied into a local first: the stores into the accumulators could
// otherwise alias the argument block, and the compiler would reload it after each store.

// add_dense_run's step over W parts.
#define ANIMKIT_COD_DENSE_STEP(VF, VI, W)                                       \
  {                                                                           \
    VF frac, scale, weight;                                                   \
    for (int i = 0; i < (W); ++i) {                                           \
      frac[i] = a.frac;                                                       \
      scale[i] = a.scale;                                                     \
      weight[i] = a.weight;                                                   \
    }                                                                         \
    for (; j + (W) <= count; j += (W)) {                                      \
      const size_t slot = base + j;                                           \
      VI two;                                                                 \
      __builtin_memcpy(&two, mask + j, sizeof two);                           \
      for (int l = 0; l < 7; ++l) {                                           \
        VF x0, x1, sum;                                                       \
        __builtin_memcpy(&x0, ka + l * count + j, sizeof x0);                 \
        __builtin_memcpy(&x1, kb + l * count + j, sizeof x1);                 \
        __builtin_memcpy(&sum, acc[l] + slot, sizeof sum);                    \
        VF out = sum + (x0 + (x1 - x0) * frac) * (l < 4 ? scale : weight);   \
        if (l < 2) {                                                          \
          VI o, k;                                                            \
          __builtin_memcpy(&o, &out, sizeof o);                               \
          __builtin_memcpy(&k, &sum, sizeof k);                               \
          o = (k & two) | (o & ~two);                                         \
          __builtin_memcpy(&out, &o, sizeof o);                               \
        }                                                                     \
        __builtin_memcpy(acc[l] + slot, &out, sizeof out);                    \
      }                                                                       \
      VF w;                                                                   \
      __builtin_memcpy(&w, acc[7] + slot, sizeof w);                          \
      w = w + weight;                                                         \
      __builtin_memcpy(acc[7] + slot, &w, sizeof w);                          \
    }                                                                         \
  }

#define ANIMKIT_COD_DENSE_LOCALS                                              \
  const float* const ka = a.ka;                                               \
  const float* const kb = a.kb;                                               \
  const int32_t* const mask = a.two_mask;                                     \
  const size_t count = a.count, base = a.base;                                \
  float* acc[kLanes];                                                         \
  for (int l = 0; l < kLanes; ++l) acc[l] = a.acc[l];                         \
  size_t j = 0;

// merge_sub_blend's step over W parts; SQRT is the lane-wise IEEE square root.
#define ANIMKIT_COD_MERGE_STEP(VF, VI, W, SQRT)                                \
  {                                                                           \
    VF zero{}, weight;                                                        \
    VI lost{};                                                                \
    for (int i = 0; i < (W); ++i) weight[i] = weight1;                        \
    for (; p + (W) <= stride; p += (W)) {                                     \
      VF w;                                                                   \
      __builtin_memcpy(&w, q[kWeightLane] + p, sizeof w);                     \
      const VI has = w > zero; /* a child has the part (padding: weight 0) */ \
      VF x[7];                                                                \
      for (int l = 0; l < 7; ++l) __builtin_memcpy(&x[l], q[l] + p, sizeof x[l]); \
      VF sum = x[0] * x[0];                                                   \
      sum = sum + x[1] * x[1];                                                \
      sum = sum + x[2] * x[2];                                                \
      sum = sum + x[3] * x[3];                                                \
      const VF len = SQRT(sum);                                               \
      const VI scaled = has & (len > zero);                                   \
      lost = lost | (has & ~scaled);                                          \
      const VF s = weight / len;                                              \
      const VF f = weight / w;                                                \
      for (int l = 0; l < 7; ++l) {                                           \
        VF acc;                                                               \
        __builtin_memcpy(&acc, o[l] + p, sizeof acc);                         \
        const VF sum_l = acc + x[l] * (l < 4 ? s : f);                        \
        VI r, k, n;                                                           \
        __builtin_memcpy(&k, &acc, sizeof k);                                 \
        __builtin_memcpy(&n, &sum_l, sizeof n);                               \
        r = (n & scaled) | (k & ~scaled);                                     \
        __builtin_memcpy(o[l] + p, &r, sizeof r);                             \
      }                                                                       \
      VF acc;                                                                 \
      __builtin_memcpy(&acc, o[kWeightLane] + p, sizeof acc);                 \
      const VF grown = acc + weight;                                          \
      VI r, k, n;                                                             \
      __builtin_memcpy(&k, &acc, sizeof k);                                   \
      __builtin_memcpy(&n, &grown, sizeof n);                                 \
      r = (n & has) | (k & ~has);                                             \
      __builtin_memcpy(o[kWeightLane] + p, &r, sizeof r);                     \
    }                                                                         \
    for (int i = 0; i < (W); ++i) empty |= lost[i];                           \
  }

#define ANIMKIT_COD_MERGE_LOCALS                                              \
  const float* q[kLanes];                                                     \
  float* o[kLanes];                                                           \
  for (int l = 0; l < kLanes; ++l) {                                          \
    q[l] = sub[l];                                                            \
    o[l] = into[l];                                                           \
  }                                                                           \
  const float weight1 = weight_in;                                            \
  int32_t empty = 0;                                                          \
  size_t p = 0;

// divide_by_weight's step over W parts.
#define ANIMKIT_COD_DIVIDE_STEP(VF, VI, W)                                     \
  {                                                                           \
    VF zero{}, one;                                                           \
    for (int i = 0; i < (W); ++i) one[i] = 1.0f;                              \
    for (; p + (W) <= stride; p += (W)) {                                     \
      VF w;                                                                   \
      __builtin_memcpy(&w, t[kWeightLane] + p, sizeof w);                     \
      const VI has = w > zero;                                                \
      const VF d = has ? w : one; /* no division by 0 where nothing is kept */ \
      for (int l = 0; l < 7; ++l) {                                           \
        VF x;                                                                 \
        __builtin_memcpy(&x, t[l] + p, sizeof x);                             \
        const VF r = x / d;                                                   \
        __builtin_memcpy(o[l] + p, &r, sizeof r);                             \
      }                                                                       \
    }                                                                         \
  }

#define ANIMKIT_COD_DIVIDE_LOCALS                                             \
  const float* t[kLanes];                                                     \
  float* o[kLanes - 1];                                                       \
  for (int l = 0; l < kLanes; ++l) t[l] = top[l];                             \
  for (int l = 0; l < kLanes - 1; ++l) o[l] = out[l];                         \
  size_t p = 0;

namespace {

void add_dense_run_4(const DenseRunArgs& a) {
  ANIMKIT_COD_DENSE_LOCALS
  ANIMKIT_COD_DENSE_STEP(V4, V4i, 4)
}

bool merge_sub_blend_4(const float* const sub[kLanes], float weight_in,
                       float* const into[kLanes], size_t stride) {
  ANIMKIT_COD_MERGE_LOCALS
  ANIMKIT_COD_MERGE_STEP(V4, V4i, 4, sqrt4)
  return empty != 0;
}

void divide_by_weight_4(const float* const top[kLanes], float* const out[kLanes - 1],
                        size_t stride) {
  ANIMKIT_COD_DIVIDE_LOCALS
  ANIMKIT_COD_DIVIDE_STEP(V4, V4i, 4)
}

#ifdef ANIMKIT_COD_X86
typedef float V8 __attribute__((vector_size(32)));
typedef int32_t V8i __attribute__((vector_size(32)));

__attribute__((target("avx"))) inline V8 sqrt8(V8 v) { return _mm256_sqrt_ps(v); }
__attribute__((target("avx"))) inline V4 sqrt4_avx(V4 v) { return _mm_sqrt_ps(v); }

__attribute__((target("avx"))) void add_dense_run_8(const DenseRunArgs& a) {
  ANIMKIT_COD_DENSE_LOCALS
  ANIMKIT_COD_DENSE_STEP(V8, V8i, 8)
  ANIMKIT_COD_DENSE_STEP(V4, V4i, 4)
}

__attribute__((target("avx"))) bool merge_sub_blend_8(const float* const sub[kLanes],
                                                      float weight_in, float* const into[kLanes],
                                                      size_t stride) {
  ANIMKIT_COD_MERGE_LOCALS
  ANIMKIT_COD_MERGE_STEP(V8, V8i, 8, sqrt8)
  ANIMKIT_COD_MERGE_STEP(V4, V4i, 4, sqrt4_avx)
  return empty != 0;
}

__attribute__((target("avx"))) void divide_by_weight_8(const float* const top[kLanes],
                                                       float* const out[kLanes - 1],
                                                       size_t stride) {
  ANIMKIT_COD_DIVIDE_LOCALS
  ANIMKIT_COD_DIVIDE_STEP(V8, V8i, 8)
  ANIMKIT_COD_DIVIDE_STEP(V4, V4i, 4)
}

bool g_four_lanes = false;  // limit_to_four_lanes (tests)
bool avx() {
  static const bool yes = __builtin_cpu_supports("avx");
  return yes && !g_four_lanes;
}
#endif

}  // namespace

#undef ANIMKIT_COD_DENSE_STEP
#undef ANIMKIT_COD_DENSE_LOCALS
#undef ANIMKIT_COD_MERGE_STEP
#undef ANIMKIT_COD_MERGE_LOCALS
#undef ANIMKIT_COD_DIVIDE_STEP
#undef ANIMKIT_COD_DIVIDE_LOCALS

bool limit_to_four_lanes(bool on) {
#ifdef ANIMKIT_COD_X86
  g_four_lanes = on;
  return true;
#else
  (void)on;
  return false;
#endif
}

void add_dense_run(const DenseRunArgs& args) {
#ifdef ANIMKIT_COD_X86
  if (avx()) return add_dense_run_8(args);
#endif
  add_dense_run_4(args);
}

bool merge_sub_blend(const float* const sub[kLanes], float weight, float* const into[kLanes],
                     size_t stride) {
#ifdef ANIMKIT_COD_X86
  if (avx()) return merge_sub_blend_8(sub, weight, into, stride);
#endif
  return merge_sub_blend_4(sub, weight, into, stride);
}

void divide_by_weight(const float* const top[kLanes], float* const out[kLanes - 1], size_t stride) {
#ifdef ANIMKIT_COD_X86
  if (avx()) return divide_by_weight_8(top, out, stride);
#endif
  divide_by_weight_4(top, out, stride);
}

}  // namespace animkit::call_of_duty::player_kernels
