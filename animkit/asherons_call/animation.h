// The Animation portal object (0x03xxxxxx), byte by byte (asherons-call-dat.md, "Animation",
// "Hooks"): pos_frames, part frames with their hooks, orientation stored w first.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "animkit/core/json_util.h"
#include "animkit/core/math.h"
#include "animkit/core/reader.h"
#include "animkit/core/writer.h"

namespace animkit::asherons_call {

// Frame (28 bytes): origin, then the orientation quaternion stored w, x, y, z (dat page).
struct AFrame {
  Vec3 origin{};
  Quat orientation{};  // held as animkit's (x, y, z, w); read and written w first
  friend bool operator==(const AFrame&, const AFrame&) = default;
};

// Hook types (dat page, "Hooks").
enum class HookType : uint32_t {
  kSound = 1,
  kSoundTable = 2,
  kAttack = 3,
  kAnimationDone = 4,
  kReplaceObject = 5,
  kEthereal = 6,
  kTransparentPart = 7,
  kLuminous = 8,
  kLuminousPart = 9,
  kDiffuse = 10,
  kDiffusePart = 11,
  kScale = 12,
  kCreateParticle = 13,
  kDestroyParticle = 14,
  kStopParticle = 15,
  kNoDraw = 16,
  kDefaultScript = 17,
  kDefaultScriptPart = 18,
  kCallPES = 19,
  kTransparent = 20,
  kSoundTweaked = 21,
  kSetOmega = 22,
  kTextureVelocity = 23,
  kTextureVelocityPart = 24,
  kSetLight = 25,
  kCreateBlockingParticle = 26,
};
// "AnimationDone", or empty for an unknown type.
std::string_view hook_type_name(uint32_t type);

// A hook: type, direction (0 both, 1 forward, -1 backward) and its payload as the words of its
// fields in file order (floats as their bits; ReplaceObject: part index, then the packed id's
// u16 `a` and, when a & 0x8000, `b`).
struct AnimHook {
  uint32_t type = 4;
  int32_t direction = 0;
  std::vector<uint32_t> words;
  friend bool operator==(const AnimHook&, const AnimHook&) = default;
};
// ReplaceObject's object id from its packed words (dat page, hook 5).
uint32_t replace_object_id(const AnimHook& hook);

struct AnimationFrame {
  std::vector<AFrame> parts;  // num_parts
  std::vector<AnimHook> hooks;
  friend bool operator==(const AnimationFrame&, const AnimationFrame&) = default;
};

inline constexpr uint32_t kHasPosFrames = 0x01;

struct Animation {
  uint32_t id = 0x03000000;
  uint32_t flags = 0;  // bit 0: pos_frames present
  uint32_t num_parts = 0;
  std::vector<AFrame> pos_frames;      // num_frames when flags & 1, else empty
  std::vector<AnimationFrame> frames;  // num_frames
  std::vector<uint8_t> tail;           // bytes after the object, kept for the round trip
  size_t num_frames() const { return frames.size(); }
  bool has_pos_frames() const { return (flags & kHasPosFrames) != 0; }
  friend bool operator==(const Animation&, const Animation&) = default;
};

// Throws animkit::Error with the absolute offset (an unknown hook type names the type).
Animation read_animation(Bytes bytes);
// The pieces the Setup shares (container page 5): a Frame (28 bytes, w first) and an
// AnimationFrame of num_parts frames + hooks.
AFrame read_frame(Reader& r);
void write_frame(Writer& w, const AFrame& f);
AnimationFrame read_animation_frame(Reader& r, uint32_t num_parts);
void write_animation_frame(Writer& w, const AnimationFrame& frame);
std::vector<uint8_t> write_animation(const Animation& animation);

Json to_json(const AFrame& f);  // {"origin": [x, y, z], "orientation": [w, x, y, z]}
AFrame frame_from_json(const Json& j);
Json to_json(const AnimHook& h);
AnimHook hook_from_json(const Json& j);
Json to_json(const Animation& animation);
Animation animation_from_json(const Json& j);

// True when the bytes start like a binary Animation; `whole` = false also takes a cut file whose
// header fits but whose frames run past the end (the registry's sniff_cut, issue 31 item 4).
bool looks_like_animation(Bytes head, bool whole = true);

}  // namespace animkit::asherons_call
