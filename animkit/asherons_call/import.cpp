#include "animkit/asherons_call/import.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <map>
#include <cmath>
#include <optional>

#include "animkit/asherons_call/assets.h"
#include "animkit/asherons_call/command_ids.h"
#include "animkit/asherons_call/creature.h"
#include "animkit/asherons_call/dat.h"
#include "animkit/asherons_call/dat_objects.h"
#include "animkit/asherons_call/frame_ops.h"
#include "animkit/core/limits.h"
#include "animkit/core/sampling_job.h"
#include "animkit/core/rotation_angle.h"

namespace animkit::asherons_call {

namespace {

// The longest clip written: frames x parts stays far inside what read_animation accepts.
constexpr int64_t kMaxFrames = 1 << 20;

// Float rounding of the export's own arithmetic (the quaternion normalisation, the root's
// running product): a template value this close to the imported one is the same key.
constexpr float kSnap = 1e-5f;

std::optional<uint32_t> object_id(std::string_view text) {
  std::string_view digits = text;
  int base = 10;
  if (digits.starts_with("0x") || digits.starts_with("0X")) {
    digits.remove_prefix(2);
    base = 16;
  }
  uint32_t v = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v, base);
  if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size()) return {};
  return v;
}

bool is_dat(const std::filesystem::path& path) {
  const std::vector<uint8_t> head = read_head(path, kDatHeaderEnd);
  if (head.size() < kDatHeaderEnd) return false;
  try {
    read_dat_header(head);
    return true;
  } catch (const Error&) {
    return false;
  }
}

// --template: an Animation file (binary or JSON), or a dat with --id naming the animation.
struct Sources {
  std::optional<DatFile> dat;
  std::optional<Animation> original;
  std::optional<Setup> setup;
};

Sources load_sources(const ImportRequest& request) {
  Sources s;
  const auto id_it = request.options.find("id");
  if (!request.template_path.empty()) {
    if (is_dat(request.template_path)) {
      s.dat = DatFile::open(request.template_path);
      const std::optional<uint32_t> id =
          id_it == request.options.end() ? std::nullopt : object_id(id_it->second);
      if (!id || (*id >> 24) != kTypeAnimation) {
        throw Error(fmt::format("{}: a dat template needs --id naming its animation (0x03xxxxxx)",
                                request.template_path.string()));
      }
      try {
        s.original = animation_from_dat(*s.dat, *id);
      } catch (const Error& e) {
        throw e.with_file(request.template_path.string());
      }
    } else {
      s.original = load_animation(request.template_path);
    }
  }
  const auto setup_it = request.options.find("setup");
  if (setup_it != request.options.end()) {
    const std::string& v = setup_it->second;
    const size_t colon = v.rfind(':');
    std::optional<uint32_t> id = object_id(v);
    std::optional<DatFile> own;
    if (!id && colon != std::string::npos && object_id(std::string_view(v).substr(colon + 1))) {
      id = object_id(std::string_view(v).substr(colon + 1));
      own = DatFile::open(v.substr(0, colon));  // --setup DAT:0x02000001
    }
    if (id) {
      const DatFile* dat = own ? &*own : s.dat ? &*s.dat : nullptr;
      if (!dat) {
        throw Error(fmt::format("--setup {}: name the dat too (--setup DAT:{}), or a Setup file", v,
                                v));
      }
      if ((*id >> 24) != kTypeSetup)
        throw Error(fmt::format("--setup {}: not a Setup id (0x02xxxxxx)", v));
      s.setup = setup_from_dat(*dat, *id);
    } else {
      const std::vector<uint8_t> bytes = read_file(v);
      try {
        s.setup = read_setup(bytes);
      } catch (const Error& e) {
        throw e.with_file(v);
      }
    }
  }
  return s;
}

const Clip& choose_clip(const Animated& source) {
  if (source.clips.empty()) throw Error("the glTF has no animation to import");
  if (source.clips.size() > 1) {
    std::string names;
    for (const Clip& c : source.clips) names += (names.empty() ? "" : ", ") + c.name;
    throw Error(fmt::format(
        "the glTF has {} animations and an Animation object holds one: pick it with --clip "
        "(the file has: {})",
        source.clips.size(), names));
  }
  return source.clips.front();
}

