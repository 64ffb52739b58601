#include "animkit/core/runtime_clip.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <limits>
#include <tuple>
#include <type_traits>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "animkit/core/error.h"
#include "animkit/core/limits.h"
#include "animkit/core/sampling_job.h"

namespace animkit {

int16_t RuntimeClip::quantize(float c) {
  const float q = std::nearbyint(std::clamp(c, -1.f, 1.f) * 32767.f);
  return static_cast<int16_t>(q);
}

namespace {

constexpr float kNeverNeeded = -std::numeric_limits<float>::infinity();

// One track made piecewise linear, before encoding; the last key is repeated (the hold).
template <class T>
struct Piecewise {
  std::vector<float> times;
  std::vector<T> values;
  bool step = false;
};

// What the runtime evaluates between two of its keys.
Vec3 linear(Vec3 a, Vec3 b, float s) { return lerp(a, b, s); }
Quat linear(Quat a, Quat b, float s) {
  return normalize({a.x + (b.x - a.x) * s, a.y + (b.y - a.y) * s, a.z + (b.z - a.z) * s,
                    a.w + (b.w - a.w) * s});
}

float distance(Vec3 a, Vec3 b) {
  return std::max({std::fabs(a.x - b.x), std::fabs(a.y - b.y), std::fabs(a.z - b.z)});
}
// Component distance between two rotations, up to sign (q and -q are one rotation).
float distance(Quat a, Quat b) {
  if (dot(a, b) < 0.f) b = -b;
  return std::max({std::fabs(a.x - b.x), std::fabs(a.y - b.y), std::fabs(a.z - b.z),
                   std::fabs(a.w - b.w)});
}

// The value the runtime stores for `v` after `prev`: rotations on prev's hemisphere.
Vec3 aligned(Vec3 v, Vec3) { return v; }
Quat aligned(Quat q, Quat prev) { return dot(prev, q) < 0.f ? -q : q; }

// True when the segment from key k can differ from the runtime's lerp / nlerp of its ends.
bool curved(const Track<Vec3>& t, size_t) { return t.interpolation == Interpolation::kHermite; }
bool curved(const Track<Quat>& t, size_t k) {
  switch (t.interpolation) {
    case Interpolation::kHermite:
    case Interpolation::kSlerp: return true;
    case Interpolation::kLinear: return dot(t.values[k], t.values[k + 1]) < 0.f;  // no flip
    default: return false;
  }
}

// kExact: the tracks the SIMD sampler cannot evaluate as SamplingJob does.
bool needs_fallback(const Track<Vec3>& t) {
  return t.size() > 1 && t.interpolation == Interpolation::kHermite;
}
bool needs_fallback(const Track<Quat>& t) {
  return t.size() > 1 &&
         (t.interpolation == Interpolation::kHermite || t.interpolation == Interpolation::kSlerp);
}

template <class T>
void push(Piecewise<T>& out, float time, T v, bool align = true) {
  if (align && !out.step && !out.values.empty()) v = aligned(v, out.values.back());
  out.times.push_back(time);
  out.values.push_back(v);
}

// Adds the interior keys the segment [lo, hi] of neutral key k needs for its linear form to stay
// within kCurveTolerance of the neutral evaluation at 1/4, 1/2 and 3/4 of every piece.
template <class T>
void subdivide(const Track<T>& track, uint32_t k, float lo, T vlo, float hi, T vhi, int depth,
               Piecewise<T>& out) {
  if (depth >= RuntimeClip::kMaxSubdivision) return;
  bool close = true;
  for (float s : {0.25f, 0.5f, 0.75f}) {
    const T exact = evaluate(track, lo + (hi - lo) * s, k);
    if (distance(linear(vlo, aligned(vhi, vlo), s), exact) > RuntimeClip::kCurveTolerance) {
      close = false;
      break;
    }
  }
  if (close) return;
  const float mid = lo + (hi - lo) * 0.5f;
  if (!(mid > lo && mid < hi)) return;  // no float between: nothing to split
  const T vmid = aligned(evaluate(track, mid, k), vlo);
  subdivide(track, k, lo, vlo, mid, vmid, depth + 1, out);
  push(out, mid, vmid);
  subdivide(track, k, mid, out.values.back(), hi, vhi, depth + 1, out);
}

// kExact keeps the keys as they are (no flip, no subdivision); a fallback track holds `rest`.
template <class T>
Piecewise<T> make_piecewise(const Track<T>& track, const T& rest, bool exact) {
  Piecewise<T> out;
  if (track.empty() || (exact && needs_fallback(track))) {
    out.step = true;
    push(out, 0.f, rest);
  } else {
    out.step = track.interpolation == Interpolation::kStep;
    for (size_t k = 0; k < track.size(); ++k) {
      push(out, track.times[k], track.values[k], !exact);
      if (!exact && !out.step && k + 1 < track.size() && curved(track, k)) {
        subdivide(track, static_cast<uint32_t>(k), track.times[k], out.values.back(),
                  track.times[k + 1], track.values[k + 1], 0, out);
      }
    }
  }
  // The hold: the last key repeated, so the pair after the last key spans nothing.
  out.times.push_back(out.times.back());
  out.values.push_back(out.values.back());
  return out;
}

void encode(RuntimeClip::Vec3Key& key, Vec3 v) {
  key.v[0] = v.x;
  key.v[1] = v.y;
  key.v[2] = v.z;
}
void encode(RuntimeClip::QuatKey& key, Quat q) {
  const float c[4] = {q.x, q.y, q.z, q.w};
  for (int i = 0; i < 4; ++i) key.v[i] = RuntimeClip::quantize(c[i]);
}
void encode(RuntimeClip::ExactQuatKey& key, Quat q) {
  key.v[0] = q.x;
  key.v[1] = q.y;
  key.v[2] = q.z;
  key.v[3] = q.w;
}

// Lays the tracks out as one stream in the order the keys are needed (see the header).
template <class Key, class T>
RuntimeClip::Channel<Key> build(const std::vector<Piecewise<T>>& tracks) {
  RuntimeClip::Channel<Key> ch;
  const uint32_t n = static_cast<uint32_t>(tracks.size());
  ch.track_begin.reserve(n + 1);
  ch.track_begin.push_back(0);
  ch.step.reserve(n);
  uint64_t total = 0;
  for (const Piecewise<T>& t : tracks) {
    total += t.times.size();
    ch.step.push_back(t.step);
  }
  if (total > std::numeric_limits<uint32_t>::max()) throw Error("runtime clip: more than 2^32 keys");
  check_memory(checked_size(total, 2 * sizeof(Key) + 3 * sizeof(float) + 3 * sizeof(uint32_t),
                            "runtime clip keys"),
               "runtime clip keys");
  ch.same_times.reserve(n);
  for (uint32_t j = 0; j < n; ++j) {
    const Piecewise<T>& t = tracks[j];
    ch.track_begin.push_back(ch.track_begin.back() + static_cast<uint32_t>(t.times.size()));
    ch.by_track_time.insert(ch.by_track_time.end(), t.times.begin(), t.times.end());
    const uint32_t candidate = j == 0 ? 0 : ch.same_times[j - 1];
    ch.same_times.push_back(j > 0 && tracks[candidate].times == t.times ? candidate : j);
  }
  // Per track, its place among the tracks that share its key times.
  ch.rank_in_same.assign(n, 0);
  {
    std::vector<uint32_t> members(n, 0);
    for (uint32_t j = 0; j < n; ++j) ch.rank_in_same[j] = members[ch.same_times[j]]++;
  }
  for (uint32_t j = 0; j < n; ++j) {
    if (j > 0 && ch.same_times[j] == ch.same_times[j - 1]) {
      ++ch.runs.back().count;
    } else {
      ch.runs.push_back({j, 1, ch.same_times[j], ch.rank_in_same[j]});
    }
  }
  // The time index of each leader (see the header).
  ch.index_lo.assign(n, 0.f);
  ch.index_scale.assign(n, 0.f);
  ch.index_begin.assign(n + 1, 0);
  for (uint32_t j = 0; j < n; ++j) {
    ch.index_begin[j] = static_cast<uint32_t>(ch.index_start.size());
    if (ch.same_times[j] != j) continue;
    const std::vector<float>& times = tracks[j].times;  // >= 2 (the hold)
    const uint32_t buckets = static_cast<uint32_t>(times.size());
    const float span = times.back() - times.front();
    ch.index_lo[j] = times.front();
    ch.index_scale[j] = span > 0.f && std::isfinite(buckets / span) ? buckets / span : 0.f;
    std::vector<uint32_t> in_bucket(buckets, 0);
    for (float t : times) ++in_bucket[ch.bucket(j, t)];
    uint32_t before = 0;
    for (uint32_t b = 0; b < buckets; ++b) {
      ch.index_start.push_back(before);
      before += in_bucket[b];
    }
    ch.index_start.push_back(before);
  }
  ch.index_begin[n] = static_cast<uint32_t>(ch.index_start.size());
  // The tracks of each set of shared times, in track order (a CSR: group_begin per leader).
  std::vector<uint32_t> group_begin(n + 1, 0), group_tracks(n);
  for (uint32_t j = 0; j < n; ++j) ++group_begin[ch.same_times[j] + 1];
  for (uint32_t j = 0; j < n; ++j) group_begin[j + 1] += group_begin[j];
  for (uint32_t j = 0; j < n; ++j) group_tracks[group_begin[ch.same_times[j]] + ch.rank_in_same[j]] = j;
  // The order: (need, 0 / 1 for a track's first two keys and 2 after, the track sharing the
  // times, track, index): the first two keys of every track first, then by need; the tracks that
  // share times sit side by side for every key, so a seek finds them from the first one's
  // position. Sorted per row (a key index of one set of shared times), then each row expanded
  // over its tracks: one entry per distinct set of times instead of one per key.
  std::vector<std::tuple<float, uint32_t, uint32_t, uint32_t>> rows;
  for (uint32_t g = 0; g < n; ++g) {
    if (ch.same_times[g] != g) continue;
    for (uint32_t i = 0; i < tracks[g].times.size(); ++i) {
      rows.emplace_back(i < 2 ? kNeverNeeded : tracks[g].times[i - 1], std::min(i, 2u), g, i);
    }
  }
  std::sort(rows.begin(), rows.end());
  ch.rows.reserve(rows.size());
  for (const auto& [need, first, g, i] : rows) ch.rows.push_back({need, g, i});
  ch.stream.resize(total);
  ch.need.resize(total);
  ch.by_track_key.resize(total);
  size_t p = 0;
  for (const auto& [need, first, g, i] : rows) {
    for (uint32_t m = group_begin[g]; m < group_begin[g + 1]; ++m, ++p) {
      const uint32_t j = group_tracks[m];
      Key& key = ch.stream[p];
      key.time = tracks[j].times[i];
      key.track = j;
      encode(key, tracks[j].values[i]);
      ch.need[p] = need;
      ch.by_track_key[ch.track_begin[j] + i] = static_cast<uint32_t>(p);
    }
  }
  // The runs of each set of shared times (a CSR by leading track).
  ch.leader_runs_begin.assign(n + 1, 0);
  for (const auto& run : ch.runs) ++ch.leader_runs_begin[run.leader + 1];
  for (uint32_t j = 0; j < n; ++j) ch.leader_runs_begin[j + 1] += ch.leader_runs_begin[j];
  ch.leader_runs.resize(ch.runs.size());
  {
    std::vector<uint32_t> filled(ch.leader_runs_begin.begin(), ch.leader_runs_begin.end() - 1);
    for (uint32_t r = 0; r < ch.runs.size(); ++r) ch.leader_runs[filled[ch.runs[r].leader]++] = r;
  }
  for (uint32_t j = 0; j < n; ++j) ch.leaders += ch.same_times[j] == j;
  // Each run's values, component by component (see the header), from the stream keys.
  constexpr int dim = std::is_same_v<Key, RuntimeClip::Vec3Key> ? 3 : 4;
  for (auto& run : ch.runs) {
    run.values = ch.run_values.size();
    for (uint32_t m = 0; m < run.count; ++m) run.any_step |= ch.step[run.first + m];
    const uint32_t keys = ch.track_begin[run.leader + 1] - ch.track_begin[run.leader];
    ch.run_values.resize(run.values + static_cast<size_t>(keys) * dim * run.count);
    auto* values = ch.run_values.data() + run.values;
    for (uint32_t i = 0; i < keys; ++i) {
      for (uint32_t m = 0; m < run.count; ++m) {
        const uint32_t j = run.first + m;
        const Key& key = ch.stream[ch.by_track_key[ch.track_begin[j] + i]];
        for (int k = 0; k < dim; ++k) values[(static_cast<size_t>(i) * dim + k) * run.count + m] = key.v[k];
      }
    }
  }
  return ch;
}

}  // namespace

template <class Key>
uint32_t RuntimeClip::Channel<Key>::bucket(uint32_t track, float time) const {
  const uint32_t buckets = track_begin[track + 1] - track_begin[track];  // one per key
  const float f = (time - index_lo[track]) * index_scale[track];  // NaN (inf * 0) goes to 0
  if (!(f > 0.f)) return 0;
  return f < static_cast<float>(buckets) ? std::min(static_cast<uint32_t>(f), buckets - 1) : buckets - 1;
}
template struct RuntimeClip::Channel<RuntimeClip::Vec3Key>;
template struct RuntimeClip::Channel<RuntimeClip::QuatKey>;
template struct RuntimeClip::Channel<RuntimeClip::ExactQuatKey>;

RuntimeClip::RuntimeClip(const Clip& clip, std::span<const Transform> rest,
                         RuntimePrecision precision)
    : exact_(precision == RuntimePrecision::kExact) {
  if (const std::string e = clip.validate(clip.joints.size()); !e.empty()) {
    throw Error("runtime clip '" + clip.name + "': " + e);
  }
  if (rest.size() < clip.joints.size()) {
    throw Error("runtime clip '" + clip.name + "': fewer rest transforms than joints");
  }
  if (clip.joints.size() > std::numeric_limits<uint32_t>::max() / 2) {
    throw Error("runtime clip '" + clip.name + "': too many joints");
  }
  const size_t n = clip.joints.size();
  duration_ = clip.duration;
  std::vector<Piecewise<Vec3>> t(n), s(n);
  std::vector<Piecewise<Quat>> r(n);
  is_default_.resize(n);
  if (exact_) linear_rotation_.assign(n, 0);
  uint64_t keys = 0;  // subdivided curves can multiply the keys: bound them as they grow
  for (size_t j = 0; j < n; ++j) {
    const JointTracks& jt = clip.joints[j];
    t[j] = make_piecewise(jt.translation, rest[j].translation, exact_);
    r[j] = make_piecewise(jt.rotation, rest[j].rotation, exact_);
    s[j] = make_piecewise(jt.scale, rest[j].scale, exact_);
    if (exact_) {
      const uint32_t joint = static_cast<uint32_t>(j);
      if (needs_fallback(jt.translation)) fallbacks_.push_back({joint, 0, &jt.translation, nullptr});
      if (needs_fallback(jt.rotation)) fallbacks_.push_back({joint, 1, nullptr, &jt.rotation});
      if (needs_fallback(jt.scale)) fallbacks_.push_back({joint, 2, &jt.scale, nullptr});
      linear_rotation_[j] = jt.rotation.interpolation == Interpolation::kLinear;
    }
    keys += t[j].times.size() + r[j].times.size() + s[j].times.size();
    check_memory(checked_size(keys, 2 * sizeof(Vec3Key), "runtime clip keys"), "runtime clip keys");
    is_default_[j] = jt.translation.empty() && jt.rotation.empty() && jt.scale.empty();
  }
  translations_ = build<Vec3Key>(t);
  if (exact_) {
    exact_rotations_ = build<ExactQuatKey>(r);
  } else {
    rotations_ = build<QuatKey>(r);
  }
  scales_ = build<Vec3Key>(s);
}

size_t RuntimeClip::size_bytes() const {
  const auto bytes = [](const auto& ch) {
    return ch.stream.size() * sizeof(ch.stream[0]) + ch.need.size() * sizeof(float) +
           ch.track_begin.size() * sizeof(uint32_t) + ch.by_track_time.size() * sizeof(float) +
           ch.by_track_key.size() * sizeof(uint32_t) + ch.step.size() +
           (ch.same_times.size() + ch.rank_in_same.size()) * sizeof(uint32_t) +
           ch.runs.size() * sizeof(ch.runs[0]) +
           (ch.index_lo.size() + ch.index_scale.size()) * sizeof(float) +
           (ch.index_begin.size() + ch.index_start.size()) * sizeof(uint32_t) +
           ch.run_values.size() * sizeof(ch.run_values[0]) + ch.rows.size() * sizeof(ch.rows[0]) +
           (ch.leader_runs_begin.size() + ch.leader_runs.size()) * sizeof(uint32_t);
  };
  return bytes(translations_) + bytes(rotations_) + bytes(scales_) + bytes(exact_rotations_) +
         is_default_.size() + fallbacks_.size() * sizeof(Fallback) + linear_rotation_.size();
}

// ---- RuntimeCursor ---------------------------------------------------------------------------

namespace {

constexpr int kDims[3] = {3, 4, 3};

template <class Key>
constexpr int dim_of() {
  return std::is_same_v<Key, RuntimeClip::Vec3Key> ? 3 : 4;
}

// A row of a run's values into the cache (rotations dequantize()d).
inline void copy_row(const float* from, uint32_t count, float* to) { std::copy_n(from, count, to); }
inline void copy_row(const int16_t* from, uint32_t count, float* to) {
  uint32_t i = 0;
#if defined(__SSE2__)
  // Eight at a time: sign-extend (each int16 into the high half of a lane, shifted down), then
  // the float product dequantize() computes.
  const __m128 scale = _mm_set1_ps(1.f / 32767.f);
  for (; i + 8 <= count; i += 8) {
    const __m128i q = _mm_loadu_si128(reinterpret_cast<const __m128i*>(from + i));
    const __m128i lo = _mm_srai_epi32(_mm_unpacklo_epi16(q, q), 16);
    const __m128i hi = _mm_srai_epi32(_mm_unpackhi_epi16(q, q), 16);
    _mm_storeu_ps(to + i, _mm_mul_ps(_mm_cvtepi32_ps(lo), scale));
    _mm_storeu_ps(to + i + 4, _mm_mul_ps(_mm_cvtepi32_ps(hi), scale));
  }
#endif
  for (; i < count; ++i) to[i] = RuntimeClip::dequantize(from[i]);
}

// Calls f(channel index, channel) for the three channels, the rotations in the clip's precision.
template <class F>
void each_channel(const RuntimeClip& clip, F&& f) {
  f(0, clip.translations());
  if (clip.exact()) {
    f(1, clip.exact_rotations());
  } else {
    f(1, clip.rotations());
  }
  f(2, clip.scales());
}

inline float inverse_span(bool step, float t0, float t1) {
  return !step && t1 > t0 ? 1.f / (t1 - t0) : 0.f;
}

// Times outside the float range (and NaN, "before the first key") clamp to finite values.
inline float sanitize(float time) {
  if (!(time >= -FLT_MAX)) return -FLT_MAX;
  return time > FLT_MAX ? FLT_MAX : time;
}

}  // namespace

void RuntimeCursor::reset(const RuntimeClip& clip, float time) {
  generation_ = clip.generation();
  padded_ = soa_padded(clip.num_joints());
  stride_ = soa_stride(clip.num_joints());
  exact_ = clip.exact();
  for (int c = 0; c < 3; ++c) {
    const int dim = kDims[c];
    caches_[c].assign(static_cast<size_t>(mode_row(dim) + 1) * stride_, 0.f);
    if (c != 0) {  // rotations' w and scales hold 1 in the padding (identity)
      for (int side = 0; side < 2; ++side) {
        for (int k = c == 1 ? 3 : 0; k < dim; ++k) {
          std::fill_n(caches_[c].data() + (kLeft + side * dim + k) * stride_, stride_, 1.f);
        }
      }
    }
    right_time_[c].assign(clip.num_joints(), 0.f);
  }
  if (exact_) {
    float* mode = caches_[1].data() + mode_row(4) * stride_;
    for (size_t j = 0; j < clip.num_joints(); ++j) mode[j] = clip.linear_rotation()[j];
  }
  found_.assign(clip.num_joints(), 0);
  fallback_keys_.assign(clip.fallbacks().size(), 0);
  time_ = sanitize(time);
  each_channel(clip, [&](int c, const auto& ch) { seek(c, ch, time_); });
}

void RuntimeCursor::move_to(const RuntimeClip& clip, float time) {
  if (generation_ != clip.generation()) {
    reset(clip, time);
    return;
  }
  time = sanitize(time);
  if (time >= time_) {
    each_channel(clip, [&](int c, const auto& ch) { advance(c, ch, time); });
  } else {
    each_channel(clip, [&](int c, const auto& ch) { seek(c, ch, time); });
  }
  time_ = time;
}

// A run's key pair (key indices `key` and key + 1 of its shared times) into the cache, from its
// values stored component by component: row by row, each a block copy.
template <class Key>
void RuntimeCursor::load(int c, const RuntimeClip::Channel<Key>& ch,
                         const typename RuntimeClip::Channel<Key>::Run& run, uint32_t key, float t0,
                         float t1) {
  constexpr int dim = dim_of<Key>();
  const uint32_t first = run.first, count = run.count;
  float* cache = caches_[c].data() + first;
  const size_t stride = stride_;
  const auto* left = ch.run_values.data() + run.values + static_cast<size_t>(key) * dim * count;
  const auto* right = left + static_cast<size_t>(dim) * count;
  for (int k = 0; k < dim; ++k) {
    copy_row(left + static_cast<size_t>(k) * count, count, cache + (kLeft + k) * stride);
    copy_row(right + static_cast<size_t>(k) * count, count, cache + (kLeft + dim + k) * stride);
  }
  const float inv = inverse_span(false, t0, t1);
  float* inv_row = cache + kInv * stride;
  if (run.any_step) {
    const uint8_t* step = ch.step.data() + first;
    for (uint32_t i = 0; i < count; ++i) inv_row[i] = step[i] ? 0.f : inv;
  } else {
    std::fill_n(inv_row, count, inv);
  }
  std::fill_n(cache + kT0 * stride, count, t0);
  if (exact_) std::fill_n(cache + span_row(dim) * stride, count, t1 - t0);
  std::fill_n(right_time_[c].data() + first, count, t1);
}

namespace {

// How many of the n ascending values are <= x (std::upper_bound), without branches: each step's
// load does not wait for a predicted compare, and nothing mispredicts on random times.
inline uint32_t count_not_after(const float* a, uint32_t n, float x) {
  if (n == 0) return 0;
  const float* base = a;
  while (n > 1) {
    const uint32_t half = n / 2;
    base += base[half - 1] <= x ? half : 0;
    n -= half;
  }
  return static_cast<uint32_t>(base - a) + (*base <= x);
}

}  // namespace

// The stream position after a seek (the first key whose need is after `time`) comes from the
// searches the seek makes anyway, not from a search of the whole stream's `need` (issue 34, item
// 4: its last steps miss the cache, ~15 per channel). The stream holds, for each set of shared
// times with its pair at key k, rows 0 and 1 (needed from the start) and rows 2 .. k + 1 (row i
// needed from key i - 1's time, <= time), each row once per track of the set: sorted by need,
// the keys needed by `time` are exactly those (2 + k) rows of every track.
template <class Key>
void RuntimeCursor::seek(int c, const RuntimeClip::Channel<Key>& ch, float time) {
  size_t needed = 0;
  const float* times = ch.by_track_time.data();
  for (const auto& run : ch.runs) {
    const uint32_t b = ch.track_begin[run.leader];
    uint32_t k = found_[run.leader];
    if (run.first == run.leader) {  // the first run of these times: search them
      const uint32_t count = ch.track_begin[run.leader + 1] - b;  // >= 2
      // The last key whose time is <= time, kept inside [0, count - 2] (a pair always exists):
      // searched inside the time's bucket only.
      const uint32_t* start = ch.index_start.data() + ch.index_begin[run.leader] + ch.bucket(run.leader, time);
      k = start[0] + count_not_after(times + b + start[0], start[1] - start[0], time);
      k = found_[run.leader] = k == 0 ? 0 : std::min(k - 1, count - 2);
    }
    if (run.first == run.leader) needed += 2 + k;  // rows, once per set of times
    load(c, ch, run, k, times[b + k], times[b + k + 1]);
  }
  next_[c] = needed;
}

// Reads the rows needed by `time`: each makes its key and the one before it the pair in force
// for every run of its set of times (what a seek to a time between them loads).
template <class Key>
void RuntimeCursor::advance(int c, const RuntimeClip::Channel<Key>& ch, float time) {
  size_t r = next_[c];
  const size_t end = ch.rows.size();
  // More than two rows per set of times to read: a seek costs less.
  const size_t far = 2 * static_cast<size_t>(ch.leaders);
  if (r + far < end && ch.rows[r + far].need <= time) {
    seek(c, ch, time);
    return;
  }
  const float* times = ch.by_track_time.data();
  for (; r < end && ch.rows[r].need <= time; ++r) {
    const auto& row = ch.rows[r];
    const uint32_t b = ch.track_begin[row.leader] + row.key;  // row.key >= 2: rows 0 and 1 are needed from the start
    for (uint32_t x = ch.leader_runs_begin[row.leader]; x < ch.leader_runs_begin[row.leader + 1]; ++x) {
      load(c, ch, ch.runs[ch.leader_runs[x]], row.key - 1, times[b - 1], times[b]);
    }
  }
  next_[c] = r;
}

}  // namespace animkit
