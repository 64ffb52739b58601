#include "animkit/asherons_call/player.h"

#include <fmt/format.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <optional>
#include <ostream>

#include "animkit/asherons_call/assets.h"
#include "animkit/asherons_call/command_ids.h"
#include "animkit/asherons_call/dat.h"
#include "animkit/asherons_call/dat_objects.h"
#include "animkit/asherons_call/json_helpers.h"
#include "animkit/core/json_text.h"
#include "animkit/core/limits.h"

namespace animkit::asherons_call {

namespace {

Json frame_json(const AFrame& f) {
  return Json{
      {"origin", to_json(f.origin)},
      {"rotation", Json::array({json_float(f.orientation.w), json_float(f.orientation.x),
                                json_float(f.orientation.y), json_float(f.orientation.z)})}};
}

bool flag(const Json& j, const char* key, bool def) {
  auto it = j.find(key);
  if (it == j.end()) return def;
  if (!it->is_boolean()) throw Error(fmt::format("\"{}\": expected true or false", key));
  return it->get<bool>();
}

HoldKey hold_key_from(const Json& j) {
  const std::string s = j.is_string() ? j.get<std::string>() : "";
  if (s == "invalid") return HoldKey::kInvalid;
  if (s == "none") return HoldKey::kNone;
  if (s == "run") return HoldKey::kRun;
  throw Error(fmt::format("hold_key: expected \"invalid\", \"none\" or \"run\", got {}", j.dump()));
}

// A speed or rate from the scenario, within the table's limit (issue 28).
float limited(const Json& j, const char* what, float limit) {
  const float v = float_from_json(j, what);
  if (std::fabs(v) > limit) {
    throw Error(fmt::format("{}: {} is past {} (times this table's rates it overflows a float)",
                            what, j.dump(), limit));
  }
  return v;
}

Json node_json(const AnimSequenceNode& n, bool cyclic) {
  return Json{{"anim", hex32(n.anim_id)},
              {"low", n.low_frame},
              {"high", n.high_frame},
              {"framerate", json_float(n.framerate)},
              {"cyclic", cyclic}};
}

}  // namespace

float speed_limit(const MotionTable& t) {
  float r = 1.0f;
  auto take = [&](const MotionData& md) {
    for (const AnimData& a : md.anims) r = std::max(r, std::fabs(a.framerate));
    for (float v : {md.velocity.x, md.velocity.y, md.velocity.z, md.omega.x, md.omega.y,
                    md.omega.z})
      r = std::max(r, std::fabs(v));
  };
  for (const KeyedMotion& k : t.cycles) take(k.data);
  for (const KeyedMotion& k : t.modifiers) take(k.data);
  for (const LinkSet& l : t.links) {
    for (const LinkTarget& lt : l.targets) take(lt.data);
  }
  if (!std::isfinite(r)) return 1.0f;
  return static_cast<float>(std::sqrt(static_cast<double>(FLT_MAX) / r));
}

Json wire_commands_json(const std::vector<WireCommand>& commands) {
  Json list = Json::array();
  for (const WireCommand& c : commands) {
    Json e{{"field", to_string(c.field)},
           {"wire", fmt::format("0x{:04X}", c.wire)},
           {"id", hex32(c.restored.id)},
           {"name", command_label(c.restored.id)}};
    if (c.restored.fallback) e["fallback"] = true;  // command-ids page: the trace says so
    list.push_back(std::move(e));
  }
  return list;
}

void apply_object_settings(PhysicsObj& obj, const Json& j, float limit) {
  if (!j.is_object()) throw Error("\"object\": expected an object");
  obj.weenie.present = flag(j, "weenie", obj.weenie.present);
  obj.weenie.creature = flag(j, "creature", obj.weenie.creature);
  obj.weenie.player = flag(j, "player", obj.weenie.player);
  if (auto it = j.find("run_rate"); it != j.end()) {
    obj.weenie.has_run_rate = true;
    obj.weenie.run_rate = limited(*it, "run_rate", limit);
  }
  auto bit = [&](const char* key, uint32_t& word, uint32_t b) {
    if (j.contains(key)) word = flag(j, key, false) ? (word | b) : (word & ~b);
  };
  bit("gravity", obj.state, kGravityState);
  bit("contact", obj.transient_state, kContactTransient);
  bit("walkable", obj.transient_state, kOnWalkableTransient);
  obj.in_cell = flag(j, "in_cell", obj.in_cell);
  // The local player's own moves are autonomous: apply_current_movement takes the raw path.
  obj.last_move_was_autonomous = flag(j, "autonomous", obj.last_move_was_autonomous);
}

InputRecord apply_do(PhysicsObj& obj, const Json& e, float limit) {
  if (!e.is_object()) throw Error("\"do\" entry: expected an object");
  MovementParameters p;
  if (auto it = e.find("speed"); it != e.end()) p.speed = limited(*it, "speed", limit);
  if (auto it = e.find("hold_key"); it != e.end()) p.hold_key = hold_key_from(*it);
  if (auto it = e.find("context_id"); it != e.end())
    p.context_id = u32_from_json(*it, "context_id");
  const bool raw = flag(e, "raw", false);
  InputRecord r;
  if (auto it = e.find("motion"); it != e.end()) {
    r.kind = raw ? "do_motion" : "do_interpreted_motion";
    r.motion = u32_from_json(*it, "motion");
    r.result = raw ? obj.interp.DoMotion(r.motion, p) : obj.interp.DoInterpretedMotion(r.motion, p);
  } else if (auto st = e.find("stop"); st != e.end()) {
    r.kind = raw ? "stop_motion" : "stop_interpreted_motion";
    r.motion = u32_from_json(*st, "stop");
    r.result =
        raw ? obj.interp.StopMotion(r.motion, p) : obj.interp.StopInterpretedMotion(r.motion, p);
  } else if (flag(e, "stop_completely", false)) {
    r.kind = "stop_completely";
    r.result = obj.interp.StopCompletely();
  } else if (flag(e, "hit_ground", false)) {
    r.kind = "hit_ground";
    obj.interp.HitGround();
  } else if (flag(e, "leave_ground", false)) {
    r.kind = "leave_ground";
    obj.interp.LeaveGround();
  } else if (auto hk = e.find("set_hold_key"); hk != e.end()) {
    r.kind = "set_hold_key";
    obj.interp.SetHoldKey(hold_key_from(*hk), flag(e, "cancel_move_to", false));
  } else if (flag(e, "exit_world", false)) {
    r.kind = "exit_world";
    obj.manager.handle_exit_world();
  } else if (flag(e, "remove_link_animations", false)) {
    r.kind = "remove_link_animations";
    obj.RemoveLinkAnimations();
  } else {
    throw Error(
        fmt::format("\"do\" entry {}: expected \"motion\", \"stop\", \"stop_completely\", "
                    "\"hit_ground\", \"leave_ground\", \"set_hold_key\", \"exit_world\" or "
                    "\"remove_link_animations\"",
                    e.dump()));
  }
  return r;
}

InputRecord apply_wire(PhysicsObj& obj, const std::vector<uint8_t>& bytes, float limit) {
  const MovementMessage m = read_movement_message(bytes, obj.choices(), limit);
  InputRecord r;
  r.kind = "wire";
  r.motion = m.movement_type;
  r.wire_result = to_string(dispatch_movement(obj, m));
  r.commands = restored_commands(m);
  return r;
}

Json trace_json(const PhysicsObj& obj, uint64_t tick, double dt,
                const std::vector<InputRecord>& inputs, bool full_nodes) {
  const MotionState& st = obj.manager.state;
  Json j{{"tick", tick},
         {"dt", dt},
         {"style", hex32(st.style)},
         {"substate", hex32(st.substate)},
         {"substate_mod", json_float(st.substate_mod)}};
  Json mods = Json::array();
  for (const MotionModifier& m : st.modifiers) {
    mods.push_back(Json{{"motion", hex32(m.motion)}, {"speed_mod", json_float(m.speed_mod)}});
  }
  j["modifiers"] = std::move(mods);
  const int first_cyclic = obj.sequence.first_cyclic_index();
  if (full_nodes) {
    Json nodes = Json::array();
    int index = 0;
    for (const AnimSequenceNode& n : obj.sequence.anim_list()) {
      nodes.push_back(node_json(n, first_cyclic >= 0 && index >= first_cyclic));
      ++index;
    }
    j["nodes"] = std::move(nodes);
  } else if (const CSequence::NodeDelta& d = obj.sequence.node_delta(); d.changed) {
    Json tail = Json::array();
    int64_t index = static_cast<int64_t>(d.kept);
    for (const AnimSequenceNode* n : obj.sequence.changed_tail()) {
      tail.push_back(node_json(*n, first_cyclic >= 0 && index >= first_cyclic));
      ++index;
    }
    j["nodes_delta"] =
        Json{{"removed_front", d.removed_front}, {"kept", d.kept}, {"tail", std::move(tail)}};
  }
  j["curr"] = obj.sequence.curr_index();
  j["frame_number"] = obj.sequence.frame_number();
  j["first_cyclic"] = first_cyclic;
  j["velocity"] = to_json(obj.sequence.velocity);
  j["omega"] = to_json(obj.sequence.omega);
  j["pending_motions"] = obj.interp.pending_motions.size();
  j["pending_animations"] = obj.manager.pending_animations().size();
  j["animation_counter"] = obj.manager.animation_counter();
  Json hooks = Json::array();
  for (const QueuedHook& h : obj.tick_hooks) {
    Json hj = h.hook ? to_json(*h.hook) : Json{{"type", "AnimationDone"}, {"synthetic", true}};
    hj["anim"] = hex32(h.anim_id);
    hj["frame"] = h.frame;
    hj["fired_direction"] = h.direction;
    hooks.push_back(std::move(hj));
  }
  j["hooks"] = std::move(hooks);
  Json done = Json::array();
  for (const PhysicsObj::Done& d : obj.tick_motion_done) {
    done.push_back(Json{{"motion", hex32(d.motion)}, {"success", d.success}});
  }
  j["motion_done"] = std::move(done);
  Json in = Json::array();
  for (const InputRecord& r : inputs) {
    Json e{{"kind", r.kind}};
    if (r.kind == "wire") {
      e["movement_type"] = r.motion;
      e["result"] = r.wire_result;
      if (!r.commands.empty()) e["commands"] = wire_commands_json(r.commands);
    } else {
      if (r.motion != 0) e["motion"] = hex32(r.motion);
      e["result"] = r.result;
    }
    in.push_back(std::move(e));
  }
  j["inputs"] = std::move(in);
  const InterpretedMotionState& is = obj.interp.interpreted_state;
  j["interpreted"] = Json{{"style", hex32(is.current_style)},
                          {"forward", hex32(is.forward_command)},
                          {"forward_speed", json_float(is.forward_speed)},
                          {"sidestep", hex32(is.sidestep_command)},
                          {"sidestep_speed", json_float(is.sidestep_speed)},
                          {"turn", hex32(is.turn_command)},
                          {"turn_speed", json_float(is.turn_speed)}};
  // Runtime 4: the interpreter's velocity figures after the tick.
  j["speeds"] = Json{{"state_velocity", to_json(obj.interp.get_state_velocity())},
                     {"max_speed", json_float(obj.interp.get_max_speed())},
                     {"adjusted_max_speed", json_float(obj.interp.get_adjusted_max_speed())},
                     {"my_run_rate", json_float(obj.interp.my_run_rate)},
                     {"local_velocity", to_json(obj.local_velocity)}};
  j["slices"] = obj.tick_slices;
  j["delta"] = frame_json(obj.tick_delta);
  j["position"] = frame_json(obj.position);
  return j;
}

std::string trace_text(const PhysicsObj& obj, uint64_t tick, double dt,
                       const std::vector<InputRecord>& inputs, bool full_nodes) {
  const MotionState& st = obj.manager.state;
  std::string s = fmt::format("tick {} dt {:.4f}: {} / {} x{}", tick, dt, command_label(st.style),
                              command_label(st.substate), st.substate_mod);
  for (const MotionModifier& m : st.modifiers)
    s += fmt::format(" +{} x{}", command_label(m.motion), m.speed_mod);
  const int first_cyclic = obj.sequence.first_cyclic_index();
  const int curr = obj.sequence.curr_index();
  auto node_text = [&](const AnimSequenceNode& n, int64_t index) {
    s += fmt::format(" {}{}[{}..{} @{}]{}", index == curr ? ">" : "", hex32(n.anim_id),
                     n.low_frame, n.high_frame, n.framerate,
                     index >= first_cyclic && first_cyclic >= 0 ? "*" : "");
  };
  if (full_nodes) {
    s += " | nodes";
    int64_t index = 0;
    for (const AnimSequenceNode& n : obj.sequence.anim_list()) node_text(n, index++);
  } else if (const CSequence::NodeDelta& d = obj.sequence.node_delta(); d.changed) {
    // Issue 28: what changed: -removed at the front, =kept, then the new tail.
    s += fmt::format(" | nodes -{} ={} +", d.removed_front, d.kept);
    int64_t index = static_cast<int64_t>(d.kept);
    for (const AnimSequenceNode* n : obj.sequence.changed_tail()) node_text(*n, index++);
  } else {
    s += fmt::format(" | nodes unchanged (curr {})", curr);
  }
  s += fmt::format(
      " | frame {:.3f} | v ({:.3f}, {:.3f}, {:.3f}) w ({:.3f}, {:.3f}, {:.3f}) | pending {}/{}",
      obj.sequence.frame_number(), obj.sequence.velocity.x, obj.sequence.velocity.y,
      obj.sequence.velocity.z, obj.sequence.omega.x, obj.sequence.omega.y, obj.sequence.omega.z,
      obj.interp.pending_motions.size(), obj.manager.pending_animations().size());
  for (const InputRecord& r : inputs) {
    if (r.kind != "wire") {
      s += fmt::format(" | {} {} -> {}", r.kind, command_label(r.motion), r.result);
      continue;
    }
    s += fmt::format(" | wire {}", r.wire_result);
    for (const WireCommand& c : r.commands) {
      s += fmt::format(" {} 0x{:04X}={}{}", to_string(c.field), c.wire, command_label(c.restored.id),
                       c.restored.fallback ? " (fallback)" : "");
    }
  }
  for (const QueuedHook& h : obj.tick_hooks) {
    s += fmt::format(" | hook {}",
                     h.hook ? std::string(hook_type_name(h.hook->type)) : "AnimationDone*");
  }
  for (const PhysicsObj::Done& d : obj.tick_motion_done)
    s += fmt::format(" | done {}", command_label(d.motion));
  const Vec3 sv = obj.interp.get_state_velocity();
  s += fmt::format(" | state v ({:.3f}, {:.3f}, {:.3f}) max {:.3f} adjusted {:.3f}", sv.x, sv.y,
                   sv.z, obj.interp.get_max_speed(), obj.interp.get_adjusted_max_speed());
  s += fmt::format(" | pos ({:.3f}, {:.3f}, {:.3f})", obj.position.origin.x, obj.position.origin.y,
                   obj.position.origin.z);
  return s;
}

int play_scenario(const Json& scenario, const std::filesystem::path& base, bool json,
                  std::ostream& out) {
  if (!scenario.is_object()) throw Error("scenario: expected an object");
  const Choices choices =
      scenario.contains("choices") ? choices_from_json(scenario["choices"]) : Choices{};
  const Json& mt = member(scenario, "motion_table");
  if (!mt.is_string()) throw Error("\"motion_table\": expected a file name (or an id with \"dat\")");
  // With "dat": the table is an object id of that dat, and its animations come from it too.
  std::optional<DatFile> dat;
  if (auto it = scenario.find("dat"); it != scenario.end()) {
    if (!it->is_string()) throw Error("\"dat\": expected a file name");
    dat.emplace(DatFile::open(base / it->get<std::string>()));
  }
  const std::string dat_name = dat ? (base / scenario["dat"].get<std::string>()).string() : "";
  MotionTable table_data;
  try {
    table_data = dat ? motion_table_from_dat(*dat, parse_command(mt.get<std::string>()))
                     : load_motion_table(base / mt.get<std::string>());
  } catch (const Error& e) {
    throw dat ? e.with_file(dat_name) : e;
  }
  AnimationStore store;
  if (auto it = scenario.find("animations"); it != scenario.end()) {
    if (it->is_string()) {
      store = load_animation_dir(base / it->get<std::string>());
    } else if (it->is_object()) {
      for (auto a = it->begin(); a != it->end(); ++a) {
        if (!a.value().is_string()) throw Error("\"animations\": expected file names");
        Animation anim = load_animation(base / a.value().get<std::string>());
        anim.id = u32_from_json(Json(a.key()), "animation id");
        store.add(std::move(anim));
      }
    } else {
      throw Error("\"animations\": expected an object {\"0x03000101\": \"file\"} or a folder");
    }
  } else if (dat) {
    try {
      store = animations_for(*dat, table_data);
    } catch (const Error& e) {
      throw e.with_file(dat_name);
    }
  }
  const float limit = speed_limit(table_data);
  const bool full_trace = flag(scenario, "full_trace", false);
  auto table = std::make_shared<const CMotionTable>(std::move(table_data), choices);
  PhysicsObj obj(table, &store);
  if (auto it = scenario.find("object"); it != scenario.end())
    apply_object_settings(obj, *it, limit);
  obj.enter_default_state();
  const Json& ticks = member(scenario, "ticks");
  if (!ticks.is_array()) throw Error("\"ticks\": expected an array");
  // The whole play's work (issue 19), before it runs: one object, a step per tick or per 1 s slice
  // of a long dt (update_object, Q5), repeats counted (4 ticks of dt 309,804 s took the fuzzer
  // over 10 s, each under the per-update limit).
  uint64_t ticks_asked = 0;
  for (const Json& t : ticks) {
    if (!t.is_object()) continue;
    const Json* repeat = t.contains("repeat") ? &t["repeat"] : nullptr;
    const Json* dt = t.contains("dt") ? &t["dt"] : nullptr;
    const double seconds = dt && dt->is_number() ? dt->get<double>() : 0.0;
    const uint64_t slices = !(seconds >= 2.0)  ? 1
                            : seconds >= 1e18 ? UINT64_MAX / 2
                                              : static_cast<uint64_t>(seconds);
    ticks_asked = add_play_steps(
        ticks_asked, play_steps(repeat && repeat->is_number_integer()
                                    ? std::max<int64_t>(1, repeat->get<int64_t>())
                                    : 1,
                                slices));
    // Each motion a tick applies ("do", "wire") is work of its own (issue 30: one tick of
    // 100,000 motions ran 10 s).
    for (const char* inputs : {"do", "wire"}) {
      if (t.contains(inputs) && t[inputs].is_array())
        ticks_asked = add_play_steps(ticks_asked, t[inputs].size());
    }
  }
  check_play_steps(play_steps(ticks_asked, play_steps_per_update(1, 0)),
                   "scenario: \"ticks\" (repeats, 1 s slices of dt, and motions)");
  // Issue 28: the work the run itself makes, counted as it happens (a total of its own beside
  // the one counted before the play, so a scenario that fits that one is not refused by it):
  // every node appended to the sequence and every node a trace line writes. The node list's
  // size is checked against --max-memory.
  uint64_t written = 0;
  const char* what = "scenario: the play's sequence nodes (appended and traced)";
  auto check_budgets = [&](uint64_t tick) {
    check_play_steps(add_play_steps(obj.sequence.nodes_appended(), written), what);
    // A list node holds the node and two links.
    check_memory(uint64_t{obj.sequence.anim_list().size()} * (sizeof(AnimSequenceNode) + 16),
                 fmt::format("tick {}: the sequence's {} nodes", tick,
                             obj.sequence.anim_list().size()));
  };
  uint64_t k = 0;
  std::vector<InputRecord> inputs;
  for (size_t ti = 0; ti < ticks.size(); ++ti) {
    const Json& t = ticks[ti];
    if (!t.is_object()) throw Error("a tick: expected an object");
    const Json dt_json = t.value("dt", Json(0.0));
    if (!dt_json.is_number()) throw Error("dt: expected a number");
    const double dt = dt_json.get<double>();
    const int64_t repeat = int_from_json(t.value("repeat", Json(1)), "repeat", 1, 1000000);
    for (int64_t rep = 0; rep < repeat; ++rep, ++k) {
      obj.begin_tick();
      inputs.clear();
      if (rep == 0) {
        if (auto it = t.find("object"); it != t.end()) {
          try {
            apply_object_settings(obj, *it, limit);
          } catch (const Error& e) {
            throw Error(fmt::format("ticks[{}].object: {}", ti, e.message()));
          }
        }
        const Json wires = t.value("wire", Json::array());
        for (size_t wi = 0; wi < wires.size(); ++wi) {
          const Json& w = wires[wi];
          if (!w.is_string()) throw Error("\"wire\": expected hex strings");
          try {
            inputs.push_back(apply_wire(obj, parse_hex(w.get<std::string>()), limit));
          } catch (const Error& e) {
            throw Error(fmt::format("tick {}: ticks[{}].wire[{}]: {}", k, ti, wi, e.what()));
          }
          check_budgets(k);
        }
        const Json dos = t.value("do", Json::array());
        for (size_t di = 0; di < dos.size(); ++di) {
          try {
            inputs.push_back(apply_do(obj, dos[di], limit));
            check_budgets(k);  // one tick of 100,000 motions stops here, not minutes later
          } catch (const Error& e) {
            throw Error(fmt::format("ticks[{}].do[{}]: {}", ti, di, e.message()));
          }
        }
      }
      obj.update_object(dt);
      const bool full = full_trace || k == 0;
      written += full ? obj.sequence.anim_list().size()
                      : obj.sequence.anim_list().size() - std::min<uint64_t>(
                            obj.sequence.node_delta().kept, obj.sequence.anim_list().size());
      check_budgets(k);
      if (json) {
        out << dump_json(trace_json(obj, k, dt, inputs, full)) << "\n";
      } else {
        out << trace_text(obj, k, dt, inputs, full) << "\n";
      }
      obj.sequence.mark_nodes();
    }
  }
  return 0;
}

}  // namespace animkit::asherons_call