std::string list(const std::vector<std::string>& names) {
  std::string s;
  for (size_t i = 0; i < names.size() && i < 8; ++i) s += (i ? ", " : "") + names[i];
  if (names.size() > 8) s += fmt::format(" and {} more", names.size() - 8);
  return s;
}

std::optional<size_t> part_index_of(std::string_view name) {
  if (!name.starts_with("part_")) return {};
  name.remove_prefix(5);
  size_t v = 0;
  const auto [end, ec] = std::from_chars(name.data(), name.data() + name.size(), v);
  if (name.empty() || ec != std::errc() || end != name.data() + name.size()) return {};
  return v;
}

// Which glTF joint is the root (-1: none, the object frame is identity) and which poses part i.
struct PartMap {
  int root = -1;
  std::vector<int> joint_of_part;
  bool by_index = false;
};

// `held`: the Setup's part count when it has more parts than are written; joints of those parts
// are accepted and not written (they hold their rest placement).
PartMap map_parts(const Skeleton& sk, std::optional<size_t> num_parts, const std::string& whose,
                  size_t held) {
  PartMap m;
  if (auto r = sk.find("root")) m.root = *r;
  std::vector<int> others;
  std::vector<std::string> unnamed;
  std::map<size_t, int> named;
  std::vector<std::string> twice;
  for (size_t j = 0; j < sk.num_joints(); ++j) {
    if (static_cast<int>(j) == m.root) continue;
    others.push_back(static_cast<int>(j));
    if (auto p = part_index_of(sk.names[j])) {
      if (!named.emplace(*p, static_cast<int>(j)).second) twice.push_back(sk.names[j]);
    } else {
      unnamed.push_back(sk.names[j]);
    }
  }
  if (!twice.empty()) throw Error("the glTF names a part twice: " + list(twice));
  if (unnamed.empty()) {
    // By name: part_<i> is part i.
    const size_t n = num_parts ? *num_parts : (named.empty() ? 0 : named.rbegin()->first + 1);
    std::vector<std::string> missing, extra;
    m.joint_of_part.assign(n, -1);
    for (const auto& [p, j] : named) {
      if (p < n)
        m.joint_of_part[p] = j;
      else if (p >= held)
        extra.push_back(sk.names[static_cast<size_t>(j)]);
    }
    for (size_t p = 0; p < n; ++p)
      if (m.joint_of_part[p] < 0) missing.push_back(part_joint_name(p));
    if (!missing.empty() || !extra.empty()) {
      std::string what;
      if (!missing.empty())
        what += fmt::format("missing {} part joint(s): {}", missing.size(), list(missing));
      if (!extra.empty()) {
        what += fmt::format("{}{} joint(s) past the {} parts {}: {}", what.empty() ? "" : "; ",
                            extra.size(), n, whose, list(extra));
      }
      throw Error("the glTF joints do not match the parts (by name): " + what);
    }
    return m;
  }
  // By index: the joints besides the root, in the file's order, are parts 0..n-1.
  if (num_parts && others.size() == held && held > *num_parts) others.resize(*num_parts);
  if (num_parts && others.size() != *num_parts) {
    throw Error(fmt::format(
        "the glTF joints do not match the parts: {} joint(s) besides the root ({}) for the {} "
        "parts {}; name them part_0..part_{} or give exactly {} joints",
        others.size(), list(unnamed), *num_parts, whose,
        *num_parts == 0 ? 0 : *num_parts - 1, *num_parts));
  }
  m.joint_of_part = others;
  m.by_index = true;
  return m;
}

// A track's value at frame time t: a key within `tol` of t is taken as it is (so the export's
// keys come back bit for bit whatever their float times); between keys, the track's own
// interpolation.
template <class T>
std::optional<T> sample(const Track<T>& track, float t, float tol) {
  if (track.empty()) return std::nullopt;
  const uint32_t key = find_key(track.times, t + tol, 0);  // binary search: no scan per frame
  if (std::fabs(track.times[key] - t) <= tol || track.interpolation == Interpolation::kStep ||
      key + 1 >= track.size() || t < track.times[key]) {
    return track.values[key];
  }
  return evaluate(track, t, key);
}

