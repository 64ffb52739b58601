#include "animkit/asherons_call/wire.h"

#include <fmt/format.h>

#include <cmath>

#include "animkit/asherons_call/command_ids.h"
#include "animkit/core/writer.h"

namespace animkit::asherons_call {

namespace {

size_t pad4(size_t pos) { return (4 - pos % 4) % 4; }

// A speed or rate from the wire: NaN or infinity would poison the state (issue 13, item 5).
// Issue 28: also refused past the caller's limit (a speed whose product with the table's rates
// overflows a float, player.h speed_limit), at the field's offset.
float finite_f32(Reader& r, const char* what, float limit) {
  const uint64_t at = r.offset();
  const float v = r.f32();
  if (!std::isfinite(v)) throw Error(fmt::format("{} is not a finite number ({})", what, v), at);
  if (std::fabs(v) > limit) {
    throw Error(fmt::format("{} {} is past {} (times the table's rates it overflows a float)",
                            what, v, limit),
                at);
  }
  return v;
}

// MoveTo / TurnTo payloads [ACE writers]: Origin = u32 cell + 3 f32; MoveToParameters = u32
// flags + 6 f32; TurnToParameters = u32 flags + 2 f32.
void read_move_to(Reader& r, MoveToRecord& mt, float limit) {
  auto origin = [&] {
    mt.cell = r.u32();
    mt.origin.x = r.f32();
    mt.origin.y = r.f32();
    mt.origin.z = r.f32();
  };
  auto params = [&](int n) {
    mt.params_flags = r.u32();
    for (int i = 0; i < n; ++i) mt.params.push_back(r.f32());
  };
  switch (mt.type) {
    case 6:
      mt.target = r.u32();
      origin();
      params(6);
      mt.run_rate = finite_f32(r, "run rate", limit);
      break;
    case 7:
      origin();
      params(6);
      mt.run_rate = finite_f32(r, "run rate", limit);
      break;
    case 8:
      mt.target = r.u32();
      mt.params.push_back(r.f32());  // desired heading
      {
        const uint32_t flags = r.u32();
        mt.params_flags = flags;
        mt.params.push_back(r.f32());
        mt.params.push_back(r.f32());
      }
      break;
    case 9:
      params(2);
      break;
    default:
      break;
  }
}

void write_move_to(Writer& w, const MoveToRecord& mt) {
  auto origin = [&] {
    w.u32(mt.cell);
    w.f32(mt.origin.x);
    w.f32(mt.origin.y);
    w.f32(mt.origin.z);
  };
  auto param = [&](size_t i) { w.f32(i < mt.params.size() ? mt.params[i] : 0.0f); };
  switch (mt.type) {
    case 6:
      w.u32(mt.target);
      origin();
      w.u32(mt.params_flags);
      for (size_t i = 0; i < 6; ++i) param(i);
      w.f32(mt.run_rate);
      break;
    case 7:
      origin();
      w.u32(mt.params_flags);
      for (size_t i = 0; i < 6; ++i) param(i);
      w.f32(mt.run_rate);
      break;
    case 8:
      w.u32(mt.target);
      param(0);
      w.u32(mt.params_flags);
      param(1);
      param(2);
      break;
    case 9:
      w.u32(mt.params_flags);
      param(0);
      param(1);
      break;
    default:
      break;
  }
}

}  // namespace

MovementMessage read_movement_message(Bytes bytes, const Choices& choices, float limit) {
  Reader r(bytes);
  MovementMessage m;
  m.opcode = r.u32();
  if (m.opcode != kOpMovement && m.opcode != kOpPositionAndMovement) {
    r.fail_at(
        0, fmt::format("opcode 0x{:04X} is not a movement message (0xF74C or 0xF619)", m.opcode));
  }
  m.guid = r.u32();
  m.instance_sequence = r.u16();
  m.movement_sequence = r.u16();
  m.server_control_sequence = r.u16();
  m.autonomous = r.u8();
  if (pad4(r.pos()) == 1) m.header_pad = r.u8();  // pad to 4 from the message start
  const uint64_t type_at = r.offset();
  m.movement_type = r.u8();
  m.motion_flags = r.u8();
  m.current_style = r.u16();
  if (m.movement_type > 9) {
    throw Error(fmt::format("unknown movement type {}", m.movement_type), type_at);
  }
  if (m.movement_type == 0) {
    WireInterpretedState& s = m.state;
    const uint32_t packed = r.u32();
    s.flags = packed & 0x7Fu;
    const uint32_t num_actions = packed >> 7;
    // Runtime 5: the u16 fields first, then the floats (not bit order).
    if (s.flags & imf::kStyle) s.style = r.u16();
    if (s.flags & imf::kForward) s.forward = r.u16();
    if (s.flags & imf::kSidestep) s.sidestep = r.u16();
    if (s.flags & imf::kTurn) s.turn = r.u16();
    if (s.flags & imf::kForwardSpeed) s.forward_speed = finite_f32(r, "forward speed", limit);
    if (s.flags & imf::kSidestepSpeed) s.sidestep_speed = finite_f32(r, "sidestep speed", limit);
    if (s.flags & imf::kTurnSpeed) s.turn_speed = finite_f32(r, "turn speed", limit);
    const uint64_t at = r.offset();
    if (num_actions > r.remaining() / 8) {
      throw Error(fmt::format("{} actions need {} bytes, {} left", num_actions,
                              uint64_t{num_actions} * 8, r.remaining()),
                  at);
    }
    s.actions.resize(num_actions);
    for (WireAction& a : s.actions) {
      a.command = r.u16();
      a.stamp_word = r.u16();
      a.speed = finite_f32(r, "action speed", limit);
    }
    if (choices.action_pad == Choices::ActionPad::kAlign4) {
      const size_t n = pad4(r.pos());  // ACE writes it: a truncated pad is an error
      for (size_t i = 0; i < n; ++i) m.action_pad[i] = r.u8();
    }
    if (m.motion_flags & 0x01) m.sticky_object = r.u32();
  } else if (m.movement_type >= 6) {
    m.move_to.type = m.movement_type;
    read_move_to(r, m.move_to, limit);
  }
  const Bytes rest = r.bytes(r.remaining());
  m.tail.assign(rest.begin(), rest.end());
  return m;
}

std::vector<uint8_t> write_movement_message(const MovementMessage& m, const Choices& choices) {
  Writer w;
  w.u32(m.opcode);
  w.u32(m.guid);
  w.u16(m.instance_sequence);
  w.u16(m.movement_sequence);
  w.u16(m.server_control_sequence);
  w.u8(m.autonomous);
  w.u8(m.header_pad);
  w.u8(m.movement_type);
  w.u8(m.motion_flags);
  w.u16(m.current_style);
  if (m.movement_type == 0) {
    const WireInterpretedState& s = m.state;
    w.u32((s.flags & 0x7Fu) | (static_cast<uint32_t>(s.actions.size()) << 7));
    if (s.flags & imf::kStyle) w.u16(s.style);
    if (s.flags & imf::kForward) w.u16(s.forward);
    if (s.flags & imf::kSidestep) w.u16(s.sidestep);
    if (s.flags & imf::kTurn) w.u16(s.turn);
    if (s.flags & imf::kForwardSpeed) w.f32(s.forward_speed);
    if (s.flags & imf::kSidestepSpeed) w.f32(s.sidestep_speed);
    if (s.flags & imf::kTurnSpeed) w.f32(s.turn_speed);
    for (const WireAction& a : s.actions) {
      w.u16(a.command);
      w.u16(a.stamp_word);
      w.f32(a.speed);
    }
    if (choices.action_pad == Choices::ActionPad::kAlign4) {
      const size_t n = pad4(w.pos());
      for (size_t i = 0; i < n; ++i) w.u8(m.action_pad[i]);
    }
    if (m.motion_flags & 0x01) w.u32(m.sticky_object);
  } else if (m.movement_type >= 6) {
    MoveToRecord mt = m.move_to;
    mt.type = m.movement_type;
    write_move_to(w, mt);
  }
  w.bytes(m.tail);
  return w.take();
}

WireInterpretedState wire_state_from(const InterpretedMotionState& s) {
  WireInterpretedState w;
  w.style = static_cast<uint16_t>(s.current_style);
  w.flags |= imf::kStyle;
  if (s.forward_command != 0) {
    w.flags |= imf::kForward;
    w.forward = static_cast<uint16_t>(s.forward_command);
  }
  if (s.sidestep_command != 0) {
    w.flags |= imf::kSidestep;
    w.sidestep = static_cast<uint16_t>(s.sidestep_command);
  }
  if (s.turn_command != 0) {
    w.flags |= imf::kTurn;
    w.turn = static_cast<uint16_t>(s.turn_command);
  }
  if (s.forward_speed != 1.0f) {
    w.flags |= imf::kForwardSpeed;
    w.forward_speed = s.forward_speed;
  }
  if (s.sidestep_speed != 1.0f) {
    w.flags |= imf::kSidestepSpeed;
    w.sidestep_speed = s.sidestep_speed;
  }
  if (s.turn_speed != 1.0f) {
    w.flags |= imf::kTurnSpeed;
    w.turn_speed = s.turn_speed;
  }
  for (const ActionNode& a : s.actions) {
    w.actions.push_back({static_cast<uint16_t>(a.motion),
                         static_cast<uint16_t>((a.stamp & 0x7FFF) | (a.autonomous ? 0x8000 : 0)),
                         a.speed});
  }
  return w;
}

InterpretedMotionState interpreted_state_from(const MovementMessage& m, const Choices& choices) {
  const WireInterpretedState& w = m.state;
  InterpretedMotionState s;  // defaults: forward Ready, speeds 1.0, sidestep/turn 0
  if (w.flags & imf::kStyle) {
    s.current_style = kStyleBit | w.style;
  } else if (choices.absent_style == Choices::AbsentStyle::kHeaderStyle && m.current_style != 0) {
    s.current_style = kStyleBit | m.current_style;
  } else {
    s.current_style = motion::kNonCombat;
  }
  // Command-ids page: command_ids[u16], the field's fallback only for ids the catalogue lacks.
  if (w.flags & imf::kForward)
    s.forward_command = restore_wire_command(w.forward, WireField::kForward).id;
  if (w.flags & imf::kSidestep)
    s.sidestep_command = restore_wire_command(w.sidestep, WireField::kSidestep).id;
  if (w.flags & imf::kTurn) s.turn_command = restore_wire_command(w.turn, WireField::kTurn).id;
  if (w.flags & imf::kForwardSpeed) s.forward_speed = w.forward_speed;
  if (w.flags & imf::kSidestepSpeed) s.sidestep_speed = w.sidestep_speed;
  if (w.flags & imf::kTurnSpeed) s.turn_speed = w.turn_speed;
  for (const WireAction& a : w.actions) {
    s.actions.push_back({restore_wire_command(a.command, WireField::kAction).id, a.speed,
                         static_cast<uint16_t>(a.stamp_word & 0x7FFF),
                         (a.stamp_word & 0x8000) != 0});
  }
  return s;
}

std::vector<WireCommand> restored_commands(const MovementMessage& m) {
  std::vector<WireCommand> out;
  if (m.movement_type != 0) return out;
  const WireInterpretedState& w = m.state;
  auto add = [&](WireField f, uint16_t v) { out.push_back({f, v, restore_wire_command(v, f)}); };
  if (w.flags & imf::kForward) add(WireField::kForward, w.forward);
  if (w.flags & imf::kSidestep) add(WireField::kSidestep, w.sidestep);
  if (w.flags & imf::kTurn) add(WireField::kTurn, w.turn);
  for (const WireAction& a : w.actions) add(WireField::kAction, a.command);
  return out;
}

bool is_newer(uint16_t old, uint16_t seq) {
  const int diff = old > seq ? old - seq : seq - old;
  return diff > 0x7FFF ? seq < old : old < seq;
}

const char* to_string(WireResult r) {
  switch (r) {
    case WireResult::kApplied:
      return "applied";
    case WireResult::kAppliedPlayer:
      return "applied_player";
    case WireResult::kStaleInstance:
      return "stale_instance";
    case WireResult::kStaleMovement:
      return "stale_movement";
    case WireResult::kStaleServerControl:
      return "stale_server_control";
    case WireResult::kIgnoredAutonomousPlayer:
      return "ignored_autonomous_player";
  }
  return "?";
}

WireResult SetObjectMovement(PhysicsObj& obj, const MovementMessage& m) {
  const bool is_player = obj.weenie.present && obj.weenie.player;
  // Gate 1: the movement sequence must be newer than update_times[1].
  if (!is_newer(obj.update_times[1], m.movement_sequence)) return WireResult::kStaleMovement;
  obj.update_times[1] = m.movement_sequence;
  // Gate 2: dropped when update_times[5] is newer than the server-control sequence (README).
  if (is_newer(m.server_control_sequence, obj.update_times[5]))
    return WireResult::kStaleServerControl;
  obj.update_times[5] = m.server_control_sequence;
  const bool autonomous = m.autonomous != 0;
  if (!autonomous || !is_player) {
    obj.last_move_was_autonomous = autonomous;
    unpack_movement(obj, m);
    return is_player ? WireResult::kAppliedPlayer : WireResult::kApplied;
  }
  return WireResult::kIgnoredAutonomousPlayer;
}

WireResult dispatch_movement(PhysicsObj& obj, const MovementMessage& m) {
  if (m.opcode == kOpMovement) {
    // The extra u16 check of 0xF74C: an older instance of the object is stale.
    if (is_newer(m.instance_sequence, obj.update_times[8])) return WireResult::kStaleInstance;
    obj.update_times[8] = m.instance_sequence;
  }
  return SetObjectMovement(obj, m);
}

void unpack_movement(PhysicsObj& obj, const MovementMessage& m) {
  CMotionInterp& interp = obj.interp;
  switch (m.movement_type) {
    case 0: {
      if (!interp.initted) interp.enter_default_state();  // MovementManager creates it
      interp.move_to_interpreted_state(interpreted_state_from(m, obj.choices()));
      if ((m.motion_flags & 0x01) && m.sticky_object != 0)
        obj.sticky_object = m.sticky_object;  // stick_to_object
      interp.standing_longjump = (m.motion_flags & 0x02) != 0;
      break;
    }
    case 6:
    case 7:
      interp.my_run_rate = m.move_to.run_rate;
      obj.move_to.push_back(m.move_to);
      break;
    case 8:
    case 9:
      obj.move_to.push_back(m.move_to);
      break;
    default:
      break;  // 1-5: internal only
  }
}

}  // namespace animkit::asherons_call
