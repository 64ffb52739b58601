#include "animkit/warriors/pose.h"

#include <cmath>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace animkit::warriors {

// warriors.txt "The pose", parent table.
const std::array<int8_t, kNumBones> kParents = {-1, 0,  1,  1,  3, 4,  5,  6,  6,  8,  6, 10,
                                                6,  12, 6,  6,  5, 16, 17, 18, 19, 19, 5, 22,
                                                23, 24, 25, 25, 2, 28, 29, 2,  31, 32};

namespace {
// warriors.txt "The reference pose", (x, y, z, w) rounded to four places in the spec.
constexpr float kReference[kNumBones][4] = {
    {0, 0, 0, 1},
    {-0.4912f, -0.5087f, 0.4912f, 0.5087f},
    {-0.5000f, 0.5000f, -0.5000f, 0.5000f},
    {0.4793f, -0.5199f, 0.5199f, -0.4793f},
    {0, -0.0298f, 0, 0.9996f},
    {0, -0.1757f, 0, 0.9844f},
    {0, 0.1172f, 0, 0.9931f},
    {0.5274f, -0.4710f, 0.4710f, 0.5274f},
    {0.6590f, 0, 0.7521f, 0},
    {0, -0.2983f, 0, 0.9545f},
    {0.6081f, -0.5780f, 0.3635f, 0.4050f},
    {0, 0.6425f, 0, 0.7663f},
    {0.4043f, -0.3602f, 0.5801f, 0.6085f},
    {-0.0036f, -0.6166f, 0.0054f, 0.7873f},
    {0.7393f, 0, 0.6733f, 0},
    {0.5247f, -0.4805f, 0.4743f, 0.5186f},
    {0.6200f, -0.7643f, -0.1281f, 0.1227f},
    {0.0452f, -0.0282f, 0.1112f, 0.9924f},
    {0, 0.1174f, 0, 0.9931f},
    {-0.6951f, -0.0567f, 0.0262f, 0.7162f},
    {-0.0004f, -0.2858f, 0.0001f, 0.9583f},
    {-0.0811f, -0.3223f, -0.0030f, 0.9431f},
    {-0.6200f, -0.7643f, 0.1281f, 0.1227f},
    {-0.0452f, -0.0282f, -0.1112f, 0.9924f},
    {0, 0.1174f, 0, 0.9931f},
    {0.6951f, -0.0567f, -0.0262f, 0.7162f},
    {0.0004f, -0.2858f, -0.0001f, 0.9583f},
    {0.0811f, -0.3223f, 0.0030f, 0.9431f},
    {-0.0066f, -0.1154f, 0.9910f, -0.0678f},
    {0, 0.0340f, 0, 0.9994f},
    {-0.0030f, -0.0194f, -0.0700f, 0.9974f},
    {-0.0066f, 0.1154f, 0.9910f, 0.0678f},
    {0, 0.0340f, 0, 0.9994f},
    {0.0030f, -0.0194f, 0.0700f, 0.9974f},
};

// Names of our own (the rodata's bip_sw_* names are not given by the spec).
constexpr const char* kBoneNames[kNumBones] = {
    "root",      "pelvis",     "hips",       "spine",      "spine1",    "spine2",    "neck",
    "head",      "bone8",      "bone9",      "bone10",     "bone11",    "bone12",    "bone13",
    "bone14",    "bone15",     "r_clavicle", "r_upperarm", "r_forearm", "r_hand",    "r_finger0",
    "r_finger1", "l_clavicle", "l_upperarm", "l_forearm",  "l_hand",    "l_finger0", "l_finger1",
    "r_thigh",   "r_calf",     "r_foot",     "l_thigh",    "l_calf",    "l_foot"};
}  // namespace

