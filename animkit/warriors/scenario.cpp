#include "animkit/warriors/scenario.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <ostream>
#include <sstream>

#include "animkit/core/json_text.h"
#include "animkit/core/limits.h"
#include "animkit/core/registry.h"
#include "animkit/core/work_budget.h"
#include "animkit/warriors/character.h"
#include "animkit/warriors/clock.h"
#include "animkit/warriors/document.h"
#include "animkit/warriors/instance.h"

namespace animkit::warriors {

namespace {

// An animation set: anim id -> clip, its Anim Range List flags and CfgAnimSpeeds.
struct AnimSet {
  std::map<int, std::unique_ptr<PlayClip>> clips;
  std::map<int, uint16_t> range_flags;
  AnimSpeeds speeds;
  std::optional<BoneOffsets> bone_offsets;  // the character's 0x28 chunk, when it has one

  const PlayClip* clip(int id, const char* what) const {
    auto it = clips.find(id);
    if (it == clips.end()) throw Error(fmt::format("{}: anim id {} has no clip", what, id));
    return it->second.get();
  }
  float rate(int id) const {
    auto it = range_flags.find(id);
    return anim_rate(speeds, it == range_flags.end() ? 0 : it->second);
  }
};

int to_id(const std::string& key, const char* what) {
  try {
    size_t n = 0;
    const int id = std::stoi(key, &n);
    if (n == key.size()) return id;
  } catch (...) {
  }
  throw Error(fmt::format("{}: '{}' is not an anim id", what, key));
}

float number(const Json& j, const char* key, float fallback) {
  if (!j.contains(key)) return fallback;
  if (!j[key].is_number()) throw Error(fmt::format("'{}' must be a number", key));
  const float v = j[key].get<float>();
  if (!std::isfinite(v)) throw Error(fmt::format("'{}' must be a finite float32", key));
  return v;
}

// j[key] without copying (a Json copy recurses), or null.
const Json& member(const Json& j, const char* key) {
  static const Json null_json;
  if (!j.is_object()) return null_json;
  const auto it = j.find(key);
  return it == j.end() ? null_json : *it;
}

// A finite number >= 0 (a time, a rate).
float non_negative(const Json& j, const char* key, float fallback) {
  const float v = number(j, key, fallback);
  if (!std::isfinite(v) || v < 0) throw Error(fmt::format("'{}' must be a finite number >= 0", key));
  return v;
}

int integer(const Json& j, const char* key, int fallback) {
  if (!j.contains(key)) return fallback;
  if (!j[key].is_number_integer()) throw Error(fmt::format("'{}' must be an integer", key));
  return j[key].get<int>();
}

// A flags word: an integer, or a string in C notation ("0x4000000000").
uint64_t flag_word(const Json& j, const char* key, uint64_t fallback) {
  if (!j.contains(key)) return fallback;
  const Json& v = j[key];
  if (v.is_number_unsigned()) return v.get<uint64_t>();
  if (v.is_number_integer() && v.get<int64_t>() >= 0) return static_cast<uint64_t>(v.get<int64_t>());
  if (v.is_string()) {
    const std::string t = v.get<std::string>();
    try {
      size_t n = 0;
      const uint64_t w = std::stoull(t, &n, 0);
      if (n == t.size() && !t.empty() && t[0] != '-') return w;
    } catch (...) {
    }
  }
  throw Error(fmt::format("'{}' must be a flags word (a non-negative integer or \"0x...\")", key));
}

// `play` refuses a clip with an error finding (validate's rules) unless forced; the error names
// the offset of what is wrong. A 0x28 chunk too short is refused too.
void refuse_bad_clips(const Resource& r, const ClipSet& cs, bool force) {
  if (force) return;
  for (const Chunk& c : r.chunks) {
    if (c.header.type == kBoneOffsets && c.data.size() < 34 * 16) {
      throw Error(fmt::format("chunk 0x28 holds {} bytes, 544 needed (--force plays it anyway)",
                              c.data.size()),
                  c.offset);
    }
  }
  for (const ClipEntry& e : cs.clips) {
    for (const ClipFinding& f : check_clip(e.clip, r.chunks[e.keyframes_chunk].offset + 16,
                                           r.chunks[e.descriptor_chunk].offset + 16)) {
      if (f.finding.level != Finding::Level::kError) continue;
      throw Error(fmt::format("clip '{}': {} ({}; --force plays it anyway)",
                              e.clip.descriptor.name_text(), f.finding.message, f.finding.code),
                  f.offset);
    }
  }
}

void load_set(const Json& j, const std::filesystem::path& base, AnimSet& set, bool force) {
  if (j.contains("anim_speeds")) {
    const Json& s = j["anim_speeds"];
    if (!s.is_array() || s.size() != 4) throw Error("'anim_speeds' must be four numbers");
    for (int i = 0; i < 4; ++i) {
      const float r = s[i].is_number() ? s[i].get<float>() : -1.0f;
      if (!std::isfinite(r) || r < 0) throw Error("'anim_speeds' must be four numbers >= 0");
      set.speeds.rates[i] = r;
    }
  }
  // "character": a character resource; its Character Data names the clips by id and its Anim
  // Range List gives the flags.
  if (j.contains("character")) {
    if (!j["character"].is_string()) throw Error("'character' must be a file name");
    const auto path = base / j["character"].get<std::string>();
    const std::vector<uint8_t> bytes = read_file(path);
    try {
      const WarriorsFile f = read_warriors_file(bytes, FileKind::kCharacter);
      const ClipSet& cs = f.sets.at(0);
      refuse_bad_clips(*f.resources().at(0), cs, force);
      if (const BoneOffsets* off = f.bone_offsets()) set.bone_offsets = *off;
      for (int id = 0; id < kNumAnimIds; ++id) {
        const int c = cs.clip_for_anim(id);
        if (c >= 0)
          set.clips[id] = std::make_unique<PlayClip>(make_play_clip(cs.clips[c].clip, id));
        if (const uint16_t fl = cs.range_flags(id)) set.range_flags[id] = fl;
      }
    } catch (const Error& e) {
      throw e.with_file(path.string());
    }
  }
  if (j.contains("clips")) {
    if (!j["clips"].is_object()) throw Error("'clips' must map anim ids to files");
    for (const auto& [key, value] : j["clips"].items()) {
      const int id = to_id(key, "clips");
      if (!value.is_string()) throw Error(fmt::format("clips[{}] must be a file name", key));
      const auto path = base / value.get<std::string>();
      const std::vector<uint8_t> bytes = read_file(path);
      try {
        const WadEntry e = read_entry(bytes);
        if (e.is_pack()) throw Error("a pack; name an .anm resource", 0);
        const ClipSet cs = read_clip_set(std::get<Resource>(e.content));
        if (cs.clips.empty()) throw Error("no clip (chunks 0x00 + 0x02) in the resource", 0);
        refuse_bad_clips(std::get<Resource>(e.content), cs, force);
        set.clips[id] = std::make_unique<PlayClip>(make_play_clip(cs.clips[0].clip, id));
      } catch (const Error& e) {
        throw e.with_file(path.string());
      }
    }
  }
  if (j.contains("range_flags")) {
    if (!j["range_flags"].is_object()) throw Error("'range_flags' must map anim ids to flags");
    for (const auto& [key, value] : j["range_flags"].items()) {
      if (!value.is_number_integer()) throw Error("range_flags values must be integers");
      set.range_flags[to_id(key, "range_flags")] = static_cast<uint16_t>(value.get<int>());
    }
  }
}

struct Player {
  bool force = false;  // play clips with error findings
  CharacterInstance instance;
  AnimSet set;
  std::map<std::string, AnimSet> others;  // other humans' sets, for paired tasks