AFrame local_at(const Clip& clip, const Skeleton& sk, size_t j, float t, float tol) {
  const JointTracks& jt = clip.joints[j];
  AFrame f{sk.rest[j].translation, sk.rest[j].rotation};
  if (auto v = sample(jt.translation, t, tol)) f.origin = *v;
  if (auto q = sample(jt.rotation, t, tol)) f.orientation = *q;
  return f;
}

AFrame inverse(const AFrame& f) {
  AFrame r;
  r.orientation = conjugate(f.orientation);
  r.origin = rotate(r.orientation, f.origin) * -1.0f;
  return r;
}

// Every joint's frame at time t, in glTF axes: `model` from the top of the hierarchy, `under`
// relative to the root joint (exactly the local key for a joint directly under it).
struct PoseAt {
  std::vector<AFrame> local, model;
};

PoseAt pose_at(const Clip& clip, const Skeleton& sk, float t, float tol) {
  PoseAt p;
  p.local.resize(sk.num_joints());
  p.model.resize(sk.num_joints());
  for (size_t j = 0; j < sk.num_joints(); ++j) {
    p.local[j] = local_at(clip, sk, j, t, tol);
    const int parent = sk.parents[j];
    p.model[j] = parent < 0 ? p.local[j] : compose(p.model[static_cast<size_t>(parent)], p.local[j]);
  }
  return p;
}

AFrame relative_to_root(const PoseAt& p, const Skeleton& sk, int root, int joint) {
  AFrame f = p.local[static_cast<size_t>(joint)];
  for (int a = sk.parents[static_cast<size_t>(joint)]; a >= 0; a = sk.parents[static_cast<size_t>(a)]) {
    if (a == root) return f;
    f = compose(p.local[static_cast<size_t>(a)], f);
  }
  // Not below the root: its model frame seen from the root's.
  return root < 0 ? f : compose(inverse(p.model[static_cast<size_t>(root)]), f);
}

bool is_identity(const AFrame& f) {
  return length(f.origin) <= kSnap && std::fabs(std::fabs(f.orientation.w) - 1.0f) <= kSnap;
}

// The template's value when it reproduces the imported one within float rounding (either sign
// of the quaternion), else the imported value.
AFrame snap(const AFrame& imported, const AFrame& original, float scale) {
  const float tol_t = kSnap * std::max(1.0f, scale);
  const Vec3 d = imported.origin - original.origin;
  if (std::fabs(d.x) > tol_t || std::fabs(d.y) > tol_t || std::fabs(d.z) > tol_t) return imported;
  const Quat a = imported.orientation, b = original.orientation;
  auto close = [](Quat x, Quat y) {
    return std::fabs(x.x - y.x) <= kSnap && std::fabs(x.y - y.y) <= kSnap &&
           std::fabs(x.z - y.z) <= kSnap && std::fabs(x.w - y.w) <= kSnap;
  };
  return close(a, b) || close(-a, b) ? original : imported;
}

// The angle of a^-1 b (either sign): the core's one measure (issue 32, item 4).
float angle_between(Quat a, Quat b) { return static_cast<float>(rotation_angle(a, b)); }

uint32_t choose_id(const Sources& s, const ImportRequest& request, const Clip& clip,
                   std::vector<std::string>& notes) {
  if (s.original) return s.original->id;
  if (auto it = request.options.find("id"); it != request.options.end()) {
    const std::optional<uint32_t> id = object_id(it->second);
    if (!id || (*id >> 24) != kTypeAnimation)
      throw Error(fmt::format("--id {}: not an Animation id (0x03xxxxxx)", it->second));
    return *id;
  }
  if (const std::optional<uint32_t> id = object_id(clip.name); id && (*id >> 24) == kTypeAnimation)
    return *id;
  notes.push_back("no template, --id or 0x03 clip name: the animation id is 0x03000000");
  return 0x03000000;
}

