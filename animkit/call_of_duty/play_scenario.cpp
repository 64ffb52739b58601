#include "animkit/call_of_duty/play_scenario.h"

#include <fmt/format.h>

#include <cmath>
#include <map>
#include <ostream>

#include "animkit/call_of_duty/game_files.h"
#include "animkit/call_of_duty/loader.h"
#include "animkit/call_of_duty/tokenizer.h"
#include "animkit/core/json_text.h"
#include "animkit/core/limits.h"

namespace animkit::call_of_duty {

namespace {

// README "play": a weight call with no "blend_time" moves over 0.2 s, the default goal time of
// the game's setAnim-family script calls.
constexpr float kDefaultBlendTime = 0.2f;
constexpr float kDefaultDt = 0.05f;

float number(const Json& j, const char* key, float fallback) {
  if (!j.contains(key)) return fallback;
  const float v = float_from_json(j[key], key);
  if (!std::isfinite(v) || v < 0) throw Error(fmt::format("'{}' must be a finite number >= 0", key));
  return v;
}

std::string string_key(const Json& j, const char* key) {
  if (!j.contains(key) || !j[key].is_string()) throw Error(fmt::format("'{}' must be a string", key));
  return j[key].get<std::string>();
}

std::string file_text(const std::vector<uint8_t>& b) {
  return std::string(reinterpret_cast<const char*>(b.data()), b.size());
}

// A call of the script: at update `update`, on `node`.
struct Call {
  int update = 0;
  std::string node;
  std::optional<float> weight;
  float blend_time = kDefaultBlendTime;
  std::optional<float> rate;
  bool restart = false;
};

std::vector<Call> read_calls(const Json& j, int updates) {
  std::vector<Call> calls;
  if (!j.contains("calls")) return calls;
  if (!j["calls"].is_array()) throw Error("'calls' must be an array of calls");
  for (const Json& c : j["calls"]) {
    if (!c.is_object()) throw Error("a call is an object with \"update\" and \"node\"");
    Call call;
    if (!c.contains("update") || !c["update"].is_number_integer()) {
      throw Error("a call needs \"update\": the update it takes effect at (an integer)");
    }
    const int64_t u = c["update"].get<int64_t>();
    if (u < 0 || u >= updates) {
      throw Error(fmt::format("a call at update {}: the scenario has updates 0..{}", u, updates - 1));
    }
    call.update = static_cast<int>(u);
    call.node = to_lower(string_key(c, "node"));
    if (c.contains("weight")) call.weight = number(c, "weight", 0);
    call.blend_time = number(c, "blend_time", kDefaultBlendTime);
    if (c.contains("rate")) call.rate = number(c, "rate", 1);
    if (c.contains("restart")) {
      if (!c["restart"].is_boolean()) throw Error("'restart' must be true or false");
      call.restart = c["restart"].get<bool>();
    }
    calls.push_back(std::move(call));
  }
  return calls;
}

// The xanim a leaf names: from the game folders (the asset lookup, §4.3), else the scenario's
// "xanim_dir" (a file of that name, case ignored).
std::vector<uint8_t> find_xanim(const std::string& name, const GameFiles& files,
                                const std::filesystem::path& dir, std::string& display) {
  if (files.folder_count() > 0) {
    if (const auto f = files.find_xanim(name)) {
      display = f->display;
      return files.read(*f);
    }
  }
  std::error_code ec;
  if (!dir.empty()) {
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
      if (entry.is_regular_file(ec) && to_lower(entry.path().filename().string()) == name) {
        display = entry.path().string();
        return read_file(entry.path());
      }
    }
  }
  throw Error(fmt::format("Cannot find 'xanim/{}'", name));
}

struct Loaded {
  std::unique_ptr<TreePlayer> player;
  std::map<std::string, int32_t> nodes;  // name -> node index
};

Loaded load(const Json& j, const std::filesystem::path& base, const std::vector<Call>& calls) {
  GameFiles files;
  if (j.contains("game_dirs")) {
    if (!j["game_dirs"].is_array()) throw Error("'game_dirs' must be an array of folders");
    for (const Json& d : j["game_dirs"]) {
      if (!d.is_string()) throw Error("'game_dirs' must be an array of folders");
      files.add_folder(base / d.get<std::string>());
    }
  }
  std::filesystem::path xanim_dir;
  if (j.contains("xanim_dir")) xanim_dir = base / string_key(j, "xanim_dir");
  // The tree: a file (relative to the scenario), else animtrees/<name>.atr in the game folders,
  // as `cod tree` and the game find it.
  const std::string tree = string_key(j, "tree");
  std::filesystem::path tree_path = base / tree;
  std::string text, display;
  std::error_code ec;
  if (std::filesystem::is_regular_file(tree_path, ec)) {
    display = tree_path.string();
    text = file_text(read_file(tree_path));
  } else if (auto f = files.find("animtrees/" + std::filesystem::path(tree).stem().string() + ".atr")) {
    display = f->display;
    text = files.read_text(*f);
  } else {
    throw Error(fmt::format("cannot find the tree '{}' (a file beside the scenario, or "
                            "animtrees/<name>.atr in \"game_dirs\")",
                            tree));
  }
  LoadOptions o;
  o.tree_name = to_lower(std::filesystem::path(tree).stem().string());
  o.file = display;
  if (j.contains("anim_check")) {
    if (!j["anim_check"].is_boolean()) throw Error("'anim_check' must be true or false");
    o.anim_check = j["anim_check"].get<bool>();
  }
  // The names the scenario's script references (pruning keeps them, cod-animtrees.txt
  // "Pruning and placeholders").
  for (const Call& c : calls) {
    if (c.node != "root") o.references.push_back({c.node, "scenario", 0, 0, 0});
  }
  if (j.contains("references")) {
    if (!j["references"].is_array()) throw Error("'references' must be an array of names");
    for (const Json& r : j["references"]) {
      if (!r.is_string()) throw Error("'references' must be an array of names");
      o.references.push_back({to_lower(r.get<std::string>()), "scenario", 0, 0, 0});
    }
  }
  AssetResolver resolver;
  if (files.folder_count() > 0) resolver.set_game_files(&files, xanim_dir.empty());
  if (!xanim_dir.empty() && files.folder_count() == 0) resolver.set_directory(xanim_dir);
  o.assets = &resolver;
  LoadResult r = load_anim_tree(text, o);
  if (!r.loaded() || !r.anim) {
    for (const Diagnostic& d : r.diagnostics) {
      if (d.is_error()) throw Error(fmt::format("the tree does not load: {}", d.to_string()));
    }
    throw Error("the tree does not load");
  }
  std::vector<PlayLeafAnim> anims(r.anim->entries.size());
  for (size_t i = 0; i < r.anim->entries.size(); ++i) {
    const XAnimEntry& e = r.anim->entries[i];
    if (!e.leaf) continue;
    const std::string name(r.anim->node_name(i));
    if (name == "void" || name == "void_loop") {
      anims[i].looped = name == "void_loop";  // the loader's placeholders: no parts
      continue;
    }
    std::string where;
    const std::vector<uint8_t> bytes = find_xanim(name, files, xanim_dir, where);
    try {
      auto file = std::make_shared<XAnimFile>(parse_xanim(bytes, name));
      anims[i].looped = file->header.looped();
      anims[i].file = std::move(file);
    } catch (const Error& err) {
      throw err.with_file(where);
    }
  }
  Loaded out;
  for (size_t i = 0; i < r.anim->entries.size(); ++i) {
    out.nodes.try_emplace(std::string(r.anim->node_name(i)), static_cast<int32_t>(i));
  }
  for (const auto& [name, node] : r.bindings) out.nodes[name] = node;  // the stock binding wins
  out.player = std::make_unique<TreePlayer>(std::move(*r.anim), std::move(anims));
  return out;
}

}  // namespace