  std::unique_ptr<AnimTask> make_task(const Json& spec, int depth = 0) {
    if (depth == 0) {  // measured first, without recursion
      int nested = 0;  // `next` tasks below this one
      for (const Json* j = &spec; j->is_object() && j->contains("next"); j = &(*j)["next"]) {
        if (++nested > kMaxTaskNesting) {
          throw Error(fmt::format("more than {} nested \"next\" tasks (\"next\" inside \"next\")",
                                  kMaxTaskNesting));
        }
      }
    }
    if (!spec.is_object() || !spec.contains("do") || !spec["do"].is_string()) {
      throw Error("a task is an object with \"do\"");
    }
    const std::string d = spec["do"].get<std::string>();
    std::unique_ptr<AnimTask> task;
    CharacterInstance* inst = &instance;
    const float speed = instance.human.speed_multiplier;
    if (d == "loop" || d == "clip_then_next" || d == "clip" || d == "scene" || d == "paired" ||
        d == "paired_hold") {
      const int anim = integer(spec, "anim", -1);
      const AnimSet* from = &set;
      if (d == "paired" || d == "paired_hold") {
        // warriors.txt "Paired tasks": the clip and its rate from the other human's set.
        const std::string who = spec.value("from", std::string());
        auto it = others.find(who);
        if (it == others.end())
          throw Error(fmt::format("paired task: no set '{}' in \"humans\"", who));
        from = &it->second;
      }
      const PlayClip* clip = from->clip(anim, d.c_str());
      const int type = d == "loop"          ? 1
                       : d == "scene"       ? 7
                       : d == "paired"      ? 6
                       : d == "paired_hold" ? 4
                                            : 3;
      float rate = from->rate(anim);
      if (type == 7) rate = non_negative(spec, "rate", 1.0f);
      auto t = std::make_unique<ClipTask>(type, inst, clip, non_negative(spec, "rate", rate));
      if (spec.contains("bone")) {
        const int bone = integer(spec, "bone", -1);
        if (bone < 0 || bone >= kNumBones) throw Error("\"bone\" must be a bone 0-33");
        const float w = non_negative(spec, "weight", 1.0f);
        if (w > 1) throw Error("\"weight\" must be 0 to 1");
        t->set_subtree(bone, w);
      }
      if ((type == 3 || type == 6) && spec.contains("next")) {
        t->set_next(make_task(spec["next"], depth + 1), non_negative(spec, "blend", 0.0f));
      }
      task = std::move(t);
    } else if (d == "fade") {
      task = std::make_unique<FadeTask>(inst, non_negative(spec, "fade", 0.0f),
                                        non_negative(spec, "rate", speed));
    } else if (d == "gait") {
      const Json& a = member(spec, "anims");
      if (!a.is_array() || a.size() != 5) throw Error("gait: \"anims\" must be five anim ids");
      std::array<const PlayClip*, 5> clips;
      for (int i = 0; i < 5; ++i) {
        if (!a[i].is_number_integer()) throw Error("gait: \"anims\" must be five anim ids");
        clips[i] = set.clip(a[i].get<int>(), "gait");
      }
      auto g =
          std::make_unique<GaitTask>(inst, clips, number(spec, "value", 0.0f),
                                     non_negative(spec, "rate", speed), number(spec, "speed", 10.0f));
      task = std::move(g);
    } else if (d == "mix" || d == "select" || d == "direction") {
      const int type = d == "mix" ? 10 : d == "select" ? 11 : 13;
      const int n = d == "mix" ? 2 : d == "select" ? 4 : 8;
      std::array<const PlayClip*, 8> clips{};
      if (d == "direction") {
        const int base = integer(spec, "base", -1);
        for (int i = 0; i < 8; ++i) clips[i] = set.clip(base + i, "direction");
      } else {
        const Json& a = member(spec, "anims");
        if (!a.is_array() || a.size() != size_t(n)) {
          throw Error(fmt::format("{}: \"anims\" must be {} anim ids", d, n));
        }
        for (int i = 0; i < n; ++i) {
          if (!a[i].is_number_integer()) throw Error(fmt::format("{}: anim ids", d));
          clips[i] = set.clip(a[i].get<int>(), d.c_str());
        }
      }
      const auto kind = d == "mix"      ? MixTask::Kind::kTwo
                        : d == "select" ? MixTask::Kind::kFour
                                        : MixTask::Kind::kEight;
      task = std::make_unique<MixTask>(type, kind, inst, clips.data(), n,
                                       number(spec, "value", 0.0f), non_negative(spec, "rate", speed));
    } else {
      throw Error(fmt::format("unknown task \"{}\"", d));
    }
    task->set_flags(static_cast<uint32_t>(integer(spec, "flags", 0)));
    // warriors.txt "Held flags": "hold" is the set the task holds, "start" the bits it sets as
    // it starts (the held set when not given).
    task->held = flag_word(spec, "hold", 0);
    task->start_bits = flag_word(spec, "start", task->held);
    task->end_callback = spec.value("callback", std::string());
    task->wrap_callback = spec.value("wrap_callback", std::string());
    if (spec.contains("target")) task->set_blend_target(number(spec, "target", 0));
    return task;
  }