// The hooks of `extras.events`: frame round(time x rate); the payload is the hook's JSON (the
// event's name stands for its type when the payload has none).
void add_hooks(Animation& a, const Clip& clip, float rate) {
  for (size_t e = 0; e < clip.events.size(); ++e) {
    const Event& ev = clip.events[e];
    const std::string where = fmt::format("event {} '{}' at {} s", e, ev.name, ev.time);
    Json payload;
    try {
      payload = parse_json(ev.payload.empty() ? "{}" : ev.payload);
    } catch (const Error& err) {
      throw Error(fmt::format("{}: payload is not JSON ({})", where, err.what()));
    }
    if (!payload.is_object()) throw Error(where + ": the payload must be a hook's JSON object");
    if (!payload.contains("type")) payload["type"] = ev.name;
    AnimHook hook;
    try {
      hook = hook_from_json(payload);
    } catch (const Error& err) {
      throw Error(fmt::format("{}: not an Asheron's Call hook ({}); a hook event's payload is the "
                              "hook as `dump --json` writes it, e.g. {{\"type\": \"Sound\", "
                              "\"direction\": 0, \"sound_id\": 167772161}}",
                              where, err.what()));
    }
    const double f = std::round(static_cast<double>(ev.time) * rate);
    const size_t k = static_cast<size_t>(std::clamp(f, 0.0, static_cast<double>(a.frames.size() - 1)));
    a.frames[k].hooks.push_back(std::move(hook));
  }
}

// The per-joint maximum error of the written Animation, played as the client shows it (frame
// floor(t x rate) at time t, the object frame from its pos_frames), against the glTF at every
// frame time and every key time of the clip (metres, radians; glTF axes).
Json error_report(const Animation& written, const Clip& clip, const Skeleton& sk,
                  const PartMap& map, float rate, const Setup* setup) {
  AnimationStore store;
  store.add(written);
  MotionData md;
  md.anims.push_back({written.id, 0, -1, rate});
  const std::vector<ShownFrame> shown = shown_frames(md, store, nullptr);
  if (shown.empty()) return Json{{"max_error", Json::object()}};  // (the rate is above EPS)
  std::vector<float> times;
  for (size_t k = 0; k < shown.size(); ++k) times.push_back(static_cast<float>(k) / rate);
  const float end = static_cast<float>(shown.size()) / rate;
  for (const JointTracks& jt : clip.joints) {
    for (float t : jt.translation.times) if (t >= 0 && t < end) times.push_back(t);
    for (float t : jt.rotation.times) if (t >= 0 && t < end) times.push_back(t);
  }
  std::sort(times.begin(), times.end());
  times.erase(std::unique(times.begin(), times.end()), times.end());
  const float tol = 1e-3f / rate;
  std::vector<float> max_t(sk.num_joints(), 0), max_r(sk.num_joints(), 0);
  const std::vector<AFrame> rest =
      setup ? rest_parts(*setup) : std::vector<AFrame>(map.joint_of_part.size(), AFrame{});
  // The object frame is relative to the glTF root's first frame (pos_frames start there).
  const AFrame start =
      map.root < 0 ? AFrame{} : pose_at(clip, sk, 0, tol).model[static_cast<size_t>(map.root)];
  for (float t : times) {
    const size_t k = std::min(shown.size() - 1,
                              static_cast<size_t>(std::max(0.0f, std::floor(t * rate + 1e-3f))));
    const PoseAt p = pose_at(clip, sk, t, tol);
    const AFrame root_gltf = map.root < 0 ? AFrame{} : p.model[static_cast<size_t>(map.root)];
    const AFrame played_root = compose(start, to_gltf_axes(shown[k].root));
    auto account = [&](int joint, const AFrame& want, const AFrame& got) {
      if (joint < 0) return;
      const size_t j = static_cast<size_t>(joint);
      max_t[j] = std::max(max_t[j], length(want.origin - got.origin));
      max_r[j] = std::max(max_r[j], angle_between(want.orientation, got.orientation));
    };
    account(map.root, root_gltf, played_root);
    std::vector<AFrame> parts = rest;
    parts.resize(map.joint_of_part.size());
    apply_pose(parts, *shown[k].pose);
    for (size_t i = 0; i < map.joint_of_part.size(); ++i) {
      const int j = map.joint_of_part[i];
      const AFrame want = map.root < 0 ? p.model[static_cast<size_t>(j)]
                                        : compose(root_gltf, relative_to_root(p, sk, map.root, j));
      account(j, want, compose(played_root, to_gltf_axes(parts[i])));
    }
  }
  Json joints = Json::object();
  float worst_t = 0, worst_r = 0;
  for (size_t j = 0; j < sk.num_joints(); ++j) {
    if (static_cast<int>(j) != map.root &&
        std::find(map.joint_of_part.begin(), map.joint_of_part.end(), static_cast<int>(j)) ==
            map.joint_of_part.end())
      continue;
    joints[sk.names[j]] = {{"translation", json_float(max_t[j])}, {"rotation", json_float(max_r[j])}};
    worst_t = std::max(worst_t, max_t[j]);
    worst_r = std::max(worst_r, max_r[j]);
  }
  return Json{{"max_error", joints},
              {"max_translation_error", json_float(worst_t)},
              {"max_rotation_error", json_float(worst_r)},
              {"units", {{"translation", "m"}, {"rotation", "rad"}}}};
}

}  // namespace

