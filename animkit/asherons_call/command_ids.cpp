#include "animkit/asherons_call/command_ids.h"

#include <fmt/format.h>

#include <array>
#include <iterator>
#include <charconv>

#include "animkit/core/error.h"

namespace animkit::asherons_call {

namespace {

// The end-of-retail catalogue, slot i = low bits i (asherons-call-command-ids.md, its table in
// order). Names are the catalogue's.
constexpr CommandInfo kCatalogue[] = {
    {0x00000000u, "Invalid"},
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
    {0x40000019u, "StoreInBackpack"},
    {0x4000001Au, "Eat"},
    {0x4000001Bu, "Drink"},
    {0x4000001Cu, "Reading"},
    {0x4000001Du, "JumpCharging"},
    {0x4000001Eu, "AimLevel"},
    {0x4000001Fu, "AimHigh15"},
    {0x40000020u, "AimHigh30"},
    {0x40000021u, "AimHigh45"},
    {0x40000022u, "AimHigh60"},
    {0x40000023u, "AimHigh75"},
    {0x40000024u, "AimHigh90"},
    {0x40000025u, "AimLow15"},
    {0x40000026u, "AimLow30"},
    {0x40000027u, "AimLow45"},
    {0x40000028u, "AimLow60"},
    {0x40000029u, "AimLow75"},
    {0x4000002Au, "AimLow90"},
    {0x4000002Bu, "MagicBlast"},
    {0x4000002Cu, "MagicSelfHead"},
    {0x4000002Du, "MagicSelfHeart"},
    {0x4000002Eu, "MagicBonus"},
    {0x4000002Fu, "MagicClap"},
    {0x40000030u, "MagicHarm"},
    {0x40000031u, "MagicHeal"},
    {0x40000032u, "MagicThrowMissile"},
    {0x40000033u, "MagicRecoilMissile"},
    {0x40000034u, "MagicPenalty"},
    {0x40000035u, "MagicTransfer"},
    {0x40000036u, "MagicVision"},
    {0x40000037u, "MagicEnchantItem"},
    {0x40000038u, "MagicPortal"},
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
    {0x80000044u, "TwoHandedSwordCombat"},
    {0x80000045u, "TwoHandedStaffCombat"},
    {0x80000046u, "DualWieldCombat"},
    {0x80000047u, "ThrownWeaponCombat"},
    {0x80000048u, "Graze"},
    {0x80000049u, "Magic"},
    {0x1000004Au, "Hop"},
    {0x1000004Bu, "Jumpup"},
    {0x1300004Cu, "Cheer"},
    {0x1000004Du, "ChestBeat"},
    {0x1000004Eu, "TippedLeft"},
    {0x1000004Fu, "TippedRight"},
    {0x10000050u, "FallDown"},
    {0x10000051u, "Twitch1"},
    {0x10000052u, "Twitch2"},
    {0x10000053u, "Twitch3"},
    {0x10000054u, "Twitch4"},
    {0x10000055u, "StaggerBackward"},
    {0x10000056u, "StaggerForward"},
    {0x10000057u, "Sanctuary"},
    {0x10000058u, "ThrustMed"},
    {0x10000059u, "ThrustLow"},
    {0x1000005Au, "ThrustHigh"},
    {0x1000005Bu, "SlashHigh"},
    {0x1000005Cu, "SlashMed"},
    {0x1000005Du, "SlashLow"},
    {0x1000005Eu, "BackhandHigh"},
    {0x1000005Fu, "BackhandMed"},
    {0x10000060u, "BackhandLow"},
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
    {0x1000006Bu, "HeadThrow"},
    {0x1000006Cu, "FistSlam"},
    {0x1000006Du, "BreatheFlame"},
    {0x1000006Eu, "SpinAttack"},
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
    {0x1300007Au, "Beckon"},
    {0x1300007Bu, "BeSeeingYou"},
    {0x1300007Cu, "BlowKiss"},
    {0x1300007Du, "BowDeep"},
    {0x1300007Eu, "ClapHands"},
    {0x1300007Fu, "Cry"},
    {0x13000080u, "Laugh"},
    {0x13000081u, "MimeEat"},
    {0x13000082u, "MimeDrink"},
    {0x13000083u, "Nod"},
    {0x13000084u, "Point"},
    {0x13000085u, "ShakeHead"},
    {0x13000086u, "Shrug"},
    {0x13000087u, "Wave"},
    {0x13000088u, "Akimbo"},
    {0x13000089u, "HeartyLaugh"},
    {0x1300008Au, "Salute"},
    {0x1300008Bu, "ScratchHead"},
    {0x1300008Cu, "SmackHead"},
    {0x1300008Du, "TapFoot"},
    {0x1300008Eu, "WaveHigh"},
    {0x1300008Fu, "WaveLow"},
    {0x13000090u, "YawnStretch"},
    {0x13000091u, "Cringe"},
    {0x13000092u, "Kneel"},
    {0x13000093u, "Plead"},
    {0x13000094u, "Shiver"},
    {0x13000095u, "Shoo"},
    {0x13000096u, "Slouch"},
    {0x13000097u, "Spit"},
    {0x13000098u, "Surrender"},
    {0x13000099u, "Woah"},
    {0x1300009Au, "Winded"},
    {0x1200009Bu, "YMCA"},
    {0x1000009Cu, "EnterGame"},
    {0x1000009Du, "ExitGame"},
    {0x1000009Eu, "OnCreation"},
    {0x1000009Fu, "OnDestruction"},
    {0x100000A0u, "EnterPortal"},
    {0x100000A1u, "ExitPortal"},
    {0x080000A2u, "Cancel"},
    {0x090000A3u, "UseSelected"},
    {0x090000A4u, "AutosortSelected"},
    {0x090000A5u, "DropSelected"},
    {0x090000A6u, "GiveSelected"},
    {0x090000A7u, "SplitSelected"},
    {0x090000A8u, "ExamineSelected"},
    {0x080000A9u, "CreateShortcutToSelected"},
    {0x090000AAu, "PreviousCompassItem"},
    {0x090000ABu, "NextCompassItem"},
    {0x090000ACu, "ClosestCompassItem"},
    {0x090000ADu, "PreviousSelection"},
    {0x090000AEu, "LastAttacker"},
    {0x090000AFu, "PreviousFellow"},
    {0x090000B0u, "NextFellow"},
    {0x090000B1u, "ToggleCombat"},
    {0x0D0000B2u, "HighAttack"},
    {0x0D0000B3u, "MediumAttack"},
    {0x0D0000B4u, "LowAttack"},
    {0x080000B5u, "EnterChat"},
    {0x080000B6u, "ToggleChat"},
    {0x080000B7u, "SavePosition"},
    {0x090000B8u, "OptionsPanel"},
    {0x090000B9u, "ResetView"},
    {0x0D0000BAu, "CameraLeftRotate"},
    {0x0D0000BBu, "CameraRightRotate"},
    {0x0D0000BCu, "CameraRaise"},
    {0x0D0000BDu, "CameraLower"},
    {0x0D0000BEu, "CameraCloser"},
    {0x0D0000BFu, "CameraFarther"},
    {0x090000C0u, "FloorView"},
    {0x0C0000C1u, "MouseLook"},
    {0x090000C2u, "PreviousItem"},
    {0x090000C3u, "NextItem"},
    {0x090000C4u, "ClosestItem"},
    {0x0D0000C5u, "ShiftView"},
    {0x090000C6u, "MapView"},
    {0x090000C7u, "AutoRun"},
    {0x090000C8u, "DecreasePowerSetting"},
    {0x090000C9u, "IncreasePowerSetting"},
    {0x130000CAu, "Pray"},
    {0x130000CBu, "Mock"},
    {0x130000CCu, "Teapot"},
    {0x100000CDu, "SpecialAttack1"},
    {0x100000CEu, "SpecialAttack2"},
    {0x100000CFu, "SpecialAttack3"},
    {0x100000D0u, "MissileAttack1"},
    {0x100000D1u, "MissileAttack2"},
    {0x100000D2u, "MissileAttack3"},
    {0x400000D3u, "CastSpell"},
    {0x120000D4u, "Flatulence"},
    {0x090000D5u, "FirstPersonView"},
    {0x090000D6u, "AllegiancePanel"},
    {0x090000D7u, "FellowshipPanel"},
    {0x090000D8u, "SpellbookPanel"},
    {0x090000D9u, "SpellComponentsPanel"},
    {0x090000DAu, "HousePanel"},
    {0x090000DBu, "AttributesPanel"},
    {0x090000DCu, "SkillsPanel"},
    {0x090000DDu, "MapPanel"},
    {0x090000DEu, "InventoryPanel"},
    {0x120000DFu, "Demonet"},
    {0x400000E0u, "UseMagicStaff"},
    {0x400000E1u, "UseMagicWand"},
    {0x100000E2u, "Blink"},
    {0x100000E3u, "Bite"},
    {0x400000E4u, "TwitchSubstate1"},
    {0x400000E5u, "TwitchSubstate2"},
    {0x400000E6u, "TwitchSubstate3"},
    {0x090000E7u, "CaptureScreenshotToFile"},
    {0x800000E8u, "BowNoAmmo"},
    {0x800000E9u, "CrossBowNoAmmo"},
    {0x430000EAu, "ShakeFistState"},
    {0x430000EBu, "PrayState"},
    {0x430000ECu, "BowDeepState"},
    {0x430000EDu, "ClapHandsState"},
    {0x430000EEu, "CrossArmsState"},
    {0x430000EFu, "ShiverState"},
    {0x430000F0u, "PointState"},
    {0x430000F1u, "WaveState"},
    {0x430000F2u, "AkimboState"},
    {0x430000F3u, "SaluteState"},
    {0x430000F4u, "ScratchHeadState"},
    {0x430000F5u, "TapFootState"},
    {0x430000F6u, "LeanState"},
    {0x430000F7u, "KneelState"},
    {0x430000F8u, "PleadState"},
    {0x420000F9u, "ATOYOT"},
    {0x430000FAu, "SlouchState"},
    {0x430000FBu, "SurrenderState"},
    {0x430000FCu, "WoahState"},
    {0x430000FDu, "WindedState"},
    {0x090000FEu, "AutoCreateShortcuts"},
    {0x090000FFu, "AutoRepeatAttacks"},
    {0x09000100u, "AutoTarget"},
    {0x09000101u, "AdvancedCombatInterface"},
    {0x09000102u, "IgnoreAllegianceRequests"},
    {0x09000103u, "IgnoreFellowshipRequests"},
    {0x09000104u, "InvertMouseLook"},
    {0x09000105u, "LetPlayersGiveYouItems"},
    {0x09000106u, "AutoTrackCombatTargets"},
    {0x09000107u, "DisplayTooltips"},
    {0x09000108u, "AttemptToDeceivePlayers"},
    {0x09000109u, "RunAsDefaultMovement"},
    {0x0900010Au, "StayInChatModeAfterSend"},
    {0x0900010Bu, "RightClickToMouseLook"},
    {0x0900010Cu, "VividTargetIndicator"},
    {0x0900010Du, "SelectSelf"},
    {0x1000010Eu, "SkillHealSelf"},
    {0x1000010Fu, "SkillHealOther"},
    {0x09000110u, "PreviousMonster"},
    {0x09000111u, "ClosestMonster"},
    {0x09000112u, "NextPlayer"},
    {0x09000113u, "PreviousPlayer"},
    {0x09000114u, "ClosestPlayer"},
    {0, {}},  // 0x0115: no entry (fallback)
    {0, {}},  // 0x0116: no entry (fallback)
    {0, {}},  // 0x0117: no entry (fallback)
    {0x43000118u, "SnowAngelState"},
    {0x13000119u, "WarmHands"},
    {0x4300011Au, "CurtseyState"},
    {0x4300011Bu, "AFKState"},
    {0x4300011Cu, "MeditateState"},
    {0x0900011Du, "TradePanel"},
    {0x1000011Eu, "LogOut"},
    {0x1000011Fu, "DoubleSlashLow"},
    {0x10000120u, "DoubleSlashMed"},
    {0x10000121u, "DoubleSlashHigh"},
    {0x10000122u, "TripleSlashLow"},
    {0x10000123u, "TripleSlashMed"},
    {0x10000124u, "TripleSlashHigh"},
    {0x10000125u, "DoubleThrustLow"},
    {0x10000126u, "DoubleThrustMed"},
    {0x10000127u, "DoubleThrustHigh"},
    {0x10000128u, "TripleThrustLow"},
    {0x10000129u, "TripleThrustMed"},
    {0x1000012Au, "TripleThrustHigh"},
    {0x1000012Bu, "MagicPowerUp01Purple"},
    {0x1000012Cu, "MagicPowerUp02Purple"},
    {0x1000012Du, "MagicPowerUp03Purple"},
    {0x1000012Eu, "MagicPowerUp04Purple"},
    {0x1000012Fu, "MagicPowerUp05Purple"},
    {0x10000130u, "MagicPowerUp06Purple"},
    {0x10000131u, "MagicPowerUp07Purple"},
    {0x10000132u, "MagicPowerUp08Purple"},
    {0x10000133u, "MagicPowerUp09Purple"},
    {0x10000134u, "MagicPowerUp10Purple"},
    {0x13000135u, "Helper"},
    {0x40000136u, "Pickup5"},
    {0x40000137u, "Pickup10"},
    {0x40000138u, "Pickup15"},
    {0x40000139u, "Pickup20"},
    {0x1000013Au, "HouseRecall"},
    {0x8000013Bu, "AtlatlCombat"},
    {0x8000013Cu, "ThrownShieldCombat"},
    {0x4300013Du, "SitState"},
    {0x4300013Eu, "SitCrossleggedState"},
    {0x4300013Fu, "SitBackState"},
    {0x43000140u, "PointLeftState"},
    {0x43000141u, "PointRightState"},
    {0x43000142u, "TalktotheHandState"},
    {0x43000143u, "PointDownState"},
    {0x43000144u, "DrudgeDanceState"},
    {0x43000145u, "PossumState"},
    {0x43000146u, "ReadState"},
    {0x43000147u, "ThinkerState"},
    {0x43000148u, "HaveASeatState"},
    {0x43000149u, "AtEaseState"},
    {0x1300014Au, "NudgeLeft"},
    {0x1300014Bu, "NudgeRight"},
    {0x1300014Cu, "PointLeft"},
    {0x1300014Du, "PointRight"},
    {0x1300014Eu, "PointDown"},
    {0x1300014Fu, "Knock"},
    {0x13000150u, "ScanHorizon"},
    {0x13000151u, "DrudgeDance"},
    {0x13000152u, "HaveASeat"},
    {0x10000153u, "LifestoneRecall"},
    {0x09000154u, "CharacterOptionsPanel"},
    {0x09000155u, "SoundAndGraphicsPanel"},
    {0x09000156u, "HelpfulSpellsPanel"},
    {0x09000157u, "HarmfulSpellsPanel"},
    {0x09000158u, "CharacterInformationPanel"},
    {0x09000159u, "LinkStatusPanel"},
    {0x0900015Au, "VitaePanel"},
    {0x0900015Bu, "ShareFellowshipXP"},
    {0x0900015Cu, "ShareFellowshipLoot"},
    {0x0900015Du, "AcceptCorpseLooting"},
    {0x0900015Eu, "IgnoreTradeRequests"},
    {0x0900015Fu, "DisableWeather"},
    {0x09000160u, "DisableHouseEffect"},
    {0x09000161u, "SideBySideVitals"},
    {0x09000162u, "ShowRadarCoordinates"},
    {0x09000163u, "ShowSpellDurations"},
    {0x09000164u, "MuteOnLosingFocus"},
    {0x10000165u, "Fishing"},
    {0x10000166u, "MarketplaceRecall"},
    {0x10000167u, "EnterPKLite"},
    {0x09000168u, "AllegianceChat"},
    {0x09000169u, "AutomaticallyAcceptFellowshipRequests"},
    {0x0900016Au, "Reply"},
    {0x0900016Bu, "MonarchReply"},
    {0x0900016Cu, "PatronReply"},
    {0x0900016Du, "ToggleCraftingChanceOfSuccessDialog"},
    {0x0900016Eu, "UseClosestUnopenedCorpse"},
    {0x0900016Fu, "UseNextUnopenedCorpse"},
    {0x09000170u, "IssueSlashCommand"},
    {0x10000171u, "AllegianceHometownRecall"},
    {0x10000172u, "PKArenaRecall"},
    {0x10000173u, "OffhandSlashHigh"},
    {0x10000174u, "OffhandSlashMed"},
    {0x10000175u, "OffhandSlashLow"},
    {0x10000176u, "OffhandThrustHigh"},
    {0x10000177u, "OffhandThrustMed"},
    {0x10000178u, "OffhandThrustLow"},
    {0x10000179u, "OffhandDoubleSlashLow"},
    {0x1000017Au, "OffhandDoubleSlashMed"},
    {0x1000017Bu, "OffhandDoubleSlashHigh"},
    {0x1000017Cu, "OffhandTripleSlashLow"},
    {0x1000017Du, "OffhandTripleSlashMed"},
    {0x1000017Eu, "OffhandTripleSlashHigh"},
    {0x1000017Fu, "OffhandDoubleThrustLow"},
    {0x10000180u, "OffhandDoubleThrustMed"},
    {0x10000181u, "OffhandDoubleThrustHigh"},
    {0x10000182u, "OffhandTripleThrustLow"},
    {0x10000183u, "OffhandTripleThrustMed"},
    {0x10000184u, "OffhandTripleThrustHigh"},
    {0x10000185u, "OffhandKick"},
    {0x10000186u, "AttackHigh4"},
    {0x10000187u, "AttackMed4"},
    {0x10000188u, "AttackLow4"},
    {0x10000189u, "AttackHigh5"},
    {0x1000018Au, "AttackMed5"},
    {0x1000018Bu, "AttackLow5"},
    {0x1000018Cu, "AttackHigh6"},
    {0x1000018Du, "AttackMed6"},
    {0x1000018Eu, "AttackLow6"},
    {0x1000018Fu, "PunchFastHigh"},
    {0x10000190u, "PunchFastMed"},
    {0x10000191u, "PunchFastLow"},
    {0x10000192u, "PunchSlowHigh"},
    {0x10000193u, "PunchSlowMed"},
    {0x10000194u, "PunchSlowLow"},
    {0x10000195u, "OffhandPunchFastHigh"},
    {0x10000196u, "OffhandPunchFastMed"},
    {0x10000197u, "OffhandPunchFastLow"},
    {0x10000198u, "OffhandPunchSlowHigh"},
    {0x10000199u, "OffhandPunchSlowMed"},
    {0x1000019Au, "OffhandPunchSlowLow"},
    {0x1000019Bu, "WoahDuplicate2"},
};
static_assert(std::size(kCatalogue) == 0x19C);

// Names an earlier version of this module used (runtime page section 6 shortens a few style
// names); accepted when parsing, never printed.
constexpr CommandInfo kAliases[] = {
    {0x80000044u, "TwoHandedSword"},
    {0x80000045u, "TwoHandedStaff"},
    {0x80000046u, "DualWield"},
    {0x80000047u, "ThrownWeapon"},
};

const CommandInfo* entry_for(uint32_t id) {
  const uint32_t low = id & 0xFFFFu;
  if (low >= std::size(kCatalogue)) return nullptr;
  const CommandInfo& e = kCatalogue[low];
  return (!e.name.empty() && e.id == id) ? &e : nullptr;
}

}  // namespace

std::string hex32(uint32_t v) { return fmt::format("0x{:08X}", v); }

std::span<const CommandInfo> command_catalogue() { return kCatalogue; }

std::string_view command_name(uint32_t id) {
  const CommandInfo* e = entry_for(id);
  return e ? e->name : std::string_view{};
}

std::optional<uint32_t> command_id(std::string_view name) {
  if (name.empty()) return std::nullopt;
  for (const CommandInfo& n : kCatalogue) {
    if (name == n.name) return n.id;
  }
  for (const CommandInfo& n : kAliases) {
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

std::string_view to_string(WireField f) {
  switch (f) {
    case WireField::kForward:
      return "forward";
    case WireField::kSidestep:
      return "sidestep";
    case WireField::kTurn:
      return "turn";
    case WireField::kAction:
      return "action";
  }
  return "?";
}

uint32_t fallback_class(WireField f) {
  switch (f) {
    case WireField::kForward:
      return 0x40000000u;
    case WireField::kSidestep:
    case WireField::kTurn:
      return 0x65000000u;
    case WireField::kAction:
      return 0x10000000u;
  }
  return 0;
}

RestoredCommand restore_wire_command(uint16_t low, WireField field) {
  if (low < std::size(kCatalogue) && !kCatalogue[low].name.empty()) {
    return {kCatalogue[low].id, false};
  }
  return {fallback_class(field) | low, true};
}

uint32_t command_from_wire(uint16_t low, uint32_t fallback) {
  if (low < std::size(kCatalogue) && !kCatalogue[low].name.empty()) return kCatalogue[low].id;
  return fallback | low;
}

}  // namespace animkit::asherons_call
