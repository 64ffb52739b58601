#include "animkit/shadow_of_war/key_sampler.h"

#include <bit>

#include "animkit/core/sampling_job.h"

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

// SamplingJob's sample() of one channel (its arithmetic, operation for operation).
inline Vec3 sample(const Track<Vec3>& t, const Vec3& rest, float time, Pair& p) {
  if (t.size() < 2) return t.empty() ? rest : t.values[0];
  find(t.times, time, p);
  const uint32_t k = p.k;
  if (p.inv == 0.f || t.interpolation == Interpolation::kStep) return t.values[k];
  if (t.interpolation == Interpolation::kHermite) return evaluate(t, time, k);
  return lerp(t.values[k], t.values[k + 1], p.s);
}

inline Quat sample(const Track<Quat>& t, const Quat& rest, float time, Pair& p) {
  if (t.size() < 2) return t.empty() ? rest : t.values[0];
  find(t.times, time, p);
  const uint32_t k = p.k;
  if (p.inv == 0.f || t.interpolation == Interpolation::kStep) return t.values[k];
  if (t.interpolation != Interpolation::kNlerp) return evaluate(t, time, k);
  return nlerp(t.values[k], t.values[k + 1], p.s);
}

inline Vec3 plus_zero(Vec3 v) { return {0.f + v.x, 0.f + v.y, 0.f + v.z}; }

template <SampleStore kStore>
void sample_all(const Clip& clip, float time, KeyCursor& cursor, std::span<const Transform> rest,
                std::span<Transform> out) {
  Pair p;
  p.k = cursor.key;
  const size_t n = clip.joints.size();
  for (size_t j = 0; j < n; ++j) {
    const JointTracks& jt = clip.joints[j];
    const Transform& r = rest[j];
    const Vec3 t = sample(jt.translation, r.translation, time, p);
    const Quat q = sample(jt.rotation, r.rotation, time, p);
    const Vec3 s = sample(jt.scale, r.scale, time, p);
    if constexpr (kStore == SampleStore::kRaw) {
      out[j] = {t, q, s};
    } else {
      out[j] = {plus_zero(t), normalize({0.f + q.x, 0.f + q.y, 0.f + q.z, 0.f + q.w}),
                plus_zero(s)};
    }
  }
  cursor.key = p.k;  // the last channel's key: where the next sample starts looking
}

}  // namespace

void sample_keys(const Clip& clip, float time, KeyCursor& cursor, std::span<const Transform> rest,
                 std::span<Transform> out, SampleStore store) {
  if (store == SampleStore::kRaw)
    sample_all<SampleStore::kRaw>(clip, time, cursor, rest, out);
  else
    sample_all<SampleStore::kFullLayer>(clip, time, cursor, rest, out);
}

}  // namespace animkit::shadow_of_war
