// The runtime clip: a neutral Clip compiled for playback (issue 16, item 1). The editable Clip
// stays as it is; this is a read-only form laid out for the SoA sampling job.
//
// Layout. Each channel (translations, rotations, scales) is one stream of keys sorted by the time
// they are needed, as ozz-animation does: the first two keys of every track come first, then key
// k + 1 of a track sits at the time its key k comes into force. Tracks keyed at the same times
// (the usual case: every track on the clip's frames) sit side by side in it, so the stream is a
// sequence of rows (one key index of one set of shared times, Channel::rows), and each run of
// such tracks also keeps its values component by component (Channel::run_values). Forward play
// reads the rows front to back and never searches; a row loads its runs' new key pairs from
// run_values as blocks. Random access: every track also has its key times in track order; tracks
// keyed alike share one search, in a time index that narrows it to one bucket (about one key on
// frames), then the seek copies each run's pair from run_values and derives the row position
// from the keys it found (issue 34, items 2, 4 and 6).
//
// Every track becomes piecewise linear: translations and scales lerp, rotations nlerp on keys
// flipped onto one hemisphere at compile time (so the runtime needs no sign test). Step tracks
// hold their left key. Hermite tracks, slerp tracks and "linear" rotations that cross hemispheres
// are subdivided until the linear form matches the neutral evaluation within kCurveTolerance at
// the probe points (1/4, 1/2, 3/4 of every piece; at most 2^kMaxSubdivision pieces per segment).
// A track with no key holds the skeleton's rest value.
//
// Quantisation. Rotations are stored as four int16 (component * 32767), 8 bytes instead of 16: a
// component is off by at most 0.5 / 32767 = 1.53e-5 before the sampler normalises, at most
// kRotationBound after (tested at every key). Translations and scales stay float32: a 16-bit
// range quantisation misses 1e-4 on any track spanning more than 6.5 units (root motion does).
// Key times stay float32 so the key in force at a key's own time is exactly the neutral one.
//
// Exact precision (RuntimePrecision::kExact, for the CLI's verbs that must print what the neutral
// sampler prints): rotations stay float32, nothing is subdivided or flipped, and the sampler
// repeats SamplingJob's arithmetic operation for operation (lerp, nlerp with its sign test,
// "linear" rotations lerped and normalised, the holds), so its output is bit-identical to
// SamplingJob's. Tracks it cannot evaluate that way (Hermite, slerp) are listed as fallbacks and
// evaluated by the neutral evaluate(); an exact clip therefore refers to its Clip, which must
// outlive it.
#pragma once

#include <atomic>
#include <cstdint>
#include <span>
#include <type_traits>
#include <vector>

#include "animkit/core/clip.h"
#include "animkit/core/soa_pose.h"

namespace animkit {

enum class RuntimePrecision : uint8_t {
  kCompact,  // int16 rotations, curves made linear within kCurveTolerance: the runtime's form
  kExact,    // float32, SamplingJob's arithmetic, curves through the neutral evaluate()
};

class RuntimeClip {
 public:
  static constexpr float kRotationBound = 5e-5f;   // per component, at every key, up to sign
  static constexpr float kCurveTolerance = 5e-5f;  // linear form vs neutral at the probes
  static constexpr int kMaxSubdivision = 8;

  // Compiles `clip` for a skeleton whose rest locals are `rest`. Throws animkit::Error when the
  // clip is not well formed (Clip::validate) or the compiled form exceeds the memory limit.
  RuntimeClip(const Clip& clip, std::span<const Transform> rest,
              RuntimePrecision precision = RuntimePrecision::kCompact);

  // A copy, and both sides of a move, take a new generation (see RuntimeCursor); a moved-from
  // clip is empty (0 joints).
  RuntimeClip(const RuntimeClip&) = default;
  RuntimeClip(RuntimeClip&&) noexcept = default;
  RuntimeClip& operator=(const RuntimeClip&) = default;
  RuntimeClip& operator=(RuntimeClip&&) noexcept = default;

  // The clip's identity for cursors: a number no other RuntimeClip object of this process has
  // carried or will carry, whatever its address (issue 34, item 1). Never 0.
  uint64_t generation() const { return generation_.value(); }

  size_t num_joints() const { return is_default_.size(); }
  float duration() const { return duration_; }
  // 1 for a joint with no key in any channel (SamplingJob's output_default).
  std::span<const uint8_t> is_default() const { return is_default_; }
  size_t size_bytes() const;
  bool exact() const { return exact_; }

