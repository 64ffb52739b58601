#include "animkit/shadow_of_war/demo.h"

#include <fmt/format.h>

#include <chrono>
#include <ostream>

#include "animkit/core/demo_gltf.h"
#include "animkit/shadow_of_war/anix_build.h"
#include "animkit/shadow_of_war/scenario.h"

namespace animkit::shadow_of_war {

Json crowd_scenario(int characters, int frames) {
  const Json graph = Json::parse(R"({
    "name": "orc_locomotion", "start": "Idle",
    "states": [
      {"name": "Idle", "clip": "orc_idle", "DefaultBlendTime": 0.25, "Links": ["Idle->IdleToRun", "Idle->Fidget"]},
      {"name": "IdleToRun", "clip": "orc_idle_to_run", "Looping": false, "DefaultBlendTime": 0.15,
       "Links": ["IdleToRun->Run", "IdleToRun->RunToIdle"]},
      {"name": "Run", "clip": "orc_run", "Rate": 1.0, "DefaultBlendTime": 0.2, "Links": ["Run->RunToIdle"]},
      {"name": "RunToIdle", "clip": "orc_run_to_idle", "Looping": false, "Links": ["RunToIdle->Idle", "RunToIdle->IdleToRun"]},
      {"name": "Fidget", "clip": "orc_fidget", "Looping": false, "WeightSet": "upper",
       "Links": ["Fidget->Idle", "Idle->IdleToRun"]}
    ],
    "transitions": [
      {"name": "Idle->IdleToRun", "target": "IdleToRun", "predicate": {"value": "speed", "op": ">", "than": 0.5}},
      {"name": "Idle->Fidget", "target": "Fidget", "predicate": {"And": [{"value": "state_time", "op": ">", "than": 3}, {"value": "bored", "op": ">", "than": 0.5}]}},
      {"name": "IdleToRun->Run", "target": "Run", "predicate": {"value": "state_pct", "op": ">=", "than": 0.9}},
      {"name": "IdleToRun->RunToIdle", "target": "RunToIdle", "predicate": {"value": "speed", "op": "<", "than": 0.5}},
      {"name": "Run->RunToIdle", "target": "RunToIdle", "predicate": {"Not": {"value": "speed", "op": ">", "than": 0.5}}},
      {"name": "RunToIdle->Idle", "target": "Idle", "predicate": {"value": "state_pct", "op": ">=", "than": 0.9}},
      {"name": "RunToIdle->IdleToRun", "target": "IdleToRun", "predicate": {"And": [{"value": "speed", "op": ">", "than": 0.5}, {"value": "state_pct", "op": ">", "than": 0.5}]}},
      {"name": "Fidget->Idle", "target": "Idle", "predicate": {"Or": [{"value": "state_pct", "op": ">=", "than": 0.95}, {"value": "speed", "op": ">", "than": 0.5}]}}
    ]})");
  Json s;
  s["engine"] = "shadow_of_war";
  s["joints"] = 34;
  s["frames"] = frames;
  s["files"] = Json::array(
      {{{"path", "orc/locomotion.anix"},
        {"clips",
         Json::array(
             {{{"name", "orc_idle"}, {"duration", 2.0}, {"amplitude", 0.1}},
              {{"name", "orc_idle_to_run"}, {"duration", 0.5}, {"looping", false}},
              {{"name", "orc_run"}, {"duration", 0.8}, {"amplitude", 0.5}, {"frequency", 2}},
              {{"name", "orc_run_to_idle"}, {"duration", 0.6}, {"looping", false}}})}},
       {{"path", "orc/fidgets.anix"},
        {"clips", Json::array({{{"name", "orc_fidget"},
                                {"duration", 1.5},
                                {"looping", false},
                                {"amplitude", 0.4}}})}}});
  s["families"] =
      Json::array({{{"name", "orc"}, {"members", {"orc/locomotion.anix", "orc/fidgets.anix"}}}});
  s["weight_sets"] = {{"upper", {{"joint", "joint9"}}}};
  s["graph"] = graph;
  Json chars = Json::array();
  Json script = Json::array();
  for (int i = 0; i < characters; ++i) {
    const std::string name = fmt::format("orc_{}", i);
    chars.push_back({{"name", name}, {"values", {{"speed", 0}, {"bored", i % 3 == 0 ? 1 : 0}}}});
    // Each character runs and stops on its own schedule.
    for (int f = 10 + (i * 7) % 40; f < frames; f += 90 + (i * 13) % 60) {
      script.push_back({{"frame", f}, {"character", name}, {"values", {{"speed", 3}}}});
      if (f + 45 + i % 20 < frames)
        script.push_back(
            {{"frame", f + 45 + i % 20}, {"character", name}, {"values", {{"speed", 0}}}});
    }
  }
  s["characters"] = chars;
  s["script"] = script;
  return s;
}