void run_scenario(const Json& j, const std::filesystem::path& base, const PlayHook& hook) {
  if (!j.is_object()) throw Error("a scenario is a JSON object");
  if (!j.contains("updates") || !j["updates"].is_number_integer() ||
      j["updates"].get<int64_t>() < 1 || j["updates"].get<int64_t>() > INT32_MAX) {
    throw Error("'updates' must be the number of updates (an integer >= 1)");
  }
  const int updates = static_cast<int>(j["updates"].get<int64_t>());
  const float dt = number(j, "dt", kDefaultDt);
  const std::vector<Call> calls = read_calls(j, updates);
  Loaded loaded = load(j, base, calls);
  TreePlayer& player = *loaded.player;
  check_play_steps(play_steps(static_cast<uint64_t>(updates),
                              play_steps_per_update(player.tree().entries.size(),
                                                    player.part_names().size())),
                   "scenario: 'updates'");
  std::vector<std::vector<const Call*>> by_update(static_cast<size_t>(updates));
  for (const Call& c : calls) {
    if (!loaded.nodes.count(c.node)) {
      throw Error(fmt::format("a call at update {}: no node '{}' in the tree", c.update, c.node));
    }
    by_update[c.update].push_back(&c);
  }
  for (int k = 0; k < updates; ++k) {
    for (const Call* c : by_update[k]) {
      const int32_t node = loaded.nodes[c->node];
      if (c->restart) player.restart(node);
      if (c->rate) player.set_rate(node, *c->rate);
      if (c->weight) player.set_weight(node, *c->weight, c->blend_time);
    }
    try {
      player.update(dt);
    } catch (const Error& e) {
      throw Error(fmt::format("update {}: {}", k, e.message()));
    }
    if (!hook(k, player)) return;
  }
}

