#include "animkit/call_of_duty/xanim_import.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <map>

#include "animkit/call_of_duty/xanim_document.h"
#include "animkit/call_of_duty/xanim_quantise.h"
#include "animkit/call_of_duty/xanim_sample.h"
#include "animkit/core/error.h"
#include "animkit/core/json_text.h"
#include "animkit/core/json_util.h"
#include "animkit/core/sampling_job.h"
#include "animkit/core/rotation_angle.h"

namespace animkit::call_of_duty {

namespace {

// A key time is on a frame when time x rate is within this many frames of a whole number.
constexpr double kOnFrame = 1e-3;

// The keys one stream is built from, before repeats are dropped: frames rising from 0 to N.
template <class T>
struct Planned {
  std::vector<uint32_t> frames;
  std::vector<T> values;
};

Quat sample_track(const Track<Quat>& t, float time) {
  return evaluate(t, time, find_key(t.times, time, 0));
}

// --tolerance: between two keys the game lerps the lanes (nlerp, §2.1) where a glTF LINEAR
// rotation slerps. Where the two part by more than `tolerance` radians at some frame, every frame
// of that gap becomes a key (sampled from the glTF).
void add_frames_where_lerp_departs(const Track<Quat>& track, double rate, double tolerance,
                                   Planned<Quat>& p) {
  Planned<Quat> out;
  for (size_t k = 0; k < p.frames.size(); ++k) {
    out.frames.push_back(p.frames[k]);
    out.values.push_back(p.values[k]);
    if (k + 1 == p.frames.size()) break;
    const uint32_t a = p.frames[k], b = p.frames[k + 1];
    bool departs = false;
    for (uint32_t f = a + 1; f < b && !departs; ++f) {
      const float s = static_cast<float>(f - a) / static_cast<float>(b - a);
      const Quat game = nlerp(p.values[k], p.values[k + 1], s);
      departs = rotation_angle(game, sample_track(track, static_cast<float>(f / rate))) > tolerance;
    }
    for (uint32_t f = a + 1; f < b && departs; ++f) {
      out.frames.push_back(f);
      out.values.push_back(sample_track(track, static_cast<float>(f / rate)));
    }
  }
  p = std::move(out);
}

// The track's own keys when they all lie on frames and the game's lerp between them is the
// track's interpolation (LINEAR, as `animkit export` writes the game's keys); the value held
// before the first key and after the last one is a key at 0 and at N. Any other track is sampled
// at every frame.
template <class T>
Planned<T> plan_keys(const Track<T>& track, uint32_t n, double rate,
                     std::optional<double> tolerance = std::nullopt) {
  Planned<T> p;
  if (track.empty()) return p;
  bool on_frames = track.interpolation != Interpolation::kStep &&
                   (track.interpolation != Interpolation::kHermite || track.size() == 1);
  for (size_t k = 0; k < track.size() && on_frames; ++k) {
    const double x = static_cast<double>(track.times[k]) * rate;
    const double f = std::round(x);
    if (!(std::fabs(x - f) <= kOnFrame) || f < 0 || f > n || (k && f <= p.frames.back())) {
      on_frames = false;
      break;
    }
    p.frames.push_back(static_cast<uint32_t>(f));
    p.values.push_back(track.values[k]);
  }
  if (on_frames) {
    if (p.frames.front() > 0) {
      p.frames.insert(p.frames.begin(), 0);
      p.values.insert(p.values.begin(), p.values.front());
    }
    if (p.frames.back() < n) {
      p.frames.push_back(n);
      p.values.push_back(p.values.back());
    }
    if constexpr (std::is_same_v<T, Quat>) {
      if (tolerance && track.interpolation == Interpolation::kSlerp) {
        add_frames_where_lerp_departs(track, rate, *tolerance, p);
      }
    }
    return p;
  }
  p.frames.clear();
  p.values.clear();
  uint32_t key = 0;
  for (uint32_t f = 0; f <= n; ++f) {
    const float t = static_cast<float>(f / rate);
    key = find_key(track.times, t, key);
    p.frames.push_back(f);
    p.values.push_back(evaluate(track, t, key));
  }
  return p;
}

using Equal = std::function<bool(size_t, size_t)>;

// The keys kept: the first, the last, and every key that differs from a neighbour (a key inside
// a run of equal keys is what the lerp of the run's ends gives). All equal: one key.
std::vector<size_t> drop_repeats(size_t count, const Equal& equal) {
  std::vector<size_t> kept;
  for (size_t k = 0; k < count; ++k) {
    if (k == 0 || k + 1 == count || !equal(k - 1, k) || !equal(k, k + 1)) kept.push_back(k);
  }
  if (kept.size() == 2 && equal(kept[0], kept[1])) kept.pop_back();
  return kept;
}

// The frames of a template stream's keys: 0..N when dense, its list when sparse, {0} when
// constant (`constant` set).
struct TemplateKeys {
  std::vector<uint32_t> frames;
  bool constant = false;
};
std::optional<TemplateKeys> template_keys(uint16_t key_count, const std::vector<uint16_t>& frames,
                                          uint32_t total) {
  if (key_count == 0) return std::nullopt;
  TemplateKeys t;
  if (key_count == 1) {
    t.constant = true;
    t.frames = {0};
  } else if (key_count >= total) {
    for (uint32_t f = 0; f < total; ++f) t.frames.push_back(f);
  } else {
    t.frames.assign(frames.begin(), frames.end());
  }
  return t;
}

// The template's layout of a stream when it still holds the new keys exactly: each of its frames
// is a planned key, and each planned key it lacks lies inside a run of equal keys between two of
// its frames. nullopt when it does not fit.
std::optional<std::vector<size_t>> fit_template(const std::vector<uint32_t>& planned,
                                                const TemplateKeys& t, const Equal& equal) {
  if (t.constant) {
    for (size_t k = 1; k < planned.size(); ++k) {
      if (!equal(0, k)) return std::nullopt;
    }
    return std::vector<size_t>{0};
  }
  std::vector<size_t> kept;
  for (uint32_t f : t.frames) {
    const auto it = std::lower_bound(planned.begin(), planned.end(), f);
    if (it == planned.end() || *it != f) return std::nullopt;
    kept.push_back(static_cast<size_t>(it - planned.begin()));
  }
  if (kept.empty() || kept.front() != 0 || kept.back() + 1 != planned.size()) return std::nullopt;
  for (size_t j = 0; j + 1 < kept.size(); ++j) {
    for (size_t k = kept[j] + 1; k < kept[j + 1]; ++k) {
      if (!equal(kept[j], k) || !equal(k, kept[j + 1])) return std::nullopt;
    }
  }
  return kept;
}

std::vector<size_t> choose_keys(const std::vector<uint32_t>& planned, const Equal& equal,
                                const std::optional<TemplateKeys>& t) {
  if (t) {
    if (auto kept = fit_template(planned, *t, equal)) return *kept;
  }
  return drop_repeats(planned.size(), equal);
}

void set_frames(std::vector<uint16_t>& out, const std::vector<uint32_t>& planned,
                const std::vector<size_t>& kept, uint32_t total) {
  out.clear();
  // §1.3: an index list only when 2 <= K < T.
  if (kept.size() < 2 || kept.size() >= total) return;
  for (size_t k : kept) out.push_back(static_cast<uint16_t>(planned[k]));
}

bool same_bits(Vec3 a, Vec3 b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// One rotation stream from its planned keys: quantised key by key through the loader's decode,
// repeats dropped (or the template's layout kept).
XAnimRotationStream build_rotation(const Planned<Quat>& p, bool two_component, bool allow_sign,
                                   const XAnimRotationStream* original, bool original_sign,
                                   uint32_t total, bool& sign) {
  std::optional<TemplateKeys> t;
  if (original) t = template_keys(original->key_count, original->frames, total);
  const size_t lanes = two_component ? 1 : 3;
  auto preferred_at = [&](uint32_t frame, bool first) -> std::optional<XAnimQuantisedKey> {
    if (!original || !t || (!original->two_component && two_component)) return std::nullopt;
    size_t j = 0;
    if (!t->constant) {
      const auto it = std::find(t->frames.begin(), t->frames.end(), frame);
      if (it == t->frames.end()) return std::nullopt;
      j = static_cast<size_t>(it - t->frames.begin());
    }
    if (j >= original->keys.size()) return std::nullopt;
    XAnimQuantisedKey k;
    if (original->two_component == two_component) {
      for (size_t i = 0; i < lanes; ++i) k.stored[i] = original->stored[j * lanes + i];
    } else {
      k.stored = {0, 0, original->stored[j]};  // a 2-component key as the full form holds it
    }
    k.sign = first && j == 0 && original_sign;
    k.key = original->keys[j];
    return k;
  };
  std::vector<XAnimQuantisedKey> q(p.values.size());
  for (size_t k = 0; k < q.size(); ++k) {
    const std::optional<XAnimQuantisedKey> pref = preferred_at(p.frames[k], k == 0);
    q[k] = quantise_key(p.values[k], two_component, k ? &q[k - 1].key : nullptr, allow_sign,
                        pref ? &*pref : nullptr);
  }
  const Equal equal = [&](size_t a, size_t b) {
    return q[a].stored == q[b].stored && q[a].key == q[b].key;
  };
  const std::vector<size_t> kept = choose_keys(p.frames, equal, t);
  XAnimRotationStream s;
  s.two_component = two_component;
  s.key_count = static_cast<uint16_t>(kept.size());
  set_frames(s.frames, p.frames, kept, total);
  for (size_t k : kept) {
    for (size_t i = 0; i < lanes; ++i) s.stored.push_back(q[k].stored[i]);
  }
  sign = !kept.empty() && q[kept[0]].sign;
  s.keys = decode_rotation(s, sign);
  return s;
}

// A full-form stream whose every key has x = y = 0, in the 2-component form: the same decoded
// keys (w is rebuilt from z alone either way, and the continuity dot product loses only zeros).
bool holds_only_yaw(const XAnimRotationStream& s) {
  for (size_t k = 0; k < s.key_count; ++k) {
    if (s.stored[k * 3] != 0 || s.stored[k * 3 + 1] != 0) return false;
  }
  return true;
}
XAnimRotationStream to_two_component(const XAnimRotationStream& full, bool sign) {
  XAnimRotationStream s;
  s.two_component = true;
  s.key_count = full.key_count;
  s.frames = full.frames;
  for (size_t k = 0; k < full.key_count; ++k) s.stored.push_back(full.stored[k * 3 + 2]);
  s.keys = decode_rotation(s, sign);
  return s;
}

XAnimTranslationStream build_translation(const Planned<Vec3>& p, Vec3 rest,
                                         const XAnimTranslationStream* original, uint32_t total) {
  std::vector<Vec3> v(p.values.size());
  for (size_t k = 0; k < v.size(); ++k) v[k] = p.values[k] - rest;
  std::optional<TemplateKeys> t;
  if (original) t = template_keys(original->key_count, original->frames, total);
  const std::vector<size_t> kept =
      choose_keys(p.frames, [&](size_t a, size_t b) { return same_bits(v[a], v[b]); }, t);
  XAnimTranslationStream s;
  s.key_count = static_cast<uint16_t>(kept.size());
  set_frames(s.frames, p.frames, kept, total);
  for (size_t k : kept) s.values.push_back(v[k]);
  return s;
}

const Clip& choose_clip(const Animated& source, const std::string& name) {
  if (!name.empty()) {
    for (const Clip& c : source.clips) {
      if (c.name == name) return c;
    }
    throw Error(fmt::format("the glTF has no animation named '{}'", name));
  }
  if (source.clips.empty()) throw Error("the glTF has no animation to write");
  if (source.clips.size() > 1) {
    std::string names;
    for (const Clip& c : source.clips) names += (names.empty() ? "" : ", ") + c.name;
    throw Error(fmt::format("an xanim holds one animation and the glTF has {} ({}): choose one "
                            "with --clip",
                            source.clips.size(), names));
  }
  return source.clips.front();
}

std::string name_list(const std::vector<std::string>& names) {
  std::string s;
  for (size_t i = 0; i < names.size() && i < 8; ++i) s += (i ? ", " : "") + names[i];
  if (names.size() > 8) s += fmt::format(" and {} more", names.size() - 8);
  return s;
}

// Which glTF joint is each part, and which carries the delta motion (-1: none).
struct Binding {
  int delta_joint = -1;
  std::vector<std::string> part_names;
  std::vector<int> part_joints;
};

Binding bind_joints(const Skeleton& sk, const XAnimFile* original) {
  Binding b;
  if (!original) {
    const bool root_shape =
        sk.num_joints() > 0 && (sk.names[0] == "root" || sk.names[0] == "root (delta)") &&
        sk.parents[0] < 0 &&
        std::all_of(sk.parents.begin() + 1, sk.parents.end(), [](int16_t p) { return p == 0; });
    if (root_shape) b.delta_joint = 0;
    for (size_t j = 0; j < sk.num_joints(); ++j) {
      if (static_cast<int>(j) == b.delta_joint) continue;
      b.part_names.push_back(sk.names[j]);
      b.part_joints.push_back(static_cast<int>(j));
    }
    return b;
  }
  const std::string delta_name = delta_joint_name(*original);
  if (const auto d = sk.find(delta_name)) b.delta_joint = *d;
  std::vector<std::string> missing, extra;
  std::vector<bool> used(sk.num_joints(), false);
  if (b.delta_joint >= 0) used[b.delta_joint] = true;
  for (const XAnimPart& part : original->parts) {
    const auto j = sk.find(part.name);
    if (!j) {
      missing.push_back(part.name);
      continue;
    }
    used[*j] = true;
    b.part_names.push_back(part.name);
    b.part_joints.push_back(*j);
  }
  for (size_t j = 0; j < sk.num_joints(); ++j) {
    if (!used[j]) extra.push_back(sk.names[j]);
  }
  if (!missing.empty() || !extra.empty()) {
    std::string what;
    if (!missing.empty()) {
      what += fmt::format("missing {} part(s) of the template: {}", missing.size(), name_list(missing));
    }
    if (!extra.empty()) {
      what += fmt::format("{}{} joint(s) the template does not have: {}", what.empty() ? "" : "; ",
                          extra.size(), name_list(extra));
    }
    throw Error(fmt::format("the glTF joints do not match the parts of the template '{}' (by "
                            "name; the delta motion joint is '{}'): {}",
                            original->name, delta_name, what));
  }
  return b;
}

int16_t whole_frame_rate(double rate, const char* from, bool strict, std::vector<std::string>& notes) {
  const double r = std::round(rate);
  if (!(r >= 1 && r <= 32767)) {
    throw Error(fmt::format("frame rate {} ({}) does not fit an xanim (a whole number 1..32767)",
                            rate, from));
  }
  if (std::fabs(rate - r) > 1e-3) {
    if (strict) throw Error(fmt::format("frame rate {} ({}): an xanim stores a whole number of frames per second", rate, from));
    notes.push_back(fmt::format("frame rate {} ({}) rounded to {}: an xanim stores whole frames "
                                "per second", rate, from, r));
  }
  return static_cast<int16_t>(r);
}

// The implicit `end` note the exporter adds (§1.5) is not written back.
bool implicit_end(const Event& e, float duration, double rate) {
  if (e.name != "end" || std::fabs(e.time - duration) > 0.5 / rate) return false;
  try {
    return !Json::parse(e.payload.empty() ? "{}" : e.payload).contains("frame");
  } catch (const nlohmann::json::exception&) {
    return true;
  }
}

uint32_t note_frame(const Event& e, double rate, uint32_t n) {
  const double f = std::round(static_cast<double>(e.time) * rate);
  // A frame in the payload (as the export writes it) says where a note lies when the time cannot:
  // with N = 0 every note time is 0.
  try {
    const Json p = Json::parse(e.payload.empty() ? "{}" : e.payload);
    if (p.contains("frame") && p["frame"].is_number_unsigned()) {
      const uint64_t pf = p["frame"].get<uint64_t>();
      if (pf <= 65535 && (n == 0 || static_cast<double>(pf) == f)) return static_cast<uint32_t>(pf);
    }
  } catch (const nlohmann::json::exception&) {
  }
  if (!(f >= 0 && f <= 65535)) {
    throw Error(fmt::format("event '{}' at {} s: frame {} does not fit a notetrack (0..65535)",
                            e.name, e.time, f));
  }
  return static_cast<uint32_t>(f);
}

std::vector<uint8_t> bit_set(const std::vector<bool>& bits, const std::vector<uint8_t>* original) {
  std::vector<uint8_t> out((bits.size() + 7) / 8, 0);
  for (size_t i = 0; i < bits.size(); ++i) {
    if (bits[i]) out[i >> 3] |= static_cast<uint8_t>(1u << (i & 7));
  }
  // The bits past the last part are not read; the template's are kept.
  if (original && original->size() == out.size() && !out.empty() && bits.size() % 8) {
    const uint8_t unused = static_cast<uint8_t>(0xFF << (bits.size() % 8));
    out.back() |= original->back() & unused;
  }
  return out;
}

Quat source_rotation(const Track<Quat>& t, Quat rest, float time) {
  if (t.empty()) return rest;
  return evaluate(t, time, find_key(t.times, time, 0));
}

Vec3 source_translation(const Track<Vec3>& t, Vec3 rest, float time) {
  if (t.empty()) return rest;
  return evaluate(t, time, find_key(t.times, time, 0));
}

}  // namespace

XAnimImport import_xanim(const Animated& source, const XAnimImportSettings& settings) {
  XAnimImport out;
  const XAnimFile* original = settings.original;
  const Skeleton& sk = source.skeleton;
  const Clip& clip = choose_clip(source, settings.clip);
  if (std::string e = clip.validate(sk.num_joints()); !e.empty()) {
    throw Error(fmt::format("animation '{}': {}", clip.name, e));
  }

  // Header (§1.1): the frame rate from --frame-rate, else the template, else the glTF.
  int16_t rate;
  if (settings.frame_rate) rate = whole_frame_rate(*settings.frame_rate, "--frame-rate", true, out.notes);
  else if (original && original->header.frame_rate > 0) rate = original->header.frame_rate;
  else rate = whole_frame_rate(clip.frame_rate, "the glTF's", false, out.notes);
  const double frames = static_cast<double>(clip.duration) * rate;
  const double n_whole = std::round(frames);
  if (!(n_whole >= 0 && n_whole <= 65534)) {
    throw Error(fmt::format("animation '{}': {} s at {} frames per second is {} frames; an xanim "
                            "holds at most 65535",
                            clip.name, clip.duration, rate, frames + 1));
  }
  if (std::fabs(frames - n_whole) > kOnFrame) {
    out.notes.push_back(fmt::format("duration {} s is {} frames at {} per second: written as {}",
                                    clip.duration, frames, rate, n_whole));
  }
  const uint32_t n = static_cast<uint32_t>(n_whole);
  const uint32_t total = n + 1;
  XAnimFile& f = out.file;
  f.name = settings.name;
  f.header.frame_rate = rate;
  f.header.flags = static_cast<uint8_t>(original ? original->header.flags & ~3 : 0);
  if (clip.looping) f.header.flags |= XAnimHeader::kLooped;
  f.header.num_frames = static_cast<uint16_t>(clip.looping ? n : total);
  if (original && original->header.looped() != clip.looping) {
    out.notes.push_back(fmt::format("looped: {} as the glTF says (the template's is {})",
                                    clip.looping, original->header.looped()));
  }
  // A template laid out for another frame count gives no key layouts.
  const bool same_frames = original && original->total_frames() == total;

  const Binding b = bind_joints(sk, original);
  if (b.part_names.size() > 128) {
    throw Error(fmt::format("{} parts: an xanim holds at most 128 (DOBJ_MAX_BONES)",
                            b.part_names.size()));
  }
  f.header.num_parts = static_cast<int16_t>(b.part_names.size());
  // Issue 32 item 4: an xanim stores no rest pose (§2.3: a part's translation is added to the
  // model's base; the export's rest is identity), so a glTF rest other than the template's is
  // named, never taken silently. (`animkit import --template` fits the file to the template's rest
  // first, gltf/template_fit.h, and names the joints there; this is what reaches the writer when
  // the rest is still the file's.)
  if (original) {
    std::vector<int> joints = b.part_joints;
    if (b.delta_joint >= 0) joints.insert(joints.begin(), b.delta_joint);
    for (int j : joints) {
      const Transform& r = sk.rest[j];
      const double move = length(r.translation);
      const double turn = rotation_angle(r.rotation, Quat{});
      if (move <= 1e-5 && turn <= 1e-5) continue;
      out.notes.push_back(fmt::format(
          "joint '{}': the glTF's rest pose differs from the template's (identity: an xanim stores "
          "none, the game poses a part from the model's base) by {:.6g} and {:.6g} rad; written "
          "as the glTF animates the joint: translation keys as offsets from that rest (none "
          "without keys), rotations as posed",
          json_text(sk.names[j]), move, turn));
    }
  }

  // Delta motion (§1.2, §2.5): a 2-component rotation without sign, and a translation.
  if (b.delta_joint >= 0) {
    const JointTracks& jt = clip.joints[b.delta_joint];
    f.has_delta = !jt.rotation.empty() || !jt.translation.empty() || (original && original->has_delta);
    if (f.has_delta) {
      Planned<Quat> rot = plan_keys(jt.rotation, n, rate, settings.tolerance);
      bool yaw = true;
      for (Quat& q : rot.values) {
        if (!yaw_only(q)) yaw = false;
        q = Quat{0, 0, q.z, q.w};
      }
      if (!yaw) {
        out.notes.push_back(fmt::format("joint '{}': the delta motion keeps only the yaw of its "
                                        "rotation (the 2-component form)", sk.names[b.delta_joint]));
      }
      const bool tmpl = same_frames && original->has_delta;
      bool unused_sign = false;
      f.delta_rotation = build_rotation(rot, true, false, tmpl ? &original->delta_rotation : nullptr,
                                        false, total, unused_sign);
      f.delta_translation =
          build_translation(plan_keys(jt.translation, n, rate), sk.rest[b.delta_joint].translation,
                            tmpl ? &original->delta_translation : nullptr, total);
    }
  } else if (original && original->has_delta) {
    if (!same_frames) {
      throw Error(fmt::format("the template's delta motion has {} frames, the glTF's animation {} "
                              "(and the glTF has no joint '{}' for it)",
                              original->total_frames(), total, delta_joint_name(*original)));
    }
    f.has_delta = true;
    f.delta_rotation = original->delta_rotation;
    f.delta_translation = original->delta_translation;
    out.notes.push_back("delta motion taken from the template (the glTF has no joint for it)");
  }
  if (f.has_delta) f.header.flags |= XAnimHeader::kDelta;

  // Parts (§1.2, §1.3, §1.4).
  std::map<std::string, const XAnimPart*> original_parts;
  if (same_frames) {
    for (const XAnimPart& p : original->parts) original_parts[p.name] = &p;
  }
  std::vector<bool> signs, compressed;
  bool scaled = false;
  for (size_t i = 0; i < b.part_names.size(); ++i) {
    const int j = b.part_joints[i];
    const JointTracks& jt = clip.joints[j];
    for (const Vec3& s : jt.scale.values) {
      if (std::fabs(s.x - 1) > 1e-6f || std::fabs(s.y - 1) > 1e-6f || std::fabs(s.z - 1) > 1e-6f) {
        scaled = true;
      }
    }
    const auto found = original_parts.find(b.part_names[i]);
    const XAnimPart* op = found == original_parts.end() ? nullptr : found->second;
    XAnimPart part;
    part.name = b.part_names[i];
    if (part.name.size() > 254 || part.name.find('\0') != std::string::npos) {
      throw Error(fmt::format("joint '{}': a part name is at most 254 bytes without NUL",
                              part.name));
    }
    Planned<Quat> rot = plan_keys(jt.rotation, n, rate, settings.tolerance);
    if (rot.values.empty() && quantise_key(sk.rest[j].rotation, false, nullptr, true).key !=
                                  XAnimQuatKey{0, 0, 0, 32767}) {
      rot.frames = {0};  // no track: the rest rotation, held
      rot.values = {sk.rest[j].rotation};
    }
    // The 2-component form for a part whose every key quantises to a yaw (x = y = 0), unless the
    // template stores it in full.
    const bool template_full = op && !op->rotation.two_component;
    bool two = true;
    if (rot.values.empty()) {
      part.rotation.two_component = true;  // no rotation: identity (§1.3, K = 0 on a compressed part)
    } else {
      part.rotation = build_rotation(rot, false, true, op ? &op->rotation : nullptr,
                                     op && op->sign, total, part.sign);
      two = holds_only_yaw(part.rotation) && !template_full;
      if (two) part.rotation = to_two_component(part.rotation, part.sign);
      if (op && op->rotation.two_component && !two) {
        out.notes.push_back(fmt::format("part '{}': not yaw-only any more, written in the full "
                                        "form (the template's is 2-component)", part.name));
      }
    }
    part.translation = build_translation(plan_keys(jt.translation, n, rate), sk.rest[j].translation,
                                         op ? &op->translation : nullptr, total);
    signs.push_back(part.sign);
    compressed.push_back(two);
    f.parts.push_back(std::move(part));
  }
  if (scaled) out.notes.push_back("scale keys are not written (an xanim has no scale)");
  f.sign_bits = bit_set(signs, original ? &original->sign_bits : nullptr);
  f.compressed_bits = bit_set(compressed, original ? &original->compressed_bits : nullptr);

  // Notetracks (§1.5), in event order.
  for (const Event& e : clip.events) {
    if (implicit_end(e, clip.duration, rate)) continue;
    if (e.name.size() > 254 || e.name.find('\0') != std::string::npos) {
      throw Error(fmt::format("event '{}': a notetrack name is at most 254 bytes without NUL",
                              e.name));
    }
    XAnimNote note;
    note.name = e.name;
    note.frame = static_cast<uint16_t>(note_frame(e, rate, n));
    f.notes.push_back(std::move(note));
  }
  if (f.notes.size() > 255) {
    throw Error(fmt::format("{} events: an xanim holds at most 255 notetracks", f.notes.size()));
  }
  if (original) f.tail = original->tail;

  out.bytes = write_xanim(f);

  // The report: the written bytes decoded by the reader, frame by frame against the glTF.
  const XAnimFile decoded = parse_xanim(out.bytes, settings.name);
  Json joints = Json::array();
  Json max_error = Json::object();
  double worst_rotation = 0, worst_translation = 0;
  auto report = [&](int j, const std::string& part, const char* kind,
                    const std::function<std::pair<Quat, Vec3>(const XAnimFrame&)>& written,
                    size_t rotation_keys, size_t translation_keys, const char* form) {
    const JointTracks& jt = clip.joints[j];
    double rot_err = 0, trans_err = 0;
    for (uint32_t fr = 0; fr <= n; ++fr) {
      const float t = n == 0 || fr == n ? 1.0f : static_cast<float>(fr) / static_cast<float>(n);
      const auto [q, v] = written(xanim_frame(t, static_cast<uint16_t>(n)));
      const float time = static_cast<float>(fr / static_cast<double>(rate));
      rot_err = std::max(rot_err, rotation_angle(q, source_rotation(jt.rotation, sk.rest[j].rotation, time)));
      const Vec3 d = v - source_translation(jt.translation, sk.rest[j].translation, time);
      trans_err = std::max(trans_err, std::sqrt(static_cast<double>(dot(d, d))));
    }
    worst_rotation = std::max(worst_rotation, rot_err);
    worst_translation = std::max(worst_translation, trans_err);
    max_error[sk.names[j]] = json_float(static_cast<float>(std::max(rot_err, trans_err)));
    joints.push_back({{"joint", sk.names[j]}, {"part", part}, {"kind", kind}, {"form", form},
                      {"rotation_keys", rotation_keys}, {"translation_keys", translation_keys},
                      {"max_rotation_error", json_float(static_cast<float>(rot_err))},
                      {"max_translation_error", json_float(static_cast<float>(trans_err))}});
  };
  if (b.delta_joint >= 0 && decoded.has_delta) {
    const Vec3 rest = sk.rest[b.delta_joint].translation;
    report(b.delta_joint, "", "delta", [&](const XAnimFrame& at) {
      const XAnimDeltaSample d = sample_delta(decoded, at);
      return std::pair{normalize(Quat{0, 0, d.z, d.w}), d.translation + rest};
    }, decoded.delta_rotation.key_count, decoded.delta_translation.key_count, "2-component");
  }
  for (size_t i = 0; i < decoded.parts.size(); ++i) {
    const int j = b.part_joints[i];
    const XAnimPart& p = decoded.parts[i];
    report(j, p.name, "part", [&](const XAnimFrame& at) {
      const XAnimPartPose pose = sample_part(p, at);
      return std::pair{pose.rotation(), pose.translation + sk.rest[j].translation};
    }, p.rotation.key_count, p.translation.key_count, p.rotation.two_component ? "2-component" : "full");
  }
  size_t keys = 0;
  for (const XAnimPart& p : decoded.parts) keys += p.rotation.key_count + p.translation.key_count;
  out.report = {{"format", "cod-xanim"},
                {"clip", clip.name},
                {"frame_rate", rate},
                {"total_frames", total},
                {"looped", decoded.header.looped()},
                {"delta", decoded.has_delta},
                {"parts", decoded.parts.size()},
                {"keys", keys},
                {"notetracks", decoded.notes.size()},
                {"max_rotation_error", json_float(static_cast<float>(worst_rotation))},
                {"max_translation_error", json_float(static_cast<float>(worst_translation))},
                {"max_error", std::move(max_error)},
                {"joints", std::move(joints)}};
  return out;
}

ImportResult import_xanim_gltf(const ImportRequest& request) {
  XAnimImportSettings s;
  s.clip = request.clip;
  if (const auto it = request.options.find("frame-rate"); it != request.options.end()) {
    try {
      s.frame_rate = std::stod(it->second);
    } catch (const std::exception&) {
      throw Error(fmt::format("--frame-rate '{}' is not a number", it->second));
    }
  }
  if (const auto it = request.options.find("tolerance"); it != request.options.end()) {
    try {
      s.tolerance = std::stod(it->second);
    } catch (const std::exception&) {
      throw Error(fmt::format("--tolerance '{}' is not a number", it->second));
    }
  }
  std::optional<XAnimFile> original;
  if (!request.template_path.empty()) {
    const std::vector<uint8_t> bytes = read_file(request.template_path);
    original = parse_xanim(bytes, request.template_path.filename().string());
    s.original = &*original;
    s.name = original->name;
  }
  XAnimImport x = import_xanim(request.source, s);
  ImportResult r;
  r.bytes = std::move(x.bytes);
  r.report = std::move(x.report);
  r.notes = std::move(x.notes);
  return r;
}

}  // namespace animkit::call_of_duty
