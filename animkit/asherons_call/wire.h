// The inbound movement message (asherons-call-runtime.md section 5; motion spec Q1):
// parsing, the SetObjectMovement staleness gates, the 0xF619 / 0xF74C dispatch and
// unpack_movement's type switch.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "animkit/asherons_call/command_ids.h"
#include "animkit/asherons_call/physics_obj.h"
#include "animkit/core/reader.h"
#include "animkit/core/text.h"

namespace animkit::asherons_call {

inline constexpr uint32_t kOpMovement = 0xF74C;  // ACE MovementEvent
inline constexpr uint32_t kOpPositionAndMovement = 0xF619;

// Type-0 flags (runtime 5).
namespace imf {
inline constexpr uint32_t kStyle = 0x01, kForward = 0x02, kForwardSpeed = 0x04, kSidestep = 0x08,
                          kSidestepSpeed = 0x10, kTurn = 0x20, kTurnSpeed = 0x40;
}

struct WireAction {
  uint16_t command = 0;
  uint16_t stamp_word = 0;  // bits 0-14 stamp, bit 15 autonomous
  float speed = 1;
  friend bool operator==(const WireAction&, const WireAction&) = default;
};

// The type-0 body as sent: only the flagged fields are on the wire.
struct WireInterpretedState {
  uint32_t flags = 0;  // bits 0-6
  uint16_t style = 0, forward = 0, sidestep = 0, turn = 0;
  float forward_speed = 1, sidestep_speed = 1, turn_speed = 1;
  std::vector<WireAction> actions;
  friend bool operator==(const WireInterpretedState&, const WireInterpretedState&) = default;
};

struct MovementMessage {
  uint32_t opcode = kOpMovement;
  uint32_t guid = 0;
  uint16_t instance_sequence = 0;
  uint16_t movement_sequence = 0;        // vs update_times[1]
  uint16_t server_control_sequence = 0;  // vs update_times[5]
  uint8_t autonomous = 0;
  uint8_t header_pad = 0;
  uint8_t movement_type = 0;  // 0 interpreted, 6-9 MoveTo / TurnTo
  uint8_t motion_flags = 0;   // 0x01 StickToObject, 0x02 StandingLongJump
  uint16_t current_style = 0;
  WireInterpretedState state;           // type 0
  std::array<uint8_t, 3> action_pad{};  // type 0, the pad after the actions as read
  uint32_t sticky_object = 0;           // type 0 with motion_flags & 1
  MoveToRecord move_to;                 // types 6-9
  std::vector<uint8_t> tail;            // bytes after the body
  friend bool operator==(const MovementMessage&, const MovementMessage&) = default;
};

// Throws animkit::Error (with the offset) on a truncated or unknown message, or a speed / run
// rate that is not finite or past `limit` (issue 28).
MovementMessage read_movement_message(Bytes bytes, const Choices& choices = {},
                                      float limit = 3.4028235e38f);
std::vector<uint8_t> write_movement_message(const MovementMessage& m, const Choices& choices = {});
// Builds the type-0 body of a state the way ACE does (a speed only when != 1, a command when != 0).
WireInterpretedState wire_state_from(const InterpretedMotionState& s);
// The InterpretedMotionState a type-0 body stands for (runtime 5: absent fields keep defaults;
// commands restored from their low 16 bits).
InterpretedMotionState interpreted_state_from(const MovementMessage& m, const Choices& choices);

// One 16-bit command of a type-0 body as restored (command-ids page): which field, the wire
// value, the full id, and whether the catalogue lacked it (the trace reports the fallback).
struct WireCommand {
  WireField field = WireField::kForward;
  uint16_t wire = 0;
  RestoredCommand restored;
};
// Every command of the type-0 body in wire order (forward, sidestep, turn, then the actions).
std::vector<WireCommand> restored_commands(const MovementMessage& m);

// 16-bit wraparound "is `seq` newer than `old`" (motion spec Q1).
bool is_newer(uint16_t old, uint16_t seq);

enum class WireResult : uint8_t {
  kApplied,
  kAppliedPlayer,            // SetObjectMovement returned 1 (LoseControlToServer)
  kStaleInstance,            // 0xF74C instance gate
  kStaleMovement,            // update_times[1] gate
  kStaleServerControl,       // update_times[5] gate
  kIgnoredAutonomousPlayer,  // the local player's own autonomous echo
};
const char* to_string(WireResult r);

// CPhysics::SetObjectMovement: both gates, then unpack_movement.
WireResult SetObjectMovement(PhysicsObj& obj, const MovementMessage& m);
// ACSmartBox::DispatchSmartBoxEvent's two cases: 0xF74C checks the instance sequence first.
WireResult dispatch_movement(PhysicsObj& obj, const MovementMessage& m);
// MovementManager::unpack_movement's type switch.
void unpack_movement(PhysicsObj& obj, const MovementMessage& m);

// Wire messages as hex (scenarios, `ac wire`): core text.h's to_hex / parse_hex.

}  // namespace animkit::asherons_call
