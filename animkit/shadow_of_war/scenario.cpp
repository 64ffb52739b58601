#include "animkit/shadow_of_war/scenario.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <ostream>
#include <unordered_map>
#include <unordered_set>

#include "animkit/core/error.h"
#include "animkit/core/json_text.h"
#include "animkit/core/limits.h"
#include "animkit/core/work_budget.h"
#include "animkit/shadow_of_war/anix.h"
#include "animkit/shadow_of_war/anix_document.h"
#include "animkit/shadow_of_war/keyword.h"
#include "animkit/shadow_of_war/scenario_check.h"

namespace animkit::shadow_of_war {

Skeleton synthetic_skeleton(int joints) {
  Skeleton sk;
  for (int j = 0; j < joints; ++j) {
    const int parent = j == 0 ? -1 : (j % 8 == 1 ? 0 : j - 1);
    sk.add_joint("joint" + std::to_string(j), parent,
                 {{0, 0.1f, 0}, axis_angle({0, 0, 1}, 0.05f * j), {1, 1, 1}});
  }
  return sk;
}

Clip synthetic_clip(const std::string& name, const Skeleton& sk, float duration, bool looping,
                    float amplitude, float frequency) {
  Clip c;
  c.name = name;
  c.duration = duration;
  c.looping = looping;
  c.joints.resize(sk.num_joints());
  const int keys = std::max(2, static_cast<int>(duration * 30.f) + 1);
  for (size_t j = 0; j < sk.num_joints(); ++j) {
    JointTracks& jt = c.joints[j];
    jt.rotation.interpolation = Interpolation::kNlerp;
    for (int k = 0; k < keys; ++k) {
      const float t = duration * k / (keys - 1);
      const float phase = 6.2831853f * frequency * t / duration + 0.4f * static_cast<float>(j);
      jt.rotation.add(
          t, normalize(sk.rest[j].rotation * axis_angle({1, 0, 0}, amplitude * std::sin(phase))));
    }
  }
  JointTracks& root = c.joints[0];
  root.translation.add(0, sk.rest[0].translation);
  root.translation.add(duration, sk.rest[0].translation + Vec3{0, 0, amplitude * duration});
  return c;
}

Clip base_pose_clip(const Skeleton& sk) {
  Clip c;
  c.name = "base";
  c.duration = 0;
  c.looping = false;
  c.joints.resize(sk.num_joints());
  for (size_t j = 0; j < sk.num_joints(); ++j) {
    c.joints[j].translation.add(0, sk.rest[j].translation);
    c.joints[j].rotation.add(0, sk.rest[j].rotation);
  }
  return c;
}

ClipTable* Scene::table(const std::string& family) {
  for (auto& t : tables)
    if (t->family() == family) return t.get();
  return nullptr;
}

std::vector<ClipTable*> Scene::table_list() {
  std::vector<ClipTable*> out;
  for (auto& t : tables) out.push_back(t.get());
  return out;
}

const std::shared_ptr<AnimObject>& Scene::file(const std::string& path) {
  for (auto& f : files)
    if (normalize_path(f->path) == normalize_path(path)) return f;
  throw Error(fmt::format("scenario: no file '{}'", path));
}

void Scene::kill(Character& character, const std::string& attack, const DeadBodyFlags& flags) {
  const std::string& name = character.name();
  if (dead.count(name)) return;
  Character* who = &character;
  DeathContext ctx;
  ctx.character = who;
  if (!attack.empty()) {
    auto it = attacks.find(attack);
    if (it == attacks.end()) throw Error(fmt::format("script: no attack '{}'", attack));
    ctx.attack = &it->second;
  }
  // Step 2: the character's model ([char+0x2B30]) names a Character/Models.RagdollConfig or not.
  std::string config = default_config;
  if (!who->model_name.empty()) {
    const CharacterModel& m = models.at(who->model_name);
    config = m.RagdollConfig;
    if (!m.BodyCleanup.empty()) ctx.cleanup = &body_cleanups.at(m.BodyCleanup);
  }
  if (!config.empty()) ctx.config = &ragdoll_configs.at(config);
  auto b = buffs.find(name);
  if (b != buffs.end()) ctx.buffs = b->second;
  ctx.RagdollDeathAnimation = RagdollDeathAnimation;
  auto body = std::make_unique<DeadBody>();
  body->flags = flags;
  run_death_frame(*body, ctx, ring);
  died_this_frame.push_back(body.get());
  dead[name] = std::move(body);
}

void Scene::update_dead(float dt) {
  for (auto& c : crowd->characters()) {
    auto it = dead.find(c->name());
    if (it == dead.end()) continue;
    // Spec, "The dead-body step": on the frame of death the step is called once (slot, brain
    // start); step 4 (brain, rest test) runs "on every later frame".
    if (std::find(died_this_frame.begin(), died_this_frame.end(), it->second.get()) !=
        died_this_frame.end())
      continue;
    auto value = [&](const char* n) { return c->value(n); };
    BrainSample s;
    s.height = value("height");
    s.velocity = value("velocity");
    s.average_body_velocity = value("average_body_velocity");
    s.spine_upright = value("spine_upright");
    s.head_severed = value("head_severed") != 0.f;
    const float combat = value("combat_state");  // a float value: cast only what fits
    s.combat_state = std::isfinite(combat) && std::fabs(combat) < 2e9f
                         ? static_cast<int32_t>(combat)
                         : 0;
    s.hints = c->hints;
    for (std::string& h : c->playing_clip_hints()) s.hints.push_back(std::move(h));
    it->second->hints = s.hints;
    it->second->update(s, s.velocity, dt, rest, ring);
  }
  died_this_frame.clear();
}

int Scene::corpses() const {
  int n = 0;
  for (const auto& [name, body] : dead) n += body->removed ? 0 : 1;
  return n;
}

namespace {

// A member of an object, or an empty array / object: a reference that outlives the loop using it.
const Json& list(const Json& j, const char* key) {
  static const Json empty = Json::array();
  return j.is_object() && j.contains(key) ? j[key] : empty;
}
const Json& object(const Json& j, const char* key) {
  static const Json empty = Json::object();
  return j.is_object() && j.contains(key) ? j[key] : empty;
}

float num(const Json& j, const char* key, float fallback) {
  if (!j.contains(key)) return fallback;
  if (!j[key].is_number()) throw Error(fmt::format("scenario: '{}' must be a number", key));
  return j[key].get<float>();
}

// Rough bytes per joint of a skeleton, a rotation key and a character's pose buffers, for the
// scene's memory budget (issue 19).
constexpr uint64_t kBytesPerJoint = 256;
constexpr uint64_t kBytesPerKey = sizeof(float) + sizeof(Quat);

std::shared_ptr<AnimObject> load_file(const Json& f, const Scene& scene,
                                      const std::filesystem::path& base, MemoryBudget& memory) {
  auto obj = std::make_shared<AnimObject>();
  obj->path = f.at("path").get<std::string>();
  if (f.contains("anix")) {
    // Any .anix: its clips give their root summaries only (codec layouts unknown).
    const auto path = base / f["anix"].get<std::string>();
    const std::vector<uint8_t> bytes = read_file(path);
    AnixFile file;
    try {
      file = parse_anix(bytes);
    } catch (const Error& e) {
      throw e.with_file(path.string());
    }
    Animated a = to_neutral(file);
    obj->clips = std::move(a.clips);
    obj->events = file.anim_chunk.event_dictionary;
  }
  for (const Json& c : list(f, "clips")) {
    // synthetic_clip makes duration x 30 + 1 rotation keys on every joint.
    const float duration = num(c, "duration", 1.f);
    if (!(std::fabs(duration) <= 1e6f))
      throw Error(fmt::format("scenario: clip duration {} is outside -1e6 to 1e6 s", duration));
    const uint64_t keys = static_cast<uint64_t>(std::max(2.f, duration * 30.f + 1));
    memory.add(keys * scene.skeleton.num_joints(), kBytesPerKey,
               "clip '" + c.value("name", std::string()) + "'");
    obj->clips.push_back(synthetic_clip(c.at("name").get<std::string>(), scene.skeleton,
                                        duration, c.value("looping", true),
                                        num(c, "amplitude", 0.3f), num(c, "frequency", 1.f)));
    // Events of a synthetic clip, pre-parsed as the event dictionary holds them: "TEXT" or
    // {"ms": 100, "text": "RAGDOLL 0.25"} (README, play scenarios).
    if (!c.contains("events")) continue;
    if (!obj->events) obj->events.emplace().path = obj->path;
    EventDictionary& d = *obj->events;
    const Clip& clip = obj->clips.back();
    ClipEvents ce{clip.name, static_cast<uint32_t>(clip.duration * 30.f + 0.5f),
                  static_cast<uint32_t>(clip.duration * 1000.f + 0.5f), {}};
    for (const Json& e : c["events"]) {
      const std::string text = e.is_string() ? e.get<std::string>() : e.value("text", "");
      const uint32_t ms = e.is_object() ? e.value("ms", 0u) : 0u;
      auto it = std::find(d.strings.begin(), d.strings.end(), text);
      if (it == d.strings.end()) {
        if (d.strings.size() >= kNoText)
          throw Error(fmt::format("file '{}': more than 255 event strings", obj->path));
        d.strings.push_back(text);
        it = d.strings.end() - 1;
      }
      ce.events.push_back(event_word(static_cast<uint32_t>(it - d.strings.begin()), ms));
    }
    d.clips.push_back(std::move(ce));
  }
  return obj;
}

}  // namespace

Scene scene_from_json(const Json& s, const std::filesystem::path& base, int workers) {
  Scene scene;
  try {
    // What the scene's sizes allocate is budgeted (issue 19, animkit/core/limits.h); a skeleton
    // has at most 32767 joints (int16 parents).
    MemoryBudget memory("scenario");
    const float joints = num(s, "joints", 34);
    if (!(joints >= 1 && joints <= 32767))
      throw Error(fmt::format("scenario: 'joints' must be 1 to 32767, not {}", joints));
    memory.add(static_cast<uint64_t>(joints), kBytesPerJoint, "the skeleton's joints");
    scene.skeleton = synthetic_skeleton(static_cast<int>(joints));
    for (const Json& f : list(s, "files")) scene.files.push_back(load_file(f, scene, base, memory));
    if (s.contains("families")) {
      for (const Json& fam : s["families"])
        scene.tables.push_back(std::make_unique<ClipTable>(
            fam.at("name").get<std::string>(), fam.value("members", std::vector<std::string>{})));
    } else {
      std::vector<std::string> all;
      for (const auto& f : scene.files) all.push_back(f->path);
      scene.tables.push_back(std::make_unique<ClipTable>("default", all));
    }
    Bundle everything;
    for (const auto& f : scene.files) everything.files.push_back(f);
    const std::vector<ClipTable*> tables = scene.table_list();
    load_bundle(everything, tables);
    for (const auto& [name, w] : object(s, "weight_sets").items()) {
      std::vector<float> mask(scene.skeleton.num_joints(), 0.f);
      if (w.contains("joint")) {
        const auto j = scene.skeleton.find(w["joint"].get<std::string>());
        if (!j) throw Error(fmt::format("weight set '{}': no joint '{}'", name, w["joint"].dump()));
        const std::vector<uint8_t> sub = scene.skeleton.subtree_mask(*j);
        for (size_t i = 0; i < mask.size(); ++i) mask[i] = sub[i] ? 1.f : 0.f;
      } else {
        mask = w.at("weights").get<std::vector<float>>();
        mask.resize(scene.skeleton.num_joints(), 0.f);
      }
      scene.weight_sets[name] = std::move(mask);
    }
    if (!s.contains("graph")) throw Error("scenario: no 'graph'");
    scene.graph = std::make_shared<BlendGraph>(blend_graph_from_json(s["graph"]));
    for (const BlendState& st : scene.graph->states)
      if (!st.weight_set.empty() && !scene.weight_sets.count(st.weight_set))
        throw Error(fmt::format("scenario: state '{}' names WeightSet '{}', which 'weight_sets' "
                                "does not define",
                                st.name, st.weight_set));
    if (s.contains("global")) {
      // Character/Models/Global: the ten body settings and RagdollDeathAnimation.
      const Json& g = s["global"];
      DeathSettings& d = scene.global;
      for (auto [key, field] : {std::pair{"BodyRagdoll", &d.BodyRagdoll},
                                {"BodyDeathForce", &d.BodyDeathForce},
                                {"BodyDirDeathForce", &d.BodyDirDeathForce}})
        *field = g.value(key, *field);
      for (auto [key, field] : {std::pair{"BodyDeathDirMinY", &d.BodyDeathDirMinY},
                                {"BodyDeathForceScale", &d.BodyDeathForceScale},
                                {"BodyDirDeathForceScale", &d.BodyDirDeathForceScale},
                                {"BodyStickDist", &d.BodyStickDist},
                                {"BodyStickTime", &d.BodyStickTime},
                                {"BodyDeathScaleVelocity", &d.BodyDeathScaleVelocity},
                                {"BodyDeathClampVelocityMax", &d.BodyDeathClampVelocityMax}})
        *field = num(g, key, *field);
      scene.RagdollDeathAnimation = g.value("RagdollDeathAnimation", std::string());
    }
    for (const Json& r : list(s, "ragdoll_configs")) {
      RagdollConfig c = ragdoll_config_from_json(r);
      const std::string n = c.name;
      if (!scene.ragdoll_configs.emplace(n, std::move(c)).second)
        throw Error(fmt::format("scenario: ragdoll config '{}' defined twice", n));
    }
    if (s.contains("brain")) {
      RagdollConfig c = ragdoll_config_from_json(s["brain"]);
      scene.default_config = c.name;
      scene.ragdoll_configs.emplace(c.name, std::move(c));
    }
    scene.behaviors = std::make_unique<BehaviorLibrary>(behavior_library_from_json(s));
    for (auto& [name, config] : scene.ragdoll_configs) config.brain.library = scene.behaviors.get();
    for (const auto& [name, a] : object(s, "attacks").items())
      scene.attacks[name] = attack_from_json(name, a);
    for (const auto& [name, r] : object(s, "BodyCleanup").items()) {
      BodyCleanup& bc = scene.body_cleanups[name];
      bc.name = name;
      if (r.contains("AtRestSpeed")) bc.AtRestSpeed = num(r, "AtRestSpeed", 0);
      if (r.contains("Lifetime")) bc.Lifetime = num(r, "Lifetime", 0);
      bc.SinkDistance = num(r, "SinkDistance", 0);
    }
    for (const auto& [name, r] : object(s, "models").items()) {
      CharacterModel m{name, r.value("RagdollConfig", std::string()),
                       r.value("BodyCleanup", std::string()), r.value("ragdoll_bodies", 20)};
      if (m.ragdoll_bodies < 1 || m.ragdoll_bodies > 256)
        throw Error(fmt::format("model '{}': ragdoll_bodies {} must be 1 to 256", name,
                                m.ragdoll_bodies));
      if (!m.RagdollConfig.empty() && !scene.ragdoll_configs.count(m.RagdollConfig))
        throw Error(fmt::format("model '{}': no ragdoll config '{}'", name, m.RagdollConfig));
      if (!m.BodyCleanup.empty() && !scene.body_cleanups.count(m.BodyCleanup))
        throw Error(fmt::format("model '{}': no BodyCleanup record '{}'", name, m.BodyCleanup));
      scene.models[name] = std::move(m);
    }
    // The values characters are given, and those a dead body's brain samples.
    for (const Json& c : list(s, "characters"))
      for (const auto& [v, x] : object(c, "values").items()) scene.graph->add_value(v);
    for (const char* v : {"height", "velocity", "average_body_velocity", "spine_upright",
                          "head_severed", "combat_state"})
      scene.graph->add_value(v);
    scene.rest.AtRestSpeed = num(s, "AtRestSpeed", scene.rest.AtRestSpeed);
    scene.crowd = std::make_unique<Crowd>(workers < 0 ? kDefaultWorkers : workers);
    scene.base_pose = std::make_unique<Clip>(base_pose_clip(scene.skeleton));
    const std::string base_clip = s.value("base_clip", std::string());
    std::unordered_set<std::string> names;  // a crowd of 10^5 is checked in linear time
    for (const Json& c : list(s, "characters")) {
      const int count = c.value("count", 1);
      if (count > 0)
        memory.add(static_cast<uint64_t>(count) * scene.skeleton.num_joints(), kBytesPerJoint,
                   "the characters' poses");
      for (int k = 0; k < count; ++k) {
        std::string name = c.value("name", std::string("character"));
        if (count > 1) name += fmt::format("_{}", k);
        const std::string family = c.value("family", scene.tables.front()->family());
        const ClipTable* table = scene.table(family);
        if (!table) throw Error(fmt::format("character '{}': no family '{}'", name, family));
        auto ch = std::make_unique<Character>(name, scene.graph, table, scene.skeleton,
                                              scene.global, &scene.weight_sets);
        for (const auto& [v, x] : object(c, "values").items()) ch->set_value(v, x.get<float>());
        const Clip* base = base_clip.empty() ? scene.base_pose.get() : table->find(base_clip);
        if (!base)
          throw Error(fmt::format("character '{}': base_clip '{}' is not in its family's clip "
                                  "table",
                                  name, base_clip));
        ch->set_base_clip(base);
        ch->model_name = c.value("model", std::string());
        if (!ch->model_name.empty() && !scene.models.count(ch->model_name))
          throw Error(fmt::format("character '{}': no model '{}'", name, ch->model_name));
        ch->player = c.value("player", false);
        ch->combat_anim = c.value("combat_anim", -1);
        ch->hints = c.value("hints", std::vector<std::string>{});
        if (!ch->model_name.empty())
          ch->physics = PhysicsRagdoll(scene.models.at(ch->model_name).ragdoll_bodies);
        if (c.contains("buffs"))
          for (const Json& b : c["buffs"])
            scene.buffs[name].push_back(
                {b.at("name").get<std::string>(),
                 b.value("DeathProjectiles", std::vector<std::string>{})});
        if (!names.insert(name).second)
          throw Error(fmt::format("scenario: two characters named '{}'", name));
        scene.crowd->characters().push_back(std::move(ch));
      }
    }
  } catch (const Json::exception& e) {
    throw Error(std::string("scenario: ") + e.what());
  }
  return scene;
}

Json frame_json(const Scene& scene, int frame, float time) {
  Json chars = Json::array();
  for (const auto& c : scene.crowd->characters()) {
    const ModelAnimation& m = c->model();
    Json trackers = Json::array();
    for (const Tracker& t : m.trackers)
      trackers.push_back({{"clip", t.clip ? Json(t.clip->name) : Json(nullptr)},
                          {"time", json_float(t.time)},
                          {"weight", json_float(t.weight)},
                          {"rate", json_float(t.rate)}});
    Json ops = Json::array();
    for (const Operation& op : m.operations) {
      Json o{{"op", operation_name(op.code)}};
      if (op.entry >= 0) o["entry"] = op.entry;
      if (op.code == kOpBlend) o["weight"] = json_float(op.weight);
      ops.push_back(o);
    }
    Json cj{{"name", c->name()}, {"state", c->state()->name}};
    if (const auto& t = c->transition())
      cj["transition"] = {{"from", scene.graph->states[t->from].name},
                          {"to", scene.graph->states[t->to].name},
                          {"elapsed", json_float(t->elapsed)},
                          {"blend_time", json_float(t->blend_time)}};
    cj["trackers"] = trackers;
    cj["operations"] = ops;
    Json keywords = Json::array();
    for (const Keyword& k : kRagdollKeywords)
      if (c->playing_clip_carries(k.hash)) keywords.push_back(k.name);
    if (!keywords.empty()) cj["clip_keywords"] = keywords;
    cj["root"] = to_json(m.output[0].translation);
    auto it = scene.dead.find(c->name());
    if (it != scene.dead.end()) {
      const DeadBody& d = *it->second;
      cj["ragdoll"] = {
          {"slot", d.controller.slot},
          {"controller", d.controller.current_name()},
          {"prior", d.controller.prior >= 0
                        ? Json(d.controller.brain->BehaviorControllers[d.controller.prior].name)
                        : Json(nullptr)},
          {"time", json_float(static_cast<float>(d.since_stamp))},
          {"at_rest", d.resting}};
      Json& r = cj["ragdoll"];
      const RagdollController& rc = d.controller;
      r["hints"] = d.hints;
      r["behavior_set"] = rc.behavior_set ? Json(rc.behavior_set->name) : Json(nullptr);
      r["behavior"] = rc.behavior ? Json(rc.behavior->name) : Json(nullptr);
      Json seqs = Json::array();
      for (const RunningSequence& q : rc.sequences) {
        const double t = q.sequence->time_at(q.elapsed);
        const std::string* pose = q.sequence->pose_at(t);
        seqs.push_back({{"name", q.sequence->name},
                        {"time", json_float(static_cast<float>(t))},
                        {"pose", pose ? Json(*pose) : Json(nullptr)}});
      }
      r["sequences"] = seqs;
      r["timers"] = {{"on_ground", json_float(rc.timers.on_ground)},
                     {"in_air", json_float(rc.timers.in_air)},
                     {"stationary", json_float(rc.timers.stationary)},
                     {"moving", json_float(rc.timers.moving)},
                     {"in_behavior", json_float(rc.timers.in_behavior)},
                     {"total", json_float(rc.timers.total)}};
      r["flags"] = to_json(d.flags);
      r["death"] = to_json(d.death);
      r["death"]["death_settings"] = to_json(c->death_settings());
      if (d.frames_since_stamp == 0) {
        // The death frame: the joints as the setup left them.
        Json joints = Json::array();
        for (const RagdollJoint& j : c->physics.joints) joints.push_back(to_json(j));
        r["joints"] = joints;
        r["bodies"] = c->physics.bodies;
      }
      if (d.resting) r["rest_at"] = json_float(static_cast<float>(d.rest_at));
      if (d.in_cleanup) {
        r["cleanup"] = {{"record", d.cleanup ? Json(d.cleanup->name) : Json(nullptr)},
                        {"removed", d.removed}};
        if (d.cleanup && d.cleanup->Lifetime)
          r["cleanup"]["Lifetime"] = json_float(static_cast<float>(*d.cleanup->Lifetime));
        if (d.removed)
          r["cleanup"]["SinkDistance"] = json_float(static_cast<float>(d.cleanup->SinkDistance));
      } else if (d.relax_time > 0) {
        r["relax_time"] = json_float(static_cast<float>(d.relax_time));
      }
    }
    chars.push_back(cj);
  }
  return {{"frame", frame},
          {"time", json_float(time)},
          {"ragdolls",
           {{"held_slots", scene.ring.held()},
            {"cursor", scene.ring.cursor()},
            {"corpses", scene.corpses()}}},
          {"characters", chars}};
}

std::string frame_text(const Scene& scene, int frame, float time) {
  std::string out;
  for (const auto& c : scene.crowd->characters()) {
    const ModelAnimation& m = c->model();
    std::string trackers, ops;
    for (const Tracker& t : m.trackers)
      trackers += fmt::format("{}{} t={:.4f} w={:.3f}", trackers.empty() ? "" : ", ",
                              t.clip ? t.clip->name : "(no clip)", t.time, t.weight);
    for (const Operation& op : m.operations) {
      ops += ops.empty() ? "" : " ";
      ops += operation_name(op.code);
      if (op.code == kOpBlend) {
        ops += fmt::format("({}, {:.3f})", op.entry, op.weight);
      } else if (op.entry >= 0) {
        ops += fmt::format("({})", op.entry);
      }
    }
    std::string ragdoll;
    auto it = scene.dead.find(c->name());
    if (it != scene.dead.end()) {
      const DeadBody& d = *it->second;
      ragdoll = fmt::format(" | ragdoll slot {} {}{}", d.controller.slot,
                            d.controller.current_name(),
                            d.removed ? " removed" : (d.resting ? " at rest" : ""));
    }
    out += fmt::format("frame {:4} t={:.4f} {} [{}] trackers: {} | ops: {}{}\n", frame, time,
                       c->name(), c->state()->name, trackers, ops, ragdoll);
  }
  return out;
}

namespace {
// The trackers a character's frame is counted for before the play: the base, the two states of a
// cross-fade and a layer.
constexpr size_t kPlannedTrackers = 4;
}  // namespace

int play(const Json& s, const std::filesystem::path& base, const PlayOptions& options,
         std::ostream& out) {
  if (!s.is_object()) throw Error("scenario: expected an object");
  // --threads 0 is the CLI's "engine default": three workers (README, Command line).
  if (options.threads < 0)
    throw Error(fmt::format("--threads {}: must be 0 (the default, 3 workers) or more",
                            options.threads));
  const float dt = num(s, "dt", 1.f / 60.f);
  if (!(dt >= 0.f) || !std::isfinite(dt))
    throw Error(fmt::format("scenario: 'dt' {} must be a finite number of seconds, 0 or more", dt));
  const float frames_value = num(s, "frames", 60);
  if (!(frames_value >= 0.f) || frames_value > 1e8f)
    throw Error(fmt::format("scenario: 'frames' {} must be 0 to 100,000,000", frames_value));
  const int frames = static_cast<int>(frames_value);
  // The whole play's work (issue 19), before the scene is built: every frame poses and traces
  // every character (65,537 characters x 29 frames held the fuzzer 13 s).
  uint64_t characters = 0;
  for (const Json& c : list(s, "characters")) {
    const Json* count = c.is_object() && c.contains("count") ? &c["count"] : nullptr;
    characters = add_play_steps(characters, !count ? 1
                                            : count->is_number_integer()
                                                ? std::max<int64_t>(0, count->get<int64_t>())
                                                : 0);
  }
  const float joints = std::clamp(num(s, "joints", 34), 1.f, 32767.f);  // checked when built
  // Building the characters counts as one more frame (a million characters for 0 frames held
  // the fuzzer 13 s in scene_from_json).
  const uint64_t joint_steps = 1 + static_cast<uint64_t>(joints) / 8;
  uint64_t planned = play_steps(static_cast<uint64_t>(frames) + 1,
                                play_steps_per_update(std::min<uint64_t>(characters, 1u << 31),
                                                      static_cast<uint64_t>(joints)));
  check_play_steps(planned, "scenario: 'frames' x characters");
  uint64_t charged = planned;  // what the run's work budget holds of this play
  // The scenario is checked whole before frame 0 (scenario_check.h): its values before the scene
  // is built from them, its names against the scene.
  check_scenario_values(s);
  Scene scene = scene_from_json(s, base, options.threads > 0 ? options.threads : -1);
  check_scenario_names(s, scene);
  // The script in frame order (events of one frame keep theirs), walked once over the play, and
  // the characters by name: linear in the script and the crowd (a script of 10^5 events over
  // 10^5 frames was 10^10 steps when every frame scanned the whole script).
  std::vector<std::pair<int, const Json*>> script;
  for (const Json& e : list(s, "script")) script.emplace_back(e.value("frame", 0), &e);
  std::stable_sort(script.begin(), script.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  auto next_event = std::lower_bound(script.begin(), script.end(), 0,
                                     [](const auto& e, int f) { return e.first < f; });
  std::unordered_map<std::string, Character*> by_name;
  for (auto& c : scene.crowd->characters()) by_name.emplace(c->name(), c.get());
  const std::vector<ClipTable*> tables = scene.table_list();
  std::string first_error;
  for (int f = 0; f < frames; ++f) {
    for (; next_event != script.end() && next_event->first == f; ++next_event) {
      const Json& ev = *next_event->second;
      if (ev.contains("character")) {
        const std::string who = ev["character"].get<std::string>();
        const auto named = by_name.find(who);
        if (named == by_name.end()) throw Error("script: no character '" + who + "'");
        Character* c = named->second;
        for (const auto& [v, x] : object(ev, "values").items()) c->set_value(v, x.get<float>());
        if (ev.contains("combat_anim")) c->combat_anim = ev["combat_anim"].get<int32_t>();
        if (ev.contains("hints")) c->hints = ev["hints"].get<std::vector<std::string>>();
        if (ev.value("die", false)) {
          DeadBodyFlags flags;
          const Json& fl = object(ev, "flags");
          flags.b353 = fl.value("+0x353", flags.b353);
          flags.b35A = fl.value("+0x35A", flags.b35A);
          scene.kill(*c, ev.value("attack", std::string()), flags);
        }
        if (ev.contains("enter")) {
          const int32_t st = scene.graph->find_state(ev["enter"].get<std::string>());
          if (st < 0) throw Error("script: no state " + ev["enter"].dump());
          c->enter_state(st, num(ev, "blend_time", scene.graph->states[st].DefaultBlendTime));
        }
      }
      if (ev.contains("record")) {
        // A change to a BlendState record reaches every character on the graph.
        const int32_t st = scene.graph->find_state(ev["record"].get<std::string>());
        if (st < 0) throw Error("script: no state " + ev["record"].dump());
        BlendState& r = scene.graph->states[st];
        const Json& fields = object(ev, "fields");
        r.Rate = num(fields, "Rate", r.Rate);
        r.DefaultBlendTime = num(fields, "DefaultBlendTime", r.DefaultBlendTime);
        r.StartPct = num(fields, "StartPct", r.StartPct);
        r.Looping = fields.value("Looping", r.Looping);
      }
      if (ev.contains("load") || ev.contains("unload")) {
        Bundle b;
        b.files.push_back(scene.file(ev.value("load", ev.value("unload", std::string()))));
        if (ev.contains("load")) {
          load_bundle(b, tables);
        } else {
          unload_bundle(b, tables);
        }
      }
    }
    scene.crowd->frame(dt);
    // The up-front count covers kPlannedTrackers trackers a character; each one more (cross-fades
    // interrupted before they end) poses and traces the skeleton again, and is counted as it comes.
    for (const auto& c : scene.crowd->characters()) {
      const size_t n = c->model().trackers.size();
      if (n > kPlannedTrackers) planned = add_play_steps(planned, (n - kPlannedTrackers) * joint_steps);
    }
    check_grown_play_steps(planned, charged, "scenario: 'frames' x characters, with their trackers past 4");
    charged = planned;
    scene.update_dead(dt);
    std::vector<std::string> errors;
    for (auto& c : scene.crowd->characters())
      for (std::string& e : c->take_errors()) errors.push_back(std::move(e));
    // Frame times as frame count x dt: a running float sum drifts (0.1 x 30 -> 3.0000012).
    const float time = static_cast<float>((f + 1) * static_cast<double>(dt));
    if (options.json) {
      Json line = frame_json(scene, f, time);
      if (!errors.empty()) line["errors"] = errors;
      out << dump_json(std::move(line)) << "\n";
    } else {
      out << frame_text(scene, f, time);
      for (const std::string& e : errors) out << fmt::format("frame {:4} error: {}\n", f, e);
    }
    if (!errors.empty() && first_error.empty())
      first_error = fmt::format("frame {}: {}", f, errors.front());
  }
  // The trace is complete; the run still fails (exit 1) on the first error it showed.
  if (!first_error.empty()) throw Error(first_error);
  return 0;
}

}  // namespace animkit::shadow_of_war
