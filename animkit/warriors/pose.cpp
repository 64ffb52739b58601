#include "animkit/warriors/pose.h"

#include <algorithm>
#include <cmath>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "animkit/warriors/quat_lanes.h"

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
[[maybe_unused]] inline Vec3 rotate_inline(Quat q, Vec3 v) {  // the SSE2 path writes it in lanes
  const Vec3 u{q.x, q.y, q.z};
  const Vec3 t = cross(u, v) * 2.f;
  return v + t * q.w + cross(u, t);
}
// The slerp's weights sin((1 - t) angle) / s and sin(t angle) / s at t = 0 or 1, without the
// libm calls: past the nlerp test c lies in [0, 0.9995] (or is NaN, which takes the calls), so
// angle = acos(c) lies in [0.0316, pi/2] and s = sin(angle) is finite and positive; a weight
// of sin(+-0) / s is the zero itself (sin keeps a zero's sign) and sin(angle) / s is exactly 1.
// So the weights are 1 - t and t, bit for bit (a fade at its ends, a subtree clip at weight 1).
inline bool end_weight(float t) { return t == 1.f || t == 0.f; }
// The weights of a and b past the nlerp test (c = |dot|, t clamped), as core/math.cpp's slerp.
inline void slerp_weights(float c, float t, float& wa, float& wb) {
  wa = 1.f - t;
  wb = t;
  if (end_weight(t) && c == c) return;
  const float angle = std::acos(c);
  const float s = std::sin(angle);
  wa = std::sin((1.f - t) * angle) / s;
  wb = std::sin(t * angle) / s;
}
inline Quat slerp_inline(Quat a, Quat b, float t) {
  t = t < 0.f ? 0.f : (t > 1.f ? 1.f : t);
#if defined(__SSE2__)
  // The same operations, a quaternion in one register (quat_lanes.h).
  const __m128 va = lanes::load(a);
  __m128 vb = lanes::load(b);
  float c = lanes::dot(va, vb);
  if (c < 0.f) {
    vb = _mm_xor_ps(vb, _mm_set1_ps(-0.f));  // -b: each sign flipped, as the scalar negation
    c = -c;
  }
  if (c > 0.9995f) return lanes::nlerp(va, vb, t);
  float wa, wb;
  slerp_weights(c, t, wa, wb);
  return lanes::to_quat(lanes::mix(va, wa, vb, wb));
#else
  float c = dot(a, b);
  if (c < 0.f) {
    b = -b;
    c = -c;
  }
  if (c > 0.9995f) return nlerp(a, b, t);
  float wa, wb;
  slerp_weights(c, t, wa, wb);
  return {a.x * wa + b.x * wb, a.y * wa + b.y * wb, a.z * wa + b.z * wb, a.w * wa + b.w * wb};
#endif
}