Json update_json(int update, float dt, const TreePlayer& player) {
  const XAnim& tree = player.tree();
  Json nodes = Json::array();
  const auto& states = player.nodes();
  for (size_t i = 0; i < states.size(); ++i) {
    const PlayNodeState& s = states[i];
    if (!s.started) continue;
    Json n{{"node", i}, {"name", tree.node_name(i)}, {"weight", json_float(s.weight)},
           {"goal", json_float(s.goal)}};
    if (tree.entries[i].leaf) {
      n["time"] = json_float(s.time);
      n["cycle"] = s.cycle;
      n["rate"] = json_float(s.rate);
    }
    nodes.push_back(std::move(n));
  }
  auto notes = [&](const std::vector<PlayNote>& list, bool fraction) {
    Json out = Json::array();
    for (const PlayNote& n : list) {
      const XAnimTimedNote& note = player.notes(n.node)[n.entry];
      Json j{{"node", n.node}, {"leaf", tree.node_name(n.node)}, {"note", note.name},
             {"entry", n.entry}, {"time", json_float(note.time)}};
      if (fraction) j["fraction"] = json_float(n.fraction);
      out.push_back(std::move(j));
    }
    return out;
  };
  Json parts = Json::array();
  for (size_t p = 0; p < player.pose().size(); ++p) {
    const PlayPart& part = player.pose()[p];
    parts.push_back({{"part", player.part_names()[p]},
                     {"rotation", to_json(part.lanes)},
                     {"translation", to_json(part.translation)},
                     {"weight", json_float(part.weight)}});
  }
  Json deltas = Json::array();
  for (const PlayDelta& d : player.deltas()) {
    deltas.push_back({{"node", d.node},
                      {"leaf", tree.node_name(d.node)},
                      {"rotation", {json_float(d.rotation[0]), json_float(d.rotation[1])}},
                      {"translation", to_json(d.translation)}});
  }
  Json j{{"update", update},     {"dt", json_float(dt)},
         {"nodes", std::move(nodes)},
         {"notes", notes(player.server_notes(), false)},
         {"client_notes", notes(player.client_notes(), true)},
         {"parts", std::move(parts)}, {"delta", std::move(deltas)}};
  if (!player.empty_sub_blends().empty()) j["empty_sub_blends"] = player.empty_sub_blends();
  return j;
}

