// The retail .dat container (asherons-call-dat-container.md sections 1-4, "container page"):
// the header at 0x140, block chains, the B-tree directory of 24-byte entries keyed by object id.
// Read over a byte span (a memory map for real files): opening reads the header, a lookup or a
// listing reads only directory nodes, and an object's chain is read when asked for.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "animkit/core/json_util.h"
#include "animkit/core/reader.h"

namespace animkit::asherons_call {

class MappedFile;

inline constexpr uint32_t kDatMagic = 0x00005442u;  // "BT\0\0" at 0x140
inline constexpr size_t kDatHeaderOffset = 0x140;
inline constexpr size_t kDatHeaderEnd = 0x190;
inline constexpr size_t kDatNodeSize = 1716;  // 62 x 4 + 4 + 61 x 24 (container page 3)
inline constexpr uint32_t kDatMaxEntries = 61;
inline constexpr uint32_t kDatFreeBit = 0x80000000u;  // set only in the free list
inline constexpr uint32_t kIterationId = 0xFFFF0001u;
inline constexpr int kDatMaxDepth = 32;  // a degree-31 tree this deep holds far over 2^32 ids

// Container page 1 (the client's DiskFileInfo_t).
struct DatHeader {
  std::array<uint8_t, kDatHeaderOffset> preamble{};  // version string + transaction record
  uint32_t magic = kDatMagic;
  uint32_t block_size = 1024;
  uint32_t file_size = 0;
  uint32_t data_set = 1;  // 1 portal, 2 cell, 3 local
  uint32_t data_subset = 0;
  uint32_t first_free = 0;
  uint32_t last_free = 0;
  uint32_t free_count = 0;
  uint32_t btree_root = 0;
  uint32_t young_lru = 0;
  uint32_t old_lru = 0;
  uint32_t use_lru = 0;  // only the low byte is meaningful
  uint32_t master_map_id = 0;
  uint32_t engine_pack_version = 110;
  uint32_t game_pack_version = 0;
  std::array<uint8_t, 16> version_major{};
  uint32_t version_minor = 6657;
  friend bool operator==(const DatHeader&, const DatHeader&) = default;
};

// Container page 3: one directory entry.
struct DatEntry {
  uint16_t flags = 0;    // bit 0: zlib-compressed (DRW): read() inflates it
  uint16_t version = 0;  // DRW writes 2
  uint32_t id = 0;
  uint32_t offset = 0;  // the object's first block
  uint32_t size = 0;    // stored byte count
  uint32_t date = 0;
  int32_t iteration = 0;
  friend bool operator==(const DatEntry&, const DatEntry&) = default;
};

// The object types this module reads (container page 4).
inline constexpr uint8_t kTypeSetup = 0x02;
inline constexpr uint8_t kTypeAnimation = 0x03;
inline constexpr uint8_t kTypeMotionTable = 0x09;
// "setup", "animation", "motion-table", "gfx-object", ..., or "0xNN".
std::string dat_type_name(uint8_t type);
// The type byte for "motion-table" | "animation" | "setup" (also "0x09"); throws on others.
uint8_t dat_type_from_name(const std::string& name);

DatHeader read_dat_header(Bytes bytes);

class DatFile {
 public:
  // A memory-mapped file; errors name it.
  static DatFile open(const std::filesystem::path& path);
  // Over bytes the caller keeps alive (tests, fuzzing).
  explicit DatFile(Bytes bytes);

  const DatHeader& header() const { return header_; }
  uint64_t file_bytes() const { return bytes_.size(); }

  // Container page 3, Lookup(id): descends from the root, at most kDatMaxDepth nodes.
  std::optional<DatEntry> find(uint32_t id) const;
  // Every entry with lo <= id <= hi in ascending order (subtrees outside pruned). Throws on a
  // node reached twice, a depth past kDatMaxDepth, or ids out of order.
  void for_each(uint32_t lo, uint32_t hi, const std::function<void(const DatEntry&)>& visit) const;
  std::vector<DatEntry> list(uint32_t lo = 0, uint32_t hi = 0xFFFFFFFFu) const;
  std::vector<DatEntry> list_type(uint8_t type) const {
    return list(uint32_t{type} << 24, (uint32_t{type} << 24) | 0xFFFFFFu);
  }
  // Container page 2: the stored bytes of an entry (by count; the final next must be 0).
  std::vector<uint8_t> read(const DatEntry& e) const;
  // find + read; throws when the id is absent.
  std::vector<uint8_t> read_object(uint32_t id) const;

 private:
  struct Node {
    std::array<uint32_t, kDatMaxEntries + 1> branch{};
    uint32_t entry_count = 0;
    std::array<DatEntry, kDatMaxEntries> entries{};
    bool leaf() const { return branch[0] == 0; }
  };
  uint64_t chain_blocks(uint32_t first, uint64_t n, const char* what) const;
  void read_chain(uint32_t first, uint64_t n, uint8_t* out, const char* what) const;
  Node read_node(uint32_t offset) const;

  std::shared_ptr<const MappedFile> map_;
  Bytes bytes_;
  DatHeader header_;
};

// A DRW-compressed entry's stored bytes (u32 size + zlib stream) inflated; the size is checked
// against the memory limit first. Throws naming `what` with the offset in the stored bytes.
std::vector<uint8_t> inflate_object(Bytes stored, std::string_view what);

Json to_json(const DatHeader& h);
Json to_json(const DatEntry& e);

}  // namespace animkit::asherons_call