#if defined(__SSE2__)
inline __m128 load3(const Vec3& v) { return _mm_set_ps(0.f, v.z, v.y, v.x); }
inline __m128 load4(const Quat& q) { return _mm_loadu_ps(&q.x); }
// Four bones composed at once (SoA: a register holds one component of four bones), each lane
// doing the scalar code's operations in its order (Quat operator*, rotate_inline, the parent's
// position added), so every lane gives the scalar float (pose tests compare with the core).
struct Lanes4 {
  __m128 x, y, z, w;
};
inline Lanes4 transpose(__m128 a, __m128 b, __m128 c, __m128 d) {
  _MM_TRANSPOSE4_PS(a, b, c, d);
  return {a, b, c, d};
}
inline void compose_lanes(const Lanes4& a, const Lanes4& at, const Lanes4& q, const Lanes4& v,
                          Lanes4& rot, Lanes4& pos) {
  const auto mul = [](__m128 x, __m128 y) { return _mm_mul_ps(x, y); };
  const auto add = [](__m128 x, __m128 y) { return _mm_add_ps(x, y); };
  const auto sub = [](__m128 x, __m128 y) { return _mm_sub_ps(x, y); };
  // Quat operator*: x = aw bx + ax bw + ay bz - az by; y = aw by - ax bz + ay bw + az bx;
  // z = aw bz + ax by - ay bx + az bw; w = aw bw - ax bx - ay by - az bz (left to right).
  rot.x = sub(add(add(mul(a.w, q.x), mul(a.x, q.w)), mul(a.y, q.z)), mul(a.z, q.y));
  rot.y = add(add(sub(mul(a.w, q.y), mul(a.x, q.z)), mul(a.y, q.w)), mul(a.z, q.x));
  rot.z = add(sub(add(mul(a.w, q.z), mul(a.x, q.y)), mul(a.y, q.x)), mul(a.z, q.w));
  rot.w = sub(sub(sub(mul(a.w, q.w), mul(a.x, q.x)), mul(a.y, q.y)), mul(a.z, q.z));
  // rotate_inline: t = cross(u, v) x 2; (v + t w) + cross(u, t); then at + that.
  const __m128 two = _mm_set1_ps(2.f);
  const __m128 tx = mul(sub(mul(a.y, v.z), mul(a.z, v.y)), two);
  const __m128 ty = mul(sub(mul(a.z, v.x), mul(a.x, v.z)), two);
  const __m128 tz = mul(sub(mul(a.x, v.y), mul(a.y, v.x)), two);
  const __m128 cx = sub(mul(a.y, tz), mul(a.z, ty));
  const __m128 cy = sub(mul(a.z, tx), mul(a.x, tz));
  const __m128 cz = sub(mul(a.x, ty), mul(a.y, tx));
  pos.x = add(at.x, add(add(v.x, mul(tx, a.w)), cx));
  pos.y = add(at.y, add(add(v.y, mul(ty, a.w)), cy));
  pos.z = add(at.z, add(add(v.z, mul(tz, a.w)), cz));
  pos.w = _mm_setzero_ps();
}
// Bones 2-33 in groups of four whose parents are in earlier groups (or bone 1), the longest
// chains first: 9 groups, the least there can be (the tree is 8 deep below the pelvis and its
// first three levels hold 2, 3 and 3 bones). A short group repeats its first bone.
struct BoneGroups {
  int count = 0;
  BoneGroups() {
    std::array<int, kNumBones> height{};
    for (int b = kNumBones - 1; b >= 2; --b) {  // parents precede children
      height[kParents[b]] = std::max(height[kParents[b]], height[b] + 1);
    }
    std::array<bool, kNumBones> done{};
    done[0] = done[1] = true;
    for (int left = kNumBones - 2; left > 0; ++count) {
      std::array<int8_t, 4> g{};
      int n = 0;
      for (int pick = 0; pick < 4; ++pick) {
        int best = -1;
        for (int b = 2; b < kNumBones; ++b) {
          bool taken = false;
          for (int i = 0; i < n; ++i) taken |= g[i] == b;
          if (done[b] || taken || !done[kParents[b]]) continue;
          if (best < 0 || height[b] > height[best]) best = b;
        }
        if (best < 0) break;
        g[n++] = static_cast<int8_t>(best);
      }
      for (int i = 0; i < n; ++i) done[g[i]] = true;
      for (int i = n; i < 4; ++i) g[i] = g[0];
      for (int i = 0; i < 4; ++i) {  // byte offsets, so a step computes no addresses
        const auto b = static_cast<uint32_t>(g[i]);
        const auto p = static_cast<uint32_t>(kParents[g[i]]);
        at[count].parent16[i] = p * 16;
        at[count].bone16[i] = b * 16;
        at[count].out28[i] = b * 28;
      }
      left -= n;
    }
  }
  struct Offsets {
    std::array<uint32_t, 4> parent16, bone16, out28;
  };
  std::array<Offsets, kNumBones> at{};
};
static_assert(sizeof(BoneTransform) == 28 && sizeof(Vec3) == 12 && sizeof(Quat) == 16);
const BoneGroups& bone_groups() {
  static const BoneGroups groups;
  return groups;
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
constexpr uint64_t kAllValues = kAllPoseValues;
// The values a blend over `bone`'s subtree mixes (all of them for bone < 0): the rotations of
// the subtree, the root velocity with bone 0, the root translation with bones 0 and 1.
uint64_t blended_values(int bone) {
  if (bone < 0) return kAllValues;  // the whole pose (before the table's first-use check)
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
// Compiled for AVX2 too (ANIMKIT_WARRIORS_AVX2_CLONE, quat_lanes.h).
ANIMKIT_WARRIORS_AVX2_CLONE uint64_t pose_blend_masked(const WarPose& lower, uint64_t lower_mask,
                                                       const WarPose& upper, uint64_t upper_mask,
                                                       float weight, WarPose& out, int bone) {
  if (&out == &upper && &out != &lower) {  // the copy of the lower pose below would clobber it
    WarPose result;
    const uint64_t m =
        pose_blend_masked(lower, lower_mask, upper, upper_mask, weight, result, bone);
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

BoneOffsetLanes bone_offset_lanes(const std::array<Vec3, kNumBones>& offsets) {
  BoneOffsetLanes lanes;
#if defined(__SSE2__)
  const BoneGroups& groups = bone_groups();
  for (int g = 0; g < groups.count; ++g) {
    for (int i = 0; i < 4; ++i) {
      const Vec3& o = offsets[groups.at[g].bone16[i] / 16];
      lanes.steps[g][i] = o.x;
      lanes.steps[g][4 + i] = o.y;
      lanes.steps[g][8 + i] = o.z;
    }
  }
#else
  (void)offsets;
#endif
  return lanes;
}

void build_bone_matrices(const WarPose& pose, const std::array<Vec3, kNumBones>& offsets,
                         std::array<BoneTransform, kNumBones>& out) {
  build_bone_matrices(pose, offsets, bone_offset_lanes(offsets), out);
}

// Compiled for AVX2 too (ANIMKIT_WARRIORS_AVX2_CLONE, quat_lanes.h).
ANIMKIT_WARRIORS_AVX2_CLONE void build_bone_matrices(const WarPose& pose,
                                                     const std::array<Vec3, kNumBones>& offsets,
                                                     const BoneOffsetLanes& offset_lanes,
                                                     std::array<BoneTransform, kNumBones>& out) {
  // Entry 0: motion, not a bone; identity when the pose's value is a default.
  out[0].position = pose.velocity_default() ? Vec3{} : pose.root_velocity;
  out[0].rotation = pose.rotation_default(0) ? Quat::identity() : pose.rotations[0];
  // Entry 1: the pelvis, absolute, its rotation not composed with bone 0's.
  out[1].position = pose.root_translation;
  out[1].rotation = pose.rotations[1];
#if defined(__SSE2__)
  // Four bones a step (bone_groups()), from a local table of the model transforms in lanes:
  // the written transforms are never read back, so no load waits on a store.
  alignas(16) float rot[kNumBones][4], pos[kNumBones][4];
  _mm_store_ps(rot[1], load4(out[1].rotation));
  _mm_store_ps(pos[1], load3(out[1].position));
  const BoneGroups& groups = bone_groups();
  char* rot_at = reinterpret_cast<char*>(rot);
  char* pos_at = reinterpret_cast<char*>(pos);
  const char* local_at = reinterpret_cast<const char*>(pose.rotations.data());
  (void)offsets;  // read through offset_lanes
  char* out_at = reinterpret_cast<char*>(out.data());
  const auto ld = [](const char* base, uint32_t at) {
    return _mm_loadu_ps(reinterpret_cast<const float*>(base + at));
  };
  for (int g = 0; g < groups.count; ++g) {
    const BoneGroups::Offsets& o = groups.at[g];
    const Lanes4 a = transpose(ld(rot_at, o.parent16[0]), ld(rot_at, o.parent16[1]),
                               ld(rot_at, o.parent16[2]), ld(rot_at, o.parent16[3]));
    const Lanes4 at = transpose(ld(pos_at, o.parent16[0]), ld(pos_at, o.parent16[1]),
                                ld(pos_at, o.parent16[2]), ld(pos_at, o.parent16[3]));
    const Lanes4 q = transpose(ld(local_at, o.bone16[0]), ld(local_at, o.bone16[1]),
                               ld(local_at, o.bone16[2]), ld(local_at, o.bone16[3]));
    const float* ov = offset_lanes.steps[g].data();  // the offsets already in lanes
    const Lanes4 v{_mm_load_ps(ov), _mm_load_ps(ov + 4), _mm_load_ps(ov + 8), _mm_setzero_ps()};
    Lanes4 r, t;
    compose_lanes(a, at, q, v, r, t);
    const Lanes4 rq = transpose(r.x, r.y, r.z, r.w);
    const Lanes4 tp = transpose(t.x, t.y, t.z, t.w);
    const __m128 rs[4] = {rq.x, rq.y, rq.z, rq.w}, ps[4] = {tp.x, tp.y, tp.z, tp.w};
    for (int i = 0; i < 4; ++i) {
      _mm_store_ps(reinterpret_cast<float*>(rot_at + o.bone16[i]), rs[i]);
      _mm_store_ps(reinterpret_cast<float*>(pos_at + o.bone16[i]), ps[i]);
      // 28 bytes: the position's 16 (its fourth lane lands on rotation.x), then the rotation.
      _mm_storeu_ps(reinterpret_cast<float*>(out_at + o.out28[i]), ps[i]);
      _mm_storeu_ps(reinterpret_cast<float*>(out_at + o.out28[i] + 12), rs[i]);
    }
  }
#else
  (void)offset_lanes;
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