const std::array<Quat, kNumBones>& reference_pose() {
  static const std::array<Quat, kNumBones> pose = [] {
    std::array<Quat, kNumBones> p;
    for (int b = 0; b < kNumBones; ++b) {
      p[b] = normalize({kReference[b][0], kReference[b][1], kReference[b][2], kReference[b][3]});
    }
    return p;
  }();
  return pose;
}

const char* bone_name(int bone) { return bone >= 0 && bone < kNumBones ? kBoneNames[bone] : ""; }

WarPose default_pose(Vec3 root_translation) {
  WarPose p;
  p.root_velocity = tagged(Vec3{}, true);
  p.root_translation = tagged(root_translation, true);
  const auto& ref = reference_pose();
  for (int b = 0; b < kNumBones; ++b) p.rotations[b] = tagged(ref[b], true);
  p.rotations[0] = tagged(Quat::identity(), true);  // bone 0 without a channel is the identity
  return p;
}

namespace {
// animkit::rotate and animkit::slerp (core/math.cpp) written out here so they inline: the same
// operations in the same order give the same floats (pose tests compare them with the core
// functions), and the 34 bones' independent work overlaps instead of waiting on a call each.
inline Vec3 rotate_inline(Quat q, Vec3 v) {
  const Vec3 u{q.x, q.y, q.z};
  const Vec3 t = cross(u, v) * 2.f;
  return v + t * q.w + cross(u, t);
}
inline Quat slerp_inline(Quat a, Quat b, float t) {
  t = t < 0.f ? 0.f : (t > 1.f ? 1.f : t);
  float c = dot(a, b);
  if (c < 0.f) {
    b = -b;
    c = -c;
  }
  if (c > 0.9995f) return nlerp(a, b, t);
  const float angle = std::acos(c);
  const float s = std::sin(angle);
  const float wa = std::sin((1.f - t) * angle) / s;
  const float wb = std::sin(t * angle) / s;
  return {a.x * wa + b.x * wb, a.y * wa + b.y * wb, a.z * wa + b.z * wb, a.w * wa + b.w * wb};
}

#if defined(__SSE2__)
// A bone's model transform from its parent's, four lanes at a time: each lane does the scalar
// code's operations in its order (Quat operator* and rotate_inline; a - b as a + (-b), which
// IEEE defines it as), so the floats are the same (pose tests compare with the core functions).
inline __m128 load3(const Vec3& v) { return _mm_set_ps(0.f, v.z, v.y, v.x); }
inline __m128 load4(const Quat& q) { return _mm_loadu_ps(&q.x); }
template <int I>
inline __m128 lane(__m128 v) {
  return _mm_shuffle_ps(v, v, _MM_SHUFFLE(I, I, I, I));
}
inline __m128 negate_lanes(__m128 v, __m128 signs) { return _mm_xor_ps(v, signs); }
inline __m128 cross3(__m128 a, __m128 b) {
  const __m128 a_yzx = _mm_shuffle_ps(a, a, _MM_SHUFFLE(3, 0, 2, 1));
  const __m128 a_zxy = _mm_shuffle_ps(a, a, _MM_SHUFFLE(3, 1, 0, 2));
  const __m128 b_yzx = _mm_shuffle_ps(b, b, _MM_SHUFFLE(3, 0, 2, 1));
  const __m128 b_zxy = _mm_shuffle_ps(b, b, _MM_SHUFFLE(3, 1, 0, 2));
  return _mm_sub_ps(_mm_mul_ps(a_yzx, b_zxy), _mm_mul_ps(a_zxy, b_yzx));
}
// The parent's rotation `a` and position `at` in lanes (the position's fourth lane is 0, or NaN
// when a value is not finite; no lane reaches another, so x, y and z are the scalar code's).
inline void compose_sse(__m128 a, __m128 at, const Quat& local, const Vec3& offset, __m128& rot,
                        __m128& pos) {
  const __m128 bq = load4(local);
  // x: aw bx + ax bw + ay bz - az by; y: aw by - ax bz + ay bw + az bx;
  // z: aw bz + ax by - ay bx + az bw; w: aw bw - ax bx - ay by - az bz.
  __m128 r = _mm_mul_ps(lane<3>(a), bq);
  r = _mm_add_ps(
      r, negate_lanes(_mm_mul_ps(lane<0>(a), _mm_shuffle_ps(bq, bq, _MM_SHUFFLE(0, 1, 2, 3))),
                      _mm_set_ps(-0.f, 0.f, -0.f, 0.f)));
  r = _mm_add_ps(
      r, negate_lanes(_mm_mul_ps(lane<1>(a), _mm_shuffle_ps(bq, bq, _MM_SHUFFLE(1, 0, 3, 2))),
                      _mm_set_ps(-0.f, -0.f, 0.f, 0.f)));
  r = _mm_add_ps(
      r, negate_lanes(_mm_mul_ps(lane<2>(a), _mm_shuffle_ps(bq, bq, _MM_SHUFFLE(2, 3, 0, 1))),
                      _mm_set_ps(-0.f, 0.f, 0.f, -0.f)));
  rot = r;
  // rotate: t = cross(u, v) x 2; v + t w + cross(u, t); then the parent's position added.
  const __m128 v = load3(offset);
  const __m128 t = _mm_mul_ps(cross3(a, v), _mm_set1_ps(2.f));
  const __m128 rotated = _mm_add_ps(_mm_add_ps(v, _mm_mul_ps(t, lane<3>(a))), cross3(a, t));
  pos = _mm_add_ps(at, rotated);
}
inline void store(__m128 rot, __m128 pos, BoneTransform& out) {
  _mm_storeu_ps(&out.rotation.x, rot);
  _mm_storel_pi(reinterpret_cast<__m64*>(&out.position.x), pos);
  _mm_store_ss(&out.position.z, _mm_movehl_ps(pos, pos));
}
#endif

// The motion channels: a tagged side gives way to the other; both tagged keep the lower.
template <class T, class Mix>
T blend_motion(const T& a, const T& b, float w, Mix mix) {
  const bool ta = is_tagged(a), tb = is_tagged(b);
  if (ta && tb) return a;
  if (ta) return b;
  if (tb) return a;
  return tagged(mix(a, b, w), false);
}
bool in_subtree(int b, int root) {
  for (int p = b; p >= 0; p = kParents[p]) {
    if (p == root) return true;
  }
  return false;
}
constexpr uint64_t kAllValues = (uint64_t{1} << (kNumBones + 2)) - 1;
// The values a blend over `bone`'s subtree mixes (all of them for bone < 0): the rotations of
// the subtree, the root velocity with bone 0, the root translation with bones 0 and 1.
uint64_t blended_values(int bone) {
  static const std::array<uint64_t, kNumBones> subtree = [] {
    std::array<uint64_t, kNumBones> m{};
    for (int root = 0; root < kNumBones; ++root) {
      for (int b = 0; b < kNumBones; ++b) {
        if (in_subtree(b, root)) m[root] |= uint64_t{1} << b;
      }
      if (in_subtree(0, root)) m[root] |= uint64_t{1} << kVelocityBit;
      if (in_subtree(1, root)) m[root] |= uint64_t{1} << kTranslationBit;
    }
    return m;
  }();
  if (bone < 0) return kAllValues;
  return bone < kNumBones ? subtree[bone] : 0;  // no bone: nothing is blended
}
}  // namespace

