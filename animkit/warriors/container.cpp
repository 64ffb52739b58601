#include "animkit/warriors/container.h"

#include <fmt/format.h>

#include <array>

namespace animkit::warriors {

const char* chunk_type_name(uint32_t type) {
  switch (type) {
    case kAnimRotKeyframes:
      return "Anim Rot Keyframes";
    case kAnimData:
      return "Anim Data";
    case kCharacterData:
      return "Character Data";
    case kBoneOffsets:
      return "Chunk Bone Offsets";
    case kAnimRangeList:
      return "Anim Range List";
    case kPreinstanceObject:
      return "Preinstance Object";
    case kAnimList:
      return "Anim List";
    default:
      return "";
  }
}

namespace {
constexpr std::array<uint32_t, 256> make_crc_table() {
  std::array<uint32_t, 256> t{};
  for (uint32_t i = 0; i < 256; ++i) {
    uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    t[i] = c;
  }
  return t;
}
constexpr std::array<uint32_t, 256> kCrcTable = make_crc_table();
}  // namespace

uint32_t crc32(std::string_view text) {
  uint32_t c = 0xFFFFFFFFu;
  for (unsigned char ch : text) c = kCrcTable[(c ^ ch) & 0xFF] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

// warriors-container.md, "Headers": ChunkHeader { type, size, zero, hash }, data follows.
Chunk read_chunk(Reader& r) {
  Chunk c;
  c.offset = r.offset();
  c.header.type = r.u32();
  c.header.size = r.u32();
  c.header.zero = r.u32();
  c.header.hash = r.u32();
  if (c.header.size > r.remaining()) {
    r.fail_at(r.pos() - 12, fmt::format("chunk type {:#x} size {} exceeds the {} bytes left",
                                        c.header.type, c.header.size, r.remaining()));
  }
  Bytes data = r.bytes(c.header.size);
  c.data.assign(data.begin(), data.end());
  return c;
}

// ResourceHeader { count, data_size, zero, name_hash }, then `count` chunks back to back.
Resource read_resource(Reader& r) {
  Resource res;
  res.offset = r.offset();
  res.header.count = r.u32();
  res.header.data_size = r.u32();
  res.header.zero = r.u32();
  res.header.name_hash = r.u32();
  // Each chunk takes at least its 16-byte header: check the count before reserving.
  if (res.header.count > r.remaining() / 16) {
    r.fail_at(r.pos() - 16,
              fmt::format("resource count {} needs at least {} bytes, {} left", res.header.count,
                          uint64_t{res.header.count} * 16, r.remaining()));
  }
  res.chunks.reserve(res.header.count);
  for (uint32_t i = 0; i < res.header.count; ++i) res.chunks.push_back(read_chunk(r));
  return res;
}

// PackHeader { count, size, zero, marker }, then `count` resources back to back.
Pack read_pack(Reader& r) {
  Pack p;
  p.header.count = r.u32();
  p.header.size = r.u32();
  p.header.zero = r.u32();
  p.header.marker = r.u32();
  if (p.header.marker != kPackMarker) {
    r.fail_at(r.pos() - 4,
              fmt::format("pack marker {:#010x}, expected {:#010x}", p.header.marker, kPackMarker));
  }
  if (p.header.count > r.remaining() / 16) {
    r.fail_at(r.pos() - 16,
              fmt::format("pack count {} needs at least {} bytes, {} left", p.header.count,
                          uint64_t{p.header.count} * 16, r.remaining()));
  }
  p.resources.reserve(p.header.count);
  for (uint32_t i = 0; i < p.header.count; ++i) p.resources.push_back(read_resource(r));
  return p;
}

WadEntry read_entry(Bytes bytes) {
  Reader r(bytes);
  r.need(16);
  uint32_t marker;
  std::memcpy(&marker, bytes.data() + 12, 4);
  WadEntry e;
  if (marker == kPackMarker) {
    e.content = read_pack(r);
  } else {
    e.content = read_resource(r);
  }
  Bytes tail = r.bytes(r.remaining());
  e.tail.assign(tail.begin(), tail.end());
  return e;
}

void write_chunk(Writer& w, const Chunk& c) {
  w.u32(c.header.type);
  w.u32(c.header.size);
  w.u32(c.header.zero);
  w.u32(c.header.hash);
  w.bytes(c.data);
}

void write_resource(Writer& w, const Resource& res) {
  w.u32(res.header.count);
  w.u32(res.header.data_size);
  w.u32(res.header.zero);
  w.u32(res.header.name_hash);
  for (const Chunk& c : res.chunks) write_chunk(w, c);
}

void write_pack(Writer& w, const Pack& p) {
  w.u32(p.header.count);
  w.u32(p.header.size);
  w.u32(p.header.zero);
  w.u32(p.header.marker);
  for (const Resource& r : p.resources) write_resource(w, r);
}

std::vector<uint8_t> write_entry(const WadEntry& e) {
  Writer w;
  if (const Pack* p = std::get_if<Pack>(&e.content)) {
    write_pack(w, *p);
  } else {
    write_resource(w, std::get<Resource>(e.content));
  }
  w.bytes(e.tail);
  return w.take();
}

void update_sizes(Resource& res) {
  res.header.count = static_cast<uint32_t>(res.chunks.size());
  res.header.data_size = 0;
  for (Chunk& c : res.chunks) {
    c.header.size = static_cast<uint32_t>(c.data.size());
    res.header.data_size += c.header.size;
  }
}

void update_sizes(Pack& p) {
  p.header.count = static_cast<uint32_t>(p.resources.size());
  p.header.size = 0;
  for (Resource& r : p.resources) {
    update_sizes(r);
    p.header.size += 16 + 16 * r.header.count + r.header.data_size;
  }
}

namespace {
uint32_t word(Bytes b, size_t pos) {
  uint32_t v;
  std::memcpy(&v, b.data() + pos, 4);
  return v;
}

// Walks a resource at `pos`; returns false on the first inconsistent header. `end` receives the
// position after the resource, or head.size() when the walk ran out of bytes (not whole).
bool walk_resource(Bytes head, size_t pos, bool whole_file, size_t& end) {
  if (head.size() < pos + 16) return false;
  const uint32_t count = word(head, pos), data_size = word(head, pos + 4);
  if (count == 0 || count > 100000 || word(head, pos + 8) != 0) return false;
  if (data_size % 16 != 0) return false;
  size_t p = pos + 16;
  uint64_t sum = 0;
  for (uint32_t i = 0; i < count; ++i) {
    if (p + 16 > head.size()) {
      end = head.size();
      return !whole_file && p > pos + 16;  // at least one chunk walked
    }
    const uint32_t type = word(head, p), size = word(head, p + 4);
    if (type > kMaxChunkType || word(head, p + 8) != 0 || size % 16 != 0) return false;
    sum += size;
    if (sum > data_size) return false;
    p += 16 + uint64_t{size};
    if (p > head.size()) {
      end = head.size();
      return !whole_file;
    }
  }
  if (sum != data_size) return false;
  end = p;
  return true;
}
}  // namespace

bool looks_like_resource(Bytes head, bool whole_file) {
  if (head.size() >= 16 && word(head, 12) == kPackMarker) return false;
  size_t end = 0;
  if (!walk_resource(head, 0, whole_file, end)) return false;
  // A standalone resource is the whole entry, or is followed by zero padding only.
  if (whole_file) {
    if (head.size() - end >= 2048) return false;
    for (size_t i = end; i < head.size(); ++i) {
      if (head[i] != 0) return false;
    }
  }
  return true;
}

bool looks_like_pack(Bytes head, bool whole_file) {
  if (head.size() < 32 || word(head, 12) != kPackMarker || word(head, 8) != 0) return false;
  const uint32_t count = word(head, 0), size = word(head, 4);
  if (count == 0) return false;
  if (whole_file && uint64_t{size} + 16 > head.size()) return false;
  size_t end = 0;
  return walk_resource(head, 16, whole_file, end);
}

}  // namespace animkit::warriors