  struct Vec3Key {
    float time;
    uint32_t track;
    float v[3];
  };
  struct QuatKey {
    float time;
    uint32_t track;
    int16_t v[4];  // x y z w, component * 32767
  };
  struct ExactQuatKey {  // kExact rotations
    float time;
    uint32_t track;
    float v[4];
  };
  static int16_t quantize(float component);
  static float dequantize(int16_t q) { return q * (1.f / 32767.f); }

  template <class Key>
  struct Channel {
    std::vector<Key> stream;            // in the order the keys are needed
    std::vector<float> need;            // per stream key: the time from which it is read
    std::vector<uint32_t> track_begin;  // per track, into by_track_*; num_joints + 1 entries
    std::vector<float> by_track_time;   // every key time, track after track
    std::vector<uint32_t> by_track_key; // the stream position of each of those keys
    std::vector<uint8_t> step;          // per track: holds its left key (inv span 0)
    // Per track: the first track with the same key times (itself when none), so a seek
    // searches each distinct set of times once (clips keyed on frames share one).
    std::vector<uint32_t> same_times;
    std::vector<uint32_t> rank_in_same;  // per track: its place among those (0 for the first)
    // Consecutive tracks with the same `same_times`, in track order: their keys sit side by side
    // in the stream for every key index, so a seek copies a run's key pairs as two blocks.
    struct Run {
      uint32_t first;         // track
      uint32_t count;         // tracks
      uint32_t leader;        // same_times[first]: the track whose times are searched
      uint32_t rank;          // rank_in_same[first]
      uint32_t any_step = 0;  // 1 when one of its tracks holds its keys (step)
      size_t values = 0;      // into run_values
    };
    std::vector<Run> runs;
    // Per run, its tracks' key values component by component, key index after key index (issue
    // 34, item 2): run_values[run.values + (i * dim + k) * run.count + m] is component k of key i
    // of track run.first + m, as its stream key stores it (int16 for compact rotations). A seek
    // copies a run's key pair from here row by row (plain block copies) instead of transposing
    // stream keys; a second copy of the values, 12-16 bytes per key.
    using Component = std::conditional_t<std::is_same_v<Key, QuatKey>, int16_t, float>;
    std::vector<Component> run_values;
    // The stream's rows in order: row = one key index `key` of one set of shared times (its
    // leading track `leader`), whose keys sit side by side in the stream; `need` is theirs.
    // Forward play reads row by row: a row makes (key - 1, key) the pair in force for each run
    // of its set, loaded from run_values as a seek loads it (issue 34, item 6: the stream key by
    // key cost 50-70 instructions per key).
    struct Row {
      float need;
      uint32_t leader;
      uint32_t key;
    };
    std::vector<Row> rows;
    std::vector<uint32_t> leader_runs_begin;  // per track: into leader_runs; num_joints + 1 entries
    std::vector<uint32_t> leader_runs;        // indices into runs, the runs of each set of times
    uint32_t leaders = 0;                     // sets of shared times
    // A time index per leading track (one per set of shared times; issue 34, item 4): its key
    // times cut into as many equal buckets as it has keys, bucket(t) = floor((t - index_lo) *
    // index_scale) clamped into range; index_start[index_begin[track] + b] is the number of keys
    // in the buckets before b (one more entry closes the last bucket). The same float formula
    // places keys and queries, so a key in an earlier bucket is never after the query: a seek
    // searches one bucket (about one key on frames) instead of all the keys.
    std::vector<float> index_lo, index_scale;  // per track (read for leaders only)
    std::vector<uint32_t> index_begin;         // per track: into index_start
    std::vector<uint32_t> index_start;
    uint32_t bucket(uint32_t track, float time) const;  // time sanitised (finite)
  };
  const Channel<Vec3Key>& translations() const { return translations_; }
  const Channel<QuatKey>& rotations() const { return rotations_; }
  const Channel<Vec3Key>& scales() const { return scales_; }
  const Channel<ExactQuatKey>& exact_rotations() const { return exact_rotations_; }

  // kExact: a track the SIMD sampler does not evaluate (Hermite, slerp); its stream holds the
  // rest value and the sampling job overwrites it with evaluate(*track, time, key).
  struct Fallback {
    uint32_t joint;
    int channel;  // 0 translation, 1 rotation, 2 scale
    const Track<Vec3>* vec3 = nullptr;
    const Track<Quat>* quat = nullptr;
  };
  std::span<const Fallback> fallbacks() const { return fallbacks_; }
  // kExact, per joint: 1 when its rotation is Interpolation::kLinear (lerp, no sign test, the
  // fraction by division as evaluate() computes it), 0 for nlerp.
  std::span<const uint8_t> linear_rotation() const { return linear_rotation_; }