ImportResult import_animation(const ImportRequest& request, bool json) {
  ImportResult result;
  const Sources s = load_sources(request);
  const Animated& source = request.source;
  const Clip& clip = choose_clip(source);
  const Skeleton& sk = source.skeleton;

  std::optional<size_t> num_parts;
  std::string whose;
  if (s.original) {
    num_parts = s.original->num_parts;
    whose = "of the template";
  } else if (s.setup) {
    num_parts = s.setup->parts.size();
    whose = "of the Setup";
  }
  const PartMap map = map_parts(sk, num_parts, whose, s.setup ? s.setup->parts.size() : 0);
  if (map.by_index)
    result.notes.push_back("joints matched to parts by index (their names are not part_<i>)");
  if (s.setup) {
    // A rest pose other than the Setup's is reported, not re-targeted (issue 17).
    const PoseAt rest = pose_at(Clip{.joints = std::vector<JointTracks>(sk.num_joints())}, sk, 0, 0);
    const std::vector<AFrame> setup_rest = rest_parts(*s.setup);
    for (size_t i = 0; i < map.joint_of_part.size() && i < setup_rest.size(); ++i) {
      const AFrame got = from_gltf_axes(relative_to_root(rest, sk, map.root, map.joint_of_part[i]));
      const float dt = length(got.origin - setup_rest[i].origin);
      const float dr = angle_between(got.orientation, setup_rest[i].orientation);
      if (dt > 1e-3f || dr > 1e-3f) {
        result.notes.push_back(fmt::format(
            "joint '{}': rest pose differs from the Setup's rest placement (translation by "
            "{:.6g} m, rotation by {:.6g} rad); the clip is written as authored, not re-targeted",
            sk.names[static_cast<size_t>(map.joint_of_part[i])], dt, dr));
      }
    }
  }
  if (s.setup && s.original && s.setup->parts.size() != s.original->num_parts) {
    result.notes.push_back(fmt::format("the Setup has {} parts, the template {}: the template's "
                                       "count is written",
                                       s.setup->parts.size(), s.original->num_parts));
  }

  // Frame k shows at k / rate (container page 6, "Timing").
  float rate = clip.frame_rate;
  if (auto it = request.options.find("frame-rate"); it != request.options.end()) {
    const char* text = it->second.c_str();
    char* end = nullptr;
    rate = std::strtof(text, &end);
    if (end == text || *end != '\0') throw Error(fmt::format("--frame-rate {}: not a number", it->second));
  }
  // The client skips a node whose |framerate| is at most EPS (runtime 1.4): such a rate would
  // write an animation nothing can play.
  if (!(rate > kEpsilon) || !std::isfinite(rate))
    throw Error(fmt::format("frame rate {} is not above {} (EPS)", rate, kEpsilon));
  const double frames_d = std::round(static_cast<double>(clip.duration) * rate);
  if (!(frames_d <= static_cast<double>(kMaxFrames)))
    throw Error(fmt::format("clip '{}' is {} frames long (at most {})", clip.name, frames_d, kMaxFrames));
  const size_t n = std::max<size_t>(1, static_cast<size_t>(frames_d));
  // What the Animation will hold (frames x (parts + pos frame) x 28 bytes) is within the memory
  // limit before anything is sampled.
  checked_size(n, (map.joint_of_part.size() + 1) * 28 + 4, "import: the Animation's frames");
  const float tol = 0.25f / rate;  // a key this close to a frame's time is that frame's

  Animation a;
  a.id = choose_id(s, request, clip, result.notes);
  a.num_parts = static_cast<uint32_t>(map.joint_of_part.size());
  if (s.original) {
    a.flags = s.original->flags;
    a.tail = s.original->tail;
  }
  a.frames.resize(n);
  std::vector<AFrame> roots(n);
  AFrame start;
  for (size_t k = 0; k < n; ++k) {
    const float t = static_cast<float>(k) / rate;
    const PoseAt p = pose_at(clip, sk, t, tol);
    if (map.root >= 0) {
      if (k == 0) start = p.model[static_cast<size_t>(map.root)];
      roots[k] = from_gltf_axes(compose(inverse(start), p.model[static_cast<size_t>(map.root)]));
      if (k == 0) roots[k] = AFrame{};
    }
    AnimationFrame& f = a.frames[k];
    f.parts.resize(a.num_parts);
    for (size_t i = 0; i < a.num_parts; ++i) {
      AFrame part = from_gltf_axes(relative_to_root(p, sk, map.root, map.joint_of_part[i]));
      if (s.original && k < s.original->frames.size() && i < s.original->num_parts)
        part = snap(part, s.original->frames[k].parts[i], length(part.origin));
      f.parts[i] = part;
    }
  }
  if (map.root >= 0 && !is_identity(from_gltf_axes(start)))
    result.notes.push_back("the root joint does not start at the origin: pos_frames are relative "
                           "to its first frame");

  // Root motion -> pos_frames: a forward node combines pos[k] as frame k is left, so
  // root_k+1 = root_k . pos[k]; the last frame's is never left forward (the template's, else
  // identity).
  bool moves = false;
  for (const AFrame& r : roots) moves |= !is_identity(r);
  if (moves) a.flags |= kHasPosFrames;
  if (a.has_pos_frames()) {
    a.pos_frames.resize(n);
    for (size_t k = 0; k + 1 < n; ++k) {
      AFrame pos = compose(inverse(roots[k]), roots[k + 1]);
      if (s.original && s.original->has_pos_frames() && k < s.original->pos_frames.size())
        pos = snap(pos, s.original->pos_frames[k], length(roots[k + 1].origin));
      a.pos_frames[k] = pos;
    }
    const bool same_length = s.original && s.original->has_pos_frames() &&
                             s.original->pos_frames.size() == n;
    a.pos_frames[n - 1] = same_length ? s.original->pos_frames[n - 1] : AFrame{};
    if (!same_length) {
      result.notes.push_back("the last frame's pos_frame is never applied forward (not in the "
                             "glTF): identity");
    }
  }
  add_hooks(a, clip, rate);
  if (auto it = request.options.find("tolerance"); it != request.options.end()) {
    result.notes.push_back("--tolerance is not used: an Animation stores every frame as float32, "
                           "no key is dropped");
  }

  result.report = error_report(a, clip, sk, map, rate, s.setup ? &*s.setup : nullptr);
  result.report["clip"] = clip.name;
  result.report["id"] = hex32(a.id);
  result.report["frames"] = n;
  result.report["parts"] = a.num_parts;
  result.report["frame_rate"] = json_float(rate);
  result.report["matched_by"] = map.by_index ? "index" : "name";
  size_t hooks = 0;
  for (const AnimationFrame& f : a.frames) hooks += f.hooks.size();
  result.report["hooks"] = hooks;
  if (json) {
    const std::string text = to_json(a).dump(1) + "\n";
    result.bytes.assign(text.begin(), text.end());
  } else {
    result.bytes = write_animation(a);
  }
  if (s.original && result.bytes == (json ? std::vector<uint8_t>() : write_animation(*s.original)))
    result.notes.push_back("identical to the template");
  return result;
}

}  // namespace animkit::asherons_call
