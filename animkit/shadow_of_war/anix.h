// The .anix clip file (spec: "Clips: the .anix format"): header, track table of run-length runs,
// the block chunk of blocksets, the anim chunk (directory, clip records, event dictionary).
// Every byte is kept: fields by the spec's names, unknown words as fields, everything no
// structure covers as gaps, so write_anix(parse_anix(bytes)) == bytes.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "animkit/core/math.h"
#include "animkit/core/reader.h"
#include "animkit/shadow_of_war/event_dictionary.h"

namespace animkit::shadow_of_war {

inline constexpr uint32_t kAnixMagic = 0x58494E41;        // 'ANIX'
inline constexpr uint32_t kRotationChannel = 0x27436396;  // spec: tracks
inline constexpr uint32_t kPositionChannel = 0x00CE66FC;
inline constexpr uint32_t kEventsChannel = 0x210C8F5A;
inline constexpr uint32_t kLithTag = 0x2B99DBC1;  // spec: blockset
inline constexpr uint32_t kHeaderSize = 0x30;
inline constexpr uint32_t kRecordFixedSize = 0x7C;     // spec: record, +0x7C codecs
inline constexpr uint32_t kMaxBlocksetSize = 0x10000;  // u16 offsets: at most 64 KB
// Bytes of parsed structure per byte of file, at most (parse_anix's memory bound, issue 29).
inline constexpr uint64_t kParsedBytesPerFileByte = 16;

// Bytes no structure covers (padding, unknown data), kept to write the file back byte-exact.
struct Gap {
  uint32_t offset = 0;  // relative to the region that holds it
  std::vector<uint8_t> bytes;
  friend bool operator==(const Gap&, const Gap&) = default;
};

// 'ANIX' | 0x2C | 0x30 | file size | track count | track table offset | block chunk offset |
// block chunk size | anim chunk offset | anim chunk size | 1 | 1
struct Header {
  uint32_t magic = kAnixMagic;
  uint32_t field_04 = 0x2C;
  uint32_t field_08 = 0x30;
  uint32_t file_size = 0;
  uint32_t track_count = 0;
  uint32_t track_table_offset = 0;
  uint32_t block_chunk_offset = 0;
  uint32_t block_chunk_size = 0;
  uint32_t anim_chunk_offset = 0;
  uint32_t anim_chunk_size = 0;
  uint32_t field_28 = 1;
  uint32_t field_2c = 1;
  friend bool operator==(const Header&, const Header&) = default;
};

// One run of the track table: {channel hash, run length, node hashes}.
struct TrackRun {
  uint32_t channel_hash = 0;
  std::vector<uint32_t> node_hashes;  // run length = node_hashes.size()
  friend bool operator==(const TrackRun&, const TrackRun&) = default;
};

// LITH {keys, n2, n3, times[keys], 0}: the blockset's key times (absolute clip times).
struct Lith {
  uint32_t n2 = 0;
  uint32_t n3 = 0;
  std::vector<float> times;  // keys = times.size(); float32 (README, Choices)
  uint32_t end = 0;          // the trailing 0
  friend bool operator==(const Lith&, const Lith&) = default;
};

// A blockset: u32 named count, u16 group offsets, u16 named offsets, align 4, u32 LITH tag, LITH,
// then the group and named data (kept as `body`). Offsets are relative to the blockset start.
struct Blockset {
  uint32_t offset = 0;  // in the block chunk
  uint32_t named_count = 0;
  std::vector<uint16_t> group_offsets;  // one per record group
  std::vector<uint16_t> named_offsets;  // named_count of them
  std::vector<uint8_t> align_pad;       // the bytes of "align 4"
  uint32_t lith_tag = kLithTag;
  Lith lith;
  std::vector<uint8_t> body;     // after LITH to the blockset's end
  uint32_t body_offset() const;  // where `body` starts, relative to the blockset
  uint32_t size() const { return body_offset() + static_cast<uint32_t>(body.size()); }
  friend bool operator==(const Blockset&, const Blockset&) = default;
};

// The bytes of one group inside a blockset, with its codec tag (layouts unknown: kept as is).
struct GroupData {
  std::string codec;    // 4 characters (SQ03, AQ03, STRI, ...)
  uint32_t offset = 0;  // relative to the blockset
  std::vector<uint8_t> bytes;
};
// The groups of a blockset: group i runs from its offset to the next group or named offset
// above it, or the blockset's end. Empty when an offset lies outside the blockset.
std::vector<GroupData> blockset_groups(const Blockset& blockset,
                                       const std::vector<std::string>& codecs);

// AQ03 block header (spec: "an AQ03 block header of (start time, end time, keys)").
struct Aq03Header {
  float start_time = 0;
  float end_time = 0;
  uint32_t keys = 0;
};
std::optional<Aq03Header> aq03_header(const std::vector<uint8_t>& group_bytes);
// STRI strings: the NUL-terminated texts in the group (README, Choices).
std::vector<std::string> stri_strings(const std::vector<uint8_t>& group_bytes);

struct RootSummary {
  Vec3 start_position;
  Quat start_rotation;
  Vec3 end_position;
  Quat end_rotation;
  friend bool operator==(const RootSummary&, const RootSummary&) = default;
};

struct BlocksetEntry {  // {offset, size, t0, t1}
  uint32_t offset = 0;  // in the block chunk
  uint32_t size = 0;
  float t0 = 0;
  float t1 = 0;
  friend bool operator==(const BlocksetEntry&, const BlocksetEntry&) = default;
};

struct NamedEntry {  // {hash, offset}
  uint32_t hash = 0;
  uint32_t offset = 0;
  friend bool operator==(const NamedEntry&, const NamedEntry&) = default;
};

// A clip record in the anim chunk.
struct Record {
  uint32_t offset = 0;  // relative to the anim chunk
  std::array<uint8_t, 0x30> name_bytes{};
  uint16_t size_field = 0;  // +0x30 low half: 0x7C + 16 * blocksets + 8 * named
  uint16_t flag = 0;        // +0x30 high half
  // +0x34 blocksets, +0x36 named, +0x38 groups, +0x3A tracks: the sizes of the tables below
  RootSummary root;                   // +0x3C
  uint32_t field_74 = 0;              // +0x74
  uint32_t duration_ms = 0;           // +0x78
  std::vector<std::string> codecs;    // 4 characters per group
  std::vector<uint8_t> track_groups;  // group of each track
  std::vector<uint16_t> remap;        // u16 per track
  std::vector<uint8_t> table_pad;     // padding before the blockset table, when found (Choices)
  std::vector<BlocksetEntry> blockset_table;
  std::vector<NamedEntry> named_table;
  std::vector<uint8_t> key_strings;  // the KeyString blob: the rest up to the record's end

