#include "animkit/warriors/cursor.h"

#include <cmath>

#include "animkit/warriors/clock.h"
#include "animkit/warriors/quat_lanes.h"

namespace animkit::warriors {

namespace {
constexpr int kVelocitySlot = kNumBones, kTranslationSlot = kNumBones + 1;

PlayClip::Range append_channel(PlayClip& p, const Channel& c, bool rotation) {
  PlayClip::Range r{static_cast<uint32_t>(p.starts.size()), static_cast<uint32_t>(c.keys.size())};
  uint32_t frame = 0;
  for (size_t i = 0; i < c.keys.size(); ++i) {
    const Key& k = c.keys[i];
    if (i > 0) frame += k.delta;  // the first key's +0 is 0 (a channel's start)
    p.starts.push_back(frame);
    p.deltas.push_back(k.delta);
    if (rotation) {
      p.values.push_back(decode_rotation(k));
    } else {
      const Vec3 v = decode_position(k);
      p.values.push_back({v.x, v.y, v.z, 0});
    }
  }
  return r;
}

// warriors.txt "Playing a clip" / "The key in force": t = (frame - key start) / next key's
// delta, not clamped; lerp positions, nlerp rotations (the sign flip); the last key held.
Quat channel_value(const PlayClip& p, const PlayClip::Range& r, uint32_t k, float frame,
                   bool rotation) {
  if (k + 1 >= r.first + r.count) return p.values[k];
  const float t = (frame - static_cast<float>(p.starts[k])) / static_cast<float>(p.deltas[k + 1]);
  const Quat& a = p.values[k];
  const Quat& b = p.values[k + 1];
  if (rotation) return lanes::nlerp(a, b, t);  // core nlerp's floats, four lanes at once
  const Vec3 v = lerp(Vec3{a.x, a.y, a.z}, Vec3{b.x, b.y, b.z}, t);
  return {v.x, v.y, v.z, 0};
}

uint32_t key_in_force(const PlayClip& p, const PlayClip::Range& r, uint32_t frame) {
  uint32_t k = r.first;
  while (k + 1 < r.first + r.count && p.starts[k + 1] <= frame) ++k;
  return k;
}

// warriors.txt "Root motion": bone 0's turn is the key in force, slerped from the identity by
// the rate unless the rate is exactly 1.0 or w is within 5e-7 of 1.
Quat scaled_turn(Quat key, float rate) {
  if (rate == 1.0f || std::fabs(key.w - 1.0f) <= 5e-7f) return key;
  return slerp(Quat::identity(), key, rate);  // Quat_Slerp clamps the factor to [0, 1]
}

// Returns untagged_mask(out): the defaults' untagged values and the channels written.
// Compiled for AVX2 too (ANIMKIT_WARRIORS_AVX2_CLONE, quat_lanes.h).
ANIMKIT_WARRIORS_AVX2_CLONE uint64_t sample_channels(const PlayClip& p, const uint32_t* keys,
                                                     float frame, float rate, uint16_t flags,
                                                     const SampleContext& ctx, WarPose& out) {
  out = ctx.defaults ? *ctx.defaults : default_pose();
  uint64_t untagged = ctx.defaults ? ctx.defaults_untagged : 0;
  if (p.velocity.count > 0 && !(flags & kCursorNoVelocity)) {
    const Quat v = channel_value(p, p.velocity, keys[kVelocitySlot], frame, false);
    out.root_velocity = tagged(Vec3{v.x, v.y, v.z} * rate, false);  // vmulx at 0x00104e68
    untagged |= uint64_t{1} << kVelocityBit;
  }
  if (p.translation.count > 0) {
    const Quat v = channel_value(p, p.translation, keys[kTranslationSlot], frame, false);
    out.root_translation = tagged(Vec3{v.x, v.y, v.z + ctx.bind_height}, false);
    untagged |= uint64_t{1} << kTranslationBit;
  }
  if (p.bones[0].count > 0 && !(flags & kCursorNoTurn)) {
    out.rotations[0] = tagged(scaled_turn(p.values[keys[0]], rate), false);
    untagged |= 1;
  }
  // The bone slots that have a channel (slots are in bone order, velocity and translation last).
  for (int i = 0; i < p.slot_count; ++i) {
    const int b = p.slots[i];
    if (b == 0) continue;
    if (b >= kNumBones) break;
    out.rotations[b] = tagged(channel_value(p, p.bones[b], keys[b], frame, true), false);
    untagged |= uint64_t{1} << b;
  }
  return untagged;
}
}  // namespace

PlayClip make_play_clip(const AnmClip& clip, int anim_id) {
  PlayClip p;
  const Descriptor& d = clip.descriptor;
  p.name = d.name_text();
  p.duration = d.duration;
  p.frame_count = clock_frame_count(d.duration);
  p.anim_id = anim_id;
  const Keyframes& k = clip.keyframes;
  if (!k.section_a.empty()) p.velocity = append_channel(p, k.section_a[0], false);
  if (!k.section_b.empty()) p.translation = append_channel(p, k.section_b[0], false);
  size_t c = 0;
  for (int b = 0; b < kNumBones && c < k.section_c.size(); ++b) {
    if (d.has_bone(b)) p.bones[b] = append_channel(p, k.section_c[c++], true);
  }
  p.events = k.events;
  for (int slot = 0; slot < AnimCursor::kSlots; ++slot) {
    if (p.range(slot).count > 0) p.slots[p.slot_count++] = static_cast<uint8_t>(slot);
  }
  return p;
}

void AnimCursor::init(const PlayClip* clip, uint16_t flags) {
  clip_ = clip;
  flags_ = flags;
  restart();
}

void AnimCursor::restart() {
  time_ = 0;
  frame_ = 0;
  fired_ = -1;
  if (!clip_) return;
  key_.fill(0);  // the slots without a channel are never read
  for (int i = 0; i < clip_->slot_count; ++i) {
    const int slot = clip_->slots[i];
    key_[slot] = clip_->range(slot).first;
  }
}

void AnimCursor::step(uint32_t frame) {
  frame_ = frame;
  if (!clip_) return;
  const PlayClip& p = *clip_;
  for (int i = 0; i < p.slot_count; ++i) {
    const int slot = p.slots[i];
    const PlayClip::Range& r = p.range(slot);
    uint32_t& k = key_[slot];
    if (k < r.first || k >= r.first + r.count || p.starts[k] > frame) k = r.first;
    while (k + 1 < r.first + r.count && p.starts[k + 1] <= frame) ++k;
  }
}

// warriors.txt "When a clip ends": end = uint(D x 30 + 0.5); frame = uint((t + s) x 30 + 0.5);
// frame < end: step, add s, fire the events passed, return 0; otherwise change nothing and
// return (t + s) - (D - 1/60). The clock rounds toward zero (clock.cpp).
float AnimCursor::advance(float s, EventSink* sink) {
  if (!clip_) return 0;
  const ClockStep c = clock_try_step(time_, s, clip_->duration, clip_->frame_count);
  if (!c.reached_end) {
    step(c.frame);
    time_ = c.time;
    fire_events(static_cast<uint32_t>(fired_ + 1), c.frame, sink);
    return 0;
  }
  return c.overshoot;
}

void AnimCursor::fire_events(uint32_t from, uint32_t to, EventSink* sink) {
  if (static_cast<int64_t>(to) <= fired_) return;
  fired_ = to;
  if (!sink || (flags_ & kCursorMuted)) return;
  for (const AnimEvent& e : clip_->events) {
    if (e.frame >= from && e.frame <= to) sink->fire(*clip_, e);
  }
}

void AnimCursor::set_time(float time) {
  if (!clip_) return;
  time_ = time;
  uint32_t frame = clock_frame(time);
  if (clip_->frame_count > 0 && frame >= clip_->frame_count) frame = clip_->frame_count - 1;
  step(frame);
  fired_ = frame;  // a follower's passed events are not fired later
}

float AnimCursor::normalised_time() const {
  return clip_ && clip_->duration > 0 ? time_ / clip_->duration : 0.f;
}

uint64_t AnimCursor::sample(float rate, const SampleContext& ctx, WarPose& out) const {
  if (!clip_) {
    out = ctx.defaults ? *ctx.defaults : default_pose();
    return ctx.defaults ? ctx.defaults_untagged : 0;
  }
  return sample_channels(*clip_, key_.data(), time_ * 30.0f, rate, flags_, ctx, out);
}

void sample_clip(const PlayClip& clip, float frame, float rate, const SampleContext& ctx,
                 WarPose& out) {
  // The nearest whole frame, a tie going to the lower one.
  const float nearest = std::ceil(frame - 0.5f);
  const uint32_t n = nearest > 0 ? static_cast<uint32_t>(std::fmin(nearest, 4e9f)) : 0;
  std::array<uint32_t, AnimCursor::kSlots> keys{};
  keys[kVelocitySlot] = clip.velocity.count ? key_in_force(clip, clip.velocity, n) : 0;
  keys[kTranslationSlot] = clip.translation.count ? key_in_force(clip, clip.translation, n) : 0;
  for (int b = 0; b < kNumBones; ++b) {
    keys[b] = clip.bones[b].count ? key_in_force(clip, clip.bones[b], n) : 0;
  }
  sample_channels(clip, keys.data(), frame, rate, 0, ctx, out);
}

Quat evaluate_channel(const PlayClip& clip, const PlayClip::Range& range, float frame,
                      bool rotation, bool held) {
  if (range.count == 0) return Quat::identity();
  const float nearest = std::ceil(frame - 0.5f);
  const uint32_t n = nearest > 0 ? static_cast<uint32_t>(std::fmin(nearest, 4e9f)) : 0;
  const uint32_t k = key_in_force(clip, range, n);
  return held ? clip.values[k] : channel_value(clip, range, k, frame, rotation);
}

int clip_length_updates(float duration, float rate, float dt) {
  const ClipLength n = clip_length(duration, rate, dt);
  return n.end == ClipLength::End::kEnds ? n.updates : -1;
}

ClipLength clip_length(float duration, float rate, float dt, int cap) {
  ClipLength out;
  const float s = clock_step_size(dt, rate);
  const uint32_t end = clock_frame_count(duration);
  if (!(s > 0)) {
    // Nothing moves: the clip ends on update 1 only when its first step already reaches F.
    const ClockStep c = clock_try_step(0, 0, duration, end);
    if (!c.reached_end) {
      out.end = ClipLength::End::kRateZero;
      return out;
    }
  }
  // Far from the end, whole runs of steps are taken at once: inside one binade of the time
  // [2^e, 2^(e+1)) the float32 grid is a constant u and t is on it, so each toward-zero add
  // t + s gives exactly t + floor(s / u) u. Near the end (two frames and a relative margin)
  // and across binades the steps are taken one by one.
  const double safe_time = (static_cast<double>(end) * (1.0 - 1e-6) - 2.0) / 30.0;
  float t = 0;
  for (int k = 1; k <= cap; ++k) {
    if (t > 0 && t < safe_time) {
      const float u = std::nextafter(t, INFINITY) - t;
      const double inc = std::floor(static_cast<double>(s) / u) * u;
      if (inc == 0) {  // t + s == t: the frame never reaches F
        out.end = ClipLength::End::kTimeStalls;
        out.updates = k;
        out.stall_time = t;
        return out;
      }
      int ex = 0;
      std::frexp(t, &ex);  // t in [2^(ex-1), 2^ex)
      const double limit = std::min(std::ldexp(1.0, ex), safe_time);
      const double jumps = std::floor((limit - t) / inc) - 1;
      if (jumps >= 2) {
        const double n = std::min(jumps, static_cast<double>(cap - k));
        if (n >= 2) {
          t = static_cast<float>(t + n * inc);  // exact: a multiple of u inside the binade
          k += static_cast<int>(n) - 1;
          continue;
        }
      }
    }
    const ClockStep c = clock_try_step(t, s, duration, end);
    if (!c.reached_end) {
      if (c.time == t && k > 1) {  // t + s == t in float32: the frame never reaches F
        out.end = ClipLength::End::kTimeStalls;
        out.updates = k;
        out.stall_time = t;
        return out;
      }
      t = c.time;
      continue;
    }
    // An overshoot of exactly 0.0 reads as "not ended" and nothing moves: never ends.
    out.end = c.overshoot != 0.0f ? ClipLength::End::kEnds : ClipLength::End::kZeroOvershoot;
    out.updates = k;
    return out;
  }
  out.end = ClipLength::End::kCap;
  out.updates = cap;
  return out;
}

}  // namespace animkit::warriors
