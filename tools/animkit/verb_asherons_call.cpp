// The `animkit ac ...` verbs (alias `asherons_call`): command ids, the movement message (decode
// and encode, for writing scenarios), and conversion between the binary and JSON forms of
// MotionTable and Animation objects (animkit/asherons_call/README.md).
#include <fmt/format.h>

#include "animkit/asherons_call/assets.h"
#include "animkit/asherons_call/command_ids.h"
#include "animkit/asherons_call/dat.h"
#include "animkit/asherons_call/player.h"
#include "animkit/asherons_call/wire.h"
#include "cli.h"

namespace animkit::cli {

namespace {
using namespace animkit::asherons_call;

void add_commands(CLI::App& group, Cli& cli) {
  auto* verb = group.add_subcommand(
      "commands", "the motion command catalogue (end of retail), by wire value, with each class");
  verb->add_flag("--json", cli.json, "one JSON document");
  verb->callback([&cli] {
    Json list = Json::array();
    for (const CommandInfo& e : command_catalogue()) {
      if (e.name.empty()) continue;
      list.push_back(Json{{"name", e.name},
                          {"id", hex32(e.id)},
                          {"wire", fmt::format("0x{:04X}", e.id & 0xFFFFu)},
                          {"class", command_class(e.id)}});
    }
    if (cli.json) {
      cli.out << dump_json(list) << "\n";
    } else {
      for (const Json& e : list) {
        cli.out << fmt::format("{}  {}  {:<38} {}\n", e["wire"].get<std::string>(),
                               e["id"].get<std::string>(),
                               e["name"].get<std::string>(), e["class"].get<std::string>());
      }
    }
  });
}

Json message_json(const MovementMessage& m, const Choices& choices) {
  Json j{{"opcode", fmt::format("0x{:04X}", m.opcode)},
         {"guid", hex32(m.guid)},
         {"instance_sequence", m.instance_sequence},
         {"movement_sequence", m.movement_sequence},
         {"server_control_sequence", m.server_control_sequence},
         {"autonomous", m.autonomous},
         {"movement_type", m.movement_type},
         {"motion_flags", m.motion_flags},
         {"current_style", fmt::format("0x{:04X}", m.current_style)}};
  if (m.movement_type == 0) {
    const InterpretedMotionState s = interpreted_state_from(m, choices);
    Json actions = Json::array();
    for (const ActionNode& a : s.actions) {
      actions.push_back(Json{{"motion", command_label(a.motion)},
                             {"speed", json_float(a.speed)},
                             {"stamp", a.stamp},
                             {"autonomous", a.autonomous}});
    }
    j["flags"] = m.state.flags;
    j["commands"] = wire_commands_json(restored_commands(m));  // restored ids, fallbacks marked
    j["state"] = Json{{"style", command_label(s.current_style)},
                      {"forward", command_label(s.forward_command)},
                      {"forward_speed", json_float(s.forward_speed)},
                      {"sidestep", command_label(s.sidestep_command)},
                      {"sidestep_speed", json_float(s.sidestep_speed)},
                      {"turn", command_label(s.turn_command)},
                      {"turn_speed", json_float(s.turn_speed)},
                      {"actions", actions}};
    if (m.motion_flags & 1) j["sticky_object"] = hex32(m.sticky_object);
  } else if (m.movement_type >= 6) {
    Json params = Json::array();
    for (float f : m.move_to.params) params.push_back(json_float(f));
    j["move_to"] = Json{{"target", hex32(m.move_to.target)},
                        {"cell", hex32(m.move_to.cell)},
                        {"origin", to_json(m.move_to.origin)},
                        {"params_flags", m.move_to.params_flags},
                        {"params", params},
                        {"run_rate", json_float(m.move_to.run_rate)}};
  }
  if (!m.tail.empty()) j["tail_bytes"] = m.tail.size();
  return j;
}

void add_wire(CLI::App& group, Cli& cli) {
  auto* verb =
      group.add_subcommand("wire", "decode a movement message (0xF74C / 0xF619) given in hex");
  static std::string hex;
  verb->add_option("hex", hex, "the message bytes in hex, from the opcode on")->required();
  verb->add_flag("--json", cli.json, "one JSON document");
  verb->callback([&cli] {
    const MovementMessage m = read_movement_message(parse_hex(hex));
    const Json j = message_json(m, Choices{});
    if (cli.json) {
      cli.out << dump_json(j) << "\n";
      return;
    }
    cli.out << to_text(j);
    for (const WireCommand& c : restored_commands(m)) {
      cli.out << fmt::format("{} 0x{:04X} -> {} {}{}\n", to_string(c.field), c.wire,
                             hex32(c.restored.id), command_label(c.restored.id),
                             c.restored.fallback ? " (fallback: not in the catalogue)" : "");
    }
  });
}

void add_encode(CLI::App& group, Cli& cli) {
  auto* verb = group.add_subcommand("encode", "a type-0 movement message in hex (for scenarios)");
  static std::string forward = "Ready", sidestep, turn, style = "NonCombat";
  static float forward_speed = 1, sidestep_speed = 1, turn_speed = 1;
  static uint16_t seq = 1, server_seq = 0, instance = 0;
  static bool autonomous = false;
  static std::vector<std::string> actions;
  static uint16_t stamp = 1;
  verb->add_option("--action", actions, "an action or emote (Wave), repeatable");
  verb->add_option("--stamp", stamp, "the first action's 15-bit stamp (default 1)");
  verb->add_option("--forward", forward, "forward command (default Ready)");
  verb->add_option("--forward-speed", forward_speed, "forward speed");
  verb->add_option("--sidestep", sidestep, "sidestep command (SideStepRight)");
  verb->add_option("--sidestep-speed", sidestep_speed, "sidestep speed");
  verb->add_option("--turn", turn, "turn command (TurnRight)");
  verb->add_option("--turn-speed", turn_speed, "turn speed");
  verb->add_option("--style", style, "style (default NonCombat)");
  verb->add_option("--seq", seq, "movement sequence");
  verb->add_option("--server-seq", server_seq, "server-control sequence");
  verb->add_option("--instance", instance, "object instance sequence");
  verb->add_flag("--autonomous", autonomous, "mark as autonomous");
  verb->add_flag("--json", cli.json, "print {\"hex\": ...}");
  verb->callback([&cli] {
    MovementMessage m;
    m.movement_sequence = seq;
    m.server_control_sequence = server_seq;
    m.instance_sequence = instance;
    m.autonomous = autonomous ? 1 : 0;
    InterpretedMotionState s;
    s.current_style = parse_command(style);
    m.current_style = static_cast<uint16_t>(s.current_style);
    s.forward_command = parse_command(forward);
    s.forward_speed = forward_speed;
    if (!sidestep.empty()) s.sidestep_command = parse_command(sidestep);
    s.sidestep_speed = sidestep_speed;
    if (!turn.empty()) s.turn_command = parse_command(turn);
    s.turn_speed = turn_speed;
    uint16_t next = stamp;
    for (const std::string& a : actions) {
      s.actions.push_back({parse_command(a), 1.0f, static_cast<uint16_t>(next++ & 0x7FFF), false});
    }
    m.state = wire_state_from(s);
    const std::string h = to_hex(write_movement_message(m));
    cli.out << (cli.json ? dump_json(Json{{"hex", h}}) : h) << "\n";
  });
}

// A file recognize_object does not take (issue 31, item 4: say which byte is at fault): JSON gets
// its parser's error; binary is read as the kind its id's type byte names (dat container, page 4),
// so that a cut or damaged object reports its offset; any other type byte is the fault.
ObjectKind kind_by_type_byte(const std::vector<uint8_t>& bytes, const std::string& in) {
  if (looks_like_json(bytes)) {
    (void)parse_json(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()), in);
    throw Error("JSON, but not a motion table, animation or Setup (its \"asherons_call\" kind)", 0,
                in);
  }
  if (bytes.size() < 4) throw Error("the file ends before the object id (4 bytes)", bytes.size(), in);
  switch (bytes[3]) {
    case 0x09:
      return ObjectKind::kMotionTable;
    case 0x03:
      return ObjectKind::kAnimation;
    case 0x02:
      return ObjectKind::kSetup;
    default:
      throw Error(fmt::format("id type byte {:#04x}: not a motion table (0x09), animation (0x03) or "
                              "Setup (0x02), binary or JSON",
                              bytes[3]),
                  3, in);
  }
}

void add_convert(CLI::App& group, Cli& cli) {
  auto* verb = group.add_subcommand(
      "convert", "MotionTable / Animation / Setup: binary <-> JSON (by the output's extension)");
  static std::string in, out;
  verb->add_option("input", in, "a motion table, animation or Setup, binary or JSON")->required();
  verb->add_option("-o,--output", out, "OUT.json for the JSON form, anything else for binary")
      ->required();
  verb->add_flag("--json", cli.json, "report as JSON");
  verb->callback([&cli] {
    const std::vector<uint8_t> bytes = read_file(in);
    const bool to_json_form = std::filesystem::path(out).extension() == ".json";
    // Issue 28: the kind by content (a JSON form that parses, else the id's type byte and the
    // layout), never one type taken for another.
    const Recognized r = recognize_object(bytes);
    const ObjectKind read_as = r.kind == ObjectKind::kUnknown ? kind_by_type_byte(bytes, in) : r.kind;
    switch (read_as) {
      case ObjectKind::kMotionTable: {
        const MotionTable t = load_motion_table(in);
        if (to_json_form)
          write_text(out, dump_json(to_json(t), 1) + "\n");
        else
          write_file(out, write_motion_table(t));
        break;
      }
      case ObjectKind::kAnimation: {
        const Animation a = load_animation(in);
        if (to_json_form)
          write_text(out, dump_json(to_json(a), 1) + "\n");
        else
          write_file(out, write_animation(a));
        break;
      }
      case ObjectKind::kSetup: {
        const Setup s = load_setup(in);
        if (to_json_form)
          write_text(out, dump_json(to_json(s), 1) + "\n");
        else
          write_file(out, write_setup(s));
        break;
      }
      case ObjectKind::kUnknown:
        break;  // kind_by_type_byte threw
    }
    const std::string kind(object_kind_name(read_as));
    if (cli.json) {
      cli.out << dump_json(Json{{"input", in}, {"output", out}, {"kind", kind}}) << "\n";
    } else {
      cli.out << fmt::format("{}: {} -> {}\n", kind, in, out);
    }
  });
}

// `ac list DAT [--type T]`: the directory (no object is read).
void add_list(CLI::App& group, Cli& cli) {
  auto* verb = group.add_subcommand("list", "the objects of a .dat (client_portal.dat), by id");
  static std::string dat_path, type;
  verb->add_option("dat", dat_path, "the .dat file")->required();
  verb->add_option("--type", type, "a type name as info prints it (motion-table, animation, setup, iteration, ...) or 0xNN");
  verb->add_flag("--json", cli.json, "one JSON document");
  verb->callback([&cli] {
    const DatFile dat = DatFile::open(dat_path);
    std::vector<DatEntry> entries;
    try {
      entries = type.empty() ? dat.list() : dat.list_type(dat_type_from_name(type));
    } catch (const Error& e) {
      throw e.with_file(dat_path);
    }
    if (cli.json) {
      Json list = Json::array();
      for (const DatEntry& e : entries) list.push_back(to_json(e));
      cli.out << dump_json(list) << "\n";
      return;
    }
    for (const DatEntry& e : entries) {
      cli.out << fmt::format("{}  {:<16} {:>9} bytes at {}\n", hex32(e.id),
                             e.id == kIterationId ? std::string("iteration")
                                                  : dat_type_name(static_cast<uint8_t>(e.id >> 24)),
                             e.size,
                             hex32(e.offset));
    }
  });
}

// `ac extract DAT ID -o FILE`: the object's bytes, byte-exact (a compressed entry inflated, issue 28).
void add_extract(CLI::App& group, Cli& cli) {
  auto* verb = group.add_subcommand(
      "extract", "one object of a .dat, its bytes as stored (inflated when the entry is compressed)");
  static std::string dat_path, id_text, out;
  verb->add_option("dat", dat_path, "the .dat file")->required();
  verb->add_option("id", id_text, "the object id, e.g. 0x09000001")->required();
  verb->add_option("-o,--output", out, "where to write the bytes")->required();
  verb->add_flag("--json", cli.json, "report as JSON");
  verb->callback([&cli] {
    const uint32_t id = parse_command(id_text);
    const DatFile dat = DatFile::open(dat_path);
    std::vector<uint8_t> bytes;
    try {
      bytes = dat.read_object(id);
    } catch (const Error& e) {
      throw e.with_file(dat_path);
    }
    write_file(out, bytes);
    if (cli.json) {
      cli.out << dump_json(Json{{"id", hex32(id)}, {"size", bytes.size()}, {"output", out}}) << "\n";
    } else {
      cli.out << fmt::format("{}: {} bytes -> {}\n", hex32(id), bytes.size(), out);
    }
  });
}

}  // namespace

void add_asherons_call_verbs(CLI::App& app, Cli& cli) {
  auto* group =
      app.add_subcommand("ac", "Asheron's Call: command ids, movement messages, conversions, dats");
  group->alias("asherons_call");
  group->require_subcommand(1);
  add_commands(*group, cli);
  add_wire(*group, cli);
  add_encode(*group, cli);
  add_convert(*group, cli);
  add_list(*group, cli);
  add_extract(*group, cli);
}

}  // namespace animkit::cli
