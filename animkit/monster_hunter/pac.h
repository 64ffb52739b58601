// The PAC container (notes 4, "PAC"): u32 count, then (u32 offset, u32 size) per entry; the
// entries follow in order, each aligned to 16, 8 or 4 bytes (the first alignment that reproduces
// the file), zero padding between them, an empty entry written (0, 0), and the tail after the
// last entry (monster PACs pad to 0x800). Entries are kept as raw bytes, so any entry (a
// skeleton, a PMO, a TMH, an anim pack, another PAC) round-trips byte for byte.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "animkit/core/reader.h"

namespace animkit::monster_hunter {

struct Pac {
  uint32_t alignment = 16;  // 16, 8 or 4
  // Per entry its bytes; an empty entry (no bytes) is written (0, 0). A table row of size 0 with
  // a nonzero offset does not reproduce, so it is not a PAC.
  std::vector<std::vector<uint8_t>> entries;
  std::vector<uint8_t> tail;  // after the last entry's end

  friend bool operator==(const Pac&, const Pac&) = default;
};

// The alignments tried, in order (notes 4).
inline constexpr uint32_t kPacAlignments[] = {16, 8, 4};
// Monster PACs pad their tail to a multiple of this.
constexpr uint32_t kPacBlock = 0x800;

// The (offset, size) table row of each entry where write_pac puts it ((0, 0) for an empty one).
struct PacSpan {
  uint64_t offset = 0;
  uint64_t size = 0;
};
std::vector<PacSpan> pac_table(const Pac& pac);
constexpr uint32_t kPacMaxEntries = 256;  // more is not a PAC (a sanity bound of the sniff)

// True when the bytes are a PAC with at least one non-empty entry (read_pac would succeed).
bool sniff_pac(Bytes bytes);
// Throws animkit::Error with the offset of what does not fit the layout.
Pac read_pac(Bytes bytes);
std::vector<uint8_t> write_pac(const Pac& pac);
// Sets the tail to the zeros that pad the file to a multiple of kPacBlock (a newly built PAC).
void pad_to_block(Pac& pac);

// What an entry holds, from its bytes: "skeleton", "anim-pack", "pac", "pmo", "tmh", "empty"
// or "raw".
std::string pac_entry_kind(Bytes entry);

}  // namespace animkit::monster_hunter
