// The Monster Hunter skeleton (monster-hunter.txt, "Skeleton"; notes 4): a header, the parameter
// section, one section per bone, and the tail. Read and written back byte for byte.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "animkit/core/reader.h"
#include "animkit/monster_hunter/clip.h"

namespace animkit::monster_hunter {

constexpr uint32_t kMagicMhfu = 0xC0000000, kMagicMhp3rd = 0x80000000;
constexpr uint32_t kBoneSectionMhfu = 0x10C, kBoneSectionMhp3rd = 0x5C;
constexpr uint32_t kBoneFixed = 0x54;  // the bytes every bone section has before its name/zeros

struct Bone {
  uint16_t kind = 1;    // 0x00: 0x40000000 | kind (1, 2 or 3)
  uint32_t one = 1;     // 0x04: 1 on every file seen; kept as read
  int32_t index = 0;    // 0x0C: the bone's own position
  int32_t parent = -1;  // 0x10
  int32_t first_child = -1;
  int32_t next_sibling = -1;
  std::array<float, 4> bind_scale{1, 1, 1, 1};     // 0x1C
  std::array<float, 4> bind_rotation{0, 0, 0, 1};  // 0x2C, Euler, w = 1
  std::array<float, 4> bind_position{0, 0, 0, 1};  // 0x3C, offset from the parent, w = 1
  int32_t link = -1;                               // 0x4C: on kind-2 bones an earlier bone's index
  uint32_t stream = 0;                             // 0x50: MHFU's animation part; MHP3rd 0
  // 0x54: MHP3rd's 8-byte name (a C string then leftovers); none: MHFU's 0xB8 zero bytes.
  std::optional<std::array<uint8_t, 8>> name;

  uint32_t section_size() const { return name ? kBoneSectionMhp3rd : kBoneSectionMhfu; }
  // The name up to its first NUL ("" without a name), as the bytes: what JSON and glTF writers
  // take through the core rule (json_text.h, issue 31 item 2).
  std::string name_bytes() const;
  // The same as text for messages and text output: bytes outside printable ASCII and the
  // backslash as \xNN (core printable, Keep::kAscii); the form JSON and glTF had before issue 31.
  std::string name_text() const;
  friend bool operator==(const Bone& a, const Bone& b);
};

struct Skeleton {
  uint32_t magic = kMagicMhfu;
  std::vector<uint32_t> params;          // 0x18: 1 to 3 values; params[1] the animated count
  std::optional<uint32_t> params_count;  // 0x10 when it disagrees with params.size()
  std::vector<Bone> bones;
  std::vector<uint8_t> tail;  // bytes after the header's size

  Game game() const { return magic == kMagicMhp3rd ? Game::kMhp3rd : Game::kMhfu; }
  // notes 1.1: params[1] with at least two params, else the bone count.
  int64_t animated() const;
  std::vector<int> parents() const;
  friend bool operator==(const Skeleton&, const Skeleton&) = default;
};

// notes 4, "Sniff": length >= 24; a known magic; count > 0; size <= length; word 0x0C = 0.
bool sniff_skeleton(Bytes bytes);
// A cut skeleton (Format::sniff_cut): the same checks, except that `size` may pass the end.
bool sniff_cut_skeleton(Bytes bytes);
Skeleton read_skeleton(Bytes bytes);
std::vector<uint8_t> write_skeleton(const Skeleton& skeleton);

// notes 4: first child = lowest-index child, next sibling = next higher-index child of the same
// parent, roots no sibling. Rewrites those fields from the parents.
void link_children(Skeleton& skeleton);

}  // namespace animkit::monster_hunter
