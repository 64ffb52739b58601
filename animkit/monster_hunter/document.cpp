#include "animkit/monster_hunter/document.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>

#include "animkit/core/limits.h"
#include "animkit/monster_hunter/dump.h"
#include "animkit/monster_hunter/entries.h"
#include "animkit/monster_hunter/model_export.h"
#include "animkit/monster_hunter/pmo_geometry.h"
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
  o.strict = options.count("strict") != 0;
  if (auto it = options.find("max-bytes"); it != options.end()) {
    try {
      // The CLI checked the value already (a non-negative integer, issue 31); this guards the
      // other callers (Python): stoull would take "-1" as 2^64 - 1.
      size_t used = 0;
      if (it->second.find('-') != std::string::npos) throw std::invalid_argument("negative");
      o.max_bytes = std::stoull(it->second, &used);
      if (used != it->second.size()) throw std::invalid_argument("trailing");
    } catch (const std::exception&) {
      throw Error("--max-bytes: a byte count, e.g. 536870912");
    }
  }
  if (auto it = options.find("em"); it != options.end()) {
    try {
      size_t used = 0;  // "1e308" is not 1 (the CLI refuses it before: issue 31)
      o.em = std::stoi(it->second, &used);
      if (used != it->second.size()) throw std::invalid_argument("trailing");
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

std::optional<Playable> entry_playable(const Skeleton& skeleton, const AnimPack& pack, int entry) {
  std::optional<Clip> clip = rig_clip(pack, entry, skeleton);
  if (!clip) return std::nullopt;
  const size_t n = skeleton.bones.size();
  Playable p;
  p.name = fmt::format("entry_{:03}", entry);
  p.id = entry;
  p.motion = prepare(*clip, n);
  p.clip = std::move(*clip);
  for (const auto& [id, joints] : part_joints(skeleton)) {
    const Clip* part = part_clip(pack, id, entry);
    if (part == nullptr) continue;
    p.parts.push_back({id, joints, prepare(*part, joints, n)});
  }
  return p;
}

std::vector<Playable> playables(const Skeleton& skeleton, const AnimPack& pack,
                                const DocumentOptions& options) {
  std::vector<Playable> out;
  if (pack.game == Game::kMhfu) {
    const int cap =
        capacity(pack, skeleton, options.em ? known_entries(*options.em) : std::nullopt);
    for (int e = 0; e < cap; ++e)
      if (std::optional<Playable> p = entry_playable(skeleton, pack, e)) out.push_back(std::move(*p));
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

int Playable::end() const {
  if (parts.empty()) return motion.end;
  int e = 0;
  for (const Part& p : parts) e = std::max(e, p.motion.end);
  return e;
}

std::vector<std::string> dropped_entries(const Skeleton& skeleton, const AnimPack& pack,
                                         const DocumentOptions& options) {
  std::vector<std::string> out;
  if (pack.game != Game::kMhfu) return out;
  const std::optional<int> known = options.em ? known_entries(*options.em) : std::nullopt;
  const int cap = capacity(pack, skeleton, known);
  std::vector<int> lost;
  for (size_t s = 0; s < pack.streams.size(); ++s)
    for (size_t i = 0; i < pack.streams[s].size() && i < static_cast<size_t>(kEntryBank); ++i)
      if (pack.streams[s][i] >= 0) {
        const int e = entry_of(static_cast<int>(s), static_cast<int>(i));
        if (e >= cap && (!known || e < *known)) lost.push_back(e);
      }
  std::sort(lost.begin(), lost.end());
  lost.erase(std::unique(lost.begin(), lost.end()), lost.end());
  if (lost.empty()) return out;
  // The part that caps the capacity: the fewest entries with a slot.
  std::string why;
  int fewest = INT32_MAX;
  for (int part : animated_parts(skeleton)) {
    const auto slots = [&](int64_t st) -> size_t {
      return st >= 0 && static_cast<uint64_t>(st) < pack.streams.size() ? pack.streams[st].size()
                                                                       : 0;
    };
    const int64_t even = int64_t{kPartStreams} * part;
    const size_t e = slots(even), o = slots(even + 1);
    const int entries = e < static_cast<size_t>(kEntryBank)
                            ? static_cast<int>(e)
                            : kEntryBank + static_cast<int>(std::min<size_t>(o, kEntryBank));
    if (entries < fewest) {
      fewest = entries;
      why = fmt::format("part {} has {} slots in stream {} and {} in stream {}", part, e, even, o,
                        even + 1);
    }
  }
  out.push_back(fmt::format("{} entries with clips not exported (entries {}): only the {} every "
                            "animated part has a slot for are ({})",
                            lost.size(), list_numbers(lost), cap, why));
  return out;
}

animkit::Skeleton neutral_skeleton(const Skeleton& s) {
  const Rig rig = make_rig(s);
  animkit::Skeleton out;
  std::set<std::string> used;
  for (size_t j = 0; j < s.bones.size(); ++j) {
    std::string name = s.bones[j].name_bytes();  // glTF writers apply the core rule
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

}  // namespace animkit::monster_hunter

namespace animkit::monster_hunter {

namespace {

// What one exported track costs beside its keys: its accessors, view, sampler and channel in the
// glTF JSON (nlohmann nodes), measured generously.
constexpr uint64_t kTrackJsonBytes = 4096;

// The samples of a playable at `rate` and which joints rotate / move.
struct SamplePlan {
  int samples = 0;
  std::vector<bool> rotates, moves;
  uint64_t bytes = 0;  // the keys' data: a float time per key, a quaternion or a vector each
};
SamplePlan plan_of(const Playable& p, const Rig& rig, float rate) {
  SamplePlan plan;
  plan.rotates.assign(rig.size(), false);
  plan.moves.assign(rig.size(), false);
  const auto mark = [&](const Motion& m) {
    for (size_t j = 0; j < rig.size() && j < m.joints.size(); ++j) {
      const auto& ch = m.joints[j];
      if (ch[kRotX] >= 0 || ch[kRotY] >= 0 || ch[kRotZ] >= 0) plan.rotates[j] = true;
      if (ch[kLocX] >= 0 || ch[kLocY] >= 0 || ch[kLocZ] >= 0) plan.moves[j] = true;
    }
  };
  if (p.parts.empty()) {
    mark(p.motion);
  } else {
    for (const Playable::Part& part : p.parts) mark(part.motion);
  }
  plan.samples = static_cast<int>(std::ceil(static_cast<float>(p.end()) / 30.f * rate - 1e-4f));
  uint64_t per_sample = 0;
  for (size_t j = 0; j < rig.size(); ++j) per_sample += plan.rotates[j] * 20 + plan.moves[j] * 16;
  plan.bytes = per_sample * (static_cast<uint64_t>(plan.samples) + 1);
  return plan;
}

// A playable resampled at `rate` frames per second (clip frames run at 30 per second). MHFU:
// each part on its own clock (clip_frame: a looping part restarts at its loop_start).
animkit::Clip neutral_clip(const Playable& p, const Rig& rig, float rate, const SamplePlan& plan) {
  animkit::Clip c;
  c.name = p.name;
  c.frame_rate = rate;
  c.looping = p.motion.loop != 0;
  const float end = static_cast<float>(p.end());
  c.duration = end / 30.f;
  c.joints.resize(rig.size());
  const std::vector<bool>& rotates = plan.rotates;
  const std::vector<bool>& moves = plan.moves;
  const size_t keys = static_cast<size_t>(plan.samples) + 1;
  for (size_t j = 0; j < rig.size(); ++j) {
    c.joints[j].rotation.interpolation = Interpolation::kSlerp;
    c.joints[j].translation.interpolation = Interpolation::kLinear;
    // Allocated once at their final size: the export's peak memory is what plan.bytes counts.
    if (rotates[j]) {
      c.joints[j].rotation.times.reserve(keys);
      c.joints[j].rotation.values.reserve(keys);
    }
    if (moves[j]) {
      c.joints[j].translation.times.reserve(keys);
      c.joints[j].translation.values.reserve(keys);
    }
  }
  std::vector<JointPose> local(rig.size());
  PoseCursor cursor;
  std::vector<PoseCursor> part_cursors(p.parts.size());
  for (int k = 0; k <= plan.samples; ++k) {
    const float seconds = std::min(static_cast<float>(k) / rate, c.duration);
    if (p.parts.empty()) {
      PoseJob{&rig, &p.motion, seconds * 30.f, &cursor, local, {}}.run();
    } else {
      for (size_t j = 0; j < rig.size(); ++j) local[j] = {{}, rig.bind_offsets[j]};
      for (size_t i = 0; i < p.parts.size(); ++i) {
        const Playable::Part& part = p.parts[i];
        sample_joints(part.motion, part.joints, clip_frame(part.motion, seconds * 30.f),
                      &part_cursors[i], rig, local);
      }
    }
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
  const std::vector<Playable> all = playables(skeleton, *pack, options);
  // The export's peak memory, counted before any sampling (issue 27 item 3): the sampled keys
  // live twice at once, in the neutral clips and in the glTF buffer they are written to (the
  // file streams from the buffer), plus the JSON of each track.
  uint64_t peak = 0;
  std::vector<SamplePlan> plans;
  for (const Playable& p : all) {
    plans.push_back(plan_of(p, rig, options.rate));
    const SamplePlan& plan = plans.back();
    const uint64_t tracks =
        std::count(plan.rotates.begin(), plan.rotates.end(), true) +
        std::count(plan.moves.begin(), plan.moves.end(), true);
    peak += 2 * plan.bytes + tracks * kTrackJsonBytes;
    if (peak > options.max_bytes) {
      throw Error(fmt::format(
          "the export would need more than {} bytes of memory (--max-bytes {}): {} entries / "
          "clips at {} samples per second, the keys held twice (sampled, then in the glTF "
          "buffer); export fewer entries, lower --rate, or raise --max-bytes",
          peak, options.max_bytes, all.size(), options.rate));
    }
  }
  for (size_t i = 0; i < all.size(); ++i) a.clips.push_back(neutral_clip(all[i], rig, options.rate, plans[i]));
  a.notes.push_back(fmt::format("Monster Hunter: {} {} exported, each lasting its longest part",
                                a.clips.size(), pack->game == Game::kMhfu ? "entries" : "clips"));
  for (std::string& w : dropped_entries(skeleton, *pack, options)) a.notes.push_back("warning: " + w);
  return a;
}

MonsterDocument::MonsterDocument(std::optional<Skeleton> skeleton, std::optional<AnimPack> pack,
                                 std::optional<Skeleton> species, DocumentOptions options)
    : skeleton_(std::move(skeleton)),
      pack_(std::move(pack)),
      species_(std::move(species)),
      options_(options) {}

namespace {
Json model_info(const PmoModel& m, Bytes pmo);
Json textures_json(const TmhBank& bank, bool bytes);
}  // namespace

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
  if (pac_) {
    const PacView& v = *pac_;
    Json table = Json::array();
    for (size_t i = 0; i < v.table.size(); ++i)
      table.push_back({{"entry", i}, {"offset", v.table[i].offset}, {"size", v.table[i].size},
                       {"holds", v.kinds[i]}});
    Json pac = {{"format", "mh-pac"},
                {"entries", v.pac.entries.size()},
                {"alignment", v.pac.alignment},
                {"tail_size", v.pac.tail.size()},
                {"table", table}};
    if (v.skeleton_entry) pac["skeleton_entry"] = *v.skeleton_entry;
    if (v.model_entry) pac["model_entry"] = *v.model_entry;
    if (v.pack_entry) pac["pack_entry"] = *v.pack_entry;
    if (model_) pac["model_groups"] = model_->groups.size();
    if (!v.model_error.empty()) pac["model_error"] = v.model_error;
    if (v.texture_entry) pac["texture_entry"] = *v.texture_entry;
    if (!v.texture_error.empty()) pac["texture_error"] = v.texture_error;
    if (model_ && v.model_entry) j["model"] = model_info(*model_, v.pac.entries[*v.model_entry]);
    if (textures_) j["textures"] = textures_json(*textures_, false);
    j["pac"] = pac;
    return j;
  }
  if (j.size() == 1) return j.begin().value();
  return j;
}

namespace {

// A PAC's table, each entry with what it holds; a nested PAC's entries under it.
Json pac_json(const Pac& pac, int depth) {
  const std::vector<PacSpan> table = pac_table(pac);
  Json entries = Json::array();
  for (size_t i = 0; i < table.size(); ++i) {
    const std::string kind = pac_entry_kind(pac.entries[i]);
    Json e = {{"entry", i}, {"offset", table[i].offset}, {"size", table[i].size}, {"holds", kind}};
    if (kind == "pac" && depth < 8) e["pac"] = pac_json(read_pac(pac.entries[i]), depth + 1);
    entries.push_back(std::move(e));
  }
  return {{"count", pac.entries.size()},
          {"alignment", pac.alignment},
          {"entries", entries},
          {"tail", to_hex(pac.tail)}};
}

Json floats(const float* f, size_t n) {
  Json a = Json::array();
  for (size_t i = 0; i < n; ++i) a.push_back(dump_float(f[i]));
  return a;
}

// model.md 2: every field of the tables, as stored.
Json model_json(const PmoModel& m) {
  Json meshes = Json::array();
  for (const PmoMesh& x : m.meshes) {
    Json mesh = {{"uv_scale", floats(x.uv_scale.data(), 2)},
                 {"lighting", x.lighting},
                 {"blend", x.blend},
                 {"material_count", x.material_count},
                 {"first_remap", x.first_remap},
                 {"group_count", x.group_count},
                 {"first_group", x.first_group}};
    if (m.version == "102") {
      mesh["scale"] = floats(x.scale.data(), 4);
      mesh["uv_offset"] = floats(x.uv_offset.data(), 2);
    }
    meshes.push_back(std::move(mesh));
  }
  Json groups = Json::array();
  for (const PmoGroup& g : m.groups) {
    Json bones = Json::array();
    for (const auto& [slot, bone] : g.bones) bones.push_back({slot, bone});
    groups.push_back({{"material", g.material},
                      {"first_bone", g.first_bone},
                      {"list", g.list},
                      {"vertices", g.vertices},
                      {"indices", g.indices},
                      {"bones", bones},
                      {"draws", g.draws ? Json(*g.draws) : Json(nullptr)}});
  }
  Json materials = Json::array();
  for (const PmoMaterial& x : m.materials)
    materials.push_back({{"color", x.color}, {"ambient", x.ambient}, {"texture", x.texture},
                         {"reserved", x.reserved}});
  return {{"version", m.version},
          {"size", m.size},
          {"clip", dump_float(m.clip)},
          {"scale", floats(m.scale.data(), 3)},
          {"offsets", {{"meshes", m.meshes_at}, {"groups", m.groups_at}, {"remap", m.remap_at},
                       {"palette", m.palette_at}, {"materials", m.materials_at},
                       {"geometry", m.geometry_at}}},
          {"meshes", meshes},
          {"groups", groups},
          {"remap", m.remap},
          {"materials", materials}};
}

// model.md 5: each image's format, size and CLUT; `bytes` adds the raw pixels and colours.
Json textures_json(const TmhBank& bank, bool bytes) {
  Json images = Json::array();
  for (const TmhImage& im : bank.images) {
    Json i = {{"format", im.format},
              {"format_name", tmh_format_name(im.format)},
              {"width", im.width},
              {"height", im.height},
              {"swizzled", tmh_swizzled(im)},
              {"pixel_bytes", im.pixels.size()},
              {"reserved", im.reserved},
              {"one", im.one}};
    if (im.clut) {
      i["clut"] = {{"format", im.clut->format}, {"entries", im.clut->entries}};
      if (bytes) i["clut"]["colors"] = to_hex(im.clut->colors);
    }
    if (bytes) i["pixels"] = to_hex(im.pixels);
    images.push_back(std::move(i));
  }
  Json j = {{"format", "mh-tmh"}, {"images", images}, {"reserved", bank.reserved}};
  if (bytes) j["tail"] = to_hex(bank.tail);
  return j;
}

// info: each group's vertex type, vertices and triangles (model.md 3), or why not.
Json model_info(const PmoModel& m, Bytes pmo) {
  Json groups = Json::array();
  uint64_t vertices = 0, triangles = 0;
  std::string error;
  for (size_t g = 0; g < m.groups.size() && error.empty(); ++g) {
    try {
      const GroupGeometry geo = decode_group(pmo, m, g);
      vertices += geo.vertices.size();
      triangles += geo.triangles.size();
      groups.push_back({{"group", g},
                        {"vtype", geo.type ? Json(geo.type->word) : Json(nullptr)},
                        {"vertices", geo.vertices.size()},
                        {"triangles", geo.triangles.size()},
                        {"bones", m.groups[g].bones.size()}});
    } catch (const Error& e) {
      error = fmt::format("group {}: {}", g, e.what());
    }
  }
  Json j = {{"format", "mh-pmo"},
            {"version", m.version},
            {"meshes", m.meshes.size()},
            {"groups", m.groups.size()},
            {"materials", m.materials.size()},
            {"vertices", vertices},
            {"triangles", triangles},
            {"per_group", groups}};
  if (!error.empty()) j["geometry_error"] = error;
  return j;
}

}  // namespace

Json MonsterDocument::dump() const {
  if (pac_) {
    Json j = {{"pac", pac_json(pac_->pac, 0)}};
    if (skeleton_) j["skeleton"] = to_json(*skeleton_);
    if (pack_) j["pack"] = to_json(*pack_);
    if (model_) j["model"] = model_json(*model_);
    if (textures_) j["textures"] = textures_json(*textures_, true);
    return j;
  }
  if (skeleton_ && pack_) return {{"skeleton", to_json(*skeleton_)}, {"pack", to_json(*pack_)}};
  if (skeleton_) return to_json(*skeleton_);
  return to_json(*pack_);
}

namespace {

// Issue 31: a bind pose number that is not finite would reach the samplers and glTF as NaN.
// Not a rule of the reference tool: its own code, at the float's offset (skeleton layout:
// params from 0x18, then each bone's section; scale at +0x1C, rotation +0x2C, position +0x3C).
void non_finite_rule(const Skeleton& s, std::vector<Finding>& out) {
  size_t bone_at = 0x18 + 4 * s.params.size();
  for (size_t i = 0; i < s.bones.size(); ++i) {
    const Bone& b = s.bones[i];
    const std::pair<const char*, const std::array<float, 4>*> fields[] = {
        {"scale", &b.bind_scale}, {"rotation", &b.bind_rotation}, {"position", &b.bind_position}};
    for (size_t f = 0; f < 3; ++f) {
      for (size_t k = 0; k < 3; ++k) {
        const float v = (*fields[f].second)[k];
        if (std::isfinite(v)) continue;
        out.push_back({Finding::Level::kError, "NON_FINITE", fmt::format("bone {}", i),
                       fmt::format("offset {:#x}: bone {} {}.{} is {}", bone_at + 0x1C + 16 * f + 4 * k,
                                   i, fields[f].first, "xyz"[k], v),
                       "write a finite number"});
      }
    }
    bone_at += b.section_size();
  }
}

}  // namespace

std::vector<Finding> MonsterDocument::validate() const {
  std::vector<Finding> out;
  if (skeleton_) non_finite_rule(*skeleton_, out);
  RuleInputs in;
  in.skeleton = skeleton_ ? &*skeleton_ : nullptr;
  in.pack = pack_ ? &*pack_ : nullptr;
  in.species = species_ ? &*species_ : nullptr;
  in.model = model_ ? &*model_ : nullptr;
  in.em = options_.em;
  in.strict = options_.strict;
  for (Finding& f : monster_hunter::validate(in)) out.push_back(std::move(f));
  return out;
}

std::string MonsterDocument::finding_line(const Finding& finding) const {
  return reference_line(finding);
}

std::string MonsterDocument::validate_summary(const std::vector<Finding>& findings) const {
  return summary(findings);
}

std::optional<Animated> MonsterDocument::to_neutral() const {
  if (!skeleton_) return std::nullopt;
  return to_animated(*skeleton_, pack_ ? &*pack_ : nullptr, options_);
}

std::optional<MeshSet> MonsterDocument::mesh_set(std::vector<std::string>& notes) const {
  if (!skeleton_ || !pac_) return std::nullopt;
  if (!pac_->model_error.empty()) notes.push_back("warning: the PMO could not be read: " + pac_->model_error);
  if (!model_ || !pac_->model_entry) return std::nullopt;
  return model_mesh_set(*pac_, *model_, textures_ ? &*textures_ : nullptr, *skeleton_, notes);
}

MeshSet model_mesh_set(const PacView& pac, const PmoModel& model, const TmhBank* textures,
                       const Skeleton& skeleton, std::vector<std::string>& notes) {
  // model.md 6: the PMO's meshes skinned to the skeleton, with the TMH images.
  const int entry = *pac.model_entry;
  ModelSources src;
  src.pmo = pac.pac.entries[entry];
  src.model = &model;
  src.textures = textures;
  src.skeleton = &skeleton;
  MeshSet set;
  try {
    add_model(src, set, notes);
  } catch (const Error& e) {
    throw Error(fmt::format("entry {} (pmo): {}", entry, e.message()),
                pac.table[entry].offset + e.offset().value_or(0));
  }
  if (!pac.texture_error.empty()) notes.push_back("warning: textures left out: " + pac.texture_error);
  notes.push_back(fmt::format("Monster Hunter: {} meshes, {} materials, {} images", set.meshes.size(),
                              set.materials.size(), set.images.size()));
  return set;
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

std::optional<Game> pack_game(Bytes pack, std::optional<Game> forced, const Skeleton* skeleton) {
  if (forced) return forced;
  if (auto g = sniff_pack_game(pack)) return g;
  if (pack_all_empty(pack)) {
    if (skeleton != nullptr) return skeleton->game();
    throw Error(
        "every slot of the pack is empty, so its bytes do not say the game: give --game mhfu or "
        "--game mhp3rd (or the skeleton)");
  }
  return std::nullopt;
}

namespace {

// Runs `read` on a PAC entry; its errors name the entry and carry file offsets.
template <class F>
auto in_entry(const PacView& v, int index, F&& read) {
  try {
    return read(Bytes(v.pac.entries[index]));
  } catch (const Error& e) {
    const uint64_t base = v.table[index].offset;
    throw Error(fmt::format("entry {} ({}): {}", index, v.kinds[index], e.message()),
                base + e.offset().value_or(0));
  }
}

std::optional<int> first_of(const PacView& v, const std::string& kind, int preferred) {
  if (preferred < static_cast<int>(v.kinds.size()) && v.kinds[preferred] == kind) return preferred;
  for (size_t i = 0; i < v.kinds.size(); ++i)
    if (v.kinds[i] == kind) return static_cast<int>(i);
  return std::nullopt;
}

}  // namespace

ModelPac read_model_pac(Bytes bytes, std::optional<Game> forced) {
  ModelPac m;
  PacView& v = m.view;
  v.pac = read_pac(bytes);
  v.table = pac_table(v.pac);
  for (const auto& e : v.pac.entries) v.kinds.push_back(pac_entry_kind(e));
  // notes 4: an MHFU model PAC holds 0 skeleton, 1 PMO, 2 TMH, 3 anim pack; other PACs the first
  // entry of each kind.
  v.skeleton_entry = first_of(v, "skeleton", 0);
  v.model_entry = first_of(v, "pmo", 1);
  v.pack_entry = first_of(v, "anim-pack", 3);
  const bool model_layout = v.skeleton_entry == 0 && v.kinds.size() > 3 && v.kinds[1] == "pmo";
  if (model_layout && v.kinds[3] == "raw") v.pack_entry = 3;  // damaged: the parser says where
  if (v.skeleton_entry)
    m.skeleton = in_entry(v, *v.skeleton_entry, [](Bytes b) { return read_skeleton(b); });
  if (v.pack_entry) {
    const Skeleton* s = m.skeleton ? &*m.skeleton : nullptr;
    m.pack = in_entry(v, *v.pack_entry,
                      [&](Bytes b) { return read_pack(b, pack_game(b, forced, s)); });
  }
  if (v.model_entry) {
    try {
      m.model = read_pmo(v.pac.entries[*v.model_entry]);
    } catch (const Error& e) {
      v.model_error = e.what();
    }
  }
  // model.md 1: the TMH is entry 2, else the first TMH.
  v.texture_entry = first_of(v, "tmh", 2);
  if (v.texture_entry) {
    try {
      m.textures = read_tmh(v.pac.entries[*v.texture_entry]);
    } catch (const Error& e) {
      v.texture_error = fmt::format("entry {} (tmh): {} (file offset {:#x})", *v.texture_entry,
                                    e.message(), v.table[*v.texture_entry].offset + e.offset().value_or(0));
    }
  }
  return m;
}

AnimPack load_pack(const std::string& path, std::optional<Game> game, const Skeleton* skeleton) {
  const std::vector<uint8_t> bytes = read_file(path);
  try {
    return read_pack(bytes, pack_game(bytes, game, skeleton));
  } catch (const Error& e) {
    throw e.with_file(path);
  }
}

std::string species_pac_name(int em) { return fmt::format("file_{:05}", em + 6110); }

std::optional<std::filesystem::path> find_game_file(const std::filesystem::path& dir,
                                                    const std::string& name) {
  std::error_code ec;
  if (std::filesystem::is_regular_file(dir / name, ec)) return dir / name;
  StepBudget budget("searching --data");
  for (auto it = std::filesystem::recursive_directory_iterator(
           dir, std::filesystem::directory_options::skip_permission_denied, ec);
       !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    budget.step();
    if (it->is_regular_file(ec) && it->path().stem() == name) return it->path();
  }
  return std::nullopt;
}

namespace {

// A skeleton file, or a model PAC's skeleton.
Skeleton skeleton_of_file(const std::filesystem::path& path) {
  const std::vector<uint8_t> bytes = read_file(path);
  try {
    if (sniff_pac(bytes)) {
      ModelPac m = read_model_pac(bytes, std::nullopt);
      if (!m.skeleton) throw Error("the PAC holds no skeleton");
      return std::move(*m.skeleton);
    }
    return read_skeleton(bytes);
  } catch (const Error& e) {
    throw e.with_file(path.string());
  }
}

std::optional<Skeleton> option_skeleton(const Options& options, const char* key) {
  if (auto it = options.find(key); it != options.end()) return skeleton_of_file(it->second);
  return std::nullopt;
}

// --template: a skeleton or PAC file, or a species number EM whose native MHFU model PAC
// file_0{EM + 6110} is looked up under --data (notes 1, "mhfu-port validate ... --template").
std::optional<Skeleton> template_skeleton(const Options& options) {
  const auto it = options.find("template");
  if (it == options.end()) return std::nullopt;
  return skeleton_of_file(template_file(it->second, options));
}

}  // namespace

std::filesystem::path template_file(const std::string& v, const Options& options) {
  const bool number = !v.empty() && v.size() <= 4 &&
                      std::all_of(v.begin(), v.end(), [](char c) { return c >= '0' && c <= '9'; });
  if (!number || std::filesystem::exists(v)) return v;
  const std::string name = species_pac_name(std::stoi(v));
  const auto data = options.find("data");
  if (data == options.end()) {
    throw Error(fmt::format("--template {} names a species: give --data DIR, the extracted game "
                            "folder that holds {}",
                            v, name));
  }
  const std::optional<std::filesystem::path> found = find_game_file(data->second, name);
  if (!found) throw Error(fmt::format("--template {}: no {} under {}", v, name, data->second));
  return *found;
}

std::unique_ptr<Document> open_skeleton(const std::filesystem::path& /*path*/, Bytes bytes,
                                        const Options& options) {
  const DocumentOptions o = document_options(options);
  Skeleton s = read_skeleton(bytes);
  std::optional<AnimPack> pack;
  if (auto it = options.find("pack"); it != options.end())
    pack = load_pack(it->second, o.game, &s);
  return std::make_unique<MonsterDocument>(std::move(s), std::move(pack),
                                           template_skeleton(options), o);
}

std::unique_ptr<Document> open_pack(const std::filesystem::path& /*path*/, Bytes bytes,
                                    const Options& options) {
  const DocumentOptions o = document_options(options);
  std::optional<Skeleton> s = option_skeleton(options, "skeleton");
  AnimPack p = read_pack(bytes, pack_game(bytes, o.game, s ? &*s : nullptr));
  return std::make_unique<MonsterDocument>(std::move(s), std::move(p),
                                           template_skeleton(options), o);
}

std::unique_ptr<Document> open_pac(const std::filesystem::path& /*path*/, Bytes bytes,
                                   const Options& options) {
  const DocumentOptions o = document_options(options);
  ModelPac m = read_model_pac(bytes, o.game);
  // --skeleton / --pack stand in for (or complete) what the PAC holds.
  if (auto s = option_skeleton(options, "skeleton")) m.skeleton = std::move(s);
  if (auto it = options.find("pack"); it != options.end())
    m.pack = load_pack(it->second, o.game, m.skeleton ? &*m.skeleton : nullptr);
  auto doc = std::make_unique<MonsterDocument>(std::move(m.skeleton), std::move(m.pack),
                                               template_skeleton(options), o);
  doc->set_pac(std::move(m.view));
  doc->set_model(std::move(m.model));
  doc->set_textures(std::move(m.textures));
  return doc;
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
  std::optional<Skeleton> s = option_skeleton(options, "skeleton");
  std::optional<AnimPack> p;
  if (pack != options.end()) p = load_pack(pack->second, o.game, s ? &*s : nullptr);
  return std::make_unique<MonsterDocument>(std::move(s), std::move(p),
                                           template_skeleton(options), o);
}

}  // namespace animkit::monster_hunter
