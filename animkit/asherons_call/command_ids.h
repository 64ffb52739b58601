// Motion command ids by name and their class bits (asherons-call-runtime.md section 6).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace animkit::asherons_call {

// Top-byte class bits (runtime page section 6).
inline constexpr uint32_t kStyleBit = 0x80000000u;
inline constexpr uint32_t kSubStateBit = 0x40000000u;  // a cycle
inline constexpr uint32_t kModifierBit = 0x20000000u;
inline constexpr uint32_t kActionBit = 0x10000000u;
inline constexpr uint32_t kUiBit = 0x08000000u;
inline constexpr uint32_t kToggleBit = 0x04000000u;
inline constexpr uint32_t kChatEmoteBit = 0x02000000u;
inline constexpr uint32_t kMappableBit = 0x01000000u;

// The ids the pipeline names (runtime page section 6, motion spec Q2).
namespace motion {
inline constexpr uint32_t kReady = 0x41000003u;
inline constexpr uint32_t kStop = 0x40000004u;
inline constexpr uint32_t kWalkForward = 0x45000005u;
inline constexpr uint32_t kWalkBackwards = 0x45000006u;
inline constexpr uint32_t kRunForward = 0x44000007u;
inline constexpr uint32_t kFallen = 0x40000008u;
inline constexpr uint32_t kTurnRight = 0x6500000Du;
inline constexpr uint32_t kTurnLeft = 0x6500000Eu;
inline constexpr uint32_t kSideStepRight = 0x6500000Fu;
inline constexpr uint32_t kSideStepLeft = 0x65000010u;
inline constexpr uint32_t kDead = 0x40000011u;
inline constexpr uint32_t kCrouch = 0x41000012u;
inline constexpr uint32_t kSitting = 0x41000013u;
inline constexpr uint32_t kSleeping = 0x41000014u;
inline constexpr uint32_t kFalling = 0x40000015u;
inline constexpr uint32_t kNonCombat = 0x8000003Du;
}  // namespace motion

// The name of a known command id ("WalkForward"), or empty.
std::string_view command_name(uint32_t id);
// The id of a command name, or nullopt.
std::optional<uint32_t> command_id(std::string_view name);
// A name for display: the known name, else "0x%08X".
std::string command_label(uint32_t id);
// Parses a command given as a name or a number ("0x45000005"); throws animkit::Error.
uint32_t parse_command(std::string_view text);
// The class of an id from its top byte: "style", "substate", "modifier", "action", "ui", ...
std::string_view command_class(uint32_t id);

// One entry of the command catalogue (asherons-call-command-ids.md).
struct CommandInfo {
  uint32_t id = 0;
  std::string_view name;  // empty: the catalogue has no entry for these low bits
};
// The end-of-retail catalogue (command-ids page; ACE MotionCommand.cs at 7b47913), indexed by the
// low 16 bits as the client's command_ids[u16] is: entry i has low bits i. 0x19C slots, 409 ids
// (0x0115-0x0117 are empty).
std::span<const CommandInfo> command_catalogue();
inline constexpr size_t kCatalogueIds = 409;

// Which field of the wire a 16-bit command came from: it picks the fallback class (runtime 5).
enum class WireField : uint8_t { kForward, kSidestep, kTurn, kAction };
std::string_view to_string(WireField f);
// The companion's fallback class for a low value the catalogue lacks (command-ids page):
// 0x40000000 forward, 0x65000000 sidestep / turn, 0x10000000 actions.
uint32_t fallback_class(WireField f);

struct RestoredCommand {
  uint32_t id = 0;
  bool fallback = false;  // the catalogue had no entry: id = fallback_class | u16
};
// Restores a 16-bit wire command to its full id (runtime page section 5, command-ids page):
// command_ids[u16] when the catalogue has that entry, else the field's fallback.
RestoredCommand restore_wire_command(uint16_t low, WireField field);
// Same, with an explicit fallback class (0 for "just the low bits"), without the flag.
uint32_t command_from_wire(uint16_t low, uint32_t fallback_class);

std::string hex32(uint32_t v);

}  // namespace animkit::asherons_call
