// The Asheron's Call player under a generated scenario (issue 19): a motion table built from the
// bytes (styles, cycles, modifiers and links over a small pool of commands and animations, any
// frame range, framerate, velocity, bitfield) and its animations (any frame and part count),
// written with the module's writers; then ticks of wire messages (each a MovementMessage filled
// from the bytes and written by write_movement_message, so it parses), direct commands and
// object settings, at any dt and repeat count.
#include <cstddef>
#include <cstdint>

#include <fmt/format.h>

#include "animkit/asherons_call/command_ids.h"
#include "animkit/asherons_call/player.h"
#include "animkit/asherons_call/synthetic.h"
#include "animkit/core/error.h"
#include "fuzz/common/scenario_gen.h"

using namespace animkit;
using namespace animkit::asherons_call;
using animkit::fuzz::Gen;

namespace {

const std::filesystem::path& dir() { return fuzz::scratch_dir("asherons_call"); }

constexpr uint32_t kStyles[] = {motion::kNonCombat, 0x8000003Cu, 0x8000003Eu};
constexpr uint32_t kMotions[] = {
    motion::kReady,      motion::kWalkForward, motion::kWalkBackwards, motion::kRunForward,
    motion::kTurnRight,  motion::kTurnLeft,    motion::kSideStepRight, motion::kSideStepLeft,
    motion::kFalling,    motion::kDead,        motion::kCrouch,        motion::kSitting,
    motion::kStop,       motion::kFallen,      0x10000051u,            0x10000052u,
    0x13000053u,         0x20000054u,          0x0900014Du};
constexpr int kAnimations = 8;  // 0x03000100 + i
constexpr uint32_t kFirstAnimation = 0x03000100;

uint32_t any_motion(Gen& g) {
  if (g.rarely(16)) return g.u32();
  return g.coin() ? g.pick(std::span<const uint32_t>(kMotions))
                  : g.pick(std::span<const uint32_t>(kStyles));
}

MotionData motion_data_from(Gen& g) {
  MotionData d;
  d.bitfield = static_cast<uint8_t>(g.range(0, 3));
  d.flags = static_cast<uint8_t>(g.range(0, 3));
  for (int n = g.rarely() ? g.range(0, 12) : g.range(0, 3); n > 0; --n) {
    AnimData a;
    a.anim_id = g.rarely(16) ? g.u32() : kFirstAnimation + g.range(0, kAnimations - 1);
    a.low_frame = g.pick<int32_t>({0, 0, 1, -1, g.range(0, 40), static_cast<int32_t>(g.u32())});
    a.high_frame = g.pick<int32_t>({-1, -1, 0, 5, g.range(-2, 40), static_cast<int32_t>(g.u32())});
    a.framerate = g.binary_float(30);
    d.anims.push_back(a);
  }
  if (d.flags & kHasVelocity) d.velocity = {g.binary_float(), g.binary_float(3), g.binary_float()};
  if (d.flags & kHasOmega) d.omega = {g.binary_float(), g.binary_float(), g.binary_float(1.5)};
  return d;
}

// Half the time the demo's humanoid table with a few entries added: its cycles and links play
// real animations from the first tick, so the bytes reach the sequence at once.
MotionTable humanoid_from(Gen& g) {
  MotionTable t = humanoid_table();
  auto key = [&] { return motion_key(motion::kNonCombat, any_motion(g)); };
  for (int n = g.count(2, 20); n > 0; --n) t.cycles.push_back({key(), motion_data_from(g)});
  for (int n = g.count(2, 10); n > 0; --n) t.modifiers.push_back({key(), motion_data_from(g)});
  for (int n = g.count(3, 20); n > 0; --n) {
    LinkSet s{key(), {}};
    for (int m = g.count(3, 20); m > 0; --m) s.targets.push_back({any_motion(g), motion_data_from(g)});
    t.links.push_back(std::move(s));
  }
  return t;
}

MotionTable table_from(Gen& g) {
  if (g.coin()) return humanoid_from(g);
  MotionTable t;
  t.id = 0x09000101;
  t.default_style = g.rarely() ? any_motion(g) : motion::kNonCombat;
  for (uint32_t style : kStyles) {
    if (style == motion::kNonCombat || g.coin())
      t.style_defaults.push_back({style, g.coin() ? motion::kReady : any_motion(g)});
  }
  auto key = [&] {
    const uint32_t m = any_motion(g);
    return g.rarely(4) ? (m & 0xFFFFFFu) : motion_key(g.pick(std::span<const uint32_t>(kStyles)), m);
  };
  for (int n = g.count(8, 40); n > 0; --n) t.cycles.push_back({key(), motion_data_from(g)});
  for (int n = g.count(3, 20); n > 0; --n) t.modifiers.push_back({key(), motion_data_from(g)});
  for (int n = g.count(6, 40); n > 0; --n) {
    LinkSet s{key(), {}};
    for (int m = g.count(3, 20); m > 0; --m) s.targets.push_back({any_motion(g), motion_data_from(g)});
    t.links.push_back(std::move(s));
  }
  return t;
}

std::string hex(const std::vector<uint8_t>& bytes) {
  std::string s;
  for (uint8_t b : bytes) s += fmt::format("{:02x}", b);
  return s;
}

// A movement message from the bytes; `seq` keeps the sequences mostly newer than the last.
std::vector<uint8_t> wire_from(Gen& g, uint16_t& seq) {
  MovementMessage m;
  m.opcode = g.coin() ? kOpMovement : kOpPositionAndMovement;
  m.guid = g.rarely() ? g.u32() : 0x50000001;
  seq = static_cast<uint16_t>(seq + (g.rarely() ? g.u16() : 1));
  m.instance_sequence = g.rarely() ? g.u16() : 0;
  m.movement_sequence = seq;
  m.server_control_sequence = g.rarely() ? g.u16() : 0;
  m.autonomous = static_cast<uint8_t>(g.range(0, 1));
  m.movement_type = g.pick<uint8_t>({0, 0, 0, 6, 7, 8, 9});
  m.motion_flags = static_cast<uint8_t>(g.range(0, 3));
  m.current_style = static_cast<uint16_t>(g.pick(std::span<const uint32_t>(kStyles)));
  if (m.movement_type == 0) {
    WireInterpretedState& s = m.state;
    s.flags = static_cast<uint32_t>(g.range(0, 0x7f));
    s.style = static_cast<uint16_t>(any_motion(g));
    s.forward = static_cast<uint16_t>(any_motion(g));
    s.sidestep = static_cast<uint16_t>(any_motion(g));
    s.turn = static_cast<uint16_t>(any_motion(g));
    s.forward_speed = g.binary_float();
    s.sidestep_speed = g.binary_float();
    s.turn_speed = g.binary_float();
    for (int n = g.range(0, 3); n > 0; --n)
      s.actions.push_back({static_cast<uint16_t>(any_motion(g)), g.u16(), g.binary_float()});
    if (m.motion_flags & 1) m.sticky_object = g.u32();
  } else {
    MoveToRecord& r = m.move_to;
    r.type = m.movement_type;
    r.target = g.u32();
    r.cell = g.u32();
    r.origin = {g.binary_float(), g.binary_float(), g.binary_float()};
    r.params_flags = g.u32();
    r.run_rate = g.binary_float();
  }
  return write_movement_message(m);
}

Json do_from(Gen& g) {
  Json d;
  switch (g.range(0, 7)) {
    case 0: case 1: case 2:
      d["motion"] = any_motion(g);
      if (g.coin()) d["speed"] = g.number(1);
      if (g.coin()) d["raw"] = true;
      if (g.rarely()) d["hold_key"] = g.pick({"invalid", "none", "run"});
      break;
    case 3: d["stop"] = any_motion(g); if (g.coin()) d["raw"] = true; break;
    case 4: d["stop_completely"] = true; break;
    case 5: d["hit_ground"] = true; break;
    case 6: d["leave_ground"] = true; break;
    default: d["remove_link_animations"] = true; break;
  }
  return d;
}

Json object_from(Gen& g) {
  Json o = Json::object();
  for (const char* k : {"player", "creature", "contact", "walkable", "gravity", "in_cell"})
    if (g.coin()) o[k] = g.coin();
  if (g.rarely()) o["run_rate"] = g.number(1);
  return o;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  fuzz::init_scenario_fuzzer();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Gen g(data, size);
  write_file(dir() / "table.bin", write_motion_table(table_from(g)));
  Json animations = Json::object();
  for (const Animation& a : humanoid_animations()) {
    const std::string file = hex32(a.id) + ".bin";
    if (!std::filesystem::exists(dir() / file)) write_file(dir() / file, write_animation(a));
    animations[hex32(a.id)] = file;
  }
  for (int i = 0; i < kAnimations; ++i) {
    const uint32_t id = kFirstAnimation + i;
    const int frames = g.pick({0, 1, 2, 10, 30, g.range(0, 120)});
    const int parts = g.pick({5, 5, 0, 1, g.range(0, 8)});
    const std::string file = fmt::format("anim{}.bin", i);
    write_file(dir() / file, write_animation(synthetic_animation(id, frames, parts, g.coin())));
    animations[hex32(id)] = file;
  }
  Json s{{"engine", "asherons_call"}, {"motion_table", "table.bin"}, {"animations", animations}};
  if (g.rarely(4)) {
    s["choices"] = {{"ending_frame", g.pick({"epsilon", "bare"})},
                    {"link_negation", g.pick({"old_negative", "signs_differ"})},
                    {"cycle_speed", g.pick({"ports", "motion_spec"})},
                    {"re_modify", g.pick({"head_n_times", "each_modifier"})},
                    {"redundant_links", g.pick({"stop_at_blocker", "keep_scanning"})}};
  }
  if (g.coin()) s["object"] = object_from(g);
  Json ticks = Json::array();
  uint16_t seq = 0;
  for (int n = g.count(10, 60); n > 0 && !g.empty(); --n) {
    Json t{{"dt", g.number(1.0 / 30)}};
    if (g.rarely(4)) t["repeat"] = g.count(5, 300);
    Json wire = Json::array();
    for (int w = g.count(2, 12); w > 0; --w) {
      try {
        wire.push_back(hex(wire_from(g, seq)));
      } catch (const Error&) {
      }
    }
    if (!wire.empty()) t["wire"] = wire;
    Json dos = Json::array();
    for (int d = g.count(2, 8); d > 0; --d) dos.push_back(do_from(g));
    if (!dos.empty()) t["do"] = dos;
    if (g.rarely()) t["object"] = object_from(g);
    ticks.push_back(t);
  }
  s["ticks"] = ticks;
  return fuzz::play_case(s, dir(), [&](std::ostream& out) {
    play_scenario(s, dir(), (size & 1) != 0, out);
  });
}