uint64_t untagged_mask(const WarPose& p) {
  uint64_t m = 0;
  for (int b = 0; b < kNumBones; ++b) m |= uint64_t{!is_tagged(p.rotations[b])} << b;
  m |= uint64_t{!is_tagged(p.root_velocity)} << kVelocityBit;
  m |= uint64_t{!is_tagged(p.root_translation)} << kTranslationBit;
  return m;
}

void pose_blend_partial(const WarPose& lower, const WarPose& upper, float weight, WarPose& out,
                        int bone) {
  pose_blend_masked(lower, untagged_mask(lower), upper, untagged_mask(upper), weight, out, bone);
}

// warriors.txt "Blending" (Pose_BlendPartial, 0x00105158). A value tagged on both sides keeps
// the lower's (tagged), so only the values untagged on a side are visited: the motion channels
// (a tagged side gives way) and the body bones (slerp / lerp, even against a default). The
// result's untagged values: the mixed ones, and the lower's outside the subtree.
uint64_t pose_blend_masked(const WarPose& lower, uint64_t lower_mask, const WarPose& upper,
                           uint64_t upper_mask, float weight, WarPose& out, int bone) {
  if (&out == &upper && &out != &lower) {  // the copy of the lower pose below would clobber it
    WarPose result;
    const uint64_t m = pose_blend_masked(lower, lower_mask, upper, upper_mask, weight, result, bone);
    out = result;
    return m;
  }
  const uint64_t selected = blended_values(bone);
  const uint64_t mixed = (lower_mask | upper_mask) & selected;
  if (&out != &lower) out = lower;
  if (mixed >> kVelocityBit & 1) {
    const auto vlerp = [](Vec3 a, Vec3 b, float t) { return lerp(a, b, t); };
    out.root_velocity = blend_motion(lower.root_velocity, upper.root_velocity, weight, vlerp);
  }
  if (mixed >> kTranslationBit & 1) {
    out.root_translation =
        tagged(lerp(lower.root_translation, upper.root_translation, weight), false);
  }
  if (mixed & 1) {
    const auto qslerp = [](Quat a, Quat b, float t) { return slerp_inline(a, b, t); };
    out.rotations[0] = blend_motion(lower.rotations[0], upper.rotations[0], weight, qslerp);
  }
  for (uint64_t m = mixed & ((uint64_t{1} << kNumBones) - 2); m != 0; m &= m - 1) {
    const int b = std::countr_zero(m);
    out.rotations[b] = tagged(slerp_inline(lower.rotations[b], upper.rotations[b], weight), false);
  }
  return (lower_mask & ~selected) | mixed;
}

