#include "animkit/core/sampling_job.h"

#include <algorithm>
#include <limits>

namespace animkit {

namespace {
// A channel takes a cursor slot when its key in force can change: two keys or more.
template <class T>
size_t animated(const Track<T>& t) {
  return t.size() >= 2 ? 1 : 0;
}
}  // namespace

void SamplingCursor::reset(const Clip& clip) {
  clip_ = &clip;
  joints_ = clip.joints.size();
  size_t n = 0;
  for (const JointTracks& jt : clip.joints)
    n += animated(jt.translation) + animated(jt.rotation) + animated(jt.scale);
  slots_.assign(n, Slot{});  // t0 == t1: the first sample refreshes
}

uint32_t find_key(std::span<const float> times, float time, uint32_t hint) {
  const uint32_t n = static_cast<uint32_t>(times.size());
  if (n <= 1 || !(time > times[0])) return 0;
  uint32_t k = hint < n ? hint : n - 1;
  if (time >= times[k]) {
    // Forward playback moves at most a key or two per update: step before searching.
    for (int step = 0; step < 4; ++step) {
      if (k + 1 >= n || times[k + 1] > time) return k;
      ++k;
    }
    return static_cast<uint32_t>(std::upper_bound(times.begin() + k, times.end(), time) -
                                 times.begin()) - 1;
  }
  return static_cast<uint32_t>(std::upper_bound(times.begin(), times.begin() + k, time) -
                               times.begin()) - 1;
}

namespace {

using Slot = SamplingCursor::Slot;
constexpr float kInf = std::numeric_limits<float>::infinity();

// Moves a slot to the key pair in force at `time`.
void refresh(const std::vector<float>& times, float time, Slot& slot) {
  const uint32_t n = static_cast<uint32_t>(times.size());
  slot.key = find_key(times, time, slot.key);
  if (n == 1 || !(time >= times[0])) {  // before the first key (or a NaN time): it holds
    slot = {0, -kInf, n == 1 ? kInf : times[0], 0};
  } else if (slot.key + 1 >= n) {  // after the last key: it holds
    slot = {n - 1, times[n - 1], kInf, 0};
  } else {
    const float t0 = times[slot.key], t1 = times[slot.key + 1];
    slot = {slot.key, t0, t1, 1.f / (t1 - t0)};
  }
}

// Cubic Hermite basis on s in [0, 1]; slopes are per second, so they scale by the span h.
template <class T, class Mul>
T hermite(const T& p0, const T& m0, const T& p1, const T& m1, float s, float h, Mul mul) {
  const float s2 = s * s, s3 = s2 * s;
  const float h00 = 2 * s3 - 3 * s2 + 1, h10 = s3 - 2 * s2 + s;
  const float h01 = -2 * s3 + 3 * s2, h11 = s3 - s2;
  return mul(p0, h00, m0, h10 * h, p1, h01, m1, h11 * h);
}

Vec3 mix4(Vec3 a, float wa, Vec3 b, float wb, Vec3 c, float wc, Vec3 d, float wd) {
  return a * wa + b * wb + c * wc + d * wd;
}
Quat mix4(Quat a, float wa, Quat b, float wb, Quat c, float wc, Quat d, float wd) {
  return {a.x * wa + b.x * wb + c.x * wc + d.x * wd, a.y * wa + b.y * wb + c.y * wc + d.y * wd,
          a.z * wa + b.z * wb + c.z * wc + d.z * wd, a.w * wa + b.w * wb + c.w * wc + d.w * wd};
}

// The fraction between key k and k + 1, or -1 when `time` is outside the pair (hold key k).
inline float fraction(const std::vector<float>& times, float time, uint32_t k) {
  if (k + 1 >= times.size() || !(time > times[k])) return -1.f;
  const float t0 = times[k], t1 = times[k + 1];
  return time >= t1 ? 1.f : (time - t0) / (t1 - t0);
}

}  // namespace

Vec3 evaluate(const Track<Vec3>& t, float time, uint32_t k) {
  const float s = fraction(t.times, time, k);
  if (s < 0.f || t.interpolation == Interpolation::kStep) return t.values[k];
  if (t.interpolation == Interpolation::kHermite) {
    const float h = t.times[k + 1] - t.times[k];
    return hermite(t.values[k], t.out_slopes[k], t.values[k + 1], t.in_slopes[k + 1], s, h,
                   [](auto... a) { return mix4(a...); });
  }
  return lerp(t.values[k], t.values[k + 1], s);
}

Quat evaluate(const Track<Quat>& t, float time, uint32_t k) {
  const float s = fraction(t.times, time, k);
  if (s < 0.f || t.interpolation == Interpolation::kStep) return t.values[k];
  const Quat a = t.values[k], b = t.values[k + 1];
  switch (t.interpolation) {
    case Interpolation::kSlerp: return slerp(a, b, s);
    case Interpolation::kLinear:
      return normalize({a.x + (b.x - a.x) * s, a.y + (b.y - a.y) * s, a.z + (b.z - a.z) * s,
                        a.w + (b.w - a.w) * s});
    case Interpolation::kHermite: {
      const float h = t.times[k + 1] - t.times[k];
      return normalize(hermite(a, t.out_slopes[k], b, t.in_slopes[k + 1], s, h,
                               [](auto... v) { return mix4(v...); }));
    }
    default: return nlerp(a, b, s);
  }
}

bool SamplingJob::validate() const {
  if (!clip || !cursor) return false;
  const size_t n = clip->joints.size();
  if (output.size() < n || rest.size() < n) return false;
  if (!output_default.empty() && output_default.size() < n) return false;
  return true;
}

namespace {

// One channel at `time`: the rest value without keys, the key with one (what a slot would hold
// for any time, NaN included), else through the next cursor slot. The common interpolations are
// inlined here, the rest go through evaluate().
inline Vec3 sample(const Track<Vec3>& t, const Vec3& rest, float time, Slot*& next) {
  if (t.size() < 2) return t.empty() ? rest : t.values[0];
  Slot& slot = *next++;
  if (!(time >= slot.t0 && time < slot.t1)) refresh(t.times, time, slot);
  const uint32_t k = slot.key;
  if (slot.inv == 0.f || t.interpolation == Interpolation::kStep) return t.values[k];
  if (t.interpolation == Interpolation::kHermite) return evaluate(t, time, k);
  return lerp(t.values[k], t.values[k + 1], (time - slot.t0) * slot.inv);
}

inline Quat sample(const Track<Quat>& t, const Quat& rest, float time, Slot*& next) {
  if (t.size() < 2) return t.empty() ? rest : t.values[0];
  Slot& slot = *next++;
  if (!(time >= slot.t0 && time < slot.t1)) refresh(t.times, time, slot);
  const uint32_t k = slot.key;
  if (slot.inv == 0.f || t.interpolation == Interpolation::kStep) return t.values[k];
  if (t.interpolation != Interpolation::kNlerp) return evaluate(t, time, k);
  return nlerp(t.values[k], t.values[k + 1], (time - slot.t0) * slot.inv);
}

}  // namespace

// Samples every joint; false when the cursor's slots run out (the clip was edited in place since
// the cursor was bound, keeping its joint count).
bool SamplingJob::sample_joints() const {
  Slot* next = cursor->slots_.data();
  Slot* const end = next + cursor->slots_.size();
  const size_t n = clip->joints.size();
  for (size_t j = 0; j < n; ++j) {
    const JointTracks& jt = clip->joints[j];
    const size_t needed = animated(jt.translation) + animated(jt.rotation) + animated(jt.scale);
    if (static_cast<size_t>(end - next) < needed) return false;
    Transform& out = output[j];
    const Transform& r = rest[j];
    out.translation = sample(jt.translation, r.translation, time, next);
    out.rotation = sample(jt.rotation, r.rotation, time, next);
    out.scale = sample(jt.scale, r.scale, time, next);
    if (!output_default.empty()) {
      output_default[j] = jt.translation.empty() && jt.rotation.empty() && jt.scale.empty();
    }
  }
  return true;
}

bool SamplingJob::run() const {
  if (!validate()) return false;
  if (cursor->clip_ != clip || cursor->joints_ != clip->joints.size()) cursor->reset(*clip);
  if (!sample_joints()) {
    cursor->reset(*clip);  // a cache only: rebinding and sampling again gives the same pose
    sample_joints();
  }
  return true;
}

}  // namespace animkit
