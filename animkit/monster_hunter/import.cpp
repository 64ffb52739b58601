#include "animkit/monster_hunter/import.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <numbers>
#include <span>

#include "animkit/core/error.h"
#include "animkit/core/joint_match.h"
#include "animkit/core/json_text.h"
#include "animkit/core/sampling_job.h"
#include "animkit/monster_hunter/document.h"
#include "animkit/monster_hunter/entries.h"
#include "animkit/monster_hunter/fit.h"
#include "animkit/monster_hunter/pac.h"
#include "animkit/monster_hunter/playback.h"
#include "animkit/monster_hunter/rules.h"

namespace animkit::monster_hunter {

namespace {

constexpr double kRotStep = std::numbers::pi / 8192;
constexpr double kLocStep = 1.0 / 16;
constexpr int kMaxFrame = 32767;  // a key's frame is an s16
constexpr double kMaxSamples = 1 << 23;  // joint-frames sampled per clip (28 bytes each)
constexpr uint16_t kAxisBits[6] = {bits::kRotX, bits::kRotY, bits::kRotZ,
                                   bits::kLocX, bits::kLocY, bits::kLocZ};

int axis_of(uint16_t bit) {
  for (int k = 0; k < 6; ++k)
    if (kAxisBits[k] == bit) return k;
  return -1;
}

// The glTF's local pose of every target joint at every clip frame 0..frames.
struct Targets {
  int frames = 0;
  std::vector<std::vector<Quat>> rotation;  // [joint][frame]
  std::vector<std::vector<Vec3>> translation;
};

Targets sample_targets(const animkit::Clip& clip, const std::vector<Transform>& rest, int frames) {
  Targets t;
  t.frames = frames;
  const size_t joints = rest.size();
  t.rotation.assign(joints, std::vector<Quat>(frames + 1));
  t.translation.assign(joints, std::vector<Vec3>(frames + 1));
  for (size_t j = 0; j < joints; ++j) {
    const JointTracks& jt = clip.joints[j];
    uint32_t rk = 0, tk = 0;
    for (int f = 0; f <= frames; ++f) {
      const float seconds = static_cast<float>(f) / static_cast<float>(kClipRate);
      if (jt.rotation.empty()) {
        t.rotation[j][f] = rest[j].rotation;
      } else {
        rk = find_key(jt.rotation.times, seconds, rk);
        t.rotation[j][f] = normalize(evaluate(jt.rotation, seconds, rk));
      }
      if (jt.translation.empty()) {
        t.translation[j][f] = rest[j].translation;
      } else {
        tk = find_key(jt.translation.times, seconds, tk);
        t.translation[j][f] = evaluate(jt.translation, seconds, tk);
      }
    }
  }
  return t;
}

int track_frames(const Track& track) {
  int last = 0;
  for (const Channel& c : track.channels)
    for (const Keyframe& k : c.keys) last = std::max<int>(last, k.frame);
  return last;
}

int channel_frames(const Channel& channel) {
  int last = 0;
  for (const Keyframe& k : channel.keys) last = std::max<int>(last, k.frame);
  return last;
}

// A channel's distinct key frames, ascending.
std::vector<int> key_frames(const Channel& channel) {
  std::vector<int> f;
  for (const Keyframe& k : channel.keys) f.push_back(k.frame);
  std::sort(f.begin(), f.end());
  f.erase(std::unique(f.begin(), f.end()), f.end());
  return f;
}

// The engine's pose of one track (its joint alone, bind offset `bind`) at a clip frame.
struct TrackPlayer {
  TrackPlayer(const Track& track, Vec3 bind) {
    Clip clip;
    clip.tracks = {track};
    motion = prepare(clip, 1);
    const int root = -1;
    rig = make_rig(std::span<const int>(&root, 1), std::span<const Vec3>(&bind, 1));
  }
  JointPose at(float frame) const {
    const int joint = 0;
    JointPose p;
    sample_joints(motion, std::span<const int>(&joint, 1), frame, nullptr, rig,
                  std::span<JointPose>(&p, 1));
    return p;
  }
  Motion motion;
  Rig rig;
};

struct Counts {
  int kept = 0, fitted = 0, keys = 0;
};

// A glTF frame past a looping part's end and the clip frame the engine then plays there.
struct Replay {
  float clip_frame = 0;
  int frame = 0;
};

// The replays of a part of `n` frames with `loop` / `loop_start` in an entry of `frames` frames
// (clip_frame, as the engine's player computes it).
std::vector<Replay> replays(int n, uint32_t loop, float loop_start, int frames) {
  std::vector<Replay> out;
  Motion m;
  m.end = n;
  m.loop = loop;
  m.loop_start = loop_start;
  if (loop == 0 || !(static_cast<float>(n) - loop_start > 0)) return out;
  for (int f = n + 1; f <= frames; ++f) out.push_back({clip_frame(m, static_cast<float>(f)), f});
  return out;
}

// One joint's track over clip frames 0..n: the template's track when it reproduces the glTF
// within the tolerance; else per axis, the template's channel where it stays within the axis's
// share of the tolerance, a fitted one elsewhere. Rotations: three axes of at most tolerance / 3
// steps each keep the angle within tolerance (the angle is a metric invariant under composition,
// so the axes' errors add at most); locations: tolerance / sqrt 3 each keeps the distance.
Track fit_joint(const Track* native, Vec3 bind, const Targets& target, int joint, int n,
                std::span<const Replay> replay, const ImportSettings& settings, Counts& counts) {
  const double tol_rot = settings.tolerance * kRotStep, tol_loc = settings.tolerance * kLocStep;
  const std::vector<Quat>& rot = target.rotation[joint];
  const std::vector<Vec3>& loc = target.translation[joint];
  std::optional<TrackPlayer> player;
  if (native != nullptr) player.emplace(*native, bind);
  if (player && !settings.refit && track_frames(*native) <= n) {
    bool within = true;
    const auto near = [&](float clip_frame, int f) {
      const JointPose p = player->at(clip_frame);
      return rotation_angle(euler_quat(p.euler), rot[f]) <= tol_rot &&
             length(p.translation - loc[f]) <= tol_loc;
    };
    for (int f = 0; f <= n && within; ++f) within = near(static_cast<float>(f), f);
    for (const Replay& r : replay)
      if (within) within = near(r.clip_frame, r.frame);
    if (within) {
      for (const Channel& c : native->channels) {
        ++counts.kept;
        counts.keys += static_cast<int>(c.keys.size());
      }
      return *native;
    }
  }
  // The axes' curves. Euler angles nearest the template's own where it rotates the joint (its
  // turns and branch kept), else nearest the previous frame's (continuity).
  bool native_rotates = false;
  if (native != nullptr)
    for (const Channel& c : native->channels)
      native_rotates |= (c.bit & bits::kRotation) != 0 && !c.keys.empty();
  std::array<std::vector<double>, 6> series;
  for (auto& s : series) s.resize(n + 1);
  std::array<double, 3> reference{};
  for (int f = 0; f <= n; ++f) {
    if (native_rotates) {
      const Vec3 e = player->at(f).euler;
      reference = {e.x, e.y, e.z};
    }
    const std::array<double, 3> e = euler_of(rot[f], reference);
    if (!native_rotates) reference = e;
    for (int k = 0; k < 3; ++k) series[k][f] = e[k];
    series[3][f] = loc[f].x;
    series[4][f] = loc[f].y;
    series[5][f] = loc[f].z;
  }
  // The replayed frames, each axis's points sorted by clip frame.
  std::array<std::vector<CurvePoint>, 6> extra;
  for (const Replay& r : replay) {
    std::array<double, 3> ref;
    if (native_rotates) {
      const Vec3 e = player->at(r.clip_frame).euler;
      ref = {e.x, e.y, e.z};
    } else {
      const int f = std::clamp(static_cast<int>(std::lround(r.clip_frame)), 0, n);
      ref = {series[0][f], series[1][f], series[2][f]};
    }
    const std::array<double, 3> e = euler_of(rot[r.frame], ref);
    const Vec3 l = loc[r.frame];
    const double v[6] = {e[0], e[1], e[2], l.x, l.y, l.z};
    for (int k = 0; k < 6; ++k) extra[k].push_back({r.clip_frame, v[k]});
  }
  for (auto& points : extra)
    std::stable_sort(points.begin(), points.end(),
                     [](const CurvePoint& a, const CurvePoint& b) { return a.frame < b.frame; });
  const double axis_rot = tol_rot / 3, axis_loc = tol_loc / std::sqrt(3.0);
  const auto budget = [&](int k) { return k < 3 ? axis_rot : axis_loc; };
  const auto fit = [&](int k) {
    return fit_channel(kAxisBits[k], series[k], budget(k), extra[k]);
  };
  Track out;
  std::array<bool, 6> done{};
  if (native != nullptr) {
    for (const Channel& ch : native->channels) {
      Channel c = ch;
      const int k = axis_of(ch.bit);
      if (k >= 0 && !done[k]) {
        done[k] = true;
        if (settings.refit || ch.keys.empty() || channel_frames(ch) > n ||
            channel_error(ch, series[k], extra[k]) > budget(k)) {
          // The template's key frames with new values and slopes, else a fit of its own.
          std::optional<std::vector<Keyframe>> at;
          if (!settings.refit) at = fit_at_frames(kAxisBits[k], series[k], budget(k),
                                                  key_frames(ch), extra[k]);
          c.keys = at ? std::move(*at) : fit(k);
          ++counts.fitted;
        } else {
          ++counts.kept;
        }
      } else {
        ++counts.kept;  // the unnamed bits, scale, a later duplicate: not played, kept as they are
      }
      counts.keys += static_cast<int>(c.keys.size());
      out.channels.push_back(std::move(c));
    }
  }
  const float bind_axis[3] = {bind.x, bind.y, bind.z};
  for (int k = 0; k < 6; ++k) {
    if (done[k]) continue;
    // An axis without a channel plays 0 (rotation) or the bind offset (location).
    const double absent = k < 3 ? 0.0 : bind_axis[k - 3];
    double off = 0;
    for (double v : series[k]) off = std::max(off, std::fabs(v - absent));
    for (const CurvePoint& p : extra[k]) off = std::max(off, std::fabs(p.value - absent));
    if (off <= budget(k)) continue;
    out.channels.push_back({kAxisBits[k], fit(k)});
    ++counts.fitted;
    counts.keys += static_cast<int>(out.channels.back().keys.size());
  }
  return out;
}

std::optional<int> number_after(const std::string& name, const std::string& prefix) {
  if (name.size() <= prefix.size() || name.size() > prefix.size() + 6 ||
      name.compare(0, prefix.size(), prefix) != 0)
    return std::nullopt;
  const std::string digits = name.substr(prefix.size());
  if (!std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return std::nullopt;
  return std::stoi(digits);
}

bool has_slot(const AnimPack& pack, const SlotRef& ref) {
  return ref.stream >= 0 && static_cast<uint64_t>(ref.stream) < pack.streams.size() &&
         ref.slot >= 0 && static_cast<uint64_t>(ref.slot) < pack.streams[ref.stream].size();
}

// Issue 32 item 4: a clip's END is its last key frame (notes 3, CLIP_BLOCK; motion.frames), so a
// length edit (the glTF's duration) reaches the engine only through a key at the new last frame.
// Tracks kept as they are, or refitted at the template's key frames, may all end earlier (a
// channel holds its value after its last key, which the fit checked against the glTF there): the
// played channel whose key is last gets one more key at frame n with that value and flat slopes
// (its old last key's ease_out, unused until now, becomes 0), so the curve up to the old end is
// unchanged and holds after it.
void end_at(std::span<Track* const> tracks, int n, Counts& counts) {
  Channel* last = nullptr;
  int end = -1;
  for (bool played_only : {true, false}) {
    for (Track* t : tracks) {
      for (Channel& c : t->channels) {
        if (played_only && axis_of(c.bit) < 0) continue;
        if (!c.keys.empty() && channel_frames(c) > end) {
          end = channel_frames(c);
          last = &c;
        }
      }
    }
    if (last != nullptr) break;
  }
  if (last == nullptr || end >= n || n > kMaxFrame) return;
  // (Keys out of frame order would make the appended key's segment another one: left alone.)
  if (last->keys.back().frame != end) return;
  last->keys.back().ease_out = 0;
  last->keys.push_back({last->keys.back().value, static_cast<int16_t>(n), 0, 0});
  ++counts.keys;
}

// MHFU: the clip as entry `entry` over every part (motion.put). When the glTF lasts as long as
// the entry does, each part keeps its own length (a shorter part of the entry is fitted over its
// own frames); otherwise every part spans the glTF's.
void import_entry(AnimPack& pack, const Skeleton& skeleton, int entry, const Targets& target,
                  bool looping, const ImportSettings& settings, Counts& counts) {
  const std::optional<Clip> whole = rig_clip(pack, entry, skeleton);
  const Rig rig = make_rig(skeleton);
  int native_end = 0;
  for (const auto& [part, joints] : part_joints(skeleton))
    if (const Clip* c = part_clip(pack, part, entry)) native_end = std::max(native_end, frames(*c));
  const bool same_length = whole && target.frames == native_end;
  Clip clip;
  clip.tracks.resize(skeleton.bones.size());
  clip.loop = whole ? whole->loop : 0;
  clip.loop_start = whole ? whole->loop_start : 0.f;
  if (looping != (clip.loop != 0)) clip.loop = looping ? 1 : 0;
  // put gives every part the clip's loop when it differs from the entry's (notes 2, "retimed").
  const bool retimed = whole && (whole->loop != clip.loop ||
                                 std::bit_cast<uint32_t>(whole->loop_start) !=
                                     std::bit_cast<uint32_t>(clip.loop_start));
  const int64_t animated = skeleton.animated();
  for (const auto& [part, joints] : part_joints(skeleton)) {
    const Clip* native = part_clip(pack, part, entry);
    const int n = same_length && native != nullptr ? frames(*native) : target.frames;
    const bool own_loop = native != nullptr && !retimed;
    const std::vector<Replay> replay =
        replays(n, own_loop ? native->loop : clip.loop,
                own_loop ? native->loop_start : clip.loop_start, target.frames);
    bool keyed = false;
    for (size_t i = 0; i < joints.size(); ++i) {
      const Track* nt = native != nullptr && i < native->tracks.size() ? &native->tracks[i] : nullptr;
      const int j = joints[i];
      clip.tracks[j] = fit_joint(nt, rig.bind_offsets[j], target, j, n, replay, settings, counts);
      keyed |= !clip.tracks[j].channels.empty();
    }
    std::vector<Track*> part_tracks;
    for (int j : joints) part_tracks.push_back(&clip.tracks[j]);
    end_at(part_tracks, n, counts);
    if (native != nullptr || !keyed) continue;
    // A part the entry did not drive: a new clip in its slot (one track per joint; a joint the
    // glTF leaves at rest holds still with rest keys, never an empty track).
    const SlotRef ref = entry_slot(part, entry);
    if (!has_slot(pack, ref)) {
      std::vector<int> moved;
      for (int j : joints)
        if (!clip.tracks[j].channels.empty()) moved.push_back(j);
      throw Error(fmt::format(
          "entry {}: the glTF moves joints {} of part {}, which the entry does not drive, and the "
          "pack has no slot for it (stream {} slot {}): import into an entry the part has a slot "
          "for, or leave those joints at rest",
          entry, list_numbers(moved), part, ref.stream, ref.slot));
    }
    Clip added;
    added.loop = clip.loop;
    added.loop_start = clip.loop_start;
    for (int j : joints) {
      Track t = clip.tracks[j];
      if (t.channels.empty() && j < animated) t = rest(n);
      clip.tracks[j] = t;
      added.tracks.push_back(std::move(t));
    }
    pack.clips.push_back(std::move(added));
    pack.streams[ref.stream][ref.slot] = static_cast<int32_t>(pack.clips.size() - 1);
  }
  put(pack, entry, clip, skeleton);
}

// MHP3rd: the clip into the slot of clip id `id`, track r driving the bone records.for_monster
// maps record r to (records the map leaves out keep the template's track).
void import_slot(AnimPack& pack, const Skeleton& skeleton, int id, const Targets& target,
                 bool looping, const ImportSettings& settings, Counts& counts) {
  const SlotRef ref = clip_slot(id);
  if (!has_slot(pack, ref)) {
    throw Error(fmt::format("clip {}: the pack has no stream {} slot {} ({} streams)", id,
                            ref.stream, ref.slot, pack.streams.size()));
  }
  const Clip* native = pack.clip(ref.stream, ref.slot);
  const Clip* shape = native;
  for (size_t i = 0; shape == nullptr && i < pack.clips.size(); ++i) shape = &pack.clips[i];
  if (shape == nullptr) {
    throw Error(fmt::format("clip {}: the pack holds no clip to take the record count from", id));
  }
  const int n = target.frames;
  const int bones = static_cast<int>(skeleton.bones.size());
  const std::vector<int> joints =
      record_joints(static_cast<int>(shape->tracks.size()), bones, settings.em);
  const Rig rig = make_rig(skeleton);
  Clip clip;
  clip.loop = native ? native->loop : 0;
  clip.loop_start = native ? native->loop_start : 0.f;
  if (looping != (clip.loop != 0)) clip.loop = looping ? 1 : 0;
  for (size_t r = 0; r < joints.size(); ++r) {
    const Track* nt = native != nullptr && r < native->tracks.size() ? &native->tracks[r] : nullptr;
    const int j = joints[r];
    if (j < 0) {
      clip.tracks.push_back(nt != nullptr ? *nt : Track{});
      continue;
    }
    clip.tracks.push_back(fit_joint(nt, rig.bind_offsets[j], target, j, n, {}, settings, counts));
  }
  std::vector<Track*> all;
  for (Track& t : clip.tracks) all.push_back(&t);
  end_at(all, n, counts);
  if (native != nullptr && clip == *native) return;  // the native object stays, still shared
  pack.clips.push_back(std::move(clip));
  pack.streams[ref.stream][ref.slot] = static_cast<int32_t>(pack.clips.size() - 1);
}

// The written clip as the engine plays it (export's sampling: each MHFU part on its own clock)
// against the glTF, per joint.
void measure(ClipImport& out, const Skeleton& skeleton, const animkit::Skeleton& names,
             const AnimPack& pack, const Targets& target, const ImportSettings& settings) {
  const Rig rig = make_rig(skeleton);
  const size_t n = skeleton.bones.size();
  std::optional<Playable> playable;
  if (pack.game == Game::kMhfu) {
    playable = entry_playable(skeleton, pack, out.target);
  } else {
    DocumentOptions o;
    o.em = settings.em;
    playable = mhp3rd_clip(skeleton, pack, out.target, o);
  }
  std::vector<JointError> errors(n);
  std::vector<JointPose> local(n);
  for (int f = 0; f <= target.frames; ++f) {
    const float frame = static_cast<float>(f);
    for (size_t j = 0; j < n; ++j) local[j] = {{}, rig.bind_offsets[j]};
    if (playable && pack.game == Game::kMhfu) {
      for (const Playable::Part& part : playable->parts)
        sample_joints(part.motion, part.joints, clip_frame(part.motion, frame), nullptr, rig, local);
    } else if (playable) {
      PoseJob{&rig, &playable->motion, frame, nullptr, local, {}}.run();
    }
    // A NaN (a glTF rotation too large to normalise) counts as the worst error, never as none.
    const auto worse = [](double a, double b) { return std::isnan(b) ? INFINITY : std::max(a, b); };
    for (size_t j = 0; j < n; ++j) {
      JointError& e = errors[j];
      e.rotation = worse(e.rotation, rotation_angle(euler_quat(local[j].euler), target.rotation[j][f]));
      e.translation = worse(
          e.translation, static_cast<double>(length(local[j].translation - target.translation[j][f])));
    }
  }
  for (size_t j = 0; j < n; ++j) {
    JointError& e = errors[j];
    e.steps = std::max(e.rotation / kRotStep, e.translation / kLocStep);
    out.worst = std::max(out.worst, e.steps);
    out.joints[names.names[j]] = e;
  }
}

}  // namespace

std::vector<ClipImport> import_clips(const Animated& source, const Skeleton& skeleton,
                                     AnimPack& pack, const ImportSettings& settings,
                                     std::vector<std::string>* notes) {
  if (std::string e = source.skeleton.validate(); !e.empty()) throw Error("the glTF skeleton: " + e);
  for (const Transform& t : source.skeleton.rest) {
    const float v[] = {t.translation.x, t.translation.y, t.translation.z, t.rotation.x,
                       t.rotation.y,    t.rotation.z,    t.rotation.w};
    for (float x : v)
      if (!std::isfinite(x)) throw Error("the glTF skeleton: a rest pose that is not finite");
  }
  for (const animkit::Clip& c : source.clips) {
    if (std::string e = c.validate(source.skeleton.num_joints()); !e.empty())
      throw Error(fmt::format("animation '{}': {}", json_text(c.name), e));
  }
  animkit::Skeleton names = neutral_skeleton(skeleton);  // the bones' names as bytes
  // A glTF exported before issue 31 names a joint by its \xNN text alone: that joint is matched
  // by that text.
  for (const std::string& n : source.skeleton.names) {
    const std::string bytes = bytes_of_ascii_printable(n);
    if (bytes == n || names.find(n)) continue;
    if (const std::optional<int> t = names.find(bytes)) names.names[*t] = n;
  }
  JointMatch match = match_joints(source, names);
  if (notes != nullptr) notes->insert(notes->end(), match.notes.begin(), match.notes.end());
  // The glTF's rest pose in the target's joint order (a joint without a track holds it).
  std::vector<Transform> rest(names.num_joints());
  for (size_t i = 0; i < source.skeleton.num_joints(); ++i)
    if (std::optional<int> t = names.find(source.skeleton.names[i])) rest[*t] = source.skeleton.rest[i];
  if (settings.entry && match.clips.size() != 1) {
    throw Error(fmt::format("--entry names one target but the glTF has {} animations: choose one "
                            "with --clip NAME",
                            match.clips.size()));
  }
  const bool fu = pack.game == Game::kMhfu;
  std::vector<ClipImport> out;
  for (const animkit::Clip& clip : match.clips) {
    ClipImport ci;
    ci.name = clip.name;
    const std::optional<int> target =
        settings.entry ? settings.entry : number_after(clip.name, fu ? "entry_" : "clip_");
    if (!target) {
      throw Error(
          fmt::format("animation '{}': its name does not say the {} to write ({}NNN, as "
                      "export names them): give --entry {}",
                      json_text(clip.name), fu ? "entry" : "clip id", fu ? "entry_" : "clip_",
                      fu ? "E" : "ID (stream * 100 + slot)"));
    }
    if (*target < 0) throw Error(fmt::format("--entry {}: an entry is 0 or more", *target));
    ci.target = *target;
    const double frames = std::round(static_cast<double>(clip.duration) * kClipRate);
    if (!(frames >= 0 && frames <= kMaxFrame)) {
      throw Error(fmt::format("animation '{}' lasts {} s: a clip holds at most {} frames ({} s)",
                              json_text(clip.name), clip.duration, kMaxFrame,
                              kMaxFrame / kClipRate));
    }
    ci.frames = static_cast<int>(frames);
    // The glTF is sampled once per frame per joint (a quaternion and a vector each).
    if ((frames + 1) * static_cast<double>(names.num_joints()) > kMaxSamples) {
      throw Error(
          fmt::format("animation '{}': {} frames of {} joints is more than the {} samples "
                      "import takes",
                      json_text(clip.name), ci.frames + 1, names.num_joints(), kMaxSamples));
    }
    bool scaled = false;
    for (const JointTracks& jt : clip.joints)
      for (const Vec3& s : jt.scale.values) scaled |= length(s - Vec3{1, 1, 1}) > 1e-6f;
    if (notes != nullptr && scaled)
      notes->push_back(
          fmt::format("animation '{}': scale keys not written (the engine does not "
                      "play scale channels, and crashes on their bits)",
                      json_text(clip.name)));
    if (notes != nullptr && !clip.events.empty())
      notes->push_back(
          fmt::format("animation '{}': {} events not written (Monster Hunter clips "
                      "carry none)",
                      json_text(clip.name), clip.events.size()));
    const Targets t = sample_targets(clip, rest, ci.frames);
    Counts counts;
    if (fu) {
      import_entry(pack, skeleton, ci.target, t, clip.looping, settings, counts);
    } else {
      import_slot(pack, skeleton, ci.target, t, clip.looping, settings, counts);
    }
    ci.kept_channels = counts.kept;
    ci.fitted_channels = counts.fitted;
    ci.keys = counts.keys;
    measure(ci, skeleton, names, pack, t, settings);
    out.push_back(std::move(ci));
  }
  return out;
}

namespace {

ImportSettings settings_of(const Options& options) {
  ImportSettings s;
  if (auto it = options.find("tolerance"); it != options.end()) {
    try {
      s.tolerance = std::stod(it->second);
    } catch (const std::exception&) {
      s.tolerance = 0;
    }
    if (!(s.tolerance > 0 && std::isfinite(s.tolerance)))
      throw Error("--tolerance: a positive number of engine steps");
  }
  s.refit = options.count("refit") != 0;
  if (auto it = options.find("entry"); it != options.end()) {
    try {
      size_t used = 0;
      s.entry = std::stoi(it->second, &used);
      if (used != it->second.size()) throw std::invalid_argument("trailing");
    } catch (const std::exception&) {
      throw Error("--entry: an MHFU entry or MHP3rd clip id, e.g. 7");
    }
  }
  s.em = document_options(options).em;
  return s;
}

Json error_json(const JointError& e) {
  return {{"rotation", e.rotation}, {"translation", e.translation}, {"steps", e.steps}};
}

}  // namespace

ImportResult import_gltf(const ImportRequest& request, bool as_pac) {
  const ImportSettings settings = settings_of(request.options);
  const DocumentOptions o = document_options(request.options);
  if (request.template_path.empty()) {
    throw Error("Monster Hunter import writes into an existing pack: give --template ORIGINAL (a "
                "model PAC, or an animation pack with --skeleton S)");
  }
  const std::filesystem::path path = template_file(request.template_path.string(), request.options);
  const std::vector<uint8_t> bytes = read_file(path);
  std::optional<Skeleton> skeleton;
  std::optional<AnimPack> pack;
  std::optional<ModelPac> model_pac;
  try {
    if (sniff_pac(bytes)) {
      model_pac = read_model_pac(bytes, o.game);
      if (!model_pac->pack) throw Error("the PAC holds no animation pack");
      skeleton = model_pac->skeleton;
      pack = model_pac->pack;
    } else if (sniff_pack_layout(bytes)) {
      if (as_pac) {
        throw Error("the template is an animation pack, not a PAC: write it with --as mh-pack "
                    "(and --skeleton S)");
      }
    } else {
      throw Error("not a Monster Hunter model PAC or animation pack");
    }
  } catch (const Error& e) {
    throw e.with_file(path.string());
  }
  if (auto it = request.options.find("skeleton"); it != request.options.end())
    skeleton = load_skeleton(it->second);
  if (!skeleton) {
    throw Error("the template holds no skeleton: give --skeleton S (the monster's skeleton file)");
  }
  if (!pack) {
    try {
      pack = read_pack(bytes, pack_game(bytes, o.game, &*skeleton));
    } catch (const Error& e) {
      throw e.with_file(path.string());
    }
  }
  if (request.source.clips.empty()) throw Error("the glTF holds no animation to import");

  ImportResult result;
  const std::vector<ClipImport> clips = import_clips(request.source, *skeleton, *pack, settings,
                                                     &result.notes);
  if (auto it = request.options.find("frame-rate"); it != request.options.end() &&
                                                     std::stod(it->second) != kClipRate) {
    result.notes.push_back("--frame-rate is not used: Monster Hunter keys sit on clip frames, 30 a "
                           "second");
  }
  std::vector<uint8_t> pack_bytes;
  try {
    pack_bytes = write_pack(*pack);
  } catch (const Error& e) {
    throw Error(fmt::format("the written pack cannot be encoded: {} (raise --tolerance for fewer "
                            "keys)",
                            e.message()));
  }
  const AnimPack written = read_pack(pack_bytes, pack->game);  // clips in first-use order
  RuleInputs in;
  in.skeleton = &*skeleton;
  in.pack = &written;
  in.model = model_pac && model_pac->model ? &*model_pac->model : nullptr;
  in.em = settings.em;
  const std::vector<Finding> findings = validate(in);
  std::string errors;
  Json lines = Json::array();
  for (const Finding& f : findings) {
    lines.push_back(reference_line(f));
    if (f.level == Finding::Level::kError) errors += "\n  " + reference_line(f);
  }
  if (!errors.empty()) {
    throw Error("the written pack breaks the engine rules (validate), so it is not written:" +
                errors);
  }
  for (const Finding& f : findings) result.notes.push_back(reference_line(f));

  // The report: per clip and per joint the largest error of what the engine plays against the
  // glTF; `max_error` is each joint's worst over the clips, in engine steps (--tolerance's unit).
  Json report_clips = Json::array();
  Json max_error = Json::object();
  std::vector<std::string> missed;
  for (const ClipImport& c : clips) {
    Json joints = Json::object();
    for (const auto& [name, e] : c.joints) {
      joints[name] = error_json(e);
      const double prior = max_error.contains(name) ? max_error[name].get<double>() : 0.0;
      max_error[name] = std::max(prior, e.steps);
      if (e.steps > settings.tolerance * (1 + 1e-9))
        missed.push_back(fmt::format("{} joint {} by {:.4g} steps", c.name, name, e.steps));
    }
    Json jc = {{"name", c.name},         {"frames", c.frames},
               {"kept_channels", c.kept_channels}, {"fitted_channels", c.fitted_channels},
               {"keys", c.keys},         {"max_error", joints},
               {"worst", c.worst}};
    if (pack->game == Game::kMhfu) {
      jc["entry"] = c.target;
    } else {
      const SlotRef ref = clip_slot(c.target);
      jc["clip_id"] = c.target;
      jc["stream"] = ref.stream;
      jc["slot"] = ref.slot;
    }
    report_clips.push_back(std::move(jc));
  }
  result.report = {{"game", to_string(pack->game)},
                   {"template", path.string()},
                   {"tolerance", settings.tolerance},
                   {"tolerance_rotation", settings.tolerance * kRotStep},
                   {"tolerance_translation", settings.tolerance * kLocStep},
                   {"within_tolerance", missed.empty()},
                   {"max_error", max_error},
                   {"clips", report_clips},
                   {"findings", lines}};
  if (!missed.empty()) {
    std::string list;
    for (size_t i = 0; i < missed.size() && i < 8; ++i) list += (i ? "; " : "") + missed[i];
    if (missed.size() > 8) list += fmt::format(" (+{})", missed.size() - 8);
    const std::string what = fmt::format(
        "the engine's playback misses --tolerance {} (steps of pi/8192 rad, 1/16 unit): {}; "
        "raise --tolerance (half a step is the quantisation of each axis)",
        settings.tolerance, list);
    if (!request.dry_run) throw Error(what + ", so nothing is written");
    result.notes.push_back(what);
  }
  if (as_pac) {
    Pac pac = model_pac->view.pac;
    pac.entries[*model_pac->view.pack_entry] = std::move(pack_bytes);
    result.bytes = write_pac(pac);
  } else {
    result.bytes = std::move(pack_bytes);
  }
  return result;
}

}  // namespace animkit::monster_hunter