namespace {

// A two-clip .anix built by the module's writer, for `animkit dump` / `validate`.
std::vector<uint8_t> demo_anix() {
  AnixBuild b;
  b.track_runs = {{kRotationChannel, {0x11110001, 0x11110002}},
                  {kPositionChannel, {0x11110001}},
                  {kEventsChannel, {0x11110003}}};
  for (const auto& [name, seconds] : {std::pair{"orc_death_fwd", 1.5f}, {"orc_death_back", 2.f}}) {
    ClipBuild c;
    c.name = name;
    c.duration_ms = static_cast<uint32_t>(seconds * 1000);
    c.root.start_position = {0, 100, 0};
    c.root.end_position = {0, 20, name[10] == 'f' ? 120.f : -90.f};
    c.root.end_rotation = {0.7071068f, 0, 0, 0.7071068f};
    c.codecs = {"SQ03", "AQ03", "STRI"};
    c.track_groups = {0, 0, 1, 2};
    BlocksetBuild bs;
    bs.times = {0, seconds / 2, seconds};
    bs.groups = {opaque_group(32, 5), aq03_group(0, seconds, 3, 24), stri_group({"RAGDOLL"})};
    c.blocksets.push_back(bs);
    b.clips.push_back(c);
  }
  EventDictionary d;
  d.path = "orc/deaths.anix";
  d.strings = {"DelayRagdoll", "RAGDOLL", "footstep"};
  d.clips = {
      {"orc_death_fwd", 45, 1500, {event_word(2, 200), event_word(0, 400), event_word(1, 1100)}},
      {"orc_death_back", 60, 2000, {event_word(kNoText, 0), event_word(1, 1500)}}};
  b.events = d;
  return build_anix_bytes(b);
}

}  // namespace

void demo(DemoContext& ctx) {
  const int characters = 48, frames = 240;
  const std::vector<uint8_t> anix = demo_anix();
  write_file(ctx.out_dir / "shadow_of_war.anix", anix);
  ctx.out << fmt::format(
      "shadow_of_war: wrote shadow_of_war.anix ({} bytes, 2 clips with events)\n", anix.size());

  const Json s = crowd_scenario(characters, frames);
  Scene scene = scene_from_json(s, ctx.out_dir, -1);
  std::vector<std::pair<int, const Json*>> script;
  for (const Json& e : s["script"]) script.emplace_back(e["frame"].get<int>(), &e);
  // One character's pose each frame becomes a clip for the glTF export.
  Clip recorded;
  recorded.name = "orc_0 (crowd, evaluated)";
  recorded.duration = (frames - 1) / 60.f;
  recorded.frame_rate = 60;
  recorded.joints.resize(scene.skeleton.num_joints());
  for (auto& jt : recorded.joints) jt.rotation.interpolation = Interpolation::kNlerp;
  size_t changes = 0;
  std::vector<std::string> last(characters);
  double total_ms = 0;
  for (int f = 0; f < frames; ++f) {
    for (const auto& [at, e] : script) {
      if (at != f) continue;
      for (auto& c : scene.crowd->characters())
        if (c->name() == (*e)["character"].get<std::string>())
          for (const auto& [v, x] : (*e)["values"].items()) c->set_value(v, x.get<float>());
    }
    const auto t0 = std::chrono::steady_clock::now();
    scene.crowd->frame(1.f / 60);
    total_ms +=
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    for (int i = 0; i < characters; ++i) {
      const std::string& st = scene.crowd->characters()[i]->state()->name;
      if (st != last[i]) ++changes, last[i] = st;
    }
    const auto& out = scene.crowd->characters()[0]->model().output;
    for (size_t j = 0; j < out.size(); ++j) {
      recorded.joints[j].rotation.add(f / 60.f, out[j].rotation);
      if (j == 0) recorded.joints[j].translation.add(f / 60.f, out[j].translation);
    }
  }
  const double per_frame = total_ms / frames;
  ctx.out << fmt::format(
      "shadow_of_war: {} characters on graph '{}' ({} states), {} frames on {} worker threads + "
      "main: {} state changes; {:.3f} ms per frame, {:.1f} us per character\n",
      characters, scene.graph->name, scene.graph->states.size(), frames, scene.crowd->workers(),
      changes - characters, per_frame, 1000.0 * per_frame / characters);
  Animated a;
  a.skeleton = scene.skeleton;
  a.clips.push_back(std::move(recorded));
  const auto path = ctx.out_dir / "shadow_of_war.glb";
  write_demo_gltf(a, path);
  ctx.out << fmt::format("shadow_of_war: wrote {} (orc_0's evaluated pose, {} joints)\n",
                         path.string(), a.skeleton.num_joints());
}

}  // namespace animkit::shadow_of_war
