#include "animkit/shadow_of_war/key_sampler.h"

#include <algorithm>
#include <bit>
#include <cstring>

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
  uint32_t t0_bits = 0, t1_bits = 0;
  float inv = 0, s = 0;
};

// SamplingJob's refresh() for a channel of two keys or more.
void locate(const std::vector<float>& times, float time, uint32_t hint, Pair& p) {
  const uint32_t n = static_cast<uint32_t>(times.size());
  p.k = find_key(times, time, hint);
  p.interior = false;
  p.inv = 0;
  if (!(time >= times[0])) {
    p.k = 0;
  } else if (p.k + 1 >= n) {
    p.k = n - 1;
  } else {
    const float t0 = times[p.k], t1 = times[p.k + 1];
    p.inv = 1.f / (t1 - t0);
    p.s = (time - t0) * p.inv;
    p.t0_bits = std::bit_cast<uint32_t>(t0);
    p.t1_bits = std::bit_cast<uint32_t>(t1);
    p.interior = true;
  }
}

// The pair of the channel before holds for this one when its times hold the same two floats at
// the same index: then times[k] <= time < times[k + 1], and (time > times[0], or k = 0) the
// search would find k, so the slot would hold the same t0, t1, inv.
inline void find(const std::vector<float>& times, float time, Pair& p) {
  const uint32_t k = p.k;
  if (p.interior && k + 1 < times.size() && std::bit_cast<uint32_t>(times[k]) == p.t0_bits &&
      std::bit_cast<uint32_t>(times[k + 1]) == p.t1_bits && (k == 0 || time > times[0]))
    return;
  locate(times, time, k, p);
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
  alignas(64) float out[4 * kRotationChunk];
  alignas(64) float s[kRotationChunk];
  alignas(64) float held[kRotationChunk];
  alignas(64) float scale[3 * kRotationChunk];
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
inline void rotation_lane(const Track<Quat>& t, const Quat& rest, float time, Pair& p, Lanes& lanes,
                          size_t i) {
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

// Bits other than those of 1.0f in any component (0: the scale is exactly (1, 1, 1)).
inline uint32_t not_one(const Vec3& v) {
  constexpr uint32_t kOne = 0x3f800000u;
  return (std::bit_cast<uint32_t>(v.x) ^ kOne) | (std::bit_cast<uint32_t>(v.y) ^ kOne) |
         (std::bit_cast<uint32_t>(v.z) ^ kOne);
}

// Where the joints go: a Transform array, or a character's output pose.
struct TransformSink {
  Transform* out;
  void translation(size_t j, Vec3 v) const { out[j].translation = v; }
  void rotation(size_t j, const float* q) const {
    std::memcpy(static_cast<void*>(&out[j].rotation), q, sizeof(Quat));
  }
  void scales(size_t first, const float* s, size_t m, uint32_t) const {
    for (size_t i = 0; i < m; ++i)
      std::memcpy(static_cast<void*>(&out[first + i].scale), s + 3 * i, sizeof(Vec3));
  }
};
struct OutputSink {
  OutputPose* out;
  void translation(size_t j, Vec3 v) const { out->set_translation(j, v); }
  void rotation(size_t j, const float* q) const { out->set_rotation(j, q); }
  void scales(size_t first, const float* s, size_t m, uint32_t other) const {
    if (other) out->set_scales(first, s, m);
  }
};

// Joints [0, joints): the clip's sampled, the rest pose past them. Per chunk of joints: the
// translations, then each rotation's inputs gathered into a lane, the lanes interpolated
// together, then the scales (the key pair found last is carried from channel to channel: only a
// hint, so the order changes no value).
template <SampleStore kStore, class Sink>
void sample_all(const Clip& clip, float time, KeyCursor& cursor, std::span<const Transform> rest,
                size_t joints, const Sink& sink) {
  constexpr bool kFull = kStore == SampleStore::kFullLayer;
  Lanes lanes;
  Pair p;
  p.k = cursor.key;
  const JointTracks* tracks = clip.joints.data();
  const size_t keyed = std::min(clip.joints.size(), joints);
  for (size_t base = 0; base < joints; base += kRotationChunk) {
    const size_t m = std::min(kRotationChunk, joints - base);
    const size_t mk = keyed > base ? std::min(m, keyed - base) : 0;  // joints of the clip
    for (size_t i = 0; i < m; ++i) {
      const size_t j = base + i;
      const Vec3 t = i < mk ? sample(tracks[j].translation, rest[j].translation, time, p)
                            : rest[j].translation;
      sink.translation(j, kFull ? plus_zero(t) : t);
    }
    for (size_t i = 0; i < mk; ++i)
      rotation_lane(tracks[base + i].rotation, rest[base + i].rotation, time, p, lanes, i);
    for (size_t i = mk; i < m; ++i) lanes.hold(i, rest[base + i].rotation);
    const size_t padded = (m + kRotationLanePad - 1) / kRotationLanePad * kRotationLanePad;
    for (size_t i = m; i < padded; ++i) lanes.hold(i, Quat::identity());
    rotation_lanes(lanes.a, lanes.b, lanes.s, lanes.held, m, kFull, lanes.out);
    for (size_t i = 0; i < m; ++i) sink.rotation(base + i, lanes.out + 4 * i);
    uint32_t other = 0;
    for (size_t i = 0; i < m; ++i) {
      const size_t j = base + i;
      const Vec3 v = i < mk ? sample(tracks[j].scale, rest[j].scale, time, p) : rest[j].scale;
      const Vec3 x = kFull ? plus_zero(v) : v;
      std::memcpy(lanes.scale + 3 * i, &x, sizeof x);
      other |= not_one(x);
    }
    sink.scales(base, lanes.scale, m, other);
  }
  cursor.key = p.k;  // the last channel located: where the next sample starts looking
}

template <class Sink>
void sample_store(const Clip& clip, float time, KeyCursor& cursor, std::span<const Transform> rest,
                  size_t joints, const Sink& sink, SampleStore store) {
  if (store == SampleStore::kRaw)
    sample_all<SampleStore::kRaw>(clip, time, cursor, rest, joints, sink);
  else
    sample_all<SampleStore::kFullLayer>(clip, time, cursor, rest, joints, sink);
}

}  // namespace

void sample_keys(const Clip& clip, float time, KeyCursor& cursor, std::span<const Transform> rest,
                 std::span<Transform> out, SampleStore store) {
  sample_store(clip, time, cursor, rest, clip.joints.size(), TransformSink{out.data()}, store);
}

void sample_pose(const Clip& clip, float time, KeyCursor& cursor, std::span<const Transform> rest,
                 std::span<Transform> out, SampleStore store) {
  sample_store(clip, time, cursor, rest, out.size(), TransformSink{out.data()}, store);
}

void sample_pose(const Clip& clip, float time, KeyCursor& cursor, std::span<const Transform> rest,
                 OutputPose& out, SampleStore store) {
  out.start(rest.size());
  sample_store(clip, time, cursor, rest, rest.size(), OutputSink{&out}, store);
}

}  // namespace animkit::shadow_of_war
