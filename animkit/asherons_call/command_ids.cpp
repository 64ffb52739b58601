#include "animkit/asherons_call/command_ids.h"

#include <fmt/format.h>

#include <array>
#include <charconv>

#include "animkit/core/error.h"

namespace animkit::asherons_call {

namespace {

struct Named {
  uint32_t id;
  const char* name;
};

// Runtime page section 6 (late-client numbering).
constexpr Named kCommands[] = {
    {0x85000001u, "HoldRun"},
    {0x85000002u, "HoldSidestep"},
    {0x41000003u, "Ready"},
    {0x40000004u, "Stop"},
    {0x45000005u, "WalkForward"},
    {0x45000006u, "WalkBackwards"},
    {0x44000007u, "RunForward"},
    {0x40000008u, "Fallen"},
    {0x40000009u, "Interpolating"},
    {0x4000000Au, "Hover"},
    {0x4000000Bu, "On"},
    {0x4000000Cu, "Off"},
    {0x6500000Du, "TurnRight"},
    {0x6500000Eu, "TurnLeft"},
    {0x6500000Fu, "SideStepRight"},
    {0x65000010u, "SideStepLeft"},
    {0x40000011u, "Dead"},
    {0x41000012u, "Crouch"},
    {0x41000013u, "Sitting"},
    {0x41000014u, "Sleeping"},
    {0x40000015u, "Falling"},
    {0x40000016u, "Reload"},
    {0x40000017u, "Unload"},
    {0x40000018u, "Pickup"},
    {0x4000001Du, "JumpCharging"},
    {0x4000001Eu, "AimLevel"},
    {0x4000002Au, "AimLow90"},
    {0x4000002Bu, "MagicBlast"},
    {0x40000039u, "MagicPray"},
    {0x2000003Au, "StopTurning"},
    {0x2500003Bu, "Jump"},
    {0x8000003Cu, "HandCombat"},
    {0x8000003Du, "NonCombat"},
    {0x8000003Eu, "SwordCombat"},
    {0x8000003Fu, "BowCombat"},
    {0x80000040u, "SwordShieldCombat"},
    {0x80000041u, "CrossbowCombat"},
    {0x80000042u, "UnusedCombat"},
    {0x80000043u, "SlingCombat"},
    {0x80000044u, "TwoHandedSword"},
    {0x80000045u, "TwoHandedStaff"},
    {0x80000046u, "DualWield"},
    {0x80000047u, "ThrownWeapon"},
    {0x80000048u, "Graze"},
    {0x80000049u, "Magic"},
    {0x800000E8u, "BowNoAmmo"},
    {0x800000E9u, "CrossBowNoAmmo"},
    {0x8000013Bu, "AtlatlCombat"},
    {0x8000013Cu, "ThrownShieldCombat"},
    {0x1000004Au, "Hop"},
    {0x1000004Bu, "Jumpup"},
    {0x1300004Cu, "Cheer"},
    {0x10000050u, "FallDown"},
    {0x10000055u, "StaggerBackward"},
    {0x10000056u, "StaggerForward"},
    {0x10000057u, "Sanctuary"},
    {0x10000058u, "ThrustMed"},
    {0x10000059u, "ThrustLow"},
    {0x1000005Au, "ThrustHigh"},
    {0x1000005Bu, "SlashHigh"},
    {0x1000005Cu, "SlashMed"},
    {0x1000005Du, "SlashLow"},
    {0x10000061u, "Shoot"},
    {0x10000062u, "AttackHigh1"},
    {0x10000063u, "AttackMed1"},
    {0x10000064u, "AttackLow1"},
    {0x10000065u, "AttackHigh2"},
    {0x10000066u, "AttackMed2"},
    {0x10000067u, "AttackLow2"},
    {0x10000068u, "AttackHigh3"},
    {0x10000069u, "AttackMed3"},
    {0x1000006Au, "AttackLow3"},
    {0x1000006Fu, "MagicPowerUp01"},
    {0x10000070u, "MagicPowerUp02"},
    {0x10000071u, "MagicPowerUp03"},
    {0x10000072u, "MagicPowerUp04"},
    {0x10000073u, "MagicPowerUp05"},
    {0x10000074u, "MagicPowerUp06"},
    {0x10000075u, "MagicPowerUp07"},
    {0x10000076u, "MagicPowerUp08"},
    {0x10000077u, "MagicPowerUp09"},
    {0x10000078u, "MagicPowerUp10"},
    {0x13000079u, "ShakeFist"},
};

}  // namespace

std::string hex32(uint32_t v) { return fmt::format("0x{:08X}", v); }

std::string_view command_name(uint32_t id) {
  for (const Named& n : kCommands) {
    if (n.id == id) return n.name;
  }
  return {};
}

std::optional<uint32_t> command_id(std::string_view name) {
  for (const Named& n : kCommands) {
    if (name == n.name) return n.id;
  }
  return std::nullopt;
}

std::string command_label(uint32_t id) {
  const std::string_view n = command_name(id);
  return n.empty() ? hex32(id) : std::string(n);
}

uint32_t parse_command(std::string_view text) {
  if (auto id = command_id(text)) return *id;
  std::string_view digits = text;
  int base = 10;
  if (digits.starts_with("0x") || digits.starts_with("0X")) {
    digits.remove_prefix(2);
    base = 16;
  }
  uint32_t v = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v, base);
  if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size()) {
    throw Error(fmt::format("unknown motion command '{}'", text));
  }
  return v;
}

std::string_view command_class(uint32_t id) {
  if (id & kStyleBit) return "style";
  if (id & kSubStateBit) return "substate";
  if (id & kModifierBit) return "modifier";
  if (id & kActionBit) return "action";
  if (id & kUiBit) return "ui";
  if (id & kToggleBit) return "toggle";
  if (id & kChatEmoteBit) return "chat_emote";
  if (id & kMappableBit) return "mappable";
  return "none";
}

uint32_t command_from_wire(uint16_t low, uint32_t fallback_class) {
  for (const Named& n : kCommands) {
    if ((n.id & 0xFFFFu) == low && !(n.id & kStyleBit)) return n.id;
  }
  return fallback_class | low;
}

}  // namespace animkit::asherons_call
