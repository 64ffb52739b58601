#include "animkit/asherons_call/dat.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <unordered_set>

#include <zlib.h>

#include "animkit/asherons_call/command_ids.h"
#include "animkit/asherons_call/mapped_file.h"
#include "animkit/core/error.h"
#include "animkit/core/limits.h"
#include "animkit/core/text.h"

namespace animkit::asherons_call {

namespace {

uint32_t u32_at(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;  // little-endian hosts (the project's targets)
}

struct TypeName {
  uint8_t type;
  const char* name;
};
// Container page 4.
constexpr TypeName kTypes[] = {
    {0x01, "gfx-object"},      {0x02, "setup"},          {0x03, "animation"},
    {0x04, "palette"},         {0x05, "surface-texture"}, {0x06, "render-surface"},
    {0x07, "render-surface"},  {0x08, "surface"},        {0x09, "motion-table"},
    {0x0A, "wave"},            {0x0D, "environment"},    {0x0E, "singleton"},
    {0x0F, "palette-set"},     {0x10, "clothing"},       {0x11, "degrade-info"},
    {0x12, "scene"},           {0x13, "region"},         {0x20, "sound-table"},
    {0x32, "particle-emitter"}, {0x33, "physics-script"}, {0x34, "physics-script-table"},
};

}  // namespace

std::string dat_type_name(uint8_t type) {
  for (const TypeName& t : kTypes) {
    if (t.type == type) return t.name;
  }
  return fmt::format("0x{:02X}", type);
}

uint8_t dat_type_from_name(const std::string& name) {
  if (name == "motion-table") return kTypeMotionTable;
  if (name == "animation") return kTypeAnimation;
  if (name == "setup") return kTypeSetup;
  if (name == "iteration") return 0xFF;  // info's name for 0xFFFF0001 (its type byte)
  for (const TypeName& t : kTypes) {
    if (name == t.name) return t.type;
  }
  if (name.size() == 4 && name.starts_with("0x")) {
    const uint32_t v = parse_command(name);
    if (v <= 0xFF) return static_cast<uint8_t>(v);
  }
  throw Error(fmt::format("unknown object type '{}' (motion-table, animation, setup or 0xNN)",
                          name));
}

DatHeader read_dat_header(Bytes bytes) {
  if (bytes.size() < kDatHeaderEnd) {
    throw Error(fmt::format("a dat header needs 0x{:X} bytes, the file has {}", kDatHeaderEnd,
                            bytes.size()),
                0);
  }
  Reader r(bytes);
  DatHeader h;
  std::memcpy(h.preamble.data(), bytes.data(), kDatHeaderOffset);
  r.seek(kDatHeaderOffset);
  h.magic = r.u32();
  if (h.magic != kDatMagic) {
    throw Error(fmt::format("dat magic 0x{:08X}, expected 0x{:08X}", h.magic, kDatMagic),
                kDatHeaderOffset);
  }
  h.block_size = r.u32();
  // Container page 2: a block is a 4-byte next pointer and a payload.
  if (h.block_size < 16 || h.block_size > (1u << 20) || h.block_size % 4 != 0) {
    throw Error(fmt::format("block_size {} is not a multiple of 4 in [16, 1048576]", h.block_size),
                kDatHeaderOffset + 4);
  }
  h.file_size = r.u32();
  h.data_set = r.u32();
  h.data_subset = r.u32();
  h.first_free = r.u32();
  h.last_free = r.u32();
  h.free_count = r.u32();
  h.btree_root = r.u32();
  h.young_lru = r.u32();
  h.old_lru = r.u32();
  h.use_lru = r.u32();
  h.master_map_id = r.u32();
  h.engine_pack_version = r.u32();
  h.game_pack_version = r.u32();
  const Bytes major = r.bytes(16);
  std::copy(major.begin(), major.end(), h.version_major.begin());
  h.version_minor = r.u32();
  return h;
}

DatFile DatFile::open(const std::filesystem::path& path) {
  auto map = std::make_shared<const MappedFile>(path);
  try {
    DatFile d(map->bytes());
    d.map_ = std::move(map);
    return d;
  } catch (const Error& e) {
    throw e.with_file(path.string());
  }
}

DatFile::DatFile(Bytes bytes) : bytes_(bytes), header_(read_dat_header(bytes)) {}

uint64_t DatFile::chain_blocks(uint32_t first, uint64_t n, const char* what) const {
  const uint64_t payload = header_.block_size - 4u;
  const uint64_t blocks = (n + payload - 1) / payload;
  // Distinct blocks must fit the file: this bounds the walk (and the buffer) before it starts.
  if (blocks > bytes_.size() / header_.block_size) {
    throw Error(fmt::format("{}: {} bytes need {} blocks of {}, the file has room for {}", what, n,
                            blocks, header_.block_size, bytes_.size() / header_.block_size),
                first);
  }
  return blocks;
}

void DatFile::read_chain(uint32_t first, uint64_t n, uint8_t* out, const char* what) const {
  const uint64_t payload = header_.block_size - 4u;
  const uint64_t blocks = chain_blocks(first, n, what);
  uint64_t cur = first;
  uint64_t pointer_at = first;  // where `cur` was read from, for the messages
  uint64_t left = n;
  for (uint64_t k = 0; k < blocks; ++k) {
    if (cur == 0 || (cur & kDatFreeBit)) {
      throw Error(fmt::format("{}: block {} of its chain is 0x{:08X} ({})", what, k, cur,
                              cur == 0 ? "the chain ends early" : "a free-list link"),
                  pointer_at);
    }
    if (cur % header_.block_size != 0 || cur < kDatHeaderEnd ||
        cur + header_.block_size > bytes_.size()) {
      throw Error(fmt::format("{}: block 0x{:08X} is not a whole block inside the {}-byte file",
                              what, cur, bytes_.size()),
                  pointer_at);
    }
    const uint64_t take = std::min(payload, left);
    std::memcpy(out, bytes_.data() + cur + 4, take);
    out += take;
    left -= take;
    const uint32_t next = u32_at(bytes_.data() + cur);
    pointer_at = cur;
    if (left == 0 && next != 0) {
      throw Error(fmt::format("{}: the chain does not end after its {} blocks (next 0x{:08X})",
                              what, blocks, next),
                  cur);
    }
    cur = next;
  }
}

DatFile::Node DatFile::read_node(uint32_t offset) const {
  std::array<uint8_t, kDatNodeSize> raw{};
  read_chain(offset, kDatNodeSize, raw.data(),
             fmt::format("directory node at 0x{:08X}", offset).c_str());
  Reader r(raw, 0);
  Node node;
  for (uint32_t& b : node.branch) b = r.u32();
  node.entry_count = r.u32();
  if (node.entry_count > kDatMaxEntries) {
    throw Error(fmt::format("directory node: entry_count {} exceeds {}", node.entry_count,
                            kDatMaxEntries),
                offset);
  }
  for (uint32_t i = 0; i < node.entry_count; ++i) {
    DatEntry& e = node.entries[i];
    e.flags = r.u16();
    e.version = r.u16();
    e.id = r.u32();
    e.offset = r.u32();
    e.size = r.u32();
    e.date = r.u32();
    e.iteration = r.i32();
    if (i > 0 && node.entries[i - 1].id >= e.id) {
      throw Error(fmt::format("directory node: entry {} id 0x{:08X} does not rise above 0x{:08X}",
                              i, e.id, node.entries[i - 1].id),
                  offset);
    }
  }
  if (!node.leaf()) {
    for (uint32_t i = 0; i <= node.entry_count; ++i) {
      if (node.branch[i] == 0) {
        throw Error(fmt::format("directory node: branch {} of an internal node is 0", i), offset);
      }
    }
  }
  return node;
}

std::optional<DatEntry> DatFile::find(uint32_t id) const {
  uint32_t at = header_.btree_root;
  if (at == 0) return std::nullopt;  // an empty directory
  for (int depth = 0; depth < kDatMaxDepth; ++depth) {
    const Node node = read_node(at);
    const DatEntry* begin = node.entries.data();
    const DatEntry* end = begin + node.entry_count;
    const DatEntry* it =
        std::lower_bound(begin, end, id, [](const DatEntry& e, uint32_t v) { return e.id < v; });
    if (it != end && it->id == id) return *it;
    if (node.leaf()) return std::nullopt;
    at = node.branch[static_cast<size_t>(it - begin)];
  }
  throw Error(fmt::format("directory: deeper than {} levels looking up 0x{:08X}", kDatMaxDepth, id),
              header_.btree_root);
}

void DatFile::for_each(uint32_t lo, uint32_t hi,
                       const std::function<void(const DatEntry&)>& visit) const {
  if (header_.btree_root == 0 || lo > hi) return;
  std::unordered_set<uint32_t> seen;
  // Bounds are exclusive ids of the subtree (container page 3, "Order"); 64-bit so that the
  // outermost can stand outside the u32 range.
  auto walk = [&](auto&& self, uint32_t at, int depth, int64_t above, int64_t below) -> void {
    if (depth >= kDatMaxDepth) {
      throw Error(fmt::format("directory: deeper than {} levels", kDatMaxDepth), at);
    }
    if (!seen.insert(at).second) {
      throw Error(fmt::format("directory node at 0x{:08X} is reached twice (a loop)", at), at);
    }
    const Node node = read_node(at);
    for (uint32_t i = 0; i < node.entry_count; ++i) {
      const DatEntry& e = node.entries[i];
      if (e.id <= above || e.id >= below) {
        throw Error(fmt::format("directory node: id 0x{:08X} is outside its subtree's range", e.id),
                    at);
      }
    }
    auto child = [&](uint32_t i) {
      const int64_t a = i == 0 ? above : node.entries[i - 1].id;
      const int64_t b = i == node.entry_count ? below : node.entries[i].id;
      if (b <= int64_t{lo} || a >= int64_t{hi}) return;  // pruned: no id of [lo, hi] inside
      self(self, node.branch[i], depth + 1, a, b);
    };
    for (uint32_t i = 0; i < node.entry_count; ++i) {
      if (!node.leaf()) child(i);
      const DatEntry& e = node.entries[i];
      if (e.id >= lo && e.id <= hi) visit(e);
    }
    if (!node.leaf()) child(node.entry_count);
  };
  walk(walk, header_.btree_root, 0, -1, int64_t{1} << 32);
}

std::vector<DatEntry> DatFile::list(uint32_t lo, uint32_t hi) const {
  std::vector<DatEntry> out;
  for_each(lo, hi, [&](const DatEntry& e) { out.push_back(e); });
  return out;
}

std::vector<uint8_t> DatFile::read(const DatEntry& e) const {
  const std::string what = fmt::format("object 0x{:08X}", e.id);
  chain_blocks(e.offset, e.size, what.c_str());
  checked_size(e.size, 1, what, e.offset);
  std::vector<uint8_t> out(e.size);
  read_chain(e.offset, e.size, out.data(), what.c_str());
  if (e.flags & 1) return inflate_object(out, what);
  return out;
}

// Container page 3, flags bit 0 (DRW): the stored bytes are a u32 uncompressed size and a zlib
// stream. The declared size is checked against --max-memory before anything is inflated, and
// the stream must end with exactly that many bytes.
std::vector<uint8_t> inflate_object(Bytes stored, std::string_view what) {
  if (stored.size() < 4)
    throw Error(fmt::format("{}: compressed, but {} bytes hold no size", what, stored.size()), 0);
  const uint32_t size = u32_at(stored.data());
  checked_size(size, 1, fmt::format("{}: inflated size", what), 0);
  std::vector<uint8_t> out(size);
  z_stream z{};
  if (inflateInit(&z) != Z_OK) throw Error(fmt::format("{}: zlib cannot start", what));
  z.next_in = const_cast<Bytef*>(stored.data() + 4);
  z.avail_in = static_cast<uInt>(std::min<size_t>(stored.size() - 4, UINT32_MAX));
  z.next_out = out.data();
  z.avail_out = size;
  const int rc = inflate(&z, Z_FINISH);
  const uint64_t consumed = 4 + z.total_in, produced = z.total_out;
  inflateEnd(&z);
  if (rc != Z_STREAM_END) {
    throw Error(fmt::format("{}: zlib stream {} after {} of {} bytes ({})", what,
                            rc == Z_BUF_ERROR && produced == size ? "longer than its declared size"
                                                                  : "broken",
                            produced, size, rc),
                consumed);
  }
  if (produced != size) {
    throw Error(fmt::format("{}: zlib stream gives {} bytes, its size says {}", what, produced,
                            size),
                consumed);
  }
  return out;
}

std::vector<uint8_t> DatFile::read_object(uint32_t id) const {
  const std::optional<DatEntry> e = find(id);
  if (!e) throw Error(fmt::format("object 0x{:08X} is not in the dat", id));
  return read(*e);
}

Json to_json(const DatHeader& h) {
  // The version string up to its NUL, as core printable text (ASCII kept, other bytes \xNN).
  size_t n = 0;
  while (n < h.preamble.size() && h.preamble[n] != 0) ++n;
  const std::string version = printable(std::span<const uint8_t>(h.preamble.data(), n), Keep::kAscii);
  const std::string major = to_hex(h.version_major);
  Json j{{"magic", hex32(h.magic)},
         {"block_size", h.block_size},
         {"file_size", h.file_size},
         {"data_set", h.data_set},
         {"data_subset", hex32(h.data_subset)},
         {"first_free", hex32(h.first_free)},
         {"last_free", hex32(h.last_free)},
         {"free_count", h.free_count},
         {"btree_root", hex32(h.btree_root)},
         {"young_lru", h.young_lru},
         {"old_lru", h.old_lru},
         {"use_lru", h.use_lru & 0xFF},
         {"master_map_id", hex32(h.master_map_id)},
         {"engine_pack_version", h.engine_pack_version},
         {"game_pack_version", h.game_pack_version},
         {"version_major", major},
         {"version_minor", h.version_minor}};
  if (!version.empty()) j["version"] = version;
  return j;
}

Json to_json(const DatEntry& e) {
  return Json{{"id", hex32(e.id)},       {"type", dat_type_name(static_cast<uint8_t>(e.id >> 24))},
              {"offset", hex32(e.offset)}, {"size", e.size},
              {"flags", e.flags},         {"version", e.version},
              {"date", e.date},           {"iteration", e.iteration}};
}

}  // namespace animkit::asherons_call
