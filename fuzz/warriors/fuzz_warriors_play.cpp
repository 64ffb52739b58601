// The Warriors player under a generated scenario (issue 19): the module's writers make the demo's
// gait and idle clips plus two clips shaped by the bytes (any length, key gaps, events past the
// end, extreme root motion), and the bytes choose the scenario: anim speeds, range flags, dt, the
// speed multiplier and a script of tasks (every type, nested hand-overs) and actions. Any input
// must end in a trace or an animkit::Error, within the fuzzer's time and memory limits.
#include <cstddef>
#include <cstdint>

#include "animkit/core/error.h"
#include "animkit/core/writer.h"
#include "animkit/warriors/builder.h"
#include "animkit/warriors/demo.h"
#include "animkit/warriors/scenario.h"
#include "fuzz/common/scenario_gen.h"

using namespace animkit;
using namespace animkit::warriors;
using animkit::fuzz::Gen;

namespace {

constexpr int kAnims[] = {4, 5, 6, 7, 8, 388, 999};  // 7, 8: the generated clips; 999: none

const std::filesystem::path& dir() { return fuzz::scratch_dir("warriors"); }

void write_anm(const AnmClip& clip, const std::string& file) {
  Writer w;
  write_resource(w, make_anm_resource(clip));
  write_file(dir() / file, w.bytes());
}

// A clip from the bytes: F frames, keys `gap` apart on a few bones, root velocity and events.
AnmClip generated_clip(Gen& g, const std::string& name) {
  ClipBuilder b;
  b.name = name;
  b.frames = g.pick({0, 1, 2, 3, 30, g.range(0, 400), g.range(0, 0xffff)});
  b.flags = g.coin() ? 0 : g.u32();
  b.displacement_x = static_cast<float>(g.number());
  b.displacement_y = static_cast<float>(g.number());
  const int gap = g.range(1, 255);
  const int keys = std::min(b.frames / gap + 1, 64);
  const int bones = g.range(0, 4);
  for (int k = 0; k < keys; ++k) {
    const int f = k * gap;
    const Vec3 v{static_cast<float>(g.number(0.1)), static_cast<float>(g.number(3)),
                 static_cast<float>(g.number(0.1))};
    b.velocity.push_back({f, v});
    b.translation.push_back({f, {0, 0, static_cast<float>(g.number(0.95))}});
    for (int bone = 0; bone < bones; ++bone) {
      const Quat q{static_cast<float>(g.number(0.1)), static_cast<float>(g.number(0.1)),
                   static_cast<float>(g.number(0.1)), 1.f};
      b.rotations[bone == 0 ? 0 : g.range(1, 33)].push_back({f, q});
    }
  }
  for (int e = g.range(0, 4); e > 0; --e) {
    AnimEvent ev;
    ev.frame = g.coin() ? static_cast<uint16_t>(g.range(0, std::max(b.frames, 1))) : g.u16();
    ev.type = g.pick<uint16_t>({0x0b, 0x09, 0x0a, 0x21, 0x22, 0x2c, 0x2d, 0x48, g.u16()});
    ev.arg0 = g.u16();
    ev.arg1 = g.u16();
    ev.position = {static_cast<int16_t>(g.u16()), 0, 0};
    b.events.push_back(ev);
  }
  return b.build();
}

Json anim_list(Gen& g, int n) {
  Json a = Json::array();
  for (int i = 0; i < n; ++i) a.push_back(g.pick(std::span<const int>(kAnims)));
  return a;
}

Json task(Gen& g, int depth) {
  const std::string d = g.pick({"loop", "clip_then_next", "clip", "scene", "paired",
                                "paired_hold", "fade", "gait", "mix", "select", "direction"});
  Json t{{"do", d}};
  const int anim = g.pick(std::span<const int>(kAnims));
  if (d == "loop" || d == "clip_then_next" || d == "clip" || d == "scene" || d == "paired" ||
      d == "paired_hold") {
    t["anim"] = anim;
    if (d == "paired" || d == "paired_hold") t["from"] = g.coin() ? "other" : "nobody";
    if ((d == "clip_then_next" || d == "paired") && depth < 8 && g.coin()) {
      t["next"] = task(g, depth + 1);
      t["blend"] = g.number(0.2);
    }
  } else if (d == "fade") {
    t["fade"] = g.number(0.3);
  } else if (d == "gait") {
    t["anims"] = anim_list(g, g.rarely() ? g.range(0, 7) : 5);
    t["value"] = g.number(1);
    t["speed"] = g.number(10);
  } else if (d == "direction") {
    t["base"] = g.pick({4, 0, -1, 380, 0x7fffffff});
    t["value"] = g.number(3);
  } else {
    t["anims"] = anim_list(g, d == "mix" ? 2 : 4);
    t["value"] = g.number(1);
  }
  if (g.coin()) t["rate"] = g.number(1);
  if (g.coin()) t["flags"] = g.pick<int64_t>({0x800, 0x1000, 0x2000, 705, g.u32()});
  if (g.rarely()) t["hold"] = g.u32();
  if (g.rarely()) t["callback"] = "cb";
  if (g.rarely()) t["wrap_callback"] = "wrap";
  if (g.rarely()) t["target"] = g.number(1);
  return t;
}

Json action(Gen& g, int updates) {
  Json a;
  a["at"] = g.range(-1, updates);
  switch (g.range(0, 9)) {
    case 0: case 1: case 2: {
      Json t = task(g, 0);
      for (auto& [k, v] : t.items()) a[k] = v;
      break;
    }
    case 3: a["do"] = "change"; a["task"] = task(g, 0); a["fade"] = g.number(0.25); break;
    case 4: a["do"] = g.pick({"insert", "push", "queue"}); a["task"] = task(g, 0); break;
    case 5: a["do"] = "run_queue"; break;
    case 6:
      a["do"] = g.pick({"gait_target", "gait_value", "blend_target", "blend_value"});
      a["value"] = g.number(1);
      break;
    case 7: a["do"] = "flags"; a["flags"] = g.u32(); break;
    default: a["do"] = "speed_multiplier"; a["value"] = g.number(1); break;
  }
  return a;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  fuzz::init_scenario_fuzzer();
  write_anm(synthetic_gait_clip("walk", 36, 0.35f, 1.5f), "walk.anm");
  write_anm(synthetic_gait_clip("jog", 24, 0.6f, 3.5f), "jog.anm");
  write_anm(synthetic_gait_clip("run", 20, 0.85f, 6.0f), "run.anm");
  write_anm(synthetic_idle_clip(), "idle.anm");
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Gen g(data, size);
  try {
    write_anm(generated_clip(g, "gen_a"), "gen_a.anm");
    write_anm(generated_clip(g, "gen_b"), "gen_b.anm");
  } catch (const Error&) {
    return 0;  // the builder refused the keys: nothing to play
  }
  const Json clips = {{"4", "walk.anm"},  {"5", "jog.anm"},   {"6", "run.anm"},
                      {"7", "gen_a.anm"}, {"8", "gen_b.anm"}, {"388", "idle.anm"}};
  Json s{{"engine", "warriors"}, {"clips", clips}};
  s["humans"] = {{"other", {{"clips", clips}}}};
  if (g.coin()) {
    s["anim_speeds"] = {g.number(0.75), g.number(0.8), g.number(1), g.number(0.9)};
  }
  if (g.coin()) {
    Json flags = Json::object();
    for (int id : {4, 5, 6, 7, 8}) {
      if (g.coin()) flags[std::to_string(id)] = g.pick<int>({0x800, 0x1000, 0x2000, g.u16()});
    }
    s["range_flags"] = flags;
  }
  if (g.coin()) s["speed_multiplier"] = g.number(1);
  if (g.rarely()) s["bind_height"] = g.number(1);
  if (g.coin()) s["dt"] = g.number(1.0 / 30);
  const int updates = g.count(120, 2000);
  s["updates"] = updates;
  Json actions = Json::array();
  for (int n = g.count(6, 40); n > 0 && !g.empty(); --n) actions.push_back(action(g, updates));
  s["actions"] = actions;
  return fuzz::play_case(s, dir(), [&](std::ostream& out) {
    play_scenario(s, dir(), (size & 1) != 0, out);
  });
}
