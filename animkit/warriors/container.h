// The chunk container that holds the clips (warriors-container.md): packs of resources, resources
// of chunks, every header kept so a pack or resource is written back byte for byte.
#pragma once

#include <cstdint>
#include <string_view>
#include <variant>
#include <vector>

#include "animkit/core/reader.h"
#include "animkit/core/writer.h"

namespace animkit::warriors {

// warriors-container.md, "Headers": crc32("package").
inline constexpr uint32_t kPackMarker = 0xDE686795;
inline constexpr uint32_t kMaxChunkType = 0x53;

// Chunk types that matter here (warriors-container.md, "Chunk types that matter here").
enum ChunkType : uint32_t {
  kAnimRotKeyframes = 0x00,
  kAnimData = 0x02,
  kCharacterData = 0x08,
  kBoneOffsets = 0x28,
  kAnimRangeList = 0x45,
  kPreinstanceObject = 0x47,
  kAnimList = 0x4E,
};
const char* chunk_type_name(uint32_t type);

// Standard CRC-32 (reflected, polynomial 0xEDB88320), case kept (warriors-container.md, "Hashes").
uint32_t crc32(std::string_view text);

struct ChunkHeader {
  uint32_t type = 0;
  uint32_t size = 0;  // bytes of data after the header
  uint32_t zero = 0;
  uint32_t hash = 0;
  friend bool operator==(const ChunkHeader&, const ChunkHeader&) = default;
};

struct Chunk {
  ChunkHeader header;
  std::vector<uint8_t> data;  // header.size bytes
  uint64_t offset = 0;        // where the header was in the file (not written)
  friend bool operator==(const Chunk& a, const Chunk& b) {
    return a.header == b.header && a.data == b.data;
  }
};

struct ResourceHeader {
  uint32_t count = 0;      // chunks that follow
  uint32_t data_size = 0;  // sum of the chunks' size fields (headers not counted)
  uint32_t zero = 0;
  uint32_t name_hash = 0;  // crc32("<anim>.anm")
  friend bool operator==(const ResourceHeader&, const ResourceHeader&) = default;
};

struct Resource {
  ResourceHeader header;
  std::vector<Chunk> chunks;
  uint64_t offset = 0;  // not written
  friend bool operator==(const Resource& a, const Resource& b) {
    return a.header == b.header && a.chunks == b.chunks;
  }
};

struct PackHeader {
  uint32_t count = 0;  // resources that follow
  uint32_t size = 0;   // entry size - 16, nested headers counted
  uint32_t zero = 0;
  uint32_t marker = kPackMarker;
  friend bool operator==(const PackHeader&, const PackHeader&) = default;
};

struct Pack {
  PackHeader header;
  std::vector<Resource> resources;
  friend bool operator==(const Pack&, const Pack&) = default;
};

// A WAD entry: a pack or a standalone resource, and whatever bytes follow it in the file (the
// padding to the next 2,048-byte boundary when the entry was cut from the WAD), kept as is.
struct WadEntry {
  std::variant<Pack, Resource> content;
  std::vector<uint8_t> tail;
  bool is_pack() const { return std::holds_alternative<Pack>(content); }
  friend bool operator==(const WadEntry&, const WadEntry&) = default;
};

Chunk read_chunk(Reader& r);
Resource read_resource(Reader& r);
Pack read_pack(Reader& r);
// The whole file as one entry; throws animkit::Error with the offset on bad input.
WadEntry read_entry(Bytes bytes);

void write_chunk(Writer& w, const Chunk& chunk);
void write_resource(Writer& w, const Resource& resource);
void write_pack(Writer& w, const Pack& pack);
std::vector<uint8_t> write_entry(const WadEntry& entry);

// Header fields recomputed from the content (for building new entries).
void update_sizes(Resource& resource);
void update_sizes(Pack& pack);

// True when the bytes plausibly start a resource / pack: every header walked within the bytes
// given is consistent (zero words, chunk types in the table, sizes multiples of 16, sums). Used
// by the format sniffs; `head` may be a prefix of the file.
bool looks_like_resource(Bytes head, bool whole_file);
bool looks_like_pack(Bytes head, bool whole_file);

}  // namespace animkit::warriors
