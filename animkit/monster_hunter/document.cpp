#include "animkit/monster_hunter/document.h"

#include <fmt/format.h>

#include <cmath>
#include <set>

#include "animkit/monster_hunter/dump.h"
#include "animkit/monster_hunter/entries.h"
#include "animkit/monster_hunter/records.h"
#include "animkit/monster_hunter/rules.h"

namespace animkit::monster_hunter {

DocumentOptions document_options(const Options& options) {
  DocumentOptions o;
  if (auto it = options.find("game"); it != options.end()) o.game = parse_game(it->second);
  if (auto it = options.find("rate"); it != options.end()) {
    try {
      o.rate = std::stof(it->second);
    } catch (const std::exception&) {
      o.rate = 0;
    }
    if (!(o.rate > 0 && o.rate <= 1000)) throw Error("--rate: a frame rate in (0, 1000]");
  }
  if (auto it = options.find("em"); it != options.end()) {
    try {
      o.em = std::stoi(it->second);
    } catch (const std::exception&) {
      throw Error("--em: a species number (em), e.g. 75");
    }
  }
  return o;
}

std::vector<int> record_joints(int records, int bones, std::optional<int> em) {
  std::vector<int> joints(std::max(records, 0), -1);
  for (const auto& [bone, record] : for_monster(em, records, bones)) joints[record] = bone;
  return joints;
}

Playable mhp3rd_clip(const Skeleton& skeleton, const AnimPack& pack, int id,
                     const DocumentOptions& options) {
  const SlotRef ref = clip_slot(id);
  const Clip* clip = pack.clip(ref.stream, ref.slot);
  if (clip == nullptr)
    throw Error(fmt::format("clip {} (stream {} slot {}) is empty", id, ref.stream, ref.slot));
  Playable p;
  p.name = fmt::format("clip_{}", id);
  p.id = id;
  p.clip = *clip;
  const int n = static_cast<int>(skeleton.bones.size());
  p.motion = prepare(*clip, record_joints(static_cast<int>(clip->tracks.size()), n, options.em), n);
  return p;
}

std::vector<Playable> playables(const Skeleton& skeleton, const AnimPack& pack,
                                const DocumentOptions& options) {
  std::vector<Playable> out;
  const size_t n = skeleton.bones.size();
  if (pack.game == Game::kMhfu) {
    const int cap =
        capacity(pack, skeleton, options.em ? known_entries(*options.em) : std::nullopt);
    for (int e = 0; e < cap; ++e) {
      std::optional<Clip> clip = rig_clip(pack, e, skeleton);
      if (!clip) continue;
      Playable p;
      p.name = fmt::format("entry_{:03}", e);
      p.id = e;
      p.motion = prepare(*clip, n);
      p.clip = std::move(*clip);
      out.push_back(std::move(p));
    }
    return out;
  }
  std::set<int32_t> seen;
  for (size_t s = 0; s < pack.streams.size(); ++s) {
    for (size_t i = 0; i < pack.streams[s].size() && i < static_cast<size_t>(kEntryBank); ++i) {
      const int32_t c = pack.streams[s][i];
      if (c < 0 || !seen.insert(c).second) continue;
      out.push_back(
          mhp3rd_clip(skeleton, pack, clip_id(static_cast<int>(s), static_cast<int>(i)), options));
    }
  }
  return out;
}

namespace {

animkit::Skeleton neutral_skeleton(const Skeleton& s) {
  const Rig rig = make_rig(s);
  animkit::Skeleton out;
  std::set<std::string> used;
  for (size_t j = 0; j < s.bones.size(); ++j) {
    std::string name = s.bones[j].name_text();
    if (name.empty() || used.count(name) != 0) name = fmt::format("bone_{:02}", j);
    used.insert(name);
    const int p = rig.parents[j];
    if (p >= static_cast<int>(j)) {
      throw Error(
          fmt::format("bone {} has parent {} after it (PARENT_ORDER): renumber the bones "
                      "before exporting",
                      j, p));
    }
    Transform rest;
    rest.translation = rig.bind_offsets[j];  // the bind rotation is ignored (zero on monsters)
    out.add_joint(name, p, rest);
  }
  return out;
}

}  // namespace

}  // namespace animkit::monster_hunter

