#include "animkit/warriors/pose.h"

#include <algorithm>
#include <cmath>
#include <utility>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "animkit/warriors/quat_lanes.h"

namespace animkit::warriors {

namespace {
// warriors.txt "The pose", parent table (constexpr for the bone transforms' step table).
constexpr std::array<int8_t, kNumBones> kParentTable = {-1, 0,  1,  1,  3, 4,  5,  6,  6,
                                                       8,  6, 10, 6,  12, 6, 6,  5,  16,
                                                       17, 18, 19, 19, 5, 22, 23, 24, 25,
                                                       25, 2, 28, 29, 2,  31, 32};
}  // namespace
const std::array<int8_t, kNumBones> kParents = kParentTable;

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
[[maybe_unused]] inline void slerp_weights(float c, float t, float& wa, float& wb) {
  wa = 1.f - t;
  wb = t;
  if (end_weight(t) && c == c) return;
  const float angle = std::acos(c);
  const float s = std::sin(angle);
  wa = std::sin((1.f - t) * angle) / s;
  wb = std::sin(t * angle) / s;
}
#if defined(__SSE2__)
// The same operations, a quaternion in one register (quat_lanes.h), the result left there. `t`
// already clamped to [0, 1] (or NaN), `end` = end_weight(t), w1t and wt 1 - t and t in every
// lane: a blend's loop works them out once for all its bones.
[[gnu::always_inline]] inline __m128 slerp_lanes_clamped(const Quat& a, const Quat& b, float t,
                                                         bool end, __m128 w1t, __m128 wt) {
  const __m128 va = lanes::load(a);
  __m128 vb = lanes::load(b);
  float c = lanes::dot(va, vb);
  if (c < 0.f) {
    vb = _mm_xor_ps(vb, _mm_set1_ps(-0.f));  // -b: each sign flipped, as the scalar negation
    c = -c;
  }
  // nlerp(a, b, t) with its own dot's sign test left out: here that dot is c (b flipped gives
  // -dot, bit for bit: a product's and a sum's rounding is symmetric), above 0.9995, so the
  // factor is t.
  if (c > 0.9995f) return lanes::normalize_lanes(lanes::mix(va, w1t, vb, wt));
  if (end && c == c) return lanes::mix(va, w1t, vb, wt);  // slerp_weights' end weights
  const float angle = std::acos(c);
  const float s = std::sin(angle);
  return lanes::mix(va, std::sin((1.f - t) * angle) / s, vb, std::sin(t * angle) / s);
}
inline float clamp_weight(float t) { return t < 0.f ? 0.f : (t > 1.f ? 1.f : t); }
[[gnu::always_inline]] inline __m128 slerp_lanes(const Quat& a, const Quat& b, float t) {
  t = clamp_weight(t);
  return slerp_lanes_clamped(a, b, t, end_weight(t), _mm_set1_ps(1.f - t), _mm_set1_ps(t));
}
#endif
inline Quat slerp_inline(Quat a, Quat b, float t) {
#if defined(__SSE2__)
  return lanes::to_quat(slerp_lanes(a, b, t));
#else
  t = t < 0.f ? 0.f : (t > 1.f ? 1.f : t);
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
// Bones 2-33 in steps of four (SoA lanes) whose parents come earlier (or are bone 1): 9 steps,
// the least there can be (the tree is 8 deep below the pelvis and its first level holds 2
// bones). Chosen by hand so that 6 of the 9 steps find their four parents among the previous
// step's results (a lane shuffle of registers, no loads and no transposes), step 0 broadcasts
// the pelvis, step 6 takes two lanes from step 5 and two from the neck (bone 6), and only step 8
// gathers its parents from a table of the earlier steps' results. A short step repeats its first
// bone.
struct BoneStep {
  std::array<int8_t, 4> bones;
  int count;
};
constexpr std::array<BoneStep, 9> kBoneSteps = {{
    {{3, 2}, 2},
    {{4, 28, 31}, 3},
    {{5, 29, 32}, 3},
    {{16, 22, 6, 30}, 4},
    {{17, 23, 8, 10}, 4},
    {{18, 24, 9, 11}, 4},
    {{19, 25, 7, 12}, 4},
    {{20, 21, 26, 27}, 4},
    {{13, 14, 15, 33}, 4},
}};
constexpr int kStepCount = static_cast<int>(kBoneSteps.size());
constexpr int lane_bone(int g, int lane) {
  return kBoneSteps[g].bones[lane < kBoneSteps[g].count ? lane : 0];
}
constexpr int lane_parent(int g, int lane) { return kParentTable[lane_bone(g, lane)]; }
// The lane of `bone` in step g, or -1.
constexpr int lane_of(int g, int bone) {
  for (int i = 0; i < kBoneSteps[g].count; ++i) {
    if (kBoneSteps[g].bones[i] == bone) return i;
  }
  return -1;
}
// Where step g finds its four parents' transforms:
//   kPrevious   every parent is a result of step g - 1: a shuffle of its registers;
//   kBroadcast  the four are one bone of the table (the pelvis for step 0): a shuffle each;
//   kMixed      lanes 0 and 1 are results of step g - 1, lanes 2 and 3 one bone of the table:
//               one shuffle per component takes two lanes from each;
//   kGather     four loads from the table, transposed.
enum class From { kPrevious, kBroadcast, kMixed, kGather };
constexpr From parents_from(int g) {
  const auto in_previous = [g](int lane) {
    return g > 0 && lane_of(g - 1, lane_parent(g, lane)) >= 0;
  };
  if (in_previous(0) && in_previous(1) && in_previous(2) && in_previous(3)) return From::kPrevious;
  const bool last_two_one_bone = lane_parent(g, 2) == lane_parent(g, 3);
  if (last_two_one_bone && lane_parent(g, 0) == lane_parent(g, 2) &&
      lane_parent(g, 1) == lane_parent(g, 2)) {
    return From::kBroadcast;
  }
  if (last_two_one_bone && in_previous(0) && in_previous(1)) return From::kMixed;
  return From::kGather;
}
// The lanes of step g - 1 that lanes 0-3 (kPrevious) or 0-1 (kMixed) of step g take, two bits
// each (a shuffle's immediate).
constexpr int parent_shuffle(int g) {
  int imm = 0;
  for (int i = 0; i < 4; ++i) {
    const int lane = g > 0 ? lane_of(g - 1, lane_parent(g, i)) : -1;
    imm |= (lane < 0 ? 0 : lane) << (2 * i);
  }
  return imm;
}
// Whether step h reads `bone` from the table.
constexpr bool reads_from_table(int h, int bone) {
  switch (parents_from(h)) {
    case From::kPrevious:
      return false;
    case From::kBroadcast:
    case From::kMixed:
      return lane_parent(h, 3) == bone;
    case From::kGather:
      for (int i = 0; i < 4; ++i) {
        if (lane_parent(h, i) == bone) return true;
      }
      return false;
  }
  return true;
}
// Whether a later step reads one of step g's results from the table.
constexpr bool kept_in_table(int g) {
  for (int h = g + 1; h < kStepCount; ++h) {
    for (int i = 0; i < kBoneSteps[g].count; ++i) {
      if (reads_from_table(h, kBoneSteps[g].bones[i])) return true;
    }
  }
  return false;
}
// Every bone 2-33 once, after its parent.
constexpr bool steps_valid() {
  std::array<int, kNumBones> step_of{};
  step_of.fill(-1);
  step_of[1] = -2;  // the pelvis, before every step
  for (int g = 0; g < kStepCount; ++g) {
    if (kBoneSteps[g].count < 1 || kBoneSteps[g].count > 4) return false;
    for (int i = 0; i < kBoneSteps[g].count; ++i) {
      const int b = kBoneSteps[g].bones[i];
      if (b < 2 || b >= kNumBones || step_of[b] != -1) return false;
      step_of[b] = g;
    }
  }
  for (int b = 2; b < kNumBones; ++b) {
    if (step_of[b] < 0 || step_of[kParentTable[b]] >= step_of[b]) return false;
  }
  return true;
}
static_assert(steps_valid());
static_assert(sizeof(BoneTransform) == 28 && sizeof(Vec3) == 12 && sizeof(Quat) == 16);

// One step: the parents (shuffled from the previous step's r and t, or loaded from the table
// and transposed), the locals, the composition, then the results written out (and to the
// table when a later step loads them from there). r and t become this step's results.
template <int G>
[[gnu::always_inline]] inline void bone_step(const WarPose& pose, const BoneOffsetLanes& lanes,
                                             float (*rot)[4], float (*pos)[4],
                                             BoneTransform* out, Lanes4& r, Lanes4& t) {
  Lanes4 a, at;
  constexpr From from = parents_from(G);
  if constexpr (from == From::kPrevious) {
    constexpr int s = parent_shuffle(G);
    a = {_mm_shuffle_ps(r.x, r.x, s), _mm_shuffle_ps(r.y, r.y, s), _mm_shuffle_ps(r.z, r.z, s),
         _mm_shuffle_ps(r.w, r.w, s)};
    at = {_mm_shuffle_ps(t.x, t.x, s), _mm_shuffle_ps(t.y, t.y, s), _mm_shuffle_ps(t.z, t.z, s),
          _mm_setzero_ps()};
  } else if constexpr (from == From::kBroadcast) {
    const __m128 pr = _mm_load_ps(rot[lane_parent(G, 0)]), pp = _mm_load_ps(pos[lane_parent(G, 0)]);
    a = {_mm_shuffle_ps(pr, pr, 0x00), _mm_shuffle_ps(pr, pr, 0x55), _mm_shuffle_ps(pr, pr, 0xaa),
         _mm_shuffle_ps(pr, pr, 0xff)};
    at = {_mm_shuffle_ps(pp, pp, 0x00), _mm_shuffle_ps(pp, pp, 0x55), _mm_shuffle_ps(pp, pp, 0xaa),
          _mm_setzero_ps()};
  } else if constexpr (from == From::kMixed) {
    // Lanes 0-1 from the previous step's registers, lanes 2-3 component c of the table's bone.
    constexpr int s = parent_shuffle(G) & 0xf;
    const __m128 pr = _mm_load_ps(rot[lane_parent(G, 3)]), pp = _mm_load_ps(pos[lane_parent(G, 3)]);
    a = {_mm_shuffle_ps(r.x, pr, s | 0x00), _mm_shuffle_ps(r.y, pr, s | 0x50),
         _mm_shuffle_ps(r.z, pr, s | 0xa0), _mm_shuffle_ps(r.w, pr, s | 0xf0)};
    at = {_mm_shuffle_ps(t.x, pp, s | 0x00), _mm_shuffle_ps(t.y, pp, s | 0x50),
          _mm_shuffle_ps(t.z, pp, s | 0xa0), _mm_setzero_ps()};
  } else {
    a = transpose(_mm_load_ps(rot[lane_parent(G, 0)]), _mm_load_ps(rot[lane_parent(G, 1)]),
                  _mm_load_ps(rot[lane_parent(G, 2)]), _mm_load_ps(rot[lane_parent(G, 3)]));
    at = transpose(_mm_load_ps(pos[lane_parent(G, 0)]), _mm_load_ps(pos[lane_parent(G, 1)]),
                   _mm_load_ps(pos[lane_parent(G, 2)]), _mm_load_ps(pos[lane_parent(G, 3)]));
  }
  const Quat* local = pose.rotations.data();
  const Lanes4 q = transpose(load4(local[lane_bone(G, 0)]), load4(local[lane_bone(G, 1)]),
                             load4(local[lane_bone(G, 2)]), load4(local[lane_bone(G, 3)]));
  const float* ov = lanes.steps[G].data();  // the offsets already in lanes
  const Lanes4 v{_mm_load_ps(ov), _mm_load_ps(ov + 4), _mm_load_ps(ov + 8), _mm_setzero_ps()};
  compose_lanes(a, at, q, v, r, t);
  const Lanes4 rq = transpose(r.x, r.y, r.z, r.w);
  // The positions' rows [x y z z]: their fourth lane is never read (the rotation's store covers
  // it in `out`, and the table's positions are read for x, y and z).
  const __m128 xy01 = _mm_unpacklo_ps(t.x, t.y), xy23 = _mm_unpackhi_ps(t.x, t.y);
  const __m128 ps[4] = {_mm_shuffle_ps(xy01, t.z, _MM_SHUFFLE(0, 0, 1, 0)),
                        _mm_shuffle_ps(xy01, t.z, _MM_SHUFFLE(1, 1, 3, 2)),
                        _mm_shuffle_ps(xy23, t.z, _MM_SHUFFLE(2, 2, 1, 0)),
                        _mm_shuffle_ps(xy23, t.z, _MM_SHUFFLE(3, 3, 3, 2))};
  const __m128 rs[4] = {rq.x, rq.y, rq.z, rq.w};
  for (int i = 0; i < kBoneSteps[G].count; ++i) {
    const int b = kBoneSteps[G].bones[i];
    if constexpr (kept_in_table(G)) {
      _mm_store_ps(rot[b], rs[i]);
      _mm_store_ps(pos[b], ps[i]);
    }
    // 28 bytes: the position's 16 (its fourth lane lands on rotation.x), then the rotation.
    float* o = &out[b].position.x;
    _mm_storeu_ps(o, ps[i]);
    _mm_storeu_ps(o + 3, rs[i]);
  }
}
template <int... G>
[[gnu::always_inline]] inline void bone_steps(std::integer_sequence<int, G...>,
                                              const WarPose& pose, const BoneOffsetLanes& lanes,
                                              float (*rot)[4], float (*pos)[4],
                                              BoneTransform* out) {
  Lanes4 r{}, t{};
  (bone_step<G>(pose, lanes, rot, pos, out, r, t), ...);
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

namespace {
// pose_blend_masked into its upper pose, through a copy: out of line, so the blend keeps no
// pose-sized temporary.
[[gnu::noinline]] uint64_t blend_into_upper(const WarPose& lower, uint64_t lower_mask,
                                            const WarPose& upper, uint64_t upper_mask,
                                            float weight, WarPose& out, int bone) {
  WarPose result;
  const uint64_t m = pose_blend_masked(lower, lower_mask, upper, upper_mask, weight, result, bone);
  out = result;
  return m;
}
}  // namespace

// warriors.txt "Blending" (Pose_BlendPartial, 0x00105158). A value tagged on both sides keeps
// the lower's (tagged), so only the values untagged on a side are visited: the motion channels
// (a tagged side gives way) and the body bones (slerp / lerp, even against a default). The
// result's untagged values: the mixed ones, and the lower's outside the subtree.
// Compiled for AVX2 too (ANIMKIT_WARRIORS_AVX2_CLONE, quat_lanes.h).
ANIMKIT_WARRIORS_AVX2_CLONE uint64_t pose_blend_masked(const WarPose& lower, uint64_t lower_mask,
                                                       const WarPose& upper, uint64_t upper_mask,
                                                       float weight, WarPose& out, int bone) {
  if (&out == &upper && &out != &lower) {  // the copy of the lower pose below would clobber it
    return blend_into_upper(lower, lower_mask, upper, upper_mask, weight, out, bone);
  }
  const uint64_t selected = bone < 0 ? kAllValues : blended_values(bone);  // no call for a whole pose
  const uint64_t mixed = (lower_mask | upper_mask) & selected;
  if (&out != &lower) out = lower;
  if (mixed >> kVelocityBit & 1) {
    const auto vlerp = [](Vec3 a, Vec3 b, float t) { return lerp(a, b, t); };
    out.root_velocity = blend_motion(lower.root_velocity, upper.root_velocity, weight, vlerp);
  }
  if (mixed >> kTranslationBit & 1) {
#if defined(__SSE2__)
    // core lerp, a + (b - a) w in each lane, stored with the tag cleared.
    const __m128 a = load3(lower.root_translation);
    __m128 v = _mm_add_ps(a, _mm_mul_ps(_mm_sub_ps(load3(upper.root_translation), a),
                                        _mm_set1_ps(weight)));
    v = _mm_and_ps(v, _mm_castsi128_ps(_mm_setr_epi32(-1, ~1, -1, -1)));
    _mm_storel_pi(reinterpret_cast<__m64*>(&out.root_translation.x), v);
    _mm_store_ss(&out.root_translation.z, _mm_movehl_ps(v, v));
#else
    out.root_translation =
        tagged(lerp(lower.root_translation, upper.root_translation, weight), false);
#endif
  }
  if (mixed & 1) {
    const auto qslerp = [](Quat a, Quat b, float t) { return slerp_inline(a, b, t); };
    out.rotations[0] = blend_motion(lower.rotations[0], upper.rotations[0], weight, qslerp);
  }
#if defined(__SSE2__)
  const float t = clamp_weight(weight);  // slerp's clamp, once for the bones
  const bool end = end_weight(t);
  const __m128 w1t = _mm_set1_ps(1.f - t), wt = _mm_set1_ps(t);
#endif
  for (uint64_t m = mixed & ((uint64_t{1} << kNumBones) - 2); m != 0; m &= m - 1) {
    const int b = std::countr_zero(m);
#if defined(__SSE2__)
    lanes::store_untagged(out.rotations[b],
                          slerp_lanes_clamped(lower.rotations[b], upper.rotations[b], t, end,
                                              w1t, wt));
#else
    out.rotations[b] = tagged(slerp_inline(lower.rotations[b], upper.rotations[b], weight), false);
#endif
  }
  return (lower_mask & ~selected) | mixed;
}

BoneOffsetLanes bone_offset_lanes(const std::array<Vec3, kNumBones>& offsets) {
  BoneOffsetLanes lanes;
#if defined(__SSE2__)
  for (int g = 0; g < kStepCount; ++g) {
    for (int i = 0; i < 4; ++i) {
      const Vec3& o = offsets[lane_bone(g, i)];
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
  // Four bones a step (kBoneSteps, unrolled), the parents from the previous step's registers
  // or from a local table of the model transforms in lanes: the written transforms are never
  // read back, so no load waits on a store.
  alignas(16) float rot[kNumBones][4], pos[kNumBones][4];
  _mm_store_ps(rot[1], load4(out[1].rotation));
  _mm_store_ps(pos[1], load3(out[1].position));
  (void)offsets;  // read through offset_lanes
  bone_steps(std::make_integer_sequence<int, kStepCount>{}, pose, offset_lanes, rot, pos,
             out.data());
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