namespace {

void write_text(const Json& u, std::ostream& out) {
  out << fmt::format("update {} (dt {})\n", u["update"].get<int>(), u["dt"].dump());
  for (const Json& n : u["nodes"]) {
    out << fmt::format("  node {} {}: weight {} (goal {})", n["node"].get<int>(),
                       n["name"].get<std::string>(), n["weight"].dump(), n["goal"].dump());
    if (n.contains("time")) {
      out << fmt::format(" t {} cycle {} rate {}", n["time"].dump(), n["cycle"].dump(),
                         n["rate"].dump());
    }
    out << "\n";
  }
  for (const Json& n : u["notes"]) {
    out << fmt::format("  note {} of {} at {} (server)\n", n["note"].get<std::string>(),
                       n["leaf"].get<std::string>(), n["time"].dump());
  }
  for (const Json& n : u["client_notes"]) {
    out << fmt::format("  note {} of {} at {} (client, fraction {})\n",
                       n["note"].get<std::string>(), n["leaf"].get<std::string>(),
                       n["time"].dump(), n["fraction"].dump());
  }
  for (const Json& d : u["delta"]) {
    out << fmt::format("  delta of {}: rotation {} translation {}\n", d["leaf"].get<std::string>(),
                       d["rotation"].dump(), d["translation"].dump());
  }
  for (const Json& p : u["parts"]) {
    out << fmt::format("  part {}: rotation {} translation {} weight {}\n",
                       p["part"].get<std::string>(), p["rotation"].dump(),
                       p["translation"].dump(), p["weight"].dump());
  }
  if (u.contains("empty_sub_blends")) {
    out << fmt::format("  sub-blends of length 0 (weight only): {}\n",
                       u["empty_sub_blends"].dump());
  }
}

}  // namespace

int play_scenario(const Json& scenario, const std::filesystem::path& base,
                  const PlayOptions& options, std::ostream& out) {
  const float dt = scenario.is_object() ? number(scenario, "dt", kDefaultDt) : kDefaultDt;
  run_scenario(scenario, base, [&](int k, const TreePlayer& player) {
    const Json u = update_json(k, dt, player);
    if (options.json) {
      out << dump_json(u) << "\n";  // part names may hold any byte (issue 31)
    } else {
      write_text(u, out);
    }
    return static_cast<bool>(out);
  });
  return 0;
}

Animated pose_to_neutral(const TreePlayer& player, const std::string& name) {
  Animated a;
  a.skeleton.add_joint("root", -1, Transform::identity());
  Clip clip;
  clip.name = name;
  clip.duration = 0;
  clip.frame_rate = 30;
  clip.joints.resize(player.pose().size() + 1);
  clip.joints[0].rotation.add(0, Quat::identity());
  for (size_t p = 0; p < player.pose().size(); ++p) {
    const PlayPart& part = player.pose()[p];
    Transform t = Transform::identity();
    const Quat& q = part.lanes;
    const float len = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    if (part.weight > 0 && len > 0) t.rotation = {q.x / len, q.y / len, q.z / len, q.w / len};
    if (part.weight > 0) t.translation = part.translation;
    a.skeleton.add_joint(player.part_names()[p], 0, t);
    clip.joints[p + 1].rotation.add(0, t.rotation);
    clip.joints[p + 1].translation.add(0, t.translation);
  }
  a.clips.push_back(std::move(clip));
  a.notes.push_back("one update's blended pose: the skeleton's rest and a one-key clip");
  return a;
}

}  // namespace animkit::call_of_duty
