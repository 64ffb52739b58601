// Playing a clip (warriors.txt, "Playing a clip", "The cursor (WarAnimInstance)", "When a clip
// ends", "Root motion", "The key in force"): a clip decoded once for playback, and the cursor
// that steps through it: init, step, advance with the exact end rule, sample.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "animkit/warriors/clip.h"
#include "animkit/warriors/pose.h"

namespace animkit::warriors {

// A clip decoded for playback: per channel its keys' start frames and values.
struct PlayClip {
  struct Range {
    uint32_t first = 0, count = 0;
  };
  std::string name;
  float duration = 0;
  uint32_t frame_count = 0;      // F = uint(D x 30 + 0.5)
  std::vector<uint32_t> starts;  // key start frames (sum of the deltas)
  std::vector<uint8_t> deltas;   // each key's +0
  std::vector<Quat> values;      // decoded: positions in x, y, z; rotations as quaternions
  // Per key, what the sampler's t = (frame - start) / next key's delta reads, as floats side by
  // side (float(starts[k]), float(deltas[k + 1]); 0 for a channel's last key, never read).
  struct KeyTime {
    float start = 0, next_delta = 0;
  };
  std::vector<KeyTime> key_times;
  Range velocity, translation;   // sections A and B (their first channel); count 0 when absent
  std::array<Range, kNumBones> bones{};  // section C by the mask, count 0 without a channel
  std::vector<AnimEvent> events;
  int anim_id = -1;  // the id it was bound to (for traces)
  // The cursor slots that have a channel (bones 0-33, then 34 velocity, 35 translation), so a
  // cursor's step and restart visit only those; slot_ranges[i] is slots[i]'s range.
  std::array<uint8_t, kNumBones + 2> slots{};
  std::array<Range, kNumBones + 2> slot_ranges{};
  std::array<uint32_t, kNumBones + 2> slot_ends{};  // slot_ranges[i].first + count
  int slot_count = 0;
  // The values the clip writes: bit s for slot s (bone s, kVelocityBit, kTranslationBit).
  uint64_t value_mask = 0;
  // The first frame at which some channel's second key comes into force (UINT32_MAX when none
  // has one): frames 0 .. first_change - 1 all show the first keys.
  uint32_t first_change = UINT32_MAX;
  // The smallest event frame (UINT32_MAX without events): a cursor's lower bound on the next
  // event to fire after a restart.
  uint32_t first_event_frame = UINT32_MAX;

  bool has_bone(int b) const { return bones[b].count > 0; }
  const Range& range(int slot) const {
    return slot < kNumBones ? bones[slot] : slot == kNumBones ? velocity : translation;
  }
};
// Channels of section C are bound to the mask's set bits in bone order; extra channels or bits
// are ignored (validate reports the mismatch).
PlayClip make_play_clip(const AnmClip& clip, int anim_id = -1);

// Cursor flags (+0x1e), warriors.txt "The cursor".
inline constexpr uint16_t kCursorNoVelocity = 0x1, kCursorNoTurn = 0x2, kCursorMuted = 0x10;

// Receives the events a cursor passes.
class EventSink {
 public:
  virtual ~EventSink() = default;
  virtual void fire(const PlayClip& clip, const AnimEvent& event) = 0;
};

// What the sampler needs besides the cursor (warriors.txt, "Root motion", "The pose").
struct SampleContext {
  const WarPose* defaults = nullptr;  // the instance's default pose (reference pose, tagged)
  float bind_height = 0;              // added to section B's z
  uint64_t defaults_untagged = 0;     // untagged_mask(*defaults) (0: every value tagged)
};

// AnimCursor_SamplePose's work: the clip at `frame` with keys[i] the key in force of its i-th
// slot (PlayClip::slots), into `out`, which holds ctx.defaults' values except (at most) at the
// bits `differs` (kAllPoseValues: anything). Returns untagged_mask(out).
uint64_t sample_keys(const PlayClip& clip, const uint32_t* keys, float frame, float rate,
                     uint16_t flags, const SampleContext& ctx, WarPose& out,
                     uint64_t differs = kAllPoseValues);

// WarAnimInstance.
class AnimCursor {
 public:
  static constexpr int kSlots = kNumBones + 2;  // bones 0-33, velocity, translation

