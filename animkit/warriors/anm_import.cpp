#include "animkit/warriors/anm_import.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <map>
#include <set>

#include "animkit/core/joint_match.h"
#include "animkit/core/json_text.h"
#include "animkit/core/limits.h"
#include "animkit/core/rotation_angle.h"
#include "animkit/core/sampling_job.h"
#include "animkit/warriors/builder.h"
#include "animkit/warriors/character.h"
#include "animkit/warriors/clock.h"
#include "animkit/warriors/cursor.h"
#include "animkit/warriors/document.h"
#include "animkit/warriors/pose.h"
#include "animkit/warriors/rebuild.h"

namespace animkit::warriors {

namespace {

constexpr int kMaxDelta = 255;        // a key's +0 is a u8 (warriors.txt, "Keyframes")
constexpr int kFramesPastEnd = 4096;  // whole-frame keys kept past F (never shown; a bound)
constexpr float kWholeFrame = 1e-3f;  // a key time this close to a whole frame is on it
// A track this close to the rest is "at rest" (README: a channel the template leaves out stays
// out).
constexpr float kRestRotation = 1e-4f;     // radians
constexpr float kRestTranslation = 1e-5f;  // metres

// True when `f` (frames) is on a whole frame: within 1e-3, plus the float32 spacing of f / 30 s
// times 30 for long clips.
bool on_whole_frame(float f) {
  return std::fabs(f - std::round(f)) <= kWholeFrame + std::fabs(f) * 1e-6f;
}

// The rotation error: the core's rotation_angle, the real angle (issue 32, item 4: this measured
// the angle between the quaternions as 4-vectors, half the rotation, for --tolerance and
// max_error alike).
float rotation_error(Quat a, Quat b) { return static_cast<float>(rotation_angle(a, b)); }
float position_error(Vec3 a, Vec3 b) { return length(a - b); }

// warriors.txt "Decoding", inverted: w >= 0 by flipping the quaternion's sign, x, y, z x 2^15
// rounded. Of the eight roundings (each component down or up) the one whose decoded quaternion (w
// rebuilt) is nearest the target is taken, nearest-rounding on a tie; a rounding whose
// x^2 + y^2 + z^2 exceeds 1 (w could not be rebuilt) is never taken. Rounding each component to
// nearest alone is off by up to 2e-3 rad where w is small, since the rebuilt w amplifies it.
Key rotation_key(Quat q) {
  q = normalize(q);
  if (q.w < 0) q = -q;
  const float v[3] = {q.x * 32768.f, q.y * 32768.f, q.z * 32768.f};
  const auto fits = [](int x, int y, int z) {
    return int64_t{x} * x + int64_t{y} * y + int64_t{z} * z <= int64_t{32768} * 32768;
  };
  const auto clamp = [](float f) { return static_cast<int>(std::clamp(f, -32768.f, 32767.f)); };
  int best[3] = {encode_rotation_component(q.x), encode_rotation_component(q.y),
                 encode_rotation_component(q.z)};
  float best_error = fits(best[0], best[1], best[2])
                         ? rotation_error(decode_rotation(best[0], best[1], best[2]), q)
                         : INFINITY;
  for (int m = 0; m < 8; ++m) {
    int c[3];
    for (int a = 0; a < 3; ++a) c[a] = clamp(m >> a & 1 ? std::ceil(v[a]) : std::floor(v[a]));
    if (!fits(c[0], c[1], c[2])) continue;
    const float e = rotation_error(decode_rotation(c[0], c[1], c[2]), q);
    if (e < best_error) {
      best_error = e;
      std::copy(c, c + 3, best);
    }
  }
  // Nothing fits only when every rounding overshoots the unit sphere: step the largest toward 0.
  while (!fits(best[0], best[1], best[2])) {
    int* c = &best[0];
    for (int a = 1; a < 3; ++a) {
      if (std::abs(best[a]) > std::abs(*c)) c = &best[a];
    }
    *c += *c > 0 ? -1 : 1;
  }
  return {0, 0, static_cast<int16_t>(best[0]), static_cast<int16_t>(best[1]),
          static_cast<int16_t>(best[2])};
}

// Positions: x / 1023, y / 1023, z / 2047 (warriors.txt "Decoding"), range-checked.
Key position_key(Vec3 v, const std::string& what, int frame) {
  const float c[3] = {v.x, v.y, v.z};
  for (int a = 0; a < 3; ++a) {
    const float scaled = c[a] * (a == 2 ? 2047.f : 1023.f);
    if (!(std::fabs(std::round(scaled)) <= 32767.f)) {
      throw Error(fmt::format(
          "{} at frame {}: {} = {} m is beyond the range the .anm stores "
          "(s16 / {}, +-{:.3f} m)",
          what, frame, "xyz"[a], c[a], a == 2 ? 2047 : 1023, 32767.0 / (a == 2 ? 2047 : 1023)));
    }
  }
  return {0, 0, encode_position(v.x, 0), encode_position(v.y, 1), encode_position(v.z, 2)};
}

Vec3 as_vec(Quat q) { return {q.x, q.y, q.z}; }

// One channel to write: its candidate key frames, the glTF's value at each whole frame, and the
// quantised keys.
struct ChannelPlan {
  bool rotation = true;
  std::vector<int> frames;    // candidate key frames, ascending, the first 0
  std::vector<Key> keys;      // quantised, one per candidate
  std::vector<Quat> decoded;  // decode(keys) (positions in x, y, z)
};

// The glTF's value at a whole frame.
template <class T>
T sample_track(const Track<T>& t, int frame) {
  const float time = static_cast<float>(frame) / 30.f;
  return evaluate(t, time, find_key(t.times, time, 0));
}

// Candidate key frames of a glTF track (README, "Import from glTF"): without reduction its own key
// times when every one is on a whole 30 Hz frame (an export's keys) and it interpolates linearly,
// else every whole frame up to its last key (at most F). Frame 0 is always a key; gaps over 255
// frames get keys in between.
template <class T>
std::vector<std::pair<int, T>> candidate_keys(const Track<T>& t, int frame_count,
                                              bool every_frame) {
  std::vector<std::pair<int, T>> out;
  // Between its keys the engine lerps / nlerps: a STEP or CUBICSPLINE track is sampled instead,
  // and so is every track when reducing (glTF slerps where the engine nlerps).
  bool whole = !every_frame && t.interpolation != Interpolation::kStep &&
               t.interpolation != Interpolation::kHermite;
  for (float time : t.times) {
    const float f = time * 30.f;
    if (!on_whole_frame(f) || f < -kWholeFrame) whole = false;
  }
  if (whole) {
    for (size_t i = 0; i < t.times.size(); ++i) {
      const int f = static_cast<int>(std::lround(t.times[i] * 30.f));
      if (f > frame_count + kFramesPastEnd) break;
      if (!out.empty() && out.back().first == f) {
        out.back().second = t.values[i];  // two keys on one frame: the later holds from there
        continue;
      }
      if (out.empty() && f != 0) out.emplace_back(0, sample_track(t, 0));
      while (!out.empty() && f - out.back().first > kMaxDelta) {
        const int mid = out.back().first + kMaxDelta;
        out.emplace_back(mid, sample_track(t, mid));
      }
      out.emplace_back(f, t.values[i]);
    }
  } else {
    const float last = t.times.empty() ? 0.f : t.times.back() * 30.f;
    const int end =
        std::clamp(static_cast<int>(std::ceil(last - kWholeFrame)), 0, std::max(frame_count, 0));
    for (int f = 0; f <= end; ++f) out.emplace_back(f, sample_track(t, f));
  }
  return out;
}

Quat interpolate(const Quat& a, const Quat& b, float t, bool rotation) {
  if (rotation) return nlerp(a, b, t);
  const Vec3 v = lerp(as_vec(a), as_vec(b), t);
  return {v.x, v.y, v.z, 0};
}

// The engine's value at whole frame f from keys i < j (warriors.txt "Playing a clip": t = (frame
// - key start) / next key's delta; lerp positions, nlerp rotations).
Quat engine_between(const ChannelPlan& p, size_t i, size_t j, int f) {
  const float t =
      static_cast<float>(f - p.frames[i]) / static_cast<float>(p.frames[j] - p.frames[i]);
  return interpolate(p.decoded[i], p.decoded[j], t, p.rotation);
}

// The engine's value of a plan's keys at whole frame f: the key in force, carried toward the next
// (the last key held), as the sampler does at whole frames.
Quat plan_value(const ChannelPlan& p, int f) {
  size_t i = 0;
  while (i + 1 < p.frames.size() && p.frames[i + 1] <= f) ++i;
  if (i + 1 >= p.frames.size() || f <= p.frames[i]) return p.decoded[i];
  return engine_between(p, i, i + 1, f);
}

// A template channel as a plan (its keys' frames and decoded values).
ChannelPlan plan_of_channel(const Channel& c, bool rotation) {
  ChannelPlan p;
  p.rotation = rotation;
  int frame = 0;
  for (size_t i = 0; i < c.keys.size(); ++i) {
    if (i > 0) frame += c.keys[i].delta;
    p.frames.push_back(frame);
    p.keys.push_back(c.keys[i]);
    p.decoded.push_back(rotation
                            ? decode_rotation(c.keys[i])
                            : Quat{decode_position(c.keys[i].x, 0), decode_position(c.keys[i].y, 1),
                                   decode_position(c.keys[i].z, 2), 0});
  }
  return p;
}

// The error of a value against the glTF at frame f (radians or metres).
template <class Truth>
float frame_error(bool rotation, Quat v, int f, Truth& truth) {
  const Quat g = truth(f);
  return rotation ? rotation_error(v, g) : position_error(as_vec(v), as_vec(g));
}

// Key reduction (README): greedy from each kept key, the farthest next candidate such that every
// whole frame between them stays within the tolerance of the glTF (or within `base`, the error
// that frame has with every candidate kept, when quantisation alone exceeds the tolerance). The
// last key is dropped as well when holding the key before it stays within the same bound.
template <class Truth>
std::vector<size_t> reduce(const ChannelPlan& p, float tolerance, const std::vector<float>& base,
                           Truth truth) {
  const size_t n = p.frames.size();
  std::vector<size_t> kept{0};
  if (n <= 1) return kept;
  const auto bound = [&](int f) { return std::max(tolerance, base[f]); };
  const auto within = [&](size_t i, size_t j) {
    for (int f = p.frames[i] + 1; f < p.frames[j]; ++f) {
      if (frame_error(p.rotation, engine_between(p, i, j, f), f, truth) > bound(f)) return false;
    }
    return true;
  };
  size_t i = 0;
  while (i + 1 < n) {
    size_t best = i + 1;
    for (size_t j = i + 2; j < n && p.frames[j] - p.frames[i] <= kMaxDelta; ++j) {
      if (!within(i, j)) break;
      best = j;
    }
    kept.push_back(best);
    i = best;
  }
  // The last key: the key before it held from there on.
  if (kept.size() >= 2) {
    const size_t prev = kept[kept.size() - 2];
    bool hold = true;
    for (int f = p.frames[prev] + 1; f < static_cast<int>(base.size()) && hold; ++f) {
      if (frame_error(p.rotation, p.decoded[prev], f, truth) > bound(f)) hold = false;
    }
    if (hold) kept.pop_back();
  }
  return kept;
}

// One channel written from a glTF track's candidate keys (README, "Key frames", "--tolerance"):
// the template's channel for it, as it is, when it is as close to the glTF at every frame as the
// candidates are (or within the tolerance); else the candidates, reduced when T > 0.
struct WrittenChannel {
  Channel channel;
  Json report;
};
template <class Truth>
WrittenChannel write_channel(const ChannelPlan& p, int frame_count, float tolerance,
                             const Channel* from_template, Truth truth) {
  const int last = std::max(frame_count - 1, p.frames.back());
  std::vector<float> base(static_cast<size_t>(last) + 1);
  for (int f = 0; f <= last; ++f) base[f] = frame_error(p.rotation, plan_value(p, f), f, truth);
  WrittenChannel out;
  if (from_template && !from_template->keys.empty()) {
    const ChannelPlan tp = plan_of_channel(*from_template, p.rotation);
    bool fits = true;
    for (int f = 0; f <= last && fits; ++f) {
      fits = frame_error(p.rotation, plan_value(tp, f), f, truth) <= std::max(tolerance, base[f]);
    }
    if (fits) {
      out.channel = *from_template;
      out.report = {{"candidates", p.frames.size()},
                    {"written", from_template->keys.size()},
                    {"template", true}};
      return out;
    }
  }
  std::vector<size_t> kept(p.frames.size());
  for (size_t i = 0; i < kept.size(); ++i) kept[i] = i;
  if (tolerance > 0) kept = reduce(p, tolerance, base, truth);
  // Byte +1 from the template's key on the same frame (not read by the sampler; kept).
  std::map<int, uint8_t> byte1;
  if (from_template) {
    int frame = 0;
    for (size_t i = 0; i < from_template->keys.size(); ++i) {
      if (i > 0) frame += from_template->keys[i].delta;
      byte1.emplace(frame, from_template->keys[i].unknown);
    }
  }
  int prev = 0;
  for (size_t k = 0; k < kept.size(); ++k) {
    Key key = p.keys[kept[k]];
    const int f = p.frames[kept[k]];
    key.delta = static_cast<uint8_t>(k == 0 ? 0 : f - prev);
    if (auto it = byte1.find(f); it != byte1.end()) key.unknown = it->second;
    prev = f;
    out.channel.keys.push_back(key);
  }
  out.report = {{"candidates", p.frames.size()}, {"written", kept.size()}, {"template", false}};
  return out;
}

// The template's channel for a bone (section C by the mask), or null.
const Channel* template_bone_channel(const AnmClip* t, int bone) {
  if (!t) return nullptr;
  size_t c = 0;
  for (int b = 0; b < kNumBones && c < t->keyframes.section_c.size(); ++b) {
    if (!t->descriptor.has_bone(b)) continue;
    if (b == bone) return &t->keyframes.section_c[c];
    ++c;
  }
  return nullptr;
}

// ---- events ---------------------------------------------------------------------------------

constexpr uint16_t kNamedTypes[] = {0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x20, 0x21, 0x2c,
                                    0x2d, 0x2e, 0x2f, 0x39, 0x3a, 0x3b, 0x3d, 0x48};

// The inverse of event_name: a documented name, or "type_0xNN".
std::optional<uint16_t> event_type(const std::string& name) {
  for (uint16_t t : kNamedTypes) {
    if (event_name(t) == name) return t;
  }
  if (name.rfind("type_0x", 0) == 0 && name.size() > 7 && name.size() <= 11) {
    uint32_t v = 0;
    for (size_t i = 7; i < name.size(); ++i) {
      const char c = name[i];
      const int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
      if (d < 0) return std::nullopt;
      v = v * 16 + d;
    }
    if (v <= 0xffff) return static_cast<uint16_t>(v);
  }
  if (name.rfind("type_", 0) == 0 && name.size() > 5 && name.size() <= 10 &&
      std::all_of(name.begin() + 5, name.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    const unsigned long v = std::stoul(name.substr(5));
    if (v <= 0xffff) return static_cast<uint16_t>(v);
  }
  return std::nullopt;
}

float number(const Json& j, const std::string& where) {
  if (!j.is_number()) throw Error(where + ": expected a number");
  const double v = j.get<double>();
  if (!std::isfinite(v)) throw Error(where + ": not finite");
  return static_cast<float>(v);
}
uint32_t word(const Json& j, const std::string& where) {
  if (!j.is_number_integer() && !j.is_number_unsigned())
    throw Error(where + ": expected an integer");
  const int64_t v = j.get<int64_t>();
  if (v < INT32_MIN || v > int64_t{UINT32_MAX}) throw Error(where + ": beyond 32 bits");
  return static_cast<uint32_t>(v);
}
uint16_t half(const Json& j, const std::string& where) {
  const uint32_t v = word(j, where);
  const int64_t s = j.get<int64_t>();
  if (s < INT16_MIN || s > 0xffff) throw Error(where + ": beyond 16 bits");
  return static_cast<uint16_t>(v);
}
void set_word_at_8(AnimEvent& e, uint32_t v) {
  e.position[0] = static_cast<int16_t>(v & 0xffff);
  e.position[1] = static_cast<int16_t>(v >> 16);
}

// The payload's fields written over `e` (the inverse of event_payload_json, warriors.txt
// "Events"); fields the payload does not carry keep e's bytes.
void apply_payload(AnimEvent& e, const Json& p, const std::string& where) {
  if (!p.is_object()) throw Error(where + ": the payload is not an object");
  const auto has = [&](const char* k) { return p.contains(k); };
  if (has("arg0")) e.arg0 = half(p["arg0"], where + " arg0");
  if (has("arg1")) e.arg1 = half(p["arg1"], where + " arg1");
  if (has("position")) {
    const Json& v = p["position"];
    if (!v.is_array() || v.size() != 3) throw Error(where + " position: expected [x, y, z]");
    const Key k = position_key({number(v[0], where), number(v[1], where), number(v[2], where)},
                               where + " position", e.frame);
    e.position = {k.x, k.y, k.z};
  }
  if (has("rotation")) {
    const Json& v = p["rotation"];
    if (!v.is_array() || v.size() != 4) throw Error(where + " rotation: expected [x, y, z, w]");
    Quat q{number(v[0], where), number(v[1], where), number(v[2], where), number(v[3], where)};
    if (q.w < 0) q = -q;  // w is rebuilt non-negative
    e.rotation = {encode_rotation_component(q.x), encode_rotation_component(q.y),
                  encode_rotation_component(q.z)};
  }
  switch (e.type) {
    case 0x0b:
      if (has("sound_id")) set_word_at_8(e, word(p["sound_id"], where + " sound_id"));
      break;
    case 0x0c:
      if (has("value")) set_word_at_8(e, word(p["value"], where + " value"));
      break;
    case 0x20:
      if (has("level")) {
        const uint32_t v = word(p["level"], where + " level");
        e.arg0 = static_cast<uint16_t>(v & 0xffff);
        e.arg1 = static_cast<uint16_t>(v >> 16);
      }
      break;
    case 0x21:
      if (has("bone")) e.arg1 = half(p["bone"], where + " bone");
      if (has("code")) {
        // The core rule's text + `code_hex` (issue 31, item 2); without hex, the \xNN text
        // written before it (bytes_of_ascii_printable).
        std::string bytes = text_from_json(p, "code", where + " code");
        if (!has("code_hex")) bytes = bytes_of_ascii_printable(bytes);
        if (bytes.size() > 3) throw Error(where + " code: at most three letters");
        for (size_t i = 0; i < 3; ++i) e.code[i] = i < bytes.size() ? bytes[i] : 0;
      }
      break;
    case 0x39:
      if (has("mode")) e.arg1 = half(p["mode"], where + " mode");
      break;
    case 0x3a:
      if (has("fov")) set_word_at_8(e, std::bit_cast<uint32_t>(number(p["fov"], where + " fov")));
      break;
    case 0x3b:
      if (has("check")) e.arg0 = half(p["check"], where + " check");
      if (has("slot")) e.arg1 = half(p["slot"], where + " slot");
      break;
    default:
      break;
  }
}

Json parse_payload(const std::string& text, const std::string& where) {
  try {
    return Json::parse(text.empty() ? "{}" : text);
  } catch (const Json::exception& e) {
    throw Error(fmt::format("{}: the payload is not JSON ({})", where, e.what()));
  }
}

// Events from the clip's `extras.events` (README): each matched to an unused template event of
// the same type with the same payload (on the same frame first), whose 24 bytes are the base the
// payload is written over; else a zero event. All matched and as many as the template's: the
// template's order.
std::vector<AnimEvent> import_events(const Clip& clip, const AnmClip* t,
                                     std::vector<std::string>& notes) {
  std::vector<AnimEvent> out;
  std::vector<int> source_of;  // template index per written event, -1 when new
  std::vector<bool> used(t ? t->keyframes.events.size() : 0, false);
  for (size_t i = 0; i < clip.events.size(); ++i) {
    const Event& ev = clip.events[i];
    const std::string where =
        fmt::format("clip '{}' event {} ('{}')", json_text(clip.name), i, json_text(ev.name));
    const float f = ev.time * 30.f;
    if (!std::isfinite(f) || f < -0.5f || f >= 65535.5f) {
      throw Error(fmt::format("{}: time {} s is outside frames 0-65535", where, ev.time));
    }
    const uint16_t frame = static_cast<uint16_t>(std::lround(std::max(f, 0.f)));
    if (!on_whole_frame(f)) {
      notes.push_back(fmt::format("{}: time {} s put on frame {}", where, ev.time, frame));
    }
    Json payload = parse_payload(ev.payload, where);
    std::optional<uint16_t> type = event_type(ev.name);
    if (payload.is_object() && payload.contains("type"))
      type = half(payload["type"], where + " type");
    if (!type) {
      throw Error(
          fmt::format("{}: unknown event name (a documented name such as 'sound', or "
                      "'type_0xNN', or a payload with \"type\")",
                      where));
    }
    int match = -1;
    if (t) {
      for (int pass = 0; pass < 2 && match < 0; ++pass) {
        for (size_t j = 0; j < used.size(); ++j) {
          const AnimEvent& te = t->keyframes.events[j];
          if (used[j] || te.type != *type || (pass == 0 && te.frame != frame)) continue;
          Json tp = Json::parse(event_payload_json(te));
          bool same = true;  // the glTF's payload says nothing the template's does not
          for (auto it = payload.begin(); it != payload.end() && same; ++it) {
            if (it.key() == "type") continue;
            same = tp.contains(it.key()) ? tp[it.key()] == it.value() : false;
          }
          if (same) {
            match = static_cast<int>(j);
            break;
          }
        }
      }
    }
    AnimEvent e = match >= 0 ? t->keyframes.events[match] : AnimEvent{};
    if (match >= 0) used[match] = true;
    e.frame = frame;
    e.type = *type;
    // A template event with this payload already decodes to it: its bytes stand as they are.
    if (match < 0) apply_payload(e, payload, where);
    out.push_back(e);
    source_of.push_back(match);
  }
  if (t && out.size() == t->keyframes.events.size() &&
      std::all_of(source_of.begin(), source_of.end(), [](int s) { return s >= 0; })) {
    std::vector<AnimEvent> ordered(out.size());
    for (size_t i = 0; i < out.size(); ++i) ordered[source_of[i]] = out[i];
    out = std::move(ordered);
  }
  return out;
}

// Whether a glTF animation's name is the descriptor's: its bytes (the core rule), or the \xNN
// text the export wrote before it (name_text, no hex: older glTF files).
bool names_clip(const std::string& name, const Descriptor& d) {
  return name == d.name_bytes() || name == d.name_text();
}

// The clip to import: --clip, else the one named like the template, else the only one.
const Clip& pick_clip(const std::vector<Clip>& clips, const std::string& wanted, const AnmClip* t) {
  std::string names;
  for (const Clip& c : clips)
    names += (names.empty() ? "" : ", ") + fmt::format("'{}'", json_text(c.name));
  if (clips.empty()) throw Error("the glTF has no animation to import");
  if (!wanted.empty()) {
    for (const Clip& c : clips) {
      if (c.name == wanted) return c;
    }
    throw Error(fmt::format("no animation '{}' in the glTF (it has {})", json_text(wanted), names));
  }
  if (clips.size() == 1) return clips[0];
  if (t) {
    for (const Clip& c : clips) {
      if (names_clip(c.name, t->descriptor)) return c;
    }
  }
  throw Error(
      fmt::format("the glTF has {} animations ({}); name one with --clip", clips.size(), names));
}

bool is_constant_at(const Track<Vec3>& t, Vec3 v) {
  return std::all_of(t.values.begin(), t.values.end(),
                     [&](Vec3 x) { return position_error(x, v) <= 1e-4f; });
}

// Section A's travel over frames 0 .. F-1 (README, "displacement"): each update at rate 1 moves
// the human by the velocity in force x 1/30 s (warriors.txt "Root motion").
Vec3 section_a_travel(const AnmClip& clip) {
  const PlayClip p = make_play_clip(clip);
  Vec3 sum{};
  for (uint32_t f = 0; f < p.frame_count; ++f) {
    const Quat v = evaluate_channel(p, p.velocity, static_cast<float>(f), false);
    sum = sum + Vec3{v.x, v.y, v.z};
  }
  return sum * (1.f / 30.f);
}

// The skeleton a glTF clip is matched to: the 34 bones, their parents and reference-pose rest
// rotations, with the source's own rest translations (the engine keeps the model's offsets, so
// only a different rest rotation is reported).
Skeleton target_skeleton(const Skeleton& source) {
  Skeleton s = neutral_skeleton(nullptr);
  for (int b = 0; b < kNumBones; ++b) {
    if (const auto j = source.find(s.names[b])) s.rest[b].translation = source.rest[*j].translation;
  }
  return s;
}

}  // namespace

AnmTemplate read_anm_template(Bytes bytes) {
  const WarriorsFile f = read_warriors_file(bytes, FileKind::kAnm);
  AnmTemplate t;
  t.resource = std::get<Resource>(f.entry.content);
  t.tail = f.entry.tail;
  const ClipEntry& c = f.sets[0].clips[0];
  t.clip = c.clip;
  t.keyframes_chunk = c.keyframes_chunk;
  t.descriptor_chunk = c.descriptor_chunk;
  return t;
}

AnmImport import_anm(const Animated& source, const AnmTemplate* tmpl,
                     const AnmImportOptions& options) {
  if (!(options.tolerance >= 0) || !std::isfinite(options.tolerance)) {
    throw Error("the tolerance must be finite and >= 0");
  }
  AnmImport out;
  const AnmClip* t = tmpl ? &tmpl->clip : nullptr;
  const Clip& source_clip = pick_clip(source.clips, options.clip, t);
  JointMatch m =
      match_joints(Animated{source.skeleton, {source_clip}, {}}, target_skeleton(source.skeleton));
  out.notes = std::move(m.notes);
  const Clip& clip = m.clips.at(0);

  // Frame count and duration from the clip (warriors.txt "When a clip ends": F = uint(D x 30 +
  // 0.5)); a duration within 1e-3 frame of F is kept as given (the template's float).
  if (!std::isfinite(clip.duration) || clip.duration < 0 || clip.duration * 30.f > 65535.f) {
    throw Error(fmt::format("clip '{}': duration {} s is not a usable length", json_text(clip.name),
                            clip.duration));
  }
  const int frames = static_cast<int>(std::lround(clip.duration * 30.f));
  float duration = clip.duration;
  const bool template_length = t && t->descriptor.duration == clip.duration;  // kept as it was
  if (!template_length && !on_whole_frame(clip.duration * 30.f)) {
    duration = static_cast<float>(frames) / 30.f;
    out.notes.push_back(
        fmt::format("duration {} s is not a whole number of 30 Hz frames: written "
                    "as {} frames ({} s)",
                    clip.duration, frames, duration));
  }
  if (clip.frame_rate != 30.f) {
    out.notes.push_back(
        fmt::format("the glTF's frame rate is {}; The Warriors plays 30 frames a "
                    "second, so its tracks are sampled at whole 30 Hz frames",
                    clip.frame_rate));
  }

  // The descriptor: the template's (vtable, name field, flags, runtime words, tail), else the
  // module's writer's defaults for a new clip named like the animation.
  AnmClip result;
  if (t) {
    result.descriptor = t->descriptor;
  } else {
    ClipBuilder b;
    b.name = clip.name.empty() ? "clip" : bytes_of_ascii_printable(clip.name);  // exact bytes
    b.frames = 0;
    result.descriptor = b.build().descriptor;
  }
  Descriptor& d = result.descriptor;
  d.duration = duration;
  d.bone_mask.fill(0);
  Keyframes& k = result.keyframes;

  const int joint0 = 0, joint1 = 1;
  const std::string name = json_text(clip.name);  // for messages
  Json keys_report = Json::object();

  // Section A (root velocity) and bone 0 (the root's turn per 1/30 s): motion channels glTF does
  // not carry (the export leaves them out, README); the template's, unchanged.
  if (t) k.section_a = t->keyframes.section_a;
  const JointTracks& root = clip.joints[joint0];
  const Transform& root_rest = source.skeleton.rest[*source.skeleton.find(bone_name(0))];
  const bool root_moves =
      !is_constant_at(root.translation, root_rest.translation) ||
      !is_constant_at(root.scale, {1, 1, 1}) ||
      std::any_of(root.rotation.values.begin(), root.rotation.values.end(),
                  [&](Quat q) { return rotation_error(q, root_rest.rotation) > kRestRotation; });
  if (root_moves) {
    out.notes.push_back(
        fmt::format("joint '{}' (bone 0) tracks are ignored: bone 0's channel is "
                    "the root's turn per frame and section A its velocity, which "
                    "come from the template",
                    bone_name(0)));
  }

  // Section B: joint 1's translation less its rest height (the bind height the export added).
  const float bind_height = source.skeleton.rest[*source.skeleton.find(bone_name(1))].translation.z;
  const auto plan_of = [&](const auto& candidates, bool rotation, auto encode) {
    ChannelPlan p;
    p.rotation = rotation;
    for (const auto& [f, v] : candidates) {
      p.frames.push_back(f);
      const Key key = encode(v, f);
      p.keys.push_back(key);
      p.decoded.push_back(rotation ? decode_rotation(key)
                                   : Quat{decode_position(key.x, 0), decode_position(key.y, 1),
                                          decode_position(key.z, 2), 0});
    }
    return p;
  };
  const Track<Vec3>& tb = clip.joints[joint1].translation;
  if (!tb.empty()) {
    const auto cand = candidate_keys(tb, frames, options.tolerance > 0);
    ChannelPlan p = plan_of(cand, false, [&](Vec3 v, int f) {
      return position_key({v.x, v.y, v.z - bind_height},
                          fmt::format("joint '{}' translation", bone_name(1)), f);
    });
    const auto truth = [&](int f) {
      const Vec3 v = sample_track(tb, f);
      return Quat{v.x, v.y, v.z - bind_height, 0};
    };
    const Channel* tc = t && !t->keyframes.section_b.empty() ? &t->keyframes.section_b[0] : nullptr;
    // A template without section B and a track at the rest (a Blender round trip): none.
    bool at_rest = t && !tc;
    for (int f = 0; f <= std::max(frames - 1, p.frames.back()) && at_rest; ++f) {
      at_rest = length(as_vec(truth(f))) <= std::max(options.tolerance, kRestTranslation);
    }
    if (!at_rest) {
      WrittenChannel w = write_channel(p, frames, options.tolerance, tc, truth);
      k.section_b.push_back(std::move(w.channel));
      keys_report[std::string(bone_name(1)) + ".translation"] = std::move(w.report);
    }
  }

  // Section C: bone 0 from the template, bones 1-33 from the glTF's rotation tracks.
  if (const Channel* c0 = template_bone_channel(t, 0)) {
    d.set_bone(0);
    k.section_c.push_back(*c0);
  }
  for (int b = 1; b < kNumBones; ++b) {
    const JointTracks& jt = clip.joints[b];
    // Bones have fixed offsets: translation tracks away from the rest, and scale, are not stored.
    const Vec3 rest = source.skeleton.rest[*source.skeleton.find(bone_name(b))].translation;
    if (b != joint1 && !jt.translation.empty() && !is_constant_at(jt.translation, rest)) {
      out.notes.push_back(
          fmt::format("joint '{}': translation track ignored (bones 2-33 keep the "
                      "model's offsets; only the pelvis is translated)",
                      bone_name(b)));
    }
    if (!jt.scale.empty() && !is_constant_at(jt.scale, {1, 1, 1})) {
      out.notes.push_back(
          fmt::format("joint '{}': scale track ignored (the .anm has no scale)", bone_name(b)));
    }
    const Track<Quat>& tr = jt.rotation;
    if (tr.empty()) continue;  // the reference pose fills it (warriors.txt "The pose")
    const auto cand = candidate_keys(tr, frames, options.tolerance > 0);
    ChannelPlan p = plan_of(cand, true, [](Quat q, int) { return rotation_key(q); });
    const auto truth = [&](int f) { return normalize(sample_track(tr, f)); };
    const Channel* tc = template_bone_channel(t, b);
    // A bone the template leaves out, whose track stays at the reference pose (a Blender round
    // trip exports every bone): left out too, so the reference pose and its "default" tag fill it.
    bool at_reference = t && !tc;
    for (int f = 0; f <= std::max(frames - 1, p.frames.back()) && at_reference; ++f) {
      at_reference = rotation_error(truth(f), reference_pose()[b]) <=
                     std::max(options.tolerance, kRestRotation);
    }
    if (at_reference) continue;
    WrittenChannel w = write_channel(p, frames, options.tolerance, tc, truth);
    d.set_bone(b);
    k.section_c.push_back(std::move(w.channel));
    keys_report[std::string(bone_name(b))] = std::move(w.report);
  }

  k.events = import_events(clip, t, out.notes);
  update_descriptor(d, k);
  if (section_bytes(k.section_a) > 0xffff || section_bytes(k.section_b) > 0xffff) {
    throw Error(
        fmt::format("clip '{}': section {} would hold {} bytes, the descriptor's u16 holds "
                    "at most 65,535 (use --tolerance to reduce the keys)",
                    name, section_bytes(k.section_a) > 0xffff ? "A" : "B",
                    std::max(section_bytes(k.section_a), section_bytes(k.section_b))));
  }
  if (k.events.size() > 0xffff) throw Error("more than 65,535 events");

  // The keyframes chunk is padded to 16 (warriors-container.md): the template's tail when it
  // still pads, else zeros.
  const size_t size = section_bytes(k.section_a) + section_bytes(k.section_b) +
                      section_bytes(k.section_c) + k.events.size() * kEventSize;
  if (t && (size + t->keyframes.tail.size()) % 16 == 0) {
    k.tail = t->keyframes.tail;
  } else {
    k.tail.assign((16 - size % 16) % 16, 0);
  }

  // The displacement (README): kept from the template while section A and the frame count are
  // the template's; else recomputed: section A's travel over the clip, or without section A the
  // template's speed (displacement / duration, warriors.txt "Notes for implementers") times the
  // new duration.
  Json displacement_from;
  if (t && clock_frame_count(t->descriptor.duration) == clock_frame_count(d.duration)) {
    displacement_from = "template";
  } else if (!k.section_a.empty()) {
    const Vec3 travel = section_a_travel(result);
    d.displacement_x = travel.x;
    d.displacement_y = travel.y;
    displacement_from = "section A travel";
  } else if (t && t->descriptor.duration > 0) {
    const float scale = d.duration / t->descriptor.duration;
    d.displacement_x = t->descriptor.displacement_x * scale;
    d.displacement_y = t->descriptor.displacement_y * scale;
    displacement_from = "template speed x duration";
  } else {
    d.displacement_x = d.displacement_y = 0;
    displacement_from = "no root velocity";
  }
  out.clip = result;

  // The resource: the template's headers and chunk order (hashes kept), sizes updated.
  if (tmpl) {
    out.resource = tmpl->resource;
    out.resource.chunks[tmpl->keyframes_chunk].data = keyframes_chunk(result, 0).data;
    out.resource.chunks[tmpl->descriptor_chunk].data = descriptor_chunk(result, 0).data;
    update_sizes(out.resource);
    out.tail = tmpl->tail;
    // A tail that padded the template to 2,048 bytes (a WAD entry) pads the new one likewise.
    const bool zero_pad =
        std::all_of(out.tail.begin(), out.tail.end(), [](uint8_t b) { return b == 0; });
    Writer w;
    write_resource(w, out.resource);
    Writer tw;
    write_resource(tw, tmpl->resource);
    if (!out.tail.empty() && zero_pad && (tw.pos() + tmpl->tail.size()) % 2048 == 0) {
      out.tail.assign((2048 - w.pos() % 2048) % 2048, 0);
    }
  } else {
    out.resource = make_anm_resource(result);
  }

  Json report = clip_error_report(result, Animated{source.skeleton, {source_clip}, {}}, clip.name);
  report["clip"] = clip.name;
  report["frames"] = frames;
  report["duration"] = json_float(d.duration);
  report["tolerance"] = json_float(options.tolerance);
  report["channels"] = {{"section_a", !k.section_a.empty()},
                        {"section_b", !k.section_b.empty()},
                        {"rotations", k.section_c.size()}};
  report["keys"] = std::move(keys_report);
  report["displacement"] = {json_float(d.displacement_x), json_float(d.displacement_y)};
  report["displacement_from"] = displacement_from;
  report["events"] = k.events.size();
  report["template"] = tmpl != nullptr;
  out.report = std::move(report);
  return out;
}

Json clip_error_report(const AnmClip& anm, const Animated& source, const std::string& clip_name) {
  const JointMatch m = match_joints(source, target_skeleton(source.skeleton));
  const Clip* clip = nullptr;
  for (const Clip& c : m.clips) {
    if (c.name == clip_name) clip = &c;
  }
  if (!clip) throw Error(fmt::format("no clip '{}' to compare with", json_text(clip_name)));
  const PlayClip p = make_play_clip(anm);
  const float bind = source.skeleton.rest[*source.skeleton.find(bone_name(1))].translation.z;
  Json joints = Json::object();
  float worst_rotation = 0, worst_translation = 0;
  for (int b = 1; b < kNumBones; ++b) {
    const JointTracks& jt = clip->joints[b];
    const bool rot = p.bones[b].count > 0 && !jt.rotation.empty();
    const bool pos = b == 1 && p.translation.count > 0 && !jt.translation.empty();
    if (!rot && !pos) continue;
    float er = 0, et = 0;
    for (uint32_t f = 0; f < std::max<uint32_t>(p.frame_count, 1); ++f) {
      const float frame = static_cast<float>(f);
      if (rot) {
        er = std::max(er, rotation_error(evaluate_channel(p, p.bones[b], frame, true),
                                         sample_track(jt.rotation, static_cast<int>(f))));
      }
      if (pos) {
        const Quat v = evaluate_channel(p, p.translation, frame, false);
        et = std::max(et, position_error({v.x, v.y, v.z + bind},
                                         sample_track(jt.translation, static_cast<int>(f))));
      }
    }
    joints[bone_name(b)] = {{"rotation", json_float(er)}, {"translation", json_float(et)}};
    worst_rotation = std::max(worst_rotation, er);
    worst_translation = std::max(worst_translation, et);
  }
  return {{"max_error", std::move(joints)},
          {"max_error_rotation", json_float(worst_rotation)},
          {"max_error_translation", json_float(worst_translation)},
          {"units", {{"rotation", "rad"}, {"translation", "m"}}}};
}

namespace {
// --tolerance and --frame-rate as the verb passes them (ImportRequest::options).
AnmImportOptions import_options(const ImportRequest& request) {
  AnmImportOptions o;
  o.clip = request.clip;
  if (auto it = request.options.find("tolerance"); it != request.options.end()) {
    char* end = nullptr;
    o.tolerance = std::strtof(it->second.c_str(), &end);
    if (end == it->second.c_str() || *end != 0 || !(o.tolerance >= 0) ||
        !std::isfinite(o.tolerance)) {
      throw Error(fmt::format("--tolerance '{}': expected a finite number >= 0", it->second));
    }
  }
  if (auto it = request.options.find("frame-rate"); it != request.options.end()) {
    if (std::strtof(it->second.c_str(), nullptr) != 30.f) {
      throw Error(
          "--frame-rate: The Warriors plays clips at 30 frames a second (warriors.txt, "
          "\"Purpose\"); the .anm has no other rate");
    }
  }
  return o;
}
}  // namespace

ImportResult import_warriors_anm(const ImportRequest& request) {
  const AnmImportOptions o = import_options(request);
  std::optional<AnmTemplate> tmpl;
  if (!request.template_path.empty()) {
    const std::vector<uint8_t> bytes = read_file(request.template_path);
    try {
      tmpl = read_anm_template(bytes);
    } catch (const Error& e) {
      throw e.with_file(request.template_path.string());
    }
  }
  AnmImport a = import_anm(request.source, tmpl ? &*tmpl : nullptr, o);
  ImportResult r;
  Writer w;
  write_resource(w, a.resource);
  w.bytes(a.tail);
  r.bytes = w.take();
  r.report = std::move(a.report);
  r.notes = std::move(a.notes);
  if (!tmpl) {
    r.notes.push_back(
        "no --template: a new clip (descriptor flags 0, no root velocity, no bone 0 "
        "turn; hashes from the animation's name)");
  }
  return r;
}

ImportResult import_warriors_container(const ImportRequest& request, bool pack) {
  const char* what = pack ? "warriors-pack" : "warriors-character";
  if (request.template_path.empty()) {
    throw Error(
        fmt::format("--as {} needs --template ORIGINAL: the file the clips go back into", what));
  }
  const AnmImportOptions o = import_options(request);
  const std::vector<uint8_t> bytes = read_file(request.template_path);
  WarriorsFile file;
  try {
    file = read_warriors_file(bytes, pack ? FileKind::kPack : FileKind::kCharacter);
  } catch (const Error& e) {
    throw e.with_file(request.template_path.string());
  }
  // Each glTF animation (or --clip's) goes where the container's clip of its name is; the first
  // such clip is its template.
  const auto find = [&](const std::string& name) -> const ClipEntry* {
    for (const ClipSet& set : file.sets) {
      for (const ClipEntry& c : set.clips) {
        if (names_clip(name, c.clip.descriptor)) return &c;
      }
    }
    return nullptr;
  };
  const auto resource_of = [&](const ClipEntry* c) -> const Resource& {
    const auto res = file.resources();
    for (size_t i = 0; i < file.sets.size(); ++i) {
      for (const ClipEntry& e : file.sets[i].clips) {
        if (&e == c) return *res[i];
      }
    }
    throw Error("internal: clip without a resource");
  };
  ImportResult result;
  WadEntry entry = file.entry;
  Json clips = Json::array();
  std::set<std::string> done;
  for (const Clip& clip : request.source.clips) {
    if (!request.clip.empty() && clip.name != request.clip) continue;
    // An export of a pack names a clip once per place it holds it: the first animation of a name
    // is put in every place (put_clip), the others are the same clip.
    if (!done.insert(clip.name).second) {
      result.notes.push_back(
          fmt::format("animation '{}' again: the first of that name was put in "
                      "every place the clip is",
                      json_text(clip.name)));
      continue;
    }
    const ClipEntry* c = find(clip.name);
    if (!c) {
      if (!request.clip.empty()) {
        throw Error(fmt::format("{}: no clip named '{}' to replace", request.template_path.string(),
                                json_text(clip.name)));
      }
      result.notes.push_back(
          fmt::format("animation '{}': no clip of that name in the template; "
                      "skipped (clips are replaced, never added)",
                      json_text(clip.name)));
      continue;
    }
    AnmTemplate t;
    const Resource& r = resource_of(c);
    t.resource.chunks = {r.chunks[c->keyframes_chunk], r.chunks[c->descriptor_chunk]};
    t.resource.header = r.header;
    update_sizes(t.resource);
    t.clip = c->clip;
    t.keyframes_chunk = 0;
    t.descriptor_chunk = 1;
    AnmImportOptions one = o;
    one.clip = clip.name;
    AnmImport a = import_anm(Animated{request.source.skeleton, {clip}, {}}, &t, one);
    const std::vector<ClipPlacement> placed = put_clip(entry, a.clip);
    Json j = std::move(a.report);
    Json where = Json::array();
    for (const ClipPlacement& p : placed) {
      where.push_back({{"resource", p.resource},
                       {"keyframes_chunk", p.keyframes_chunk},
                       {"descriptor_chunk", p.descriptor_chunk},
                       {"changed", p.changed}});
    }
    j["placed"] = std::move(where);
    clips.push_back(std::move(j));
    for (std::string& n : a.notes)
      result.notes.push_back(fmt::format("'{}': {}", json_text(clip.name), n));
  }
  if (clips.empty()) {
    throw Error(
        fmt::format("no glTF animation names a clip of {}", request.template_path.string()));
  }
  result.bytes = write_entry(entry);
  result.report = {{"clips", std::move(clips)}, {"identical", result.bytes == bytes}};
  return result;
}

}  // namespace animkit::warriors
