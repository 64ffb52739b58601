#include "animkit/shadow_of_war/key_sampler.h"

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "animkit/core/sampling_job.h"
#include "animkit/shadow_of_war/rotation_lanes.h"

namespace animkit::shadow_of_war {

namespace {

// The key pair in force for the channel last located, as SamplingJob's refresh() sets a slot:
// key k, and for an interior pair t0 = times[k], t1 = times[k + 1], inv = 1 / (t1 - t0) and the
// fraction (time - t0) * inv. A hold (before the first key, a NaN time, after the last key, or
// inv == 0) returns values[k].
struct Pair {
  uint32_t k = 0;
  bool interior = false;  // t0 <= time < t1 holds and the bits below are set
  uint64_t bits = 0;      // t0's bits, then t1's: times[k], times[k + 1] as one 8-byte word
  float inv = 0, s = 0;
  // The key count a channel needs for its times[k], times[k + 1] to be read: k + 2 when the pair
  // is interior with inv != 0 (an nlerp between two keys), else more than any channel holds.
  size_t lerp_keys = SIZE_MAX;
};

// SamplingJob's refresh() for a channel of two keys or more.
void locate(const std::vector<float>& times, float time, uint32_t hint, Pair& p) {
  const uint32_t n = static_cast<uint32_t>(times.size());
  p.k = find_key(times, time, hint);
  p.interior = false;
  p.inv = 0;
  p.lerp_keys = SIZE_MAX;
  if (!(time >= times[0])) {
    p.k = 0;
  } else if (p.k + 1 >= n) {
    p.k = n - 1;
  } else {
    const float t0 = times[p.k], t1 = times[p.k + 1];
    p.inv = 1.f / (t1 - t0);
    p.s = (time - t0) * p.inv;
    std::memcpy(&p.bits, &times[p.k], sizeof p.bits);
    p.interior = true;
    if (p.inv != 0.f) p.lerp_keys = size_t{p.k} + 2;
  }
}

// The pair of the channel before holds for this one when its times hold the same two floats at
// the same index: then times[k] <= time < times[k + 1], and (time > times[0], or k = 0) the
// search would find k, so the slot would hold the same t0, t1, inv.
// `keys` is the least key count the test may read at (k + 2, or more).
inline bool same_pair(const std::vector<float>& times, float time, const Pair& p, size_t keys) {
  uint64_t bits;
  if (times.size() < keys) return false;
  std::memcpy(&bits, times.data() + p.k, sizeof bits);
  return bits == p.bits && (p.k == 0 || time > times[0]);
}

inline void find(const std::vector<float>& times, float time, Pair& p) {
  if (p.interior && same_pair(times, time, p, size_t{p.k} + 2)) return;
  locate(times, time, p.k, p);
}

// SamplingJob's sample() of a channel of two keys or more (its arithmetic, operation for
// operation). Out of line: the crowd's translations and scales have no keys or one.
[[gnu::noinline]] Vec3 sample_keyed(const Track<Vec3>& t, float time, Pair& p) {
  find(t.times, time, p);
  const uint32_t k = p.k;
  if (p.inv == 0.f || t.interpolation == Interpolation::kStep) return t.values[k];
  if (t.interpolation == Interpolation::kHermite) return evaluate(t, time, k);
  return lerp(t.values[k], t.values[k + 1], p.s);
}

inline Vec3 sample(const Track<Vec3>& t, const Vec3& rest, float time, Pair& p) {
  const size_t n = t.times.size();
  if (n >= 2) return sample_keyed(t, time, p);
  return n ? t.values[0] : rest;
}

inline Vec3 plus_zero(Vec3 v) { return {0.f + v.x, 0.f + v.y, 0.f + v.z}; }

// The inputs of rotation_lanes() and the scales for one chunk of joints, uninitialised (plain
// floats: Quat and Vec3 arrays would be filled with their default values first).
struct Lanes {
  alignas(64) float a[4 * kRotationChunk];
  alignas(64) float b[4 * kRotationChunk];
  alignas(64) float s[kRotationChunk];
  alignas(64) float held[kRotationChunk];
  alignas(64) float scale[4 * kRotationChunk];  // per joint: a spare float, then x, y, z
  // Lane i returns q as is.
  void hold(size_t i, const Quat& q) {
    std::memcpy(a + 4 * i, &q, sizeof q);
    std::memcpy(b + 4 * i, &q, sizeof q);
    s[i] = 0;
    held[i] = 1;
  }
};

// A rotation track that SamplingJob does not nlerp between two keys: the value it returns.
[[gnu::noinline]] void hold_keyed(const Track<Quat>& t, float time, Pair& p, Lanes& lanes,
                                  size_t i) {
  const uint32_t k = p.k;
  lanes.hold(i, p.inv == 0.f || t.interpolation == Interpolation::kStep ? t.values[k]
                                                                        : evaluate(t, time, k));
}

// Lane i: the key pair and fraction of SamplingJob's nlerp for this track, or the value it
// returns as is (no key, one key, a hold, a step, another interpolation).
[[gnu::noinline]] void rotation_lane(const Track<Quat>& t, const Quat& rest, float time, Pair& p,
                                     Lanes& lanes, size_t i) {
  const size_t n = t.times.size();
  if (n < 2) return lanes.hold(i, n ? t.values[0] : rest);
  find(t.times, time, p);
  if (p.inv == 0.f || t.interpolation != Interpolation::kNlerp)
    return hold_keyed(t, time, p, lanes, i);
  const Quat* v = t.values.data() + p.k;
  std::memcpy(lanes.a + 4 * i, v, sizeof(Quat));
  std::memcpy(lanes.b + 4 * i, v + 1, sizeof(Quat));
  lanes.s[i] = p.s;
  lanes.held[i] = 0;
}

// Lane i for a joint that is not plain: when its times hold the pair `hot` (so find() would keep
// it) and SamplingJob would nlerp between its keys, the short path inline; otherwise
// rotation_lane() from that pair, whose result becomes `hot` (p: the out-of-line paths' pair).
[[gnu::always_inline]] inline void other_rotation_lane(const Track<Quat>& q, const Quat& rest,
                                                       float time, Pair& hot, Pair& p,
                                                       Lanes& lanes, size_t i) {
  if (same_pair(q.times, time, hot, hot.lerp_keys) && q.interpolation == Interpolation::kNlerp) {
    const Quat* v = q.values.data() + hot.k;
    std::memcpy(lanes.a + 4 * i, v, sizeof(Quat));
    std::memcpy(lanes.b + 4 * i, v + 1, sizeof(Quat));
    lanes.s[i] = hot.s;
    lanes.held[i] = 0;
  } else {
    p = hot;
    rotation_lane(q, rest, time, p, lanes, i);
    hot = p;
  }
}

// Bits other than those of 1.0f in any component (0: the scale is exactly (1, 1, 1)).
inline uint32_t not_one(const Vec3& v) {
  constexpr uint32_t kOne = 0x3f800000u;
  return (std::bit_cast<uint32_t>(v.x) ^ kOne) | (std::bit_cast<uint32_t>(v.y) ^ kOne) |
         (std::bit_cast<uint32_t>(v.z) ^ kOne);
}

// Where the joints go: a Transform array, or a character's output pose; `stride` bytes from one
// joint to the next, the translation at offset 0 and the rotation at 12 in both.
struct TransformSink {
  static constexpr size_t kStride = sizeof(Transform);
  char* out;
  explicit TransformSink(std::span<Transform> o) : out(reinterpret_cast<char*>(o.data())) {}
  void scales(size_t first, const float* s, size_t m, uint32_t) const {
    for (size_t i = 0; i < m; ++i)
      std::memcpy(out + (first + i) * kStride + offsetof(Transform, scale), s + 4 * i + 1,
                  sizeof(Vec3));
  }
};
struct OutputSink {
  static constexpr size_t kStride = sizeof(OutputPose::Joint);
  char* out;
  OutputPose* pose;
  explicit OutputSink(OutputPose& o) : out(reinterpret_cast<char*>(o.joint_data())), pose(&o) {}
  void scales(size_t first, const float* s, size_t m, uint32_t other) const {
    if (!other) return;
    float xyz[3 * kRotationChunk];
    for (size_t i = 0; i < m; ++i) std::memcpy(xyz + 3 * i, s + 4 * i + 1, sizeof(Vec3));
    pose->set_scales(first, xyz, m);
  }
};
static_assert(offsetof(Transform, rotation) == 12 && offsetof(OutputPose::Joint, rotation) == 12);

// Four floats in one SSE register (GCC's vector extension: plain C++ elsewhere).
using F4 = float __attribute__((vector_size(16)));
using U4 = uint32_t __attribute__((vector_size(16)));

// The rest pose's translation and scale, as SamplingJob (kRaw) or the full-weight layer (+ 0)
// leaves an unkeyed channel, 16 bytes at a time: the translation with the rotation's x after it
// (the rotation is written over it later), and the rotation's w before the scale. Returns the
// scale's bits other than 1.0f's, lanes 1-3 (+ 0 turns no float into 1.0f and 1.0f into no
// other, so the rest's bits are tested).
template <bool kFull>
inline U4 rest_vectors(const Transform& r, char* translation, float* scale) {
  static_assert(offsetof(Transform, scale) == offsetof(Transform, rotation) + 16);
  F4 t, s;
  U4 bits;
  std::memcpy(&t, &r.translation, sizeof t);
  std::memcpy(&s, &r.rotation.w, sizeof s);
  std::memcpy(&bits, &r.rotation.w, sizeof bits);
  if (kFull) t += F4{}, s += F4{};
  std::memcpy(translation, &t, sizeof t);
  std::memcpy(scale, &s, sizeof s);
  return (bits ^ U4{0, 0x3f800000u, 0x3f800000u, 0x3f800000u}) & U4{0, ~0u, ~0u, ~0u};
}

// A joint whose translation or scale track has keys (the crowd's root): both sampled as
// SamplingJob does. Out of line: the crowd's other joints have none.
template <bool kFull>
[[gnu::noinline]] uint32_t keyed_vectors(const JointTracks& jt, const Transform& rest, float time,
                                         Pair& p, char* translation, float* scale) {
  Vec3 t = sample(jt.translation, rest.translation, time, p);
  Vec3 s = sample(jt.scale, rest.scale, time, p);
  if (kFull) t = plus_zero(t), s = plus_zero(s);
  std::memcpy(translation, &t, sizeof t);
  std::memcpy(scale + 1, &s, sizeof s);
  return not_one(s);
}

// sample_all from the clip's rows (ClipLayout, made for this rest pose), into an output pose or
// Transforms: the rest pose's translations (and scales, all 1) copied whole from the layout's
// image, each block of lanes whose
// joints are all plain read from the two key rows, the other blocks gathered lane by lane as
// sample_all does; the other joints (the root's keys, joints past the clip) as sample_all does.
// The same floats: the same key pair, fraction and lane arithmetic.
template <bool kFull, class Sink>
void sample_rows(const Clip& clip, float time, KeyCursor& cursor, std::span<const Transform> rest,
                 const Sink& sink, const ClipLayout& layout) {
  constexpr bool kOutput = std::is_same_v<Sink, OutputSink>;
  constexpr size_t kStride = Sink::kStride;
  static_assert(kRotationChunk == 64 && kRotationLanePad == 8);
  char* const out = sink.out;
  const size_t m = layout.joints;  // rest.size(), at most 64
  Lanes lanes;
  Pair p;
  p.k = cursor.key;
  Pair shared = p, vectors = p;
  locate(*layout.times, time, p.k, shared);
  Pair hot = shared;  // a hint for the other joints, and for the next sample
  const bool lerp = shared.lerp_keys != SIZE_MAX;
  const float plain_s = lerp ? shared.s : 0.f, plain_held = lerp ? 0.f : 1.f;
  if constexpr (kOutput)
    std::memcpy(out, layout.image[kFull], m * kStride);
  else
    std::memcpy(out, layout.transforms[kFull], m * kStride);
  const size_t mk = std::min(clip.joints.size(), m);
  const uint64_t all = m == 64 ? ~uint64_t{0} : (uint64_t{1} << m) - 1;
  const uint64_t in_clip = mk == 64 ? ~uint64_t{0} : (uint64_t{1} << mk) - 1;
  const uint64_t plain = layout.plain;  // within the clip's joints (make_rows)
  // The blocks of lanes with a joint that is not plain: copied from the rows, then those joints
  // written over.
  const size_t row = size_t{shared.k} * layout.width * 4;
  const float* const a_row = layout.rows + row;
  const float* const b_row = a_row + (lerp ? layout.width * 4 : 0);
  for (uint64_t blocks = ~layout.row_blocks & layout.blocks; blocks; blocks &= blocks - 1) {
    const size_t first = static_cast<size_t>(std::countr_zero(blocks)) * kRotationLanePad;
    std::memcpy(lanes.a + 4 * first, a_row + 4 * first, 4 * kRotationLanePad * sizeof(float));
    std::memcpy(lanes.b + 4 * first, b_row + 4 * first, 4 * kRotationLanePad * sizeof(float));
    std::fill_n(lanes.s + first, kRotationLanePad, plain_s);
    std::fill_n(lanes.held + first, kRotationLanePad, plain_held);
  }
  const JointTracks* tracks = clip.joints.data();
  uint32_t other = 0;
  uint64_t keyed = 0;  // joints whose translation or scale has keys
  for (uint64_t bits = in_clip & ~plain; bits; bits &= bits - 1) {
    const size_t i = static_cast<size_t>(std::countr_zero(bits));
    const JointTracks& jt = tracks[i];
    if (!jt.translation.times.empty() || !jt.scale.times.empty()) {
      other |= keyed_vectors<kFull>(jt, rest[i], time, vectors, out + i * kStride,
                                    lanes.scale + 4 * i);
      keyed |= uint64_t{1} << i;
    }
    other_rotation_lane(jt.rotation, rest[i].rotation, time, hot, p, lanes, i);
  }
  for (size_t i = mk; i < m; ++i) lanes.hold(i, rest[i].rotation);
  // Lanes past m (padding) hold the rows' identity: computed, never stored.
  const RotationRows rows{a_row, b_row, plain_s, plain_held, layout.row_blocks};
  rotation_lanes(lanes.a, lanes.b, lanes.s, lanes.held, m, kFull,
                 reinterpret_cast<float*>(out + 12), kStride / sizeof(float), rows);
  if constexpr (kOutput) {
    if (other) {  // a keyed scale is not 1: every joint's scale is stored (the rest's are 1)
      for (uint64_t bits = all & ~keyed; bits; bits &= bits - 1) {
        const size_t i = static_cast<size_t>(std::countr_zero(bits));
        lanes.scale[4 * i + 1] = lanes.scale[4 * i + 2] = lanes.scale[4 * i + 3] = 1.f;
      }
      sink.scales(0, lanes.scale, m, other);
    }
  } else {  // the image holds the other joints' scales
    for (uint64_t bits = keyed; bits; bits &= bits - 1) {
      const size_t i = static_cast<size_t>(std::countr_zero(bits));
      sink.scales(i, lanes.scale + 4 * i, 1, 0);
    }
  }
  if (cursor.key != hot.k) cursor.key = hot.k;
}

// Joints [0, joints): the clip's sampled, the rest pose past them. Per chunk of joints, each
// joint's translation and scale, and its rotation's inputs gathered into a lane; then the lanes
// interpolated together. The key pair found last is carried from channel to channel, one for
// the rotations and one for the translations and scales (only a hint: any order, any pair gives
// the same values), so a clip whose rotations share their times and whose root alone moves
// locates each kind once. The usual joint (no translation or scale keys, an nlerp rotation whose
// times hold the pair of the joint before) takes the short path inline, on a copy of the pair
// that no other function sees (so the compiler keeps it in registers).
template <SampleStore kStore, class Sink>
void sample_all(const Clip& clip, float time, KeyCursor& cursor, std::span<const Transform> rest,
                size_t joints, const Sink& sink, const ClipLayout* layout) {
  constexpr bool kFull = kStore == SampleStore::kFullLayer;
  if (layout && layout->rows && layout->rest == rest.data() && layout->joints == joints)
    return sample_rows<kFull>(clip, time, cursor, rest, sink, *layout);
  constexpr size_t kStride = Sink::kStride;
  char* const out = sink.out;
  Lanes lanes;
  Pair p;  // what the out-of-line paths update
  p.k = cursor.key;
  Pair hot = p, vectors = p;
  // The plain joints' pair (ClipLayout): one search of their shared times, and per joint either
  // the nlerp between keys k and k + 1 or the hold of key k.
  uint64_t plain = 0;
  uint32_t plain_k = 0, plain_next = 0;
  float plain_s = 0, plain_held = 1;
  if (layout && layout->plain) {
    Pair shared = p;
    locate(*layout->times, time, p.k, shared);
    plain = layout->plain;
    plain_k = shared.k;
    if (shared.lerp_keys != SIZE_MAX) plain_next = 1, plain_s = shared.s, plain_held = 0;
    hot = shared;  // a hint for the other joints, and for the next sample
  }
  const JointTracks* tracks = clip.joints.data();
  const Transform* rest_pose = rest.data();
  const size_t keyed = std::min(clip.joints.size(), joints);
  for (size_t base = 0; base < joints; base += kRotationChunk) {
    const size_t m = std::min(kRotationChunk, joints - base);
    const size_t mk = keyed > base ? std::min(m, keyed - base) : 0;  // joints of the clip
    uint32_t other = 0;
    U4 other_rest{};
    // The plain joints of the chunk (ClipLayout covers joints [0, 64), the first chunk), in a
    // loop of their own, then the others.
    static_assert(kRotationChunk == 64);
    const uint64_t chunk_plain =
        base == 0 ? plain & (mk == 64 ? ~uint64_t{0} : (uint64_t{1} << mk) - 1) : 0;
    if (chunk_plain) {
      for (size_t i = 0; i < mk; ++i) {
        if (!(chunk_plain >> i & 1)) continue;
        other_rest |= rest_vectors<kFull>(rest_pose[i], out + i * kStride, lanes.scale + 4 * i);
        const Quat* v = tracks[i].rotation.values.data() + plain_k;
        std::memcpy(lanes.a + 4 * i, v, sizeof(Quat));
        std::memcpy(lanes.b + 4 * i, v + plain_next, sizeof(Quat));
        lanes.s[i] = plain_s;
        lanes.held[i] = plain_held;
      }
    }
    const uint64_t others = ~chunk_plain & (mk == 64 ? ~uint64_t{0} : (uint64_t{1} << mk) - 1);
    for (uint64_t bits = others; bits; bits &= bits - 1) {
      const size_t i = static_cast<size_t>(std::countr_zero(bits));
      const size_t j = base + i;
      const Transform& r = rest_pose[j];
      const JointTracks& jt = tracks[j];
      char* const joint = out + j * kStride;
      if (jt.translation.times.empty() && jt.scale.times.empty()) {
        other_rest |= rest_vectors<kFull>(r, joint, lanes.scale + 4 * i);
      } else {
        other |= keyed_vectors<kFull>(jt, r, time, vectors, joint, lanes.scale + 4 * i);
      }
      other_rotation_lane(jt.rotation, r.rotation, time, hot, p, lanes, i);
    }
    for (size_t i = mk; i < m; ++i) {
      const Transform& r = rest_pose[base + i];
      other_rest |= rest_vectors<kFull>(r, out + (base + i) * kStride, lanes.scale + 4 * i);
      lanes.hold(i, r.rotation);
    }
    const size_t padded = (m + kRotationLanePad - 1) / kRotationLanePad * kRotationLanePad;
    for (size_t i = m; i < padded; ++i) lanes.hold(i, Quat::identity());
    static_assert(kStride % sizeof(float) == 0);
    rotation_lanes(lanes.a, lanes.b, lanes.s, lanes.held, m, kFull,
                   reinterpret_cast<float*>(out + base * kStride + 12), kStride / sizeof(float));
    other |= other_rest[1] | other_rest[2] | other_rest[3];
    sink.scales(base, lanes.scale, m, other);
  }
  // The last channel located: where the next sample starts looking (stored only when it moved:
  // the tracker's line is the main thread's).
  if (cursor.key != hot.k) cursor.key = hot.k;
}

template <class Sink>
void sample_store(const Clip& clip, float time, KeyCursor& cursor, std::span<const Transform> rest,
                  size_t joints, const Sink& sink, SampleStore store,
                  const ClipLayout* layout = nullptr) {
  if (store == SampleStore::kRaw)
    sample_all<SampleStore::kRaw>(clip, time, cursor, rest, joints, sink, layout);
  else
    sample_all<SampleStore::kFullLayer>(clip, time, cursor, rest, joints, sink, layout);
}

}  // namespace

void sample_keys(const Clip& clip, float time, KeyCursor& cursor, std::span<const Transform> rest,
                 std::span<Transform> out, SampleStore store) {
  sample_store(clip, time, cursor, rest, clip.joints.size(), TransformSink(out), store);
}

void sample_pose(const Clip& clip, float time, KeyCursor& cursor, std::span<const Transform> rest,
                 std::span<Transform> out, SampleStore store, const ClipLayout* layout) {
  sample_store(clip, time, cursor, rest, out.size(), TransformSink(out), store, layout);
}

void sample_pose(const Clip& clip, float time, KeyCursor& cursor, std::span<const Transform> rest,
                 OutputPose& out, SampleStore store, const ClipLayout* layout) {
  out.start(rest.size());
  sample_store(clip, time, cursor, rest, rest.size(), OutputSink(out), store, layout);
}

// Rows past this size are not made (a long clip: kept to the gather).
constexpr size_t kMaxRowBytes = size_t{256} << 10;

const ClipLayout& ClipLayouts::find(const Clip& clip, uint64_t frame,
                                    std::span<const Transform> rest) {
  for (size_t slot = 0; slot < slots_.size(); ++slot) {
    ClipLayout& l = slots_[slot];
    if (l.clip != &clip || l.frame != frame) continue;
    if (++l.uses == ClipLayout::kRowsAfterUses) make_rows(l, slot, rest);
    return l;
  }
  ClipLayout& l = slots_[next_];
  next_ = (next_ + 1) % slots_.size();
  l = ClipLayout{};
  l.clip = &clip;
  l.frame = frame;
  l.uses = 1;
  const size_t n = std::min<size_t>(clip.joints.size(), 64);
  for (size_t j = 0; j < n; ++j) {
    const JointTracks& jt = clip.joints[j];
    const Track<Quat>& q = jt.rotation;
    if (!jt.translation.times.empty() || !jt.scale.times.empty() ||
        q.interpolation != Interpolation::kNlerp || q.times.size() < 2 ||
        q.values.size() != q.times.size())
      continue;
    if (!l.times) {
      // Strictly ascending (as Clip::validate has it), so every search finds the one key in
      // force whatever its hint; else no joint is plain.
      for (size_t k = 1; k < q.times.size(); ++k)
        if (!(q.times[k] > q.times[k - 1])) return l;
      l.times = &q.times;
    }
    if (q.times.size() != l.times->size() ||
        std::memcmp(q.times.data(), l.times->data(), q.times.size() * sizeof(float)) != 0)
      continue;
    l.plain |= uint64_t{1} << j;
  }
  // Room for these rows in every slot from the clip's first sample on, so that making them later
  // (at any use count, in any slot) allocates nothing.
  if (l.plain && !rest.empty() && rest.size() <= 64) {
    const size_t floats = l.times->size() * (rest.size() + kRotationLanePad - 1) /
                          kRotationLanePad * kRotationLanePad * 4;
    if (floats * sizeof(float) <= kMaxRowBytes && floats > rows_[0].capacity())
      reserve_rows(floats);
  }
  return l;
}

// The rows of the plain joints and the rest pose's image (ClipLayout), for a pose of at most 64
// joints; none when the rows would pass kMaxRowBytes.
void ClipLayouts::make_rows(ClipLayout& l, size_t slot, std::span<const Transform> rest) {
  if (!l.plain || rest.empty() || rest.size() > 64 || l.clip->joints.size() > rest.size()) return;
  const size_t keys = l.times->size();
  const size_t width = (rest.size() + kRotationLanePad - 1) / kRotationLanePad * kRotationLanePad;
  if (keys * width * sizeof(Quat) > kMaxRowBytes) return;
  for (const Transform& r : rest)
    if (not_one(r.scale)) return;
  std::vector<float>& rows = rows_[slot];
  rows.resize(keys * width * 4);  // within its capacity once grown
  const Quat identity = Quat::identity();
  for (size_t j = 0; j < width; ++j) {
    const Quat* v = l.plain >> j & 1 ? l.clip->joints[j].rotation.values.data() : nullptr;
    for (size_t k = 0; k < keys; ++k)
      std::memcpy(rows.data() + (k * width + j) * 4, v ? v + k : &identity, sizeof(Quat));
  }
  for (int full = 0; full < 2; ++full) {
    OutputPose::Joint* image = images_[full][slot].data();
    Transform* transforms = transform_images_[full][slot].data();
    for (size_t j = 0; j < rest.size(); ++j) {
      const Vec3 t = full ? plus_zero(rest[j].translation) : rest[j].translation;
      // The rotations are written over by the sample.
      image[j] = {t, Quat::identity()};
      transforms[j] = {t, Quat::identity(), rest[j].scale};  // every one (1, 1, 1): + 0 keeps it
    }
    l.image[full] = image;
    l.transforms[full] = transforms;
  }
  l.rows = rows.data();
  l.width = static_cast<uint32_t>(width);
  // Blocks of lanes whose joints are all plain (or padding) read the rows in rotation_lanes().
  const uint64_t all = rest.size() == 64 ? ~uint64_t{0} : (uint64_t{1} << rest.size()) - 1;
  for (size_t b = 0; b * kRotationLanePad < rest.size(); ++b) {
    l.blocks |= uint64_t{1} << b;
    if (!(all & ~l.plain & uint64_t{0xff} << (b * kRotationLanePad))) l.row_blocks |= uint64_t{1} << b;
  }
  l.rest = rest.data();
  l.joints = rest.size();
}

size_t ClipLayouts::row_capacity() const {
  size_t most = 0;
  for (const std::vector<float>& r : rows_) most = std::max(most, r.capacity());
  return most;
}

void ClipLayouts::reserve_rows(size_t floats) {
  for (std::vector<float>& r : rows_) r.reserve(floats);
}

}  // namespace animkit::shadow_of_war
