#include "animkit/warriors/cursor.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>

#include "animkit/warriors/clock.h"
#include "animkit/warriors/quat_lanes.h"

namespace animkit::warriors {

namespace {
constexpr int kVelocitySlot = kNumBones;  // then kNumBones + 1, the translation
// A slot's value is the pose's value bit of the same number (PlayClip::value_mask).
static_assert(kVelocityBit == kVelocitySlot && kTranslationBit == kNumBones + 1);

PlayClip::Range append_channel(PlayClip& p, const Channel& c, bool rotation) {
  PlayClip::Range r{static_cast<uint32_t>(p.starts.size()), static_cast<uint32_t>(c.keys.size())};
  uint32_t frame = 0;
  for (size_t i = 0; i < c.keys.size(); ++i) {
    const Key& k = c.keys[i];
    if (i > 0) frame += k.delta;  // the first key's +0 is 0 (a channel's start)
    p.starts.push_back(frame);
    p.deltas.push_back(k.delta);
    p.key_times.push_back({static_cast<float>(frame), 0.f});
    if (i > 0) p.key_times[p.key_times.size() - 2].next_delta = static_cast<float>(k.delta);
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
// Always inlined, so each clone of the sampler (AVX2, baseline) has its own copy.
[[gnu::always_inline]] inline Quat channel_value(const PlayClip& p, const PlayClip::Range& r,
                                                 uint32_t k, float frame, bool rotation) {
  if (k + 1 >= r.first + r.count) return p.values[k];
  const float t = (frame - static_cast<float>(p.starts[k])) / static_cast<float>(p.deltas[k + 1]);
  const Quat& a = p.values[k];
  const Quat& b = p.values[k + 1];
  if (rotation) return lanes::nlerp(a, b, t);  // core nlerp's floats, four lanes at once
  const Vec3 v = lerp(Vec3{a.x, a.y, a.z}, Vec3{b.x, b.y, b.z}, t);
  return {v.x, v.y, v.z, 0};
}

#if defined(__SSE2__)
// A rotation channel's value (channel_value's rotation path) left in a register, from the
// clip's arrays (PlayClip::values, key_times) and the range's end: t is the same float, the
// key's start and the next key's delta converted once when the clip was made.
[[gnu::always_inline]] inline __m128 rotation_lanes(const Quat* values,
                                                    const PlayClip::KeyTime* times, uint32_t end,
                                                    uint32_t k, float frame) {
  if (k + 1 >= end) return lanes::load(values[k]);
  const float t = (frame - times[k].start) / times[k].next_delta;
  return lanes::nlerp_lanes(lanes::load(values[k]), lanes::load(values[k + 1]), t);
}
// Four rotation channels' values at once (slots i .. i + 3 of the sampler), stored untagged:
// SoA, a register holds one component of the four channels, and each lane does
// rotation_lanes' operations in its order (its dots added ((x + y) + z) + w as lanes::dot, core
// nlerp's sign test, normalize's test, 1 / sqrt and product), so every lane gives the float the
// one-channel path gives. A held lane (its last key in force) keeps its key as rotation_lanes
// does; its b is the key itself and its divisor 1 (a lane's result there is not used).
[[gnu::always_inline]] inline void store_rotations_x4(const Quat* values,
                                                      const PlayClip::KeyTime* times,
                                                      const uint32_t* ends, const uint32_t* keys,
                                                      float frame, const uint8_t* bones,
                                                      WarPose& out) {
  const __m128i bias = _mm_set1_epi32(INT32_MIN);  // unsigned k + 1 < end by a signed compare
  const __m128i kv = _mm_loadu_si128(reinterpret_cast<const __m128i*>(keys));
  const __m128i ev = _mm_loadu_si128(reinterpret_cast<const __m128i*>(ends));
  const __m128i moving_i = _mm_cmpgt_epi32(_mm_xor_si128(ev, bias),
                                           _mm_xor_si128(_mm_add_epi32(kv, _mm_set1_epi32(1)), bias));
  alignas(16) uint32_t kb[4];
  _mm_store_si128(reinterpret_cast<__m128i*>(kb), _mm_sub_epi32(kv, moving_i));  // k + moving
  const __m128 moving = _mm_castsi128_ps(moving_i);
  __m128 ax = lanes::load(values[keys[0]]), ay = lanes::load(values[keys[1]]),
         az = lanes::load(values[keys[2]]), aw = lanes::load(values[keys[3]]);
  _MM_TRANSPOSE4_PS(ax, ay, az, aw);
  __m128 bx = lanes::load(values[kb[0]]), by = lanes::load(values[kb[1]]),
         bz = lanes::load(values[kb[2]]), bw = lanes::load(values[kb[3]]);
  _MM_TRANSPOSE4_PS(bx, by, bz, bw);
  const auto pair = [times](uint32_t k0, uint32_t k1) {  // [start0 delta0 start1 delta1]
    return _mm_loadh_pi(_mm_castpd_ps(_mm_load_sd(reinterpret_cast<const double*>(&times[k0]))),
                        reinterpret_cast<const __m64*>(&times[k1]));
  };
  const __m128 t01 = pair(keys[0], keys[1]), t23 = pair(keys[2], keys[3]);
  const __m128 one = _mm_set1_ps(1.f);
  const __m128 start = _mm_shuffle_ps(t01, t23, _MM_SHUFFLE(2, 0, 2, 0));
  const __m128 delta = _mm_or_ps(_mm_and_ps(moving, _mm_shuffle_ps(t01, t23, _MM_SHUFFLE(3, 1, 3, 1))),
                                 _mm_andnot_ps(moving, one));
  const __m128 t = _mm_div_ps(_mm_sub_ps(_mm_set1_ps(frame), start), delta);
  const auto mul = [](__m128 x, __m128 y) { return _mm_mul_ps(x, y); };
  const auto add = [](__m128 x, __m128 y) { return _mm_add_ps(x, y); };
  // core nlerp: s = dot(a, b) < 0 ? -t : t; a (1 - t) + b s; normalize.
  const __m128 d = add(add(add(mul(ax, bx), mul(ay, by)), mul(az, bz)), mul(aw, bw));
  const __m128 s = _mm_xor_ps(t, _mm_and_ps(_mm_cmplt_ps(d, _mm_setzero_ps()), _mm_set1_ps(-0.f)));
  const __m128 wa = _mm_sub_ps(one, t);
  const __m128 qx = add(mul(ax, wa), mul(bx, s)), qy = add(mul(ay, wa), mul(by, s)),
               qz = add(mul(az, wa), mul(bz, s)), qw = add(mul(aw, wa), mul(bw, s));
  const __m128 n2 = add(add(add(mul(qx, qx), mul(qy, qy)), mul(qz, qz)), mul(qw, qw));
  const __m128 ok = _mm_and_ps(_mm_cmpgt_ps(n2, _mm_setzero_ps()),
                               _mm_cmplt_ps(n2, _mm_set1_ps(INFINITY)));
  const __m128 inv = _mm_div_ps(one, _mm_sqrt_ps(n2));
  // Normalised where ok, else the identity (0, 0, 0, 1); a held lane keeps a.
  const auto pick = [moving, ok, one](__m128 v, __m128 a, bool w) {
    __m128 r = _mm_and_ps(ok, v);
    if (w) r = _mm_or_ps(r, _mm_andnot_ps(ok, one));
    return _mm_or_ps(_mm_and_ps(moving, r), _mm_andnot_ps(moving, a));
  };
  __m128 rx = pick(mul(qx, inv), ax, false), ry = pick(mul(qy, inv), ay, false),
         rz = pick(mul(qz, inv), az, false), rw = pick(mul(qw, inv), aw, true);
  ry = _mm_and_ps(ry, _mm_castsi128_ps(_mm_set1_epi32(~1)));  // the tag cleared (store_untagged)
  _MM_TRANSPOSE4_PS(rx, ry, rz, rw);
  _mm_storeu_ps(&out.rotations[bones[0]].x, rx);
  _mm_storeu_ps(&out.rotations[bones[1]].x, ry);
  _mm_storeu_ps(&out.rotations[bones[2]].x, rz);
  _mm_storeu_ps(&out.rotations[bones[3]].x, rw);
}
// A position channel's value (channel_value's position path: core lerp, a + (b - a) t in each
// lane, w 0) in a register.
[[gnu::always_inline]] inline __m128 position_lanes(const Quat* values,
                                                    const PlayClip::KeyTime* times, uint32_t end,
                                                    uint32_t k, float frame) {
  const __m128 a = lanes::load(values[k]);
  if (k + 1 >= end) return a;
  const float t = (frame - times[k].start) / times[k].next_delta;
  return _mm_add_ps(a, _mm_mul_ps(_mm_sub_ps(lanes::load(values[k + 1]), a), _mm_set1_ps(t)));
}
// x, y, z stored with the tag cleared (the lowest bit of the y word).
inline void store_untagged(Vec3& v, __m128 x) {
  x = _mm_and_ps(x, _mm_castsi128_ps(_mm_setr_epi32(-1, ~1, -1, -1)));
  _mm_storel_pi(reinterpret_cast<__m64*>(&v.x), x);
  _mm_store_ss(&v.z, _mm_movehl_ps(x, x));
}
// The same with z + add_z (always added: -0 + +0 is +0).
inline void store_untagged(Vec3& v, __m128 x, float add_z) {
  x = _mm_and_ps(x, _mm_castsi128_ps(_mm_setr_epi32(-1, ~1, -1, -1)));
  _mm_storel_pi(reinterpret_cast<__m64*>(&v.x), x);
  _mm_store_ss(&v.z, _mm_add_ss(_mm_movehl_ps(x, x), _mm_set_ss(add_z)));
}
#endif

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

// Out of line, so the sampler keeps no pose-sized temporary (and its stack realignment).
[[gnu::noinline, gnu::cold]] void fill_default_pose(WarPose& out) { out = default_pose(); }

}  // namespace

// Compiled for AVX2 too (ANIMKIT_WARRIORS_AVX2_CLONE, quat_lanes.h).
ANIMKIT_WARRIORS_AVX2_CLONE uint64_t sample_keys(const PlayClip& p, const uint32_t* keys,
                                                 float frame, float rate, uint16_t flags,
                                                 const SampleContext& ctx, WarPose& out,
                                                 uint64_t differs) {
  uint64_t written = p.value_mask;
  if (flags & kCursorNoTurn) written &= ~uint64_t{1};
  if (flags & kCursorNoVelocity) written &= ~(uint64_t{1} << kVelocityBit);
  if (!ctx.defaults) {
    fill_default_pose(out);
  } else if (const uint64_t back = differs & ~written; std::popcount(back) > 8) {
    out = *ctx.defaults;  // a few values are put back one by one, many by the whole copy
  } else {
    const WarPose& d = *ctx.defaults;
    if (back >> kVelocityBit & 1) out.root_velocity = d.root_velocity;
    if (back >> kTranslationBit & 1) out.root_translation = d.root_translation;
    for (uint64_t m = back & ((uint64_t{1} << kNumBones) - 1); m != 0; m &= m - 1) {
      const int b = std::countr_zero(m);
      out.rotations[b] = d.rotations[b];
    }
  }
  // The slots in bone order, velocity and translation last; each writes its own value. The
  // clip's arrays are read through locals: the stores to `out` (may_alias vectors) would
  // otherwise make them be read again for every channel.
  const Quat* values = p.values.data();
  const PlayClip::KeyTime* times = p.key_times.data();
  const int slot_count = p.slot_count;
  int first = 0;
#if defined(__SSE2__)
  // The first four slots at once when they are four body bones' rotations: the slots rise, so
  // slot 0 above 0 and slot 3 below kNumBones make slots 0-3 body bones (a clip with bone 0's
  // channel takes the loop alone). The loop then goes on from slot 4.
  if (slot_count >= 4 && p.slots[0] > 0 && p.slots[3] < kNumBones) {
    store_rotations_x4(values, times, p.slot_ends.data(), keys, frame, p.slots.data(), out);
    first = 4;
  }
#endif
  for (int i = first; i < slot_count; ++i) {
    const int b = p.slots[i];
    [[maybe_unused]] const PlayClip::Range& r = p.slot_ranges[i];
    if (b > 0 && b < kNumBones) {
#if defined(__SSE2__)
      lanes::store_untagged(out.rotations[b],
                            rotation_lanes(values, times, p.slot_ends[i], keys[i], frame));
#else
      out.rotations[b] = tagged(channel_value(p, r, keys[i], frame, true), false);
#endif
    } else if (b == 0) {
      if (flags & kCursorNoTurn) continue;
      out.rotations[0] = tagged(scaled_turn(p.values[keys[i]], rate), false);
    } else if (b == kVelocitySlot) {
      if (flags & kCursorNoVelocity) continue;
#if defined(__SSE2__)
      // Vec3 * rate, each lane (vmulx at 0x00104e68).
      store_untagged(out.root_velocity, _mm_mul_ps(position_lanes(values, times, p.slot_ends[i],
                                                                  keys[i], frame),
                                                   _mm_set1_ps(rate)));
#else
      const Quat v = channel_value(p, r, keys[i], frame, false);
      out.root_velocity = tagged(Vec3{v.x, v.y, v.z} * rate, false);  // vmulx at 0x00104e68
#endif
    } else {
#if defined(__SSE2__)
      store_untagged(out.root_translation,
                     position_lanes(values, times, p.slot_ends[i], keys[i], frame),
                     ctx.bind_height);
#else
      const Quat v = channel_value(p, r, keys[i], frame, false);
      out.root_translation = tagged(Vec3{v.x, v.y, v.z + ctx.bind_height}, false);
#endif
    }
  }
  return (ctx.defaults ? ctx.defaults_untagged : 0) | written;
}
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
  for (const AnimEvent& e : p.events) p.first_event_frame = std::min<uint32_t>(p.first_event_frame, e.frame);
  for (int slot = 0; slot < AnimCursor::kSlots; ++slot) {
    const PlayClip::Range& r = p.range(slot);
    if (r.count == 0) continue;
    p.slot_ranges[p.slot_count] = r;
    p.slot_ends[p.slot_count] = r.first + r.count;
    p.slots[p.slot_count++] = static_cast<uint8_t>(slot);
    p.value_mask |= uint64_t{1} << slot;  // slot s is value bit s
    if (r.count > 1) p.first_change = std::min(p.first_change, p.starts[r.first + 1]);
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
  next_event_ = clip_->first_event_frame;  // every event lies after frame -1
  for (int i = 0; i < clip_->slot_count; ++i) key_[i] = clip_->slot_ranges[i].first;
  window_lo_ = 0;  // a channel's first key starts at frame 0
  window_hi_ = clip_->first_change;
}

void AnimCursor::step(uint32_t frame) {
  frame_ = frame;
  if (!clip_) return;
  if (frame >= window_lo_ && frame < window_hi_) return;  // no channel's key changes
  const PlayClip& p = *clip_;
  uint32_t lo = 0, hi = UINT32_MAX;
  for (int i = 0; i < p.slot_count; ++i) {
    const PlayClip::Range& r = p.slot_ranges[i];
    const uint32_t end = r.first + r.count;
    uint32_t k = key_[i];
    if (k < r.first || k >= end || p.starts[k] > frame) k = r.first;
    while (k + 1 < end && p.starts[k + 1] <= frame) ++k;
    key_[i] = k;
    lo = std::max(lo, p.starts[k]);
    if (k + 1 < end) hi = std::min(hi, p.starts[k + 1]);
  }
  window_lo_ = lo;
  window_hi_ = hi;
}

// warriors.txt "When a clip ends": end = uint(D x 30 + 0.5); frame = uint((t + s) x 30 + 0.5);
// frame < end: step, add s, fire the events passed, return 0; otherwise change nothing and
// return (t + s) - (D - 1/60). The clock rounds toward zero (clock.cpp).
float AnimCursor::advance(float s, EventSink* sink) {
  if (!clip_) return 0;
  // clock_try_step's arithmetic, its round-to-nearest path inline (clock.h).
  float ts;
  uint32_t frame;
  if (clock_detail::rounds_to_nearest()) {
    ts = clock_detail::add(time_, s);
    frame = clock_detail::frame(ts);
  } else {
    ts = clock_add(time_, s);
    frame = clock_frame(ts);
  }
  if (frame >= clip_->frame_count) return clock_overshoot(ts, clip_->duration);
  if (frame >= window_lo_ && frame < window_hi_) {
    frame_ = frame;  // step()'s first test, without the call
  } else {
    step(frame);
  }
  time_ = ts;
  // fire_events' checks first, here: most steps pass no event frame (next_event_).
  if (static_cast<int64_t>(frame) > fired_) {
    if (frame < next_event_) {
      fired_ = frame;
    } else {
      fire_events(static_cast<uint32_t>(fired_ + 1), frame, sink);
    }
  }
  return 0;
}

// The events at frames [from, to] fire in the clip's order (from = fired_ + 1). Below
// next_event_ there is none, so a step that stays below it only moves fired_ on (next_event_
// stays a bound: the events after `to` are among those after the old fired_).
void AnimCursor::fire_events(uint32_t from, uint32_t to, EventSink* sink) {
  if (static_cast<int64_t>(to) <= fired_) return;
  fired_ = to;
  if (to < next_event_) return;
  const bool fire = sink && !(flags_ & kCursorMuted);
  uint32_t next = UINT32_MAX;
  for (const AnimEvent& e : clip_->events) {
    if (e.frame > to) {
      next = std::min<uint32_t>(next, e.frame);
    } else if (fire && e.frame >= from) {
      sink->fire(*clip_, e);
    }
  }
  next_event_ = next;
}

void AnimCursor::set_time(float time) {
  if (!clip_) return;
  time_ = time;
  uint32_t frame = clock_frame(time);
  if (clip_->frame_count > 0 && frame >= clip_->frame_count) frame = clip_->frame_count - 1;
  step(frame);
  fired_ = frame;  // a follower's passed events are not fired later
  next_event_ = 0;  // not known: the next step looks at the events
}

float AnimCursor::normalised_time() const {
  return clip_ && clip_->duration > 0 ? time_ / clip_->duration : 0.f;
}

uint64_t AnimCursor::sample(float rate, const SampleContext& ctx, WarPose& out) const {
  if (!clip_) {
    out = ctx.defaults ? *ctx.defaults : default_pose();
    return ctx.defaults ? ctx.defaults_untagged : 0;
  }
  return sample_keys(*clip_, key_.data(), time_ * 30.0f, rate, flags_, ctx, out);
}


void sample_clip(const PlayClip& clip, float frame, float rate, const SampleContext& ctx,
                 WarPose& out) {
  // The nearest whole frame, a tie going to the lower one.
  const float nearest = std::ceil(frame - 0.5f);
  const uint32_t n = nearest > 0 ? static_cast<uint32_t>(std::fmin(nearest, 4e9f)) : 0;
  std::array<uint32_t, AnimCursor::kSlots> keys{};
  for (int i = 0; i < clip.slot_count; ++i) keys[i] = key_in_force(clip, clip.slot_ranges[i], n);
  sample_keys(clip, keys.data(), frame, rate, 0, ctx, out);
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