namespace animkit::monster_hunter {

namespace {

// A playable resampled at `rate` frames per second (clip frames run at 30 per second).
animkit::Clip neutral_clip(const Playable& p, const Rig& rig, float rate) {
  animkit::Clip c;
  c.name = p.name;
  c.frame_rate = rate;
  c.looping = p.motion.loop != 0;
  const float end = static_cast<float>(p.motion.end);
  c.duration = end / 30.f;
  c.joints.resize(rig.size());
  std::vector<bool> rotates(rig.size(), false), moves(rig.size(), false);
  for (size_t j = 0; j < rig.size(); ++j) {
    const auto& ch = p.motion.joints[j];
    rotates[j] = ch[kRotX] >= 0 || ch[kRotY] >= 0 || ch[kRotZ] >= 0;
    moves[j] = ch[kLocX] >= 0 || ch[kLocY] >= 0 || ch[kLocZ] >= 0;
    c.joints[j].rotation.interpolation = Interpolation::kSlerp;
    c.joints[j].translation.interpolation = Interpolation::kLinear;
  }
  std::vector<JointPose> local(rig.size());
  PoseCursor cursor;
  const int samples = static_cast<int>(std::ceil(end / 30.f * rate - 1e-4f));
  for (int k = 0; k <= samples; ++k) {
    const float seconds = std::min(static_cast<float>(k) / rate, c.duration);
    PoseJob{&rig, &p.motion, seconds * 30.f, &cursor, local, {}}.run();
    for (size_t j = 0; j < rig.size(); ++j) {
      if (rotates[j]) c.joints[j].rotation.add(seconds, euler_quat(local[j].euler));
      if (moves[j]) c.joints[j].translation.add(seconds, local[j].translation);
    }
  }
  return c;
}

std::string fmt_list(const std::vector<int>& v) {
  std::string s;
  for (int x : v) s += (s.empty() ? "" : " ") + std::to_string(x);
  return s;
}

}  // namespace

Animated to_animated(const Skeleton& skeleton, const AnimPack* pack,
                     const DocumentOptions& options) {
  Animated a;
  a.skeleton = neutral_skeleton(skeleton);
  a.notes.push_back(
      fmt::format("Monster Hunter: clips sampled per frame at {} frames per second "
                  "(a clip frame is 1/30 s); rotations Rz*Ry*Rx",
                  options.rate));
  if (pack == nullptr) return a;
  const Rig rig = make_rig(skeleton);
  for (const Playable& p : playables(skeleton, *pack, options))
    a.clips.push_back(neutral_clip(p, rig, options.rate));
  return a;
}

MonsterDocument::MonsterDocument(std::optional<Skeleton> skeleton, std::optional<AnimPack> pack,
                                 std::optional<Skeleton> species, DocumentOptions options)
    : skeleton_(std::move(skeleton)),
      pack_(std::move(pack)),
      species_(std::move(species)),
      options_(options) {}

Json MonsterDocument::info() const {
  Json j = Json::object();
  if (skeleton_) {
    const Skeleton& s = *skeleton_;
    Json parts = Json::object();
    for (const auto& [id, joints] : part_joints(s)) parts[std::to_string(id)] = joints.size();
    j["skeleton"] = {{"format", "mh-skeleton"},
                     {"game", to_string(s.game())},
                     {"bones", s.bones.size()},
                     {"params", s.params},
                     {"animated", s.animated()},
                     {"parts", parts},
                     {"named", s.bones.empty() ? false : s.bones[0].name.has_value()},
                     {"tail_size", s.tail.size()}};
  }
  if (pack_) {
    const AnimPack& p = *pack_;
    Json slots = Json::array(), filled = Json::array();
    for (const auto& st : p.streams) {
      slots.push_back(st.size());
      int f = 0;
      for (int32_t c : st) f += c >= 0;
      filled.push_back(f);
    }
    j["pack"] = {{"format", "mh-pack"},
                 {"game", to_string(p.game)},
                 {"streams", p.streams.size()},
                 {"slots", slots},
                 {"filled", filled},
                 {"clips", p.clips.size()},
                 {"tail_size", p.tail.size()}};
    if (skeleton_ && p.game == Game::kMhfu) {
      const int cap =
          capacity(p, *skeleton_, options_.em ? known_entries(*options_.em) : std::nullopt);
      const std::set<int> partial = partial_entries(p, *skeleton_, cap);
      j["entries"] = cap;
      j["partial_entries"] = fmt_list({partial.begin(), partial.end()});
    }
  }
  if (j.size() == 1) return j.begin().value();
  return j;
}

Json MonsterDocument::dump() const {
  if (skeleton_ && pack_) return {{"skeleton", to_json(*skeleton_)}, {"pack", to_json(*pack_)}};
  if (skeleton_) return to_json(*skeleton_);
  return to_json(*pack_);
}

std::vector<Finding> MonsterDocument::validate() const {
  return monster_hunter::validate(skeleton_ ? &*skeleton_ : nullptr, pack_ ? &*pack_ : nullptr,
                                  species_ ? &*species_ : nullptr, options_.em);
}

std::string MonsterDocument::validate_summary(const std::vector<Finding>& findings) const {
  return summary(findings);
}

std::optional<Animated> MonsterDocument::to_neutral() const {
  if (!skeleton_) return std::nullopt;
  return to_animated(*skeleton_, pack_ ? &*pack_ : nullptr, options_);
}

std::vector<ClipCurves> MonsterDocument::curves() const {
  std::vector<ClipCurves> out;
  if (!skeleton_ || !pack_) return out;
  const animkit::Skeleton names = neutral_skeleton(*skeleton_);
  static const char* kChannelNames[] = {"rotation.x", "rotation.y", "rotation.z",
                                        "location.x", "location.y", "location.z"};
  for (Playable& p : playables(*skeleton_, *pack_, options_)) {
    ClipCurves cc;
    cc.clip = p.name;
    cc.duration = static_cast<float>(p.motion.end) / 30.f;
    cc.frame_rate = 30;
    for (size_t j = 0; j < p.motion.joints.size(); ++j) {
      for (int k = 0; k < kMotionChannels; ++k) {
        const int32_t ci = p.motion.joints[j][k];
        if (ci < 0) continue;
        auto curve = std::make_shared<ChannelCurve>(p.motion.curves[ci]);
        Curve c;
        c.joint = names.names[j];
        c.channel = kChannelNames[k];
        c.unit = k < 3 ? "rad" : "";
        for (size_t i = 0; i < curve->size(); ++i) {
          c.key_times.push_back(curve->frames[i] / 30.f);
          c.key_values.push_back(curve->values[i]);
        }
        c.evaluate = [curve](float seconds) { return sample(*curve, seconds * 30.f); };
        cc.curves.push_back(std::move(c));
      }
    }
    out.push_back(std::move(cc));
  }
  return out;
}

Skeleton load_skeleton(const std::string& path) {
  const std::vector<uint8_t> bytes = read_file(path);
  try {
    return read_skeleton(bytes);
  } catch (const Error& e) {
    throw e.with_file(path);
  }
}

AnimPack load_pack(const std::string& path, std::optional<Game> game) {
  const std::vector<uint8_t> bytes = read_file(path);
  try {
    return read_pack(bytes, game);
  } catch (const Error& e) {
    throw e.with_file(path);
  }
}

namespace {

std::optional<Skeleton> option_skeleton(const Options& options, const char* key) {
  if (auto it = options.find(key); it != options.end()) return load_skeleton(it->second);
  return std::nullopt;
}

}  // namespace

std::unique_ptr<Document> open_skeleton(const std::filesystem::path& /*path*/, Bytes bytes,
                                        const Options& options) {
  const DocumentOptions o = document_options(options);
  Skeleton s = read_skeleton(bytes);
  std::optional<AnimPack> pack;
  if (auto it = options.find("pack"); it != options.end()) pack = load_pack(it->second, o.game);
  return std::make_unique<MonsterDocument>(std::move(s), std::move(pack),
                                           option_skeleton(options, "template"), o);
}

std::unique_ptr<Document> open_pack(const std::filesystem::path& /*path*/, Bytes bytes,
                                    const Options& options) {
  const DocumentOptions o = document_options(options);
  AnimPack p = read_pack(bytes, o.game);
  return std::make_unique<MonsterDocument>(option_skeleton(options, "skeleton"), std::move(p),
                                           option_skeleton(options, "template"), o);
}

std::unique_ptr<Document> open_set(const Options& options) {
  const auto pack = options.find("pack");
  const auto skel = options.find("skeleton");
  if (pack == options.end() && skel == options.end()) return nullptr;
  if (pack == options.end()) {
    // Only claim a lone --skeleton that is ours.
    const std::vector<uint8_t> bytes = read_file(skel->second);
    if (!sniff_skeleton(bytes) && options.count("game") == 0) return nullptr;
  }
  const DocumentOptions o = document_options(options);
  std::optional<AnimPack> p;
  if (pack != options.end()) p = load_pack(pack->second, o.game);
  return std::make_unique<MonsterDocument>(option_skeleton(options, "skeleton"), std::move(p),
                                           option_skeleton(options, "template"), o);
}

}  // namespace animkit::monster_hunter