  // AnimCursor_Init (0x001041f8): each channel at its first key, time 0, frame 0.
  void init(const PlayClip* clip, uint16_t flags = 0);
  // AnimCursor_Restart: back to time 0 (the loop's wrap).
  void restart();
  // AnimCursor_Step (0x00104110): each channel to the key in force at `frame`. The key in force
  // depends on the frame alone, so a step to a frame inside the window where no channel's key
  // changes touches no channel.
  void step(uint32_t frame);
  // AnimCursor_Advance (0x001044a0) by s = dt x rate: 0 when the step was taken (events
  // passed are fired into `sink` unless muted), else the overshoot (t + s) - (D - 1/60) and
  // nothing changes. An overshoot of exactly 0.0 is what the callers read as "not ended".
  float advance(float s, EventSink* sink);
  // Sets the time directly (the gait's follower, a blend window): frame and channels follow;
  // no events.
  void set_time(float time);
  // AnimCursor_SamplePose (0x00104ce0) at `rate`; returns untagged_mask(out).
  uint64_t sample(float rate, const SampleContext& ctx, WarPose& out) const;
  // The same into a pose that holds ctx.defaults' values except (at most) at the bits `differs`
  // (a pose stack's slot, PoseStack): of those only the ones this clip does not write are put
  // back, instead of the whole default pose copied. The same pose results.
  uint64_t sample_over(float rate, const SampleContext& ctx, WarPose& out, uint64_t differs) const {
    if (!clip_) return sample(rate, ctx, out);
    return sample_keys(*clip_, key_.data(), time_ * 30.0f, rate, flags_, ctx, out, differs);
  }

  const PlayClip* clip() const { return clip_; }
  float time() const { return time_; }
  uint32_t frame() const { return frame_; }
  uint16_t flags() const { return flags_; }
  void set_flags(uint16_t f) { flags_ = f; }
  float duration() const { return clip_ ? clip_->duration : 0.f; }
  float normalised_time() const;

 private:
  void fire_events(uint32_t from_exclusive, uint32_t to, EventSink* sink);
  const PlayClip* clip_ = nullptr;
  float time_ = 0;
  uint32_t frame_ = 0;
  // Every frame in [window_lo_, window_hi_) has the keys in key_ in force (each channel's key
  // starts at or before window_lo_ and the next one at or after window_hi_).
  uint32_t window_lo_ = 0, window_hi_ = 0;
  uint16_t flags_ = 0;
  int64_t fired_ = -1;  // the last frame whose events were fired (-1: none yet)
  // At most the smallest event frame after fired_ (no event lies in (fired_, next_event_)), so
  // a step that stays below it looks at no event; exact after each look at the events.
  uint32_t next_event_ = 0;
  // The key in force (absolute index) of the clip's i-th channel slot (PlayClip::slots[i]): the
  // keys a step and a sample read are the first slot_count entries, side by side.
  std::array<uint32_t, kSlots> key_{};
};

// The key in force at a continuous frame, outside a cursor (`sample --frame`, plot): the key at
// or before the nearest whole frame (a tie to the lower), carried by t = (frame - key) / delta.
void sample_clip(const PlayClip& clip, float frame, float rate, const SampleContext& ctx,
                 WarPose& out);

// One channel's value at a continuous frame by the key-in-force rule (positions in x, y, z);
// `held` takes the key in force without carrying it (bone 0's turn).
Quat evaluate_channel(const PlayClip& clip, const PlayClip::Range& range, float frame,
                      bool rotation, bool held = false);

// The number of updates a clip that hands over plays at `rate` (warriors.txt, "When a clip
// ends"): updates 0 .. n-1 show the clip, update n shows the next task.
int clip_length_updates(float duration, float rate, float dt = 0.033333335f);

// The same with the reason a clip never ends: the step dt x rate is 0 (rate 0), the overshoot on
// the end update is exactly 0.0 (the 2-frame clip at 0.75), the float32 time stops growing before
// frame F, or more than `cap` updates were counted.
struct ClipLength {
  enum class End { kEnds, kRateZero, kZeroOvershoot, kTimeStalls, kCap };
  End end = End::kEnds;
  int updates = 0;       // kEnds: updates 0 .. n-1 show the clip; kTimeStalls: when it stalled
  float stall_time = 0;  // kTimeStalls: the time that no longer grows
};
ClipLength clip_length(float duration, float rate, float dt = 0.033333335f, int cap = 1 << 30);

}  // namespace animkit::warriors
