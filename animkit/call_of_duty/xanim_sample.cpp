#include "animkit/call_of_duty/xanim_sample.h"

#include <algorithm>
#include <cmath>

namespace animkit::call_of_duty {

namespace {

// §2.2: the scale of an int16 lane, weight x 3.0518509447574615e-05f at weight 1.
constexpr float kLaneScale = 1.0f * 3.0518509447574615e-05f;

// a + (b - a) x frac, the difference taken as an integer (§2.1).
float lerp_lane(int16_t a, int16_t b, float frac) {
  const float diff = static_cast<float>(static_cast<int32_t>(b) - static_cast<int32_t>(a));
  return static_cast<float>(a) + diff * frac;
}

float lerp(float a, float b, float frac) { return a + (b - a) * frac; }

}  // namespace

XAnimFrame xanim_frame(float t, uint16_t n, XAnimPlatform platform) {
  XAnimFrame at;
  if (t == 1.0f || n == 0) {
    at.last = true;
    return at;
  }
  at.ft = t * static_cast<float>(n);
  const double product =
      platform == XAnimPlatform::kWindows ? static_cast<double>(t) * n : static_cast<double>(at.ft);
  // Times outside [0, 1) are not the game's; clamp so no key outside the stream is read.
  at.f = static_cast<uint32_t>(std::clamp(std::trunc(product), 0.0, static_cast<double>(n)));
  return at;
}

XAnimKeySpan xanim_span(const XAnimFrame& at, uint16_t k, const std::vector<uint16_t>& frames) {
  XAnimKeySpan s;
  if (k <= 1) return s;
  if (at.last) {
    s.first = s.second = k - 1u;
    return s;
  }
  if (frames.empty()) {
    // Dense: key f and f + 1. f = N (a product that rounded up to N) is the last key.
    if (at.f + 1 >= k) {
      s.first = s.second = k - 1u;
      return s;
    }
    s.first = at.f;
    s.second = at.f + 1;
    s.frac = at.ft - static_cast<float>(at.f);
    return s;
  }
  // Sparse: i with idx[i] <= f < idx[i+1]. With valid indices the game's bisection from
  // trunc((K-1) t) finds the same unique i; a search by halves finds it here (README Choices).
  const auto it = std::upper_bound(frames.begin(), frames.end(), at.f);
  uint32_t i = it == frames.begin() ? 0u : static_cast<uint32_t>(it - frames.begin()) - 1u;
  if (i + 1 >= k) {
    s.first = s.second = k - 1u;
    return s;
  }
  s.first = i;
  s.second = i + 1;
  const float span = static_cast<float>(frames[i + 1]) - static_cast<float>(frames[i]);
  s.frac = span > 0 ? (at.ft - static_cast<float>(frames[i])) / span : 0.0f;
  return s;
}

Quat XAnimPartPose::rotation() const {
  const float len =
      std::sqrt(lanes.x * lanes.x + lanes.y * lanes.y + lanes.z * lanes.z + lanes.w * lanes.w);
  if (!(len > 0)) return Quat::identity();
  return {lanes.x / len, lanes.y / len, lanes.z / len, lanes.w / len};
}

XAnimPartPose sample_part(const XAnimPart& part, const XAnimFrame& at) {
  XAnimPartPose p;
  p.lanes = {0, 0, 0, 0};
  const XAnimRotationStream& r = part.rotation;
  if (r.key_count == 0) {
    // A compressed part without keys adds its weight to w; an uncompressed one reads a stream
    // that is not there (undefined in the game: identity here).
    p.lanes.w = 1.0f;
    p.undefined = !r.two_component;
  } else {
    p.has_rotation = true;
    const XAnimKeySpan s = xanim_span(at, r.key_count, r.frames);
    const XAnimQuatKey& a = r.keys[s.first];
    const XAnimQuatKey& b = r.keys[s.second];
    // A 2-component stream writes lanes z and w only.
    if (!r.two_component) {
      p.lanes.x = lerp_lane(a[0], b[0], s.frac) * kLaneScale;
      p.lanes.y = lerp_lane(a[1], b[1], s.frac) * kLaneScale;
    }
    p.lanes.z = lerp_lane(a[2], b[2], s.frac) * kLaneScale;
    p.lanes.w = lerp_lane(a[3], b[3], s.frac) * kLaneScale;
  }
  const XAnimTranslationStream& t = part.translation;
  if (t.key_count > 0) {
    p.has_translation = true;
    const XAnimKeySpan s = xanim_span(at, t.key_count, t.frames);
    const Vec3& a = t.values[s.first];
    const Vec3& b = t.values[s.second];
    p.translation = {lerp(a.x, b.x, s.frac), lerp(a.y, b.y, s.frac), lerp(a.z, b.z, s.frac)};
  }
  return p;
}

XAnimDeltaSample sample_delta(const XAnimFile& f, const XAnimFrame& at) {
  XAnimDeltaSample d;
  if (!f.has_delta) return d;
  const XAnimRotationStream& r = f.delta_rotation;
  if (r.key_count > 0) {
    const XAnimKeySpan s = xanim_span(at, r.key_count, r.frames);
    d.z = lerp_lane(r.keys[s.first][2], r.keys[s.second][2], s.frac);
    d.w = lerp_lane(r.keys[s.first][3], r.keys[s.second][3], s.frac);
  }
  const XAnimTranslationStream& t = f.delta_translation;
  if (t.key_count > 0) {
    const XAnimKeySpan s = xanim_span(at, t.key_count, t.frames);
    const Vec3& a = t.values[s.first];
    const Vec3& b = t.values[s.second];
    d.translation = {lerp(a.x, b.x, s.frac), lerp(a.y, b.y, s.frac), lerp(a.z, b.z, s.frac)};
  }
  return d;
}

std::vector<XAnimTimedNote> xanim_notes(const XAnimFile& f) {
  std::vector<XAnimTimedNote> out;
  const uint16_t n = f.frame_count_minus_one();
  for (const XAnimNote& note : f.notes) out.push_back({note.name, note.time(n), note.frame});
  out.push_back({"end", 1.0f, -1});
  return out;
}

size_t xanim_next_note(const std::vector<XAnimTimedNote>& notes, float from) {
  const size_t n = notes.size();
  size_t next = n - 1;
  for (size_t i = 0; i < n; ++i) {
    if (notes[i].time >= from && notes[i].time < notes[next].time) next = i;
  }
  for (size_t i = 0; i < n; ++i) {
    if (notes[i].time == notes[next].time && notes[i].time >= from) return i;
  }
  return next;
}

std::vector<size_t> xanim_fired_notes(const std::vector<XAnimTimedNote>& notes, float from,
                                      float to, bool looped) {
  std::vector<size_t> fired;
  const size_t n = notes.size();
  if (n == 0) return fired;
  // "When S = 1.0, only `end` fires."
  if (from == 1.0f) return {n - 1};
  const size_t next = xanim_next_note(notes, from);
  auto through_end = [&](size_t i) {
    for (; i < n; ++i) fired.push_back(i);
  };
  auto while_before = [&](size_t i, float limit) {
    for (; i < n && notes[i].time < limit; ++i) fired.push_back(i);
  };
  if (to == 1.0f && !looped) {
    through_end(next);  // the non-looped end: every remaining entry through `end`
  } else if (!looped || to >= from) {
    while_before(next, to);  // S <= tau < C, walking the stored order from the next note
  } else if (notes[next].time < to) {
    while_before(next, to);
  } else if (notes[next].time >= from) {
    through_end(next);  // the wrap: through `end`, then from entry 0 while tau < C
    while_before(0, to);
  }
  return fired;
}

}  // namespace animkit::call_of_duty
