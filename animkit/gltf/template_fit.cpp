#include "animkit/gltf/template_fit.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <type_traits>

#include "animkit/core/error.h"
#include "animkit/core/json_text.h"
#include "animkit/core/sampling_job.h"

namespace animkit::gltf {

namespace {

// Below these a key restates the rest (float noise of a tool's round trip).
constexpr float kRestAngle = 5e-5f;     // radians
constexpr float kRestDistance = 2e-5f;  // times the skeleton's size
constexpr float kRestScale = 1e-5f;

// The angle between two rotations (either sign), precise near 0 (acos of a float dot is not).
float angle_between(Quat a, Quat b) {
  const Quat r = normalize(a) * conjugate(normalize(b));
  return 2.f * std::atan2(std::sqrt(r.x * r.x + r.y * r.y + r.z * r.z), std::fabs(r.w));
}

float uniform(Vec3 s) { return (std::fabs(s.x) + std::fabs(s.y) + std::fabs(s.z)) / 3.f; }

// The inverse of a rigid transform with a uniform scale (rest poses are).
Transform inverse(const Transform& t) {
  Transform out;
  const float s = uniform(t.scale);
  const float inv = s > 0 ? 1.f / s : 1.f;
  out.rotation = conjugate(normalize(t.rotation));
  out.scale = {inv, inv, inv};
  out.translation = rotate(out.rotation, t.translation * -inv);
  return out;
}

std::vector<Transform> model_rest(const Skeleton& sk) {
  std::vector<Transform> m(sk.num_joints());
  for (size_t j = 0; j < m.size(); ++j) {
    m[j] = sk.parents[j] < 0 ? sk.rest[j] : compose(m[sk.parents[j]], sk.rest[j]);
  }
  return m;
}

template <class T>
T sample(const Track<T>& track, const T& rest, float time) {
  if (track.empty()) return rest;
  const auto& ts = track.times;
  const size_t key = std::upper_bound(ts.begin(), ts.end(), time) - ts.begin();
  return evaluate(track, time, key == 0 ? 0u : static_cast<uint32_t>(key - 1));
}

// L = P * L' * Q with P = C(parent), Q = C(joint)^-1, channel by channel (README: exact for
// rotations and, when Q moves no origin, for translations; scale axes follow Q's turn).
void reexpress(JointTracks& jt, const Transform& source_rest, const Transform& P, const Transform& Q,
               float size) {
  const float ps = uniform(P.scale);
  const float qs = uniform(Q.scale);
  const bool moves = length(Q.translation) > kRestDistance * size;
  // Translations: P(t' + R' s' Q.t); R' and s' matter only when Q moves the origin.
  if (moves && jt.translation.empty() && (!jt.rotation.empty() || !jt.scale.empty())) {
    std::vector<float> times = jt.rotation.times;
    times.insert(times.end(), jt.scale.times.begin(), jt.scale.times.end());
    std::sort(times.begin(), times.end());
    times.erase(std::unique(times.begin(), times.end()), times.end());
    for (float t : times) jt.translation.add(t, source_rest.translation);
  }
  Track<Vec3>& tr = jt.translation;
  for (size_t k = 0; k < tr.size(); ++k) {
    Vec3 local = tr.values[k];
    if (moves) {
      const Quat r = sample(jt.rotation, source_rest.rotation, tr.times[k]);
      const Vec3 s = sample(jt.scale, source_rest.scale, tr.times[k]);
      local = local + rotate(normalize(r), s * Q.translation);
    }
    tr.values[k] = P.translation + rotate(P.rotation, local * ps);
  }
  for (auto* slopes : {&tr.in_slopes, &tr.out_slopes}) {
    for (Vec3& v : *slopes) v = rotate(P.rotation, v * ps);
  }
  Track<Quat>& rt = jt.rotation;
  for (Quat& q : rt.values) q = normalize(P.rotation * q * Q.rotation);
  for (auto* slopes : {&rt.in_slopes, &rt.out_slopes}) {
    for (Quat& v : *slopes) v = P.rotation * v * Q.rotation;  // linear in the key
  }
  // Scale: R' S' R_Q = R' R_Q (R_Q^-1 S' R_Q); the new scale is that matrix's diagonal (exact
  // for the quarter turns tools make, a permutation; linear, so slopes follow the same rule).
  const Vec3 axes[3] = {rotate(Q.rotation, {1, 0, 0}), rotate(Q.rotation, {0, 1, 0}),
                        rotate(Q.rotation, {0, 0, 1})};
  auto turn = [&](Vec3 s, float factor) {
    return Vec3{dot(s, axes[0] * axes[0]), dot(s, axes[1] * axes[1]), dot(s, axes[2] * axes[2])} *
           factor;
  };
  for (Vec3& s : jt.scale.values) s = turn(s, ps * qs);
  for (auto* slopes : {&jt.scale.in_slopes, &jt.scale.out_slopes}) {
    for (Vec3& v : *slopes) v = turn(v, ps * qs);
  }
}

template <class T, class Near>
bool restates(const Track<T>& track, Near near) {
  if (track.empty()) return false;
  for (const T& v : track.values) {
    if (!near(v)) return false;
  }
  for (const auto* slopes : {&track.in_slopes, &track.out_slopes}) {
    for (const T& v : *slopes) {
      if constexpr (std::is_same_v<T, Quat>) {
        if (std::fabs(v.x) + std::fabs(v.y) + std::fabs(v.z) + std::fabs(v.w) > 1e-4f) return false;
      } else {
        if (length(v) > 1e-4f) return false;
      }
    }
  }
  return true;
}

// True when `track`'s keys lie on `original`'s curve (the file only resampled it, as Blender's
// exporter does at every frame): the original's keys are then kept, exactly.
template <class T, class Near>
bool resamples(const Track<T>& track, const Track<T>& original, const T& rest, Near near) {
  if (track.empty() || original.empty()) return false;
  for (size_t k = 0; k < track.size(); ++k) {
    const float t = track.times[k];
    if (near(track.values[k], sample(original, rest, t))) continue;
    if constexpr (std::is_same_v<T, Quat>) {
      // Blender's importer keys a LINEAR rotation for component lerp (nlerp), not slerp.
      Track<Quat> nl = original;
      nl.interpolation = Interpolation::kNlerp;
      nl.in_slopes.clear();
      nl.out_slopes.clear();
      if (original.interpolation != Interpolation::kHermite && near(track.values[k], sample(nl, rest, t))) continue;
    }
    return false;
  }
  return true;
}

const Clip* clip_named(const Animated& a, const std::string& name) {
  for (const Clip& c : a.clips) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

}  // namespace

std::vector<std::string> fit_to_template(Animated& source, const std::vector<std::string>& untimed,
                                         const Animated& templ) {
  std::vector<std::string> notes;
  const Skeleton& from = source.skeleton;
  const Skeleton& to = templ.skeleton;
  if (from.num_joints() != to.num_joints() || from.num_joints() == 0) return notes;
  std::vector<int> target(from.num_joints());
  for (size_t i = 0; i < from.num_joints(); ++i) {
    const auto t = to.find(from.names[i]);
    if (!t) return notes;
    target[i] = *t;
    const int sp = from.parents[i];
    const int tp = to.parents[*t];
    if ((sp < 0) != (tp < 0) || (sp >= 0 && to.names[tp] != from.names[sp])) return notes;
  }
  const std::vector<Transform> S = model_rest(from);
  const std::vector<Transform> T = model_rest(to);
  float size = 1;
  for (const Transform& t : T) size = std::max(size, length(t.translation));
  std::vector<Transform> C(from.num_joints());
  float worst_turn = 0, worst_move = 0;
  for (size_t i = 0; i < C.size(); ++i) {
    C[i] = compose(inverse(T[target[i]]), S[i]);
    worst_turn = std::max(worst_turn, angle_between(C[i].rotation, Quat{}));
    worst_move = std::max(worst_move, length(C[i].translation));
  }
  const bool turned = worst_turn > kRestAngle || worst_move > kRestDistance * size;
  size_t dropped = 0;
  for (Clip& clip : source.clips) {
    for (size_t i = 0; i < from.num_joints() && i < clip.joints.size(); ++i) {
      JointTracks& jt = clip.joints[i];
      if (turned) {
        const int p = from.parents[i];
        reexpress(jt, from.rest[i], p < 0 ? Transform{} : C[p], inverse(C[i]), size);
      }
      const Transform& rest = to.rest[target[i]];
      const size_t before = !jt.translation.empty() + !jt.rotation.empty() + !jt.scale.empty();
      const Clip* tc = clip_named(templ, clip.name);
      const JointTracks* o =
          tc && static_cast<size_t>(target[i]) < tc->joints.size() ? &tc->joints[target[i]] : nullptr;
      // The template's own keys where the file only resampled them; else no track where the
      // keys restate the rest.
      auto fit = [&](auto& track, const auto* original, const auto& rest_value, auto near) {
        if (original && resamples(track, *original, rest_value, near)) {
          track = *original;
        } else if (restates(track, [&](const auto& v) { return near(v, rest_value); })) {
          track = {};
        }
      };
      const float d = kRestDistance * size;
      fit(jt.translation, o ? &o->translation : nullptr, rest.translation,
          [&](Vec3 a, Vec3 b) { return length(a - b) <= d; });
      fit(jt.rotation, o ? &o->rotation : nullptr, rest.rotation,
          [&](Quat a, Quat b) { return angle_between(a, b) <= kRestAngle; });
      fit(jt.scale, o ? &o->scale : nullptr, rest.scale,
          [&](Vec3 a, Vec3 b) { return length(a - b) <= kRestScale; });
      dropped += before - (!jt.translation.empty() + !jt.rotation.empty() + !jt.scale.empty());
    }
  }
  // Issue 32 item 4: the joints whose own (parent-relative) rest differs are named (before their
  // rest is replaced), so a rest edit is never taken silently; a joint without keys shows the
  // template's rest after.
  std::string joints;
  size_t named = 0, differ = 0;
  for (size_t i = 0; i < from.num_joints(); ++i) {
    const Transform& a = from.rest[i];
    const Transform& b = to.rest[target[i]];
    const float turn = angle_between(a.rotation, b.rotation);
    const float move = length(a.translation - b.translation);
    if (!(turn > kRestAngle || move > kRestDistance * size ||
          length(a.scale - b.scale) > kRestScale))
      continue;
    ++differ;
    if (named++ < 8) {
      joints += fmt::format("{}'{}' (moved by {:.6g}, turned by {:.6g} rad)",
                            joints.empty() ? "" : ", ", json_text(from.names[i]), move, turn);
    }
  }
  if (differ > 8) joints += fmt::format(" and {} more", differ - 8);
  for (size_t i = 0; i < from.num_joints(); ++i) source.skeleton.rest[i] = to.rest[target[i]];
  if (turned) {
    notes.push_back(fmt::format("the file's rest differs from the template's at {} joint(s){}{} "
                                "(bone frames turned by up to {:.6g} rad, moved by up to {:.6g}): "
                                "keys re-expressed against the template's rest; a joint without "
                                "keys takes the template's rest",
                                differ, joints.empty() ? "" : ": ", joints, worst_turn, worst_move));
  }
  if (dropped > 0) notes.push_back(fmt::format("{} channel(s) that only restate the rest dropped", dropped));
  for (Clip& clip : source.clips) {
    if (std::find(untimed.begin(), untimed.end(), clip.name) == untimed.end()) continue;
    const Clip* t = clip_named(templ, clip.name);
    if (!t) continue;
    clip.duration = std::max(t->duration, clip.duration);
    clip.frame_rate = t->frame_rate;
    clip.looping = t->looping;
    clip.events = t->events;
    notes.push_back(fmt::format("animation '{}' carries no animkit extras: its length ({} s), "
                                "frame rate and {} event(s) come from the template",
                                clip.name, clip.duration, clip.events.size()));
  }
  return notes;
}

std::vector<std::string> fit_to_template(ImportRequest& request,
                                         const std::vector<std::string>& untimed,
                                         const Registry& registry) {
  if (request.template_path.empty()) return {};
  Options options = request.options;
  for (const char* key : {"template", "tolerance", "frame-rate", "format"}) options.erase(key);
  std::optional<Animated> templ;
  try {
    templ = registry.open(request.template_path, options)->to_neutral();
  } catch (const Error&) {
    return {};  // the format's own reading of its template reports what is wrong
  }
  if (!templ || templ->skeleton.num_joints() == 0) return {};
  return fit_to_template(request.source, untimed, *templ);
}

}  // namespace animkit::gltf