void build_bone_matrices(const WarPose& pose, const std::array<Vec3, kNumBones>& offsets,
                         std::array<BoneTransform, kNumBones>& out) {
  // Entry 0: motion, not a bone; identity when the pose's value is a default.
  out[0].position = pose.velocity_default() ? Vec3{} : pose.root_velocity;
  out[0].rotation = pose.rotation_default(0) ? Quat::identity() : pose.rotations[0];
  // Entry 1: the pelvis, absolute, its rotation not composed with bone 0's.
  out[1].position = pose.root_translation;
  out[1].rotation = pose.rotations[1];
#if defined(__SSE2__)
  // The chain down the parents runs in registers and a local table: the written transforms are
  // never read back, so no load waits on a store (every parent precedes its children).
  std::array<__m128, kNumBones> rot, pos;
  rot[1] = load4(out[1].rotation);
  pos[1] = load3(out[1].position);
  for (int b = 2; b < kNumBones; ++b) {
    const int p = kParents[b];
    compose_sse(rot[p], pos[p], pose.rotations[b], offsets[b], rot[b], pos[b]);
    store(rot[b], pos[b], out[b]);
  }
#else
  for (int b = 2; b < kNumBones; ++b) {
    const BoneTransform& p = out[kParents[b]];
    out[b].rotation = p.rotation * pose.rotations[b];
    out[b].position = p.position + rotate_inline(p.rotation, offsets[b]);
  }
#endif
}

std::array<Vec3, kNumBones> unit_offsets() {
  std::array<Vec3, kNumBones> o;
  o.fill(Vec3{1, 0, 0});
  o[0] = o[1] = Vec3{};
  return o;
}

}  // namespace animkit::warriors
