#include "animkit/shadow_of_war/scenario.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <ostream>

#include "animkit/core/error.h"
#include "animkit/core/limits.h"
#include "animkit/shadow_of_war/anix.h"
#include "animkit/shadow_of_war/anix_document.h"
#include "animkit/shadow_of_war/keyword.h"

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

void Scene::kill(const std::string& name) {
  if (dead.count(name)) return;
  auto body = std::make_unique<DeadBody>();
  body->start(ring, brain ? &*brain : nullptr);
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
    s.combat_state = static_cast<int32_t>(value("combat_state"));
    it->second->update(s, s.velocity, dt, rest);
  }
  died_this_frame.clear();
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
    if (s.contains("global")) {
      const Json& g = s["global"];
      DeathSettings& d = scene.global;
      d.BodyRagdoll = g.value("BodyRagdoll", d.BodyRagdoll);
      d.BodyDeathForceScale = g.value("BodyDeathForceScale", d.BodyDeathForceScale);
      d.BodyStickDist = g.value("BodyStickDist", d.BodyStickDist);
    }
    if (s.contains("brain")) scene.brain = brain_from_json(s["brain"]);
    // The values characters are given, and those a dead body's brain samples.
    for (const Json& c : list(s, "characters"))
      for (const auto& [v, x] : object(c, "values").items()) scene.graph->add_value(v);
    for (const char* v : {"height", "velocity", "average_body_velocity", "spine_upright",
                          "head_severed", "combat_state"})
      scene.graph->add_value(v);
    scene.rest.AtRestSpeed = num(s, "AtRestSpeed", scene.rest.AtRestSpeed);
    scene.crowd = std::make_unique<Crowd>(workers < 0 ? kDefaultWorkers : workers);
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
    for (const Operation& op : m.job.operations) {
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
          {"time", json_float(d.since_stamp)},
          {"at_rest", d.resting}};
    }
    chars.push_back(cj);
  }
  return {{"frame", frame}, {"time", json_float(time)}, {"characters", chars}};
}

std::string frame_text(const Scene& scene, int frame, float time) {
  std::string out;
  for (const auto& c : scene.crowd->characters()) {
    const ModelAnimation& m = c->model();
    std::string trackers, ops;
    for (const Tracker& t : m.trackers)
      trackers += fmt::format("{}{} t={:.4f} w={:.3f}", trackers.empty() ? "" : ", ",
                              t.clip ? t.clip->name : "base", t.time, t.weight);
    for (const Operation& op : m.job.operations) {
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
                            d.controller.current_name(), d.resting ? " at rest" : "");
    }
    out += fmt::format("frame {:4} t={:.4f} {} [{}] trackers: {} | ops: {}{}\n", frame, time,
                       c->name(), c->state()->name, trackers, ops, ragdoll);
  }
  return out;
}

int play(const Json& s, const std::filesystem::path& base, const PlayOptions& options,
         std::ostream& out) {
  if (!s.is_object()) throw Error("scenario: expected an object");
  Scene scene = scene_from_json(s, base, options.threads > 0 ? options.threads : -1);
  const float frame_count = num(s, "frames", 60);
  if (!(frame_count >= 0 && frame_count <= 1e9f))  // issue 19: 1e30 was cast to int (undefined)
    throw Error(fmt::format("scenario: 'frames' must be 0 to 1e9, not {}", frame_count));
  const int frames = static_cast<int>(frame_count);
  const float dt = num(s, "dt", 1.f / 60.f);
  std::vector<std::pair<int, const Json*>> script;
  for (const Json& e : list(s, "script")) script.emplace_back(e.value("frame", 0), &e);
  const std::vector<ClipTable*> tables = scene.table_list();
  float time = 0;
  for (int f = 0; f < frames; ++f) {
    for (const auto& [at, e] : script) {
      if (at != f) continue;
      const Json& ev = *e;
      if (ev.contains("character")) {
        const std::string who = ev["character"].get<std::string>();
        bool found = false;
        for (auto& c : scene.crowd->characters()) {
          if (c->name() != who) continue;
          found = true;
          for (const auto& [v, x] : object(ev, "values").items()) c->set_value(v, x.get<float>());
          if (ev.value("die", false)) scene.kill(who);
          if (ev.contains("enter")) {
            const int32_t st = scene.graph->find_state(ev["enter"].get<std::string>());
            if (st < 0) throw Error("script: no state " + ev["enter"].dump());
            c->enter_state(st, num(ev, "blend_time", scene.graph->states[st].DefaultBlendTime));
          }
        }
        if (!found) throw Error("script: no character '" + who + "'");
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
    scene.update_dead(dt);
    time += dt;
    if (options.json) {
      out << frame_json(scene, f, time).dump() << "\n";
    } else {
      out << frame_text(scene, f, time);
    }
  }
  return 0;
}

}  // namespace animkit::shadow_of_war