  std::string name() const;
  void set_name(const std::string& name);
  uint32_t size() const;
  friend bool operator==(const Record&, const Record&) = default;
};

struct DirectoryEntry {  // {u32 name hash, u32 relative offset}
  uint32_t name_hash = 0;
  uint32_t offset = 0;
  friend bool operator==(const DirectoryEntry&, const DirectoryEntry&) = default;
};

struct AnimChunk {
  uint32_t directory_offset = 0x10;      // +0x00
  uint32_t clip_count = 0;               // +0x04
  uint32_t field_08 = 0;                 // +0x08
  uint32_t event_dictionary_offset = 0;  // +0x0C (0: none)
  std::vector<DirectoryEntry> directory;
  std::vector<Record> records;                      // in position order
  std::vector<uint8_t> event_dictionary_bytes;      // from its offset to the chunk's end
  std::optional<EventDictionary> event_dictionary;  // decoded (README, Choices)
  std::string event_dictionary_error;               // why it was not decoded
  std::vector<Gap> gaps;
  friend bool operator==(const AnimChunk&, const AnimChunk&) = default;
  // The record a directory entry points at, or nullptr.
  const Record* record_at(uint32_t offset) const;
};

struct BlockChunk {
  std::vector<Blockset> blocksets;  // by offset
  std::vector<Gap> gaps;
  friend bool operator==(const BlockChunk&, const BlockChunk&) = default;
  const Blockset* blockset_at(uint32_t offset) const;
};

struct AnixFile {
  Header header;
  std::vector<TrackRun> track_runs;
  BlockChunk block_chunk;
  AnimChunk anim_chunk;
  std::vector<Gap> gaps;
  friend bool operator==(const AnixFile&, const AnixFile&) = default;

  // Node hash of each track, in track order (the runs unrolled) and its channel.
  std::vector<std::pair<uint32_t, uint32_t>> tracks() const;  // {channel, node}
};

// Throws animkit::Error (with the absolute offset) on anything that cannot be read.
AnixFile parse_anix(Bytes bytes);
// Writes every structure at its recorded offset and the gaps around them.
std::vector<uint8_t> write_anix(const AnixFile& file);

const char* channel_name(uint32_t channel_hash);  // "rotation", "position", "events" or ""

}  // namespace animkit::shadow_of_war
