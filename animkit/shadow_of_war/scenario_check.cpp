#include "animkit/shadow_of_war/scenario_check.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <unordered_set>

#include "animkit/core/error.h"
#include "animkit/shadow_of_war/scenario.h"

namespace animkit::shadow_of_war {

namespace {

[[noreturn]] void bad(const std::string& path, const std::string& what) {
  throw Error(fmt::format("{}: {}", path, what));
}

// A JSON Pointer step: "~" and "/" escaped (RFC 6901).
std::string step(const std::string& path, const std::string& key) {
  std::string k;
  for (char c : key) k += c == '~' ? "~0" : c == '/' ? "~1" : std::string(1, c);
  return path + "/" + k;
}
std::string step(const std::string& path, size_t index) { return path + "/" + std::to_string(index); }

const Json& member(const Json& j, const char* key) {
  static const Json none;
  return j.is_object() && j.contains(key) ? j[key] : none;
}

// Each element of an array member (absent: none), with its path.
template <class F>
void each(const Json& j, const std::string& path, const char* key, F f) {
  const Json& list = member(j, key);
  if (list.is_null()) return;
  if (!list.is_array()) bad(step(path, key), "expected an array");
  for (size_t i = 0; i < list.size(); ++i) f(list[i], step(step(path, key), i));
}

void finite(const Json& v, const std::string& path) {
  if (!v.is_number() || !std::isfinite(v.get<double>()))
    bad(path, fmt::format("{} is not a finite number", v.dump()));
}
void finite_at(const Json& j, const std::string& path, const char* key) {
  if (!member(j, key).is_null()) finite(j[key], step(path, key));
}
// A whole number in [low, high].
void whole(const Json& v, const std::string& path, double low, double high, const char* what) {
  if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() != std::floor(v.get<double>()) ||
      v.get<double>() < low || v.get<double>() > high)
    bad(path, fmt::format("{} is not {}", v.dump(), what));
}

void values_are_numbers(const Json& j, const std::string& path) {
  const Json& values = member(j, "values");
  if (values.is_null()) return;
  if (!values.is_object()) bad(step(path, "values"), "expected an object of numbers");
  for (const auto& [name, v] : values.items()) finite(v, step(step(path, "values"), name));
}

}  // namespace

void check_scenario_values(const Json& s) {
  each(s, "", "files", [](const Json& f, const std::string& fp) {
    each(f, fp, "clips", [](const Json& c, const std::string& cp) {
      if (!member(c, "name").is_string()) bad(step(cp, "name"), "a clip needs a name (a string)");
      // A clip of 0 s has no time to sample (its root came out NaN); a negative one runs back.
      const Json& d = member(c, "duration");
      if (!d.is_null() && (!d.is_number() || !(d.get<double>() > 0) || !std::isfinite(d.get<double>())))
        bad(step(cp, "duration"), fmt::format("{} is not a duration (seconds, finite, more than 0)",
                                              d.dump()));
      each(c, cp, "events", [](const Json& e, const std::string& ep) {
        if (e.is_object() && e.contains("ms"))
          whole(e["ms"], step(ep, "ms"), 0, 0xFFFFFF, "a time of 0 to 16,777,215 ms (24 bits)");
      });
    });
  });
  each(member(s, "graph"), "/graph", "states", [](const Json& st, const std::string& sp) {
    for (const char* key : {"StartPct", "Rate"}) finite_at(st, sp, key);
    const Json& blend = member(st, "DefaultBlendTime");
    if (!blend.is_null() && (!blend.is_number() || !(blend.get<double>() >= 0) ||
                             !std::isfinite(blend.get<double>())))
      bad(step(sp, "DefaultBlendTime"), fmt::format("{} is not a blend time (seconds, finite, 0 "
                                                    "or more)",
                                                    blend.dump()));
  });
  each(s, "", "characters", [](const Json& c, const std::string& cp) {
    if (!member(c, "count").is_null())
      whole(c["count"], step(cp, "count"), 0, 1e9, "a count of characters (0 or more)");
    values_are_numbers(c, cp);
    if (!member(c, "combat_anim").is_null())
      whole(c["combat_anim"], step(cp, "combat_anim"), -2147483648.0, 2147483647.0,
            "an animation index (a 32-bit integer)");
  });
  each(s, "", "script", [](const Json& e, const std::string& ep) {
    if (!e.is_object()) bad(ep, "a script event is an object");
    if (!member(e, "frame").is_null())
      whole(e["frame"], step(ep, "frame"), 0, 1e8, "a frame (0 or more)");
    values_are_numbers(e, ep);
    const Json& blend = member(e, "blend_time");
    if (!blend.is_null() && (!blend.is_number() || !(blend.get<double>() >= 0) ||
                             !std::isfinite(blend.get<double>())))
      bad(step(ep, "blend_time"), fmt::format("{} is not a blend time (seconds, finite, 0 or more)",
                                              blend.dump()));
    const Json& fields = member(e, "fields");
    for (const char* key : {"Rate", "DefaultBlendTime", "StartPct"})
      finite_at(fields, step(ep, "fields"), key);
    if (!member(e, "combat_anim").is_null())
      whole(e["combat_anim"], step(ep, "combat_anim"), -2147483648.0, 2147483647.0,
            "an animation index (a 32-bit integer)");
  });
}

