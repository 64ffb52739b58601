// The animation pack both games share (monster-hunter.txt, "Animation pack"; notes 4): streams
// of slots, each slot a clip or empty; clips back to back in first-use order, slots may share
// one; the tail after the last clip.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "animkit/core/reader.h"
#include "animkit/monster_hunter/clip.h"

namespace animkit::monster_hunter {

constexpr uint32_t kEmptySlot = 0xFFFFFFFF;
constexpr int32_t kNoClip = -1;

struct AnimPack {
  Game game = Game::kMhfu;  // the clip encoding
  // Per stream, per slot: the index of its clip in `clips`, or kNoClip. A clip shared by several
  // slots has one index; `clips` is in first-use order.
  std::vector<std::vector<int32_t>> streams;
  std::vector<Clip> clips;
  uint32_t reserved = 0;  // the word at 8N (0 in every file seen; kept as read)
  std::vector<uint8_t> tail;

  // The clip in a slot, or nullptr for an empty slot or one outside the pack.
  const Clip* clip(size_t stream, size_t slot) const;
  friend bool operator==(const AnimPack&, const AnimPack&) = default;
};

// Which clip encoding a pack holds, from its first clip word (notes 4, "Sniff"): MHFU when it is
// 0x80000002, MHP3rd when it is below 0x10000; nullopt when the pack is not a well-formed
// container or holds no clip.
std::optional<Game> sniff_pack_game(Bytes bytes);
// True when the bytes are a well-formed container whose first clip (if any) matches a game.
bool sniff_pack(Bytes bytes);
// True when the header's table chain is well formed (notes 4, "Anim pack read" 1-2) with a zero
// reserved word, at least one slot and the first clip right after the tables, whatever the clips
// hold: the registry's sniff, so that a pack with damaged clips reaches the parser's error.
bool sniff_pack_layout(Bytes bytes);
// True when the table chain is well formed and every slot is empty: the bytes do not say the game.
bool pack_all_empty(Bytes bytes);
// `game` chooses the encoding; nullopt sniffs it (an all-empty pack reads as MHFU).
AnimPack read_pack(Bytes bytes, std::optional<Game> game = std::nullopt);
// Writes every distinct clip at its first use; clips no slot uses are not written.
std::vector<uint8_t> write_pack(const AnimPack& pack);

// Reads / writes one clip in the pack's encoding.
Clip read_clip(Reader& reader, Game game, KeyBlock* keys = nullptr);
std::vector<uint8_t> write_clip(const Clip& clip, Game game);

}  // namespace animkit::monster_hunter