  void act(const Json& a) {
    const std::string d = a["do"].get<std::string>();
    if (d == "change") {
      // The fade: a number of seconds, or a fade task ({"do": "fade", "fade": d, "hold": ...}).
      std::unique_ptr<FadeTask> fade;
      if (a.contains("fade") && a["fade"].is_object()) {
        std::unique_ptr<AnimTask> f = make_task(a["fade"]);
        if (f->type() != 9) throw Error("change: \"fade\" must be a number or a fade task");
        fade.reset(static_cast<FadeTask*>(f.release()));
      } else {
        fade = std::make_unique<FadeTask>(&instance, non_negative(a, "fade", 0.0f),
                                          instance.human.speed_multiplier);
        fade->held = flag_word(a, "fade_hold", 0);
        fade->start_bits = flag_word(a, "fade_start", fade->held);
      }
      instance.change(make_task(member(a, "task")), std::move(fade));
    } else if (d == "insert") {
      instance.insert_bottom(make_task(member(a, "task")));
    } else if (d == "push") {
      instance.push(make_task(member(a, "task")));
    } else if (d == "queue") {
      if (!instance.queue(make_task(member(a, "task")))) {
        throw Error("the task queue holds at most 10 tasks");
      }
    } else if (d == "run_queue") {
      instance.run_queued_tasks();
    } else if (d == "gait_target" || d == "gait_value" || d == "blend_target" ||
               d == "blend_value") {
      AnimTask* t = nullptr;
      if (d.rfind("gait", 0) == 0) {
        t = instance.find_top(12);
      } else {
        for (int type : {12, 10, 11, 13}) {
          if (AnimTask* f = instance.find_top(type); f && (!t || f == instance.top())) t = f;
        }
      }
      if (!t) throw Error(fmt::format("\"{}\": no blend task on the stack", d));
      if (d.find("target") != std::string::npos) {
        t->set_blend_target(number(a, "value", 0));
      } else {
        t->set_blend_value(number(a, "value", 0));
      }
    } else if (d == "flags") {
      AnimTask* t = instance.top();
      if (t) t->set_flags(static_cast<uint32_t>(integer(a, "flags", 0)));
    } else if (d == "speed_multiplier") {
      instance.human.speed_multiplier = non_negative(a, "value", 1.0f);
    } else if (d == "attach") {
      // Human +0x280: the root turn is then the pose's quaternion once per update.
      instance.human.attachment = integer(a, "handle", 0);
      if (instance.human.attachment == -1) throw Error("attach: \"handle\" must not be -1");
    } else if (d == "detach") {
      instance.human.attachment = -1;
    } else if (d == "state_flags") {
      // The caller's own changes to record +0x08 (what the combat code sets beside the tasks).
      uint64_t& w = instance.human.state_flags;
      w = (w & ~flag_word(a, "clear", 0)) | flag_word(a, "set", 0);
    } else if (d == "fade") {
      // A fade by itself goes on top (TaskStack_Push): it fades out the layer under it.
      instance.push(make_task(a));
    } else {
      // A task by itself: inserted at the bottom, as the builders insert a new task.
      instance.insert_bottom(make_task(a));
    }
  }
};

Json task_json(const AnimTask& t) {
  Json j{{"type", t.type()}, {"anim", t.anim_id()}};
  const AnimCursor* c = t.main_cursor();
  j["time"] = json_float(t.time());
  j["frame"] = c ? c->frame() : 0;
  j["rate"] = json_float(t.rate());
  if (t.flags()) j["flags"] = t.flags();
  if (t.held) j["held"] = t.held;
  if (t.type() == 9) {
    const auto& f = static_cast<const FadeTask&>(t);
    j["duration"] = json_float(f.duration());
    j["weight"] = json_float(f.weight());
  } else if (t.type() == 12) {
    const auto& g = static_cast<const GaitTask&>(t);
    j["value"] = json_float(g.blend_value());
    j["target"] = json_float(g.target());
    j["pair"] = g.pair();
    j["leader"] = g.upper_leads() ? "upper" : "lower";
    for (const auto& [name, cur] :
         {std::pair{"lower", &g.lower()}, std::pair{"upper", &g.upper()}}) {
      j[name] = Json{{"anim", cur->clip() ? cur->clip()->anim_id : -1},
                     {"time", json_float(cur->time())},
                     {"frame", cur->frame()}};
    }
  } else if (t.type() == 10 || t.type() == 11 || t.type() == 13) {
    j["value"] = json_float(t.blend_value());
  }
  if (t.type() == 1 || t.type() == 3 || t.type() == 4 || t.type() == 6 || t.type() == 7) {
    const auto& ct = static_cast<const ClipTask&>(t);
    if (ct.subtree_bone() >= 0) {
      j["bone"] = ct.subtree_bone();
      j["weight"] = json_float(ct.subtree_weight());
    }
  }
  if (t.type() == 3 || t.type() == 6) {
    const auto& ct = static_cast<const ClipTask&>(t);
    if (ct.in_blend_window() && ct.next()) {
      j["blend"] = json_float(ct.blend_share());
      j["next"] = task_json(*ct.next());
    }
  }
  return j;
}

int play(const Json& scenario, const std::filesystem::path& base, const PlayOptions& options,
         std::ostream& out, const UpdateHook* hook = nullptr);

}  // namespace

// The pose of the update (warriors.txt, "The pose", "Bone transforms"): the 34 local rotations,
// the two translations and the model-space transforms, values with the tag bit cleared and the
// tag given as "default" per bone.
Json pose_json(const CharacterInstance& inst) {
  const WarPose& pose = inst.pose();
  const auto& model = inst.bones();
  const auto clean = [](auto v) { return to_json(tagged(v, false)); };
  Json rotations = Json::array(), defaults = Json::array(), m = Json::array();
  for (int b = 0; b < kNumBones; ++b) {
    rotations.push_back(clean(pose.rotations[b]));
    defaults.push_back(pose.rotation_default(b));
    m.push_back(Json{{"bone", b},
                     {"name", bone_name(b)},
                     {"position", clean(model[b].position)},
                     {"rotation", clean(model[b].rotation)}});
  }
  return Json{{"root_velocity", clean(pose.root_velocity)},
              {"root_velocity_default", pose.velocity_default()},
              {"root_translation", clean(pose.root_translation)},
              {"root_translation_default", pose.translation_default()},
              {"rotations", std::move(rotations)},
              {"default", std::move(defaults)},
              {"model", std::move(m)}};
}

int play_scenario(const Json& scenario, const std::filesystem::path& base,
                  const PlayOptions& options, std::ostream& out) {
  try {
    return play(scenario, base, options, out);
  } catch (const nlohmann::json::exception& e) {
    throw Error(fmt::format("scenario: {}", e.what()));
  }
}

int run_scenario(const Json& scenario, const std::filesystem::path& base,
                 const PlayOptions& options, const UpdateHook& hook) {
  std::ostringstream sink;
  PlayOptions quiet = options;
  quiet.json = false;
  quiet.pose = false;
  try {
    return play(scenario, base, quiet, sink, &hook);
  } catch (const nlohmann::json::exception& e) {
    throw Error(fmt::format("scenario: {}", e.what()));
  }
}

int play_scenario(const Json& scenario, const std::filesystem::path& base, bool json,
                  std::ostream& out) {
  PlayOptions options;
  options.json = json;
  return play_scenario(scenario, base, options, out);
}

namespace {
int play(const Json& scenario, const std::filesystem::path& base, const PlayOptions& options,
         std::ostream& out, const UpdateHook* hook) {
  if (!scenario.is_object()) throw Error("the scenario must be a JSON object");
  const bool json = options.json;
  const bool want_pose = options.pose || scenario.value("pose", false);
  Player p;
  p.force = options.force || scenario.value("force", false);
  load_set(scenario, base, p.set, p.force);
  if (scenario.contains("humans")) {
    if (!scenario["humans"].is_object()) throw Error("'humans' must map names to anim sets");
    for (const auto& [name, h] : scenario["humans"].items()) {
      if (!h.is_object()) throw Error("'humans' must map names to anim sets");
      AnimSet& other = p.others[name];
      other.speeds = p.set.speeds;  // CfgAnimSpeeds is global unless the set names its own
      load_set(h, base, other, p.force);
    }
  }
  const float dt = non_negative(scenario, "dt", kDt);
  const int updates = integer(scenario, "updates", 60);
  if (updates < 0 || updates > 10000000) throw Error("'updates' must be 0 to 10,000,000");
  // The whole play's work (issue 19): one character of kNumBones bones per update.
  check_play_steps(play_steps(updates, play_steps_per_update(1, kNumBones)), "scenario: 'updates'");
  p.instance.human.speed_multiplier = non_negative(scenario, "speed_multiplier", 1.0f);
  // The character's 0x28 chunk gives the bone offsets and the bind height (entry 1, +4);
  // without one, unit offsets and "bind_height" (0 by default).
  if (p.set.bone_offsets) {
    std::array<Vec3, kNumBones> offsets;
    for (int b = 0; b < kNumBones; ++b) offsets[b] = p.set.bone_offsets->offset(b);
    p.instance.set_offsets(offsets);
  }
  p.instance.sample_context.bind_height = number(
      scenario, "bind_height", p.set.bone_offsets ? p.set.bone_offsets->bind_height() : 0.0f);
  // By reference: a copy of a Json is recursive, and a task may nest deeply (refused later).
  std::vector<std::pair<int, const Json*>> actions;
  if (scenario.contains("actions")) {
    if (!scenario["actions"].is_array()) throw Error("'actions' must be an array");
    charge_work(Work::kAction, scenario["actions"].size(), "scenario: actions");  // issue 30
    for (const Json& a : scenario["actions"]) {
      if (!a.is_object() || !a.contains("do") || !a["do"].is_string()) {
        throw Error("each action is an object with \"at\" and \"do\"");
      }
      actions.emplace_back(integer(a, "at", 0), &a);
    }
  }
  // The queue runs after each update's actions unless the scenario runs it by "run_queue" only
  // (then queued tasks can stand at sampling time, where the human test decides whether their
  // pose is the default pose).
  const std::string queue_runs = scenario.value("queue_runs", std::string("each_update"));
  if (queue_runs != "each_update" && queue_runs != "on_action") {
    throw Error("'queue_runs' must be \"each_update\" or \"on_action\"");
  }
  p.instance.human.queued_pose_test = scenario.value("queued_pose_test", false);
  std::stable_sort(actions.begin(), actions.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  size_t next_action = 0;
  CharacterInstance& inst = p.instance;
  for (int k = 0; k < updates; ++k) {
    inst.begin_update();
    // The animation step, the deferred release, then the actions of the update (Humans_Update).
    inst.advance(dt);
    inst.flush_deferred();
    while (next_action < actions.size() && actions[next_action].first <= k) {
      p.act(*actions[next_action++].second);
    }
    if (queue_runs == "each_update") inst.run_queued_tasks();
    inst.sample();
    inst.apply_root_motion(dt);
    if (hook) {
      if (!(*hook)(k, inst)) return 0;
      continue;
    }
    const auto& bones = inst.bones();
    if (json) {
      Json line{{"update", k}, {"anim", inst.human.playing_anim}};
      Json tasks = Json::array();
      for (int i = 0; i < inst.size(); ++i) tasks.push_back(task_json(*inst.task(i)));
      line["tasks"] = std::move(tasks);
      Json events = Json::array();
      for (const FiredEvent& e : inst.events()) {
        events.push_back(Json{{"anim", e.anim},
                              {"frame", e.event->frame},
                              {"type", e.event->type},
                              {"name", event_name(e.event->type)},
                              {"payload", Json::parse(event_payload_json(*e.event))}});
      }
      line["events"] = std::move(events);
      line["root_velocity"] = to_json(bones[0].position);
      line["root_turn"] = to_json(bones[0].rotation);
      if (!inst.callbacks().empty()) {
        Json cbs = Json::array();
        for (const Callback& c : inst.callbacks()) {
          cbs.push_back(Json{{"name", c.name},
                             {"anim", c.anim},
                             {"task", c.task_type},
                             {"kind", c.wrap ? "wrap" : "end"}});
        }
        line["callbacks"] = std::move(cbs);
      }
      line["state_flags"] = inst.human.state_flags;
      if (inst.human.attachment != -1) line["attachment"] = inst.human.attachment;
      if (inst.queued() > 0) line["queued"] = inst.queued();
      if (inst.default_from_queue()) line["default_from_queue"] = true;
      if (inst.human.reported_object_flags) {
        line["reported_object_flags"] = inst.human.reported_object_flags;
      }
      line["heading"] = json_float(inst.human.heading);
      line["velocity"] = to_json(inst.human.velocity);
      line["position"] = to_json(inst.human.position);
      if (want_pose) line["pose"] = pose_json(inst);
      out << dump_json(std::move(line)) << "\n";
    } else {
      std::string tasks;
      for (int i = 0; i < inst.size(); ++i) {
        const AnimTask& t = *inst.task(i);
        const AnimCursor* c = t.main_cursor();
        tasks += fmt::format(" [{}:{} t={:.4f} f={}]", t.type(), t.anim_id(), t.time(),
                             c ? c->frame() : 0);
      }
      out << fmt::format("{:4d} anim {:4d}{}", k, inst.human.playing_anim, tasks);
      for (const FiredEvent& e : inst.events()) {
        out << fmt::format(" event({} f{} {})", e.anim, e.event->frame, event_name(e.event->type));
      }
      for (const Callback& c : inst.callbacks()) {
        out << fmt::format(" {}({})", c.wrap ? "wrap" : "end", c.name);
      }
      out << "\n";
    }
  }
  return 0;
}

}  // namespace

}  // namespace animkit::warriors