 private:
  // A fresh number from one process-wide atomic counter on construction, on copy, and for both
  // objects of a move (the moved-from one is emptied: its old identity must not survive it).
  class Generation {
   public:
    Generation() : value_(next()) {}
    Generation(const Generation&) : value_(next()) {}
    Generation(Generation&& other) noexcept : value_(next()) { other.value_ = next(); }
    Generation& operator=(const Generation&) {
      value_ = next();
      return *this;
    }
    Generation& operator=(Generation&& other) noexcept {
      value_ = next();
      other.value_ = next();
      return *this;
    }
    uint64_t value() const { return value_; }

   private:
    static uint64_t next() {
      static std::atomic<uint64_t> counter{0};
      return counter.fetch_add(1, std::memory_order_relaxed) + 1;  // 2^64 never wraps in practice
    }
    uint64_t value_;
  };

  Generation generation_;
  float duration_ = 0;
  bool exact_ = false;
  std::vector<uint8_t> is_default_;
  Channel<Vec3Key> translations_;
  Channel<QuatKey> rotations_;  // kCompact
  Channel<Vec3Key> scales_;
  Channel<ExactQuatKey> exact_rotations_;  // kExact
  std::vector<Fallback> fallbacks_;
  std::vector<uint8_t> linear_rotation_;
};

// The per-playing-clip state of the runtime sampler: per channel the next stream key and a SoA
// cache holding, per track, the key pair in force (left time, 1 / span or 0 while a key holds,
// left and right values). Forward moves read the stream; a move backwards or far ahead seeks.
//
// Binding contract (issue 34, item 1). A cursor remembers the generation() of the clip it was
// last bound to, never the clip's address or joint count. move_to() (and so SoaSamplingJob)
// binds again whenever the clip it is given carries another generation, and every RuntimeClip
// object gets a generation no clip ever had before: when it is compiled, copied, moved into or
// moved from. So a cursor can be handed any clip at any time, including a clip compiled into the
// storage of a destroyed one (std::optional::emplace, vector reuse, a pool): it never reads the
// old clip's state. Rebinding costs what reset() costs: a seek, and an allocation only when the
// new clip has more joints than the cursor had room for. The cursor holds no pointer to its
// clip; the clip passed to each call must be alive for that call only. A RuntimeClip is
// immutable and can be shared by any number of cursors and threads; a cursor is one playing
// instance's state and must not be used by two threads at once.
class RuntimeCursor {
 public:
  // Binds to `clip` (allocates only when it needs more room than the cursor has, never per
  // sample) and seeks to `time`.
  void reset(const RuntimeClip& clip, float time = 0);
  // The generation of the clip the cursor is bound to; 0 before the first bind.
  uint64_t generation() const { return generation_; }
  // Brings the caches to `time` (binds to `clip` first when its generation differs). NaN counts
  // as before the first key.
  void move_to(const RuntimeClip& clip, float time);
  float time() const { return time_; }

  // Cache rows: kT0, kInv, then the left value's components, then the right value's, then (read
  // by kExact clips only) the span t1 - t0 and the mode (1: a kLinear rotation).
  enum Row : int { kT0 = 0, kInv = 1, kLeft = 2 };
  static constexpr int span_row(int dim) { return kLeft + 2 * dim; }
  static constexpr int mode_row(int dim) { return kLeft + 2 * dim + 1; }
  // Row `row` of channel `c` (0 translations, 1 rotations, 2 scales): `padded` floats used, rows
  // `stride` floats apart (soa_stride, as a SoaPose's components).
  const float* row(int c, int row) const { return caches_[c].data() + static_cast<size_t>(row) * stride_; }
  size_t padded() const { return padded_; }
  size_t stride() const { return stride_; }
  // kExact: per fallback track, the key in force at the last sample (find_key's hint).
  std::span<uint32_t> fallback_keys() { return fallback_keys_; }

 private:
  template <class Key>
  void seek(int c, const RuntimeClip::Channel<Key>& ch, float time);
  template <class Key>
  void advance(int c, const RuntimeClip::Channel<Key>& ch, float time);
  template <class Key>
  void load(int c, const RuntimeClip::Channel<Key>& ch, const typename RuntimeClip::Channel<Key>::Run& run,
            uint32_t key, float t0, float t1);

  uint64_t generation_ = 0;
  size_t padded_ = 0;
  size_t stride_ = 0;
  float time_ = 0;
  size_t next_[3] = {0, 0, 0};  // per channel: the next stream row (Channel::rows) to read
  std::vector<float> caches_[3];
  std::vector<float> right_time_[3];  // per track: the right key's time
  std::vector<uint32_t> found_;       // per leading track (same_times): the key a seek found
  std::vector<uint32_t> fallback_keys_;
  bool exact_ = false;
};

}  // namespace animkit