void check_scenario_names(const Json& s, const Scene& scene) {
  std::unordered_set<std::string> clips, characters;
  for (const auto& file : scene.files)
    for (const Clip& c : file->clips) clips.insert(c.name);
  for (const auto& c : scene.crowd->characters()) characters.insert(c->name());
  const BlendGraph& graph = *scene.graph;
  const std::unordered_set<std::string> values(graph.value_names.begin(), graph.value_names.end());
  auto clip_known = [&](const Json& name, const std::string& path) {
    if (!name.is_string()) bad(path, "expected a clip name");
    if (!clips.count(name.get<std::string>()))
      bad(path, fmt::format("clip {} is in none of the scenario's files", name.dump()));
  };
  each(member(s, "graph"), "/graph", "states", [&](const Json& st, const std::string& sp) {
    if (!member(st, "clip").is_null() && !st["clip"].get<std::string>().empty())
      clip_known(st["clip"], step(sp, "clip"));
  });
  const Json& death = member(member(s, "global"), "RagdollDeathAnimation");
  if (!death.is_null() && !(death.is_string() && death.get<std::string>().empty()))
    clip_known(death, "/global/RagdollDeathAnimation");
  each(s, "", "script", [&](const Json& e, const std::string& ep) {
    const Json& who = member(e, "character");
    if (!who.is_null() && (!who.is_string() || !characters.count(who.get<std::string>())))
      bad(step(ep, "character"), fmt::format("no character {}", who.dump()));
    const Json& set = member(e, "values");
    if (set.is_object())
      for (const auto& [name, v] : set.items())
        if (!values.count(name))
          bad(step(ep, "values"), fmt::format("value \"{}\" is not declared (a character's "
                                               "\"values\", the graph's \"values\" or a "
                                               "predicate that reads it)",
                                               name));
    for (const char* key : {"enter", "record"}) {
      const Json& st = member(e, key);
      if (!st.is_null() && (!st.is_string() || graph.find_state(st.get<std::string>()) < 0))
        bad(step(ep, key), fmt::format("no state {}", st.dump()));
    }
    for (const char* key : {"load", "unload"}) {
      const Json& path = member(e, key);
      if (path.is_null()) continue;
      const bool known = path.is_string() &&
                         std::any_of(scene.files.begin(), scene.files.end(), [&](const auto& f) {
                           return normalize_path(f->path) == normalize_path(path.get<std::string>());
                         });
      if (!known) bad(step(ep, key), fmt::format("no file {} in \"files\"", path.dump()));
    }
    const Json& attack = member(e, "attack");
    if (!attack.is_null() && (!attack.is_string() || !scene.attacks.count(attack.get<std::string>())))
      bad(step(ep, "attack"), fmt::format("no attack {} in \"attacks\"", attack.dump()));
  });
}

}  // namespace animkit::shadow_of_war
