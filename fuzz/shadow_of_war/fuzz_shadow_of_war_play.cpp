// The Shadow of War runtime under a generated scene (issue 19): a synthetic skeleton of any size,
// files of synthetic clips (any duration, loop, amplitude), skeleton families, weight sets, a
// behaviour graph (states with any Rate / StartPct / blend time, transitions with nested
// predicates on the character values), characters, a ragdoll brain, and a script of value
// changes, deaths, forced states, record edits and bundle loads / unloads, at any dt.
#include <cstddef>
#include <cstdint>

#include <fmt/format.h>

#include "animkit/core/error.h"
#include "animkit/shadow_of_war/scenario.h"
#include "fuzz/common/scenario_gen.h"

using namespace animkit;
using namespace animkit::shadow_of_war;
using animkit::fuzz::Gen;

namespace {

const std::filesystem::path& dir() { return fuzz::scratch_dir("shadow_of_war"); }

constexpr const char* kValues[] = {"speed",    "bored",    "state_time",   "state_pct",
                                   "velocity", "height",   "spine_upright", "head_severed",
                                   "combat_state"};
constexpr const char* kFiles[] = {"orc/a.anix", "orc/b.anix", "human/c.anix"};

std::string value_name(Gen& g) { return g.pick(std::span<const char* const>(kValues)); }

Json predicate(Gen& g, int depth) {
  const int kind = depth > 4 ? 4 : g.range(0, 5);
  if (kind <= 1) {
    Json list = Json::array();
    for (int n = g.range(0, 3); n > 0; --n) list.push_back(predicate(g, depth + 1));
    return {{kind == 0 ? "And" : "Or", list}};
  }
  if (kind == 2) return {{"Not", predicate(g, depth + 1)}};
  return {{"value", value_name(g)},
          {"op", g.pick({"<", "<=", ">", ">=", "==", "!="})},
          {"than", g.number(0.5)}};
}

Json graph(Gen& g, int clips) {
  const int states = g.range(1, 8);
  auto state_name = [](int i) { return fmt::format("S{}", i); };
  Json transitions = Json::array();
  const int links = g.count(8, 40);
  for (int i = 0; i < links; ++i) {
    Json t{{"name", fmt::format("T{}", i)}, {"predicate", predicate(g, 0)}};
    if (!g.rarely(10)) t["target"] = state_name(g.range(0, states - 1));
    if (g.coin()) t["BlendTime"] = g.number(0.2);
    transitions.push_back(t);
  }
  Json st = Json::array();
  for (int i = 0; i < states; ++i) {
    Json s{{"name", state_name(i)}};
    if (!g.rarely(10)) s["clip"] = fmt::format("clip{}", g.range(0, clips));
    if (g.coin()) s["Rate"] = g.number(1);
    if (g.coin()) s["StartPct"] = g.number(0.5);
    if (g.coin()) s["DefaultBlendTime"] = g.number(0.2);
    if (g.coin()) s["Looping"] = g.coin();
    if (g.rarely()) s["Mirrored"] = true;
    if (g.rarely()) s["Priority"] = g.range(-3, 3);
    if (g.rarely()) s["Gravity"] = false;
    if (g.rarely(4)) s["WeightSet"] = g.coin() ? "upper" : "none";
    Json l = Json::array();
    for (int n = links ? g.range(0, 4) : 0; n > 0; --n)
      l.push_back(fmt::format("T{}", g.range(0, links - 1)));
    s["Links"] = l;
    st.push_back(s);
  }
  Json j{{"name", "fuzz"}, {"states", st}, {"transitions", transitions}};
  if (g.rarely()) j["start"] = state_name(g.range(0, states));
  return j;
}

Json range_json(Gen& g) { return Json::array({g.number(0), g.number(1)}); }

Json brain(Gen& g) {
  Json b{{"name", "brain"}, {"OnGround", range_json(g)}, {"Stationary", range_json(g)}};
  Json cs = Json::array();
  for (int n = g.range(0, 4); n > 0; --n) {
    Json c{{"name", fmt::format("bc{}", n)}};
    for (const char* k : {"Height", "Velocity", "AverageBodyVelocity", "TimeOnGround", "TimeInAir",
                          "TimeStationary", "TimeMoving", "TimeInBehavior", "TimeTotal",
                          "SpineUpright"})
      if (g.rarely(3)) c[k] = range_json(g);
    if (g.rarely()) c["HeadSevered"] = g.coin();
    if (g.rarely()) c["CurrentController"] = fmt::format("bc{}", g.range(0, 4));
    if (g.rarely()) c["PriorController"] = fmt::format("bc{}", g.range(0, 4));
    if (g.rarely()) c["CombatState"] = g.range(-1, 3);
    cs.push_back(c);
  }
  b["BehaviorControllers"] = cs;
  return b;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  fuzz::init_scenario_fuzzer();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Gen g(data, size);
  Json s{{"engine", "shadow_of_war"}};
  s["joints"] = g.rarely(64) ? g.range(0, 100'000'000) : g.pick({34, 1, 2, 10, g.range(0, 80), g.range(-5, 2000)});
  s["frames"] = g.count(60, 600);
  if (g.rarely(64)) s[g.coin() ? "frames" : "joints"] = g.number(60);  // a user may write 1e30
  if (g.coin()) s["dt"] = g.number(1.0 / 60);
  Json files = Json::array();
  int clip = 0;
  for (const char* path : kFiles) {
    Json cl = Json::array();
    for (int n = g.range(0, 4); n > 0; --n, ++clip) {
      Json c{{"name", fmt::format("clip{}", clip)}};
      if (g.coin()) c["duration"] = g.number(1);
      if (g.coin()) c["looping"] = g.coin();
      if (g.rarely()) c["amplitude"] = g.number(0.3);
      if (g.rarely()) c["frequency"] = g.number(1);
      cl.push_back(c);
    }
    files.push_back({{"path", path}, {"clips", cl}});
  }
  s["files"] = files;
  if (g.coin()) {
    s["families"] = Json::array(
        {{{"name", "orc"}, {"members", {kFiles[0], kFiles[1]}}},
         {{"name", "human"}, {"members", g.coin() ? Json::array({kFiles[2]}) : Json::array()}}});
  }
  s["weight_sets"] = {{"upper", {{"joint", g.coin() ? "joint9" : "joint0"}}}};
  s["graph"] = graph(g, clip);
  if (g.coin()) s["brain"] = brain(g);
  if (g.rarely()) s["AtRestSpeed"] = g.number(15);
  if (g.rarely()) {
    s["global"] = {{"BodyRagdoll", g.coin()},
                   {"BodyDeathForceScale", g.number(1)},
                   {"BodyStickDist", g.number(1)}};
  }
  Json chars = Json::array();
  const int people = g.range(1, 4);
  for (int i = 0; i < people; ++i) {
    Json c{{"name", fmt::format("c{}", i)}};
    if (s.contains("families")) c["family"] = g.coin() ? "orc" : "human";
    if (g.rarely()) c["count"] = g.rarely(8) ? g.range(0, 100'000'000) : g.count(2, 300);
    Json v = Json::object();
    for (int n = g.range(0, 3); n > 0; --n) v[value_name(g)] = g.number(1);
    c["values"] = v;
    chars.push_back(c);
  }
  s["characters"] = chars;
  Json script = Json::array();
  const int frames = s["frames"].is_number_integer() ? s["frames"].get<int>() : 60;
  for (int n = g.count(6, 40); n > 0 && !g.empty(); --n) {
    Json e{{"frame", g.range(-1, frames)}};
    switch (g.range(0, 4)) {
      case 0: case 1: {
        e["character"] = fmt::format("c{}", g.range(0, people - 1));
        Json v = Json::object();
        for (int k = g.range(0, 3); k > 0; --k) v[value_name(g)] = g.number(1);
        e["values"] = v;
        if (g.rarely(4)) e["die"] = true;
        if (g.rarely(4)) {
          e["enter"] = fmt::format("S{}", g.range(0, 3));
          if (g.coin()) e["blend_time"] = g.number(0.2);
        }
        break;
      }
      case 2: {
        e["record"] = fmt::format("S{}", g.range(0, 3));
        Json f = Json::object();
        if (g.coin()) f["Rate"] = g.number(1);
        if (g.coin()) f["DefaultBlendTime"] = g.number(0.2);
        if (g.coin()) f["StartPct"] = g.number(0.5);
        if (g.coin()) f["Looping"] = g.coin();
        e["fields"] = f;
        break;
      }
      default:
        e[g.coin() ? "load" : "unload"] = g.pick(std::span<const char* const>(kFiles));
        break;
    }
    script.push_back(e);
  }
  s["script"] = script;
  return fuzz::play_case(s, dir(), [&](std::ostream& out) {
    PlayOptions o;
    o.json = (size & 1) != 0;
    o.threads = 1 + static_cast<int>(size % 3);
    play(s, dir(), o, out);
  });
}
