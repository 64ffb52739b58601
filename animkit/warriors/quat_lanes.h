// One quaternion's four components in one SSE register, for the sampler's nlerp and the blends'
// slerp: each lane does the scalar code's operation (core/math.h nlerp, normalize; pose.cpp's
// slerp), and the dot products add their four terms in the scalar order ((x + y) + z) + w, so
// the floats are the scalar code's bit for bit (tests: WarriorsSpeed.*). Scalar where SSE2 is
// not available.
#pragma once

#include <cmath>

#include "animkit/core/math.h"
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

// The hot functions are compiled twice, for AVX2 and for the baseline, the one to run chosen when
// the program loads: with AVX2 the same SSE operations take the three-operand form, without the
// register copies SSE2's two-operand form needs. The floats are the same: each operation is the
// same IEEE operation, and no fused multiply-add is made (-ffp-contract=off for the module, and
// "avx2" does not enable FMA).
// -DANIMKIT_WARRIORS_NO_CLONES builds the baseline alone (to check that it gives the same floats).
#if defined(__SSE2__) && defined(__x86_64__) && defined(__GNUC__) && !defined(__AVX2__) && \
    !defined(__clang__) && !defined(ANIMKIT_WARRIORS_NO_CLONES)
#define ANIMKIT_WARRIORS_AVX2_CLONE __attribute__((target_clones("avx2", "default")))
#else
#define ANIMKIT_WARRIORS_AVX2_CLONE
#endif

namespace animkit::warriors::lanes {

#if defined(__SSE2__)
inline __m128 load(const Quat& q) { return _mm_loadu_ps(&q.x); }
inline Quat to_quat(__m128 v) {
  Quat q;
  _mm_storeu_ps(&q.x, v);
  return q;
}
// a.x b.x + a.y b.y + a.z b.z + a.w b.w, added left to right.
inline float dot(__m128 a, __m128 b) {
  const __m128 m = _mm_mul_ps(a, b);
  __m128 s = _mm_add_ss(m, _mm_shuffle_ps(m, m, _MM_SHUFFLE(1, 1, 1, 1)));
  s = _mm_add_ss(s, _mm_movehl_ps(m, m));
  s = _mm_add_ss(s, _mm_shuffle_ps(m, m, _MM_SHUFFLE(3, 3, 3, 3)));
  return _mm_cvtss_f32(s);
}
// a wa + b wb per component (the weights in every lane).
inline __m128 mix(__m128 a, __m128 wa, __m128 b, __m128 wb) {
  return _mm_add_ps(_mm_mul_ps(a, wa), _mm_mul_ps(b, wb));
}
inline __m128 mix(__m128 a, float wa, __m128 b, float wb) {
  return mix(a, _mm_set1_ps(wa), b, _mm_set1_ps(wb));
}
// core normalize: the identity for a zero or non-finite squared length, else q x (1 / |q|).
inline __m128 normalize_lanes(__m128 q) {
  const float n2 = dot(q, q);
  if (!(n2 > 0.f && n2 < INFINITY)) return _mm_setr_ps(0.f, 0.f, 0.f, 1.f);
  const float inv = 1.f / std::sqrt(n2);
  return _mm_mul_ps(q, _mm_set1_ps(inv));
}
inline Quat normalize(__m128 q) { return to_quat(normalize_lanes(q)); }
// core nlerp.
inline __m128 nlerp_lanes(__m128 a, __m128 b, float t) {
  const float s = dot(a, b) < 0.f ? -t : t;
  return normalize_lanes(mix(a, 1.f - t, b, s));
}
inline Quat nlerp(__m128 a, __m128 b, float t) { return to_quat(nlerp_lanes(a, b, t)); }
inline Quat nlerp(const Quat& a, const Quat& b, float t) { return nlerp(load(a), load(b), t); }
// q stored with its tag cleared (pose.h tagged(q, false): the lowest bit of the y word), one
// AND on the register instead of the y word taken out and put back.
inline void store_untagged(Quat& q, __m128 v) {
  _mm_storeu_ps(&q.x, _mm_and_ps(v, _mm_castsi128_ps(_mm_setr_epi32(-1, ~1, -1, -1))));
}
#else
inline Quat nlerp(const Quat& a, const Quat& b, float t) { return animkit::nlerp(a, b, t); }
#endif

}  // namespace animkit::warriors::lanes
