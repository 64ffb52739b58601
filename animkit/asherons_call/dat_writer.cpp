#include "animkit/asherons_call/dat_writer.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <span>

#include "animkit/core/error.h"
#include "animkit/core/writer.h"

namespace animkit::asherons_call {

namespace {

class BlockFile {
 public:
  explicit BlockFile(uint32_t block_size) : bs_(block_size) {
    // The header fills the first block(s) (container page 2).
    out_.assign((kDatHeaderEnd + bs_ - 1) / bs_ * bs_, 0);
  }
  // Container page 2: a chain of ceil(n / (bs - 4)) blocks, the last with next 0.
  uint32_t add_chain(std::span<const uint8_t> bytes) {
    if (bytes.empty()) return 0;
    const size_t payload = bs_ - 4;
    const size_t blocks = (bytes.size() + payload - 1) / payload;
    const size_t first = out_.size();
    if (first + blocks * bs_ > 0x80000000u) throw Error("write_dat: the dat would pass 2 GiB");
    out_.resize(first + blocks * bs_, 0);
    for (size_t k = 0; k < blocks; ++k) {
      uint8_t* block = out_.data() + first + k * bs_;
      const uint32_t next = k + 1 < blocks ? static_cast<uint32_t>(first + (k + 1) * bs_) : 0u;
      std::memcpy(block, &next, 4);
      const size_t take = std::min(payload, bytes.size() - k * payload);
      std::memcpy(block + 4, bytes.data() + k * payload, take);
    }
    return static_cast<uint32_t>(first);
  }
  std::vector<uint8_t>& bytes() { return out_; }

 private:
  uint32_t bs_;
  std::vector<uint8_t> out_;
};

// Builds the subtree of entries [lo, hi) and returns its node's offset: a leaf when they fit,
// else s separators and s + 1 children of about equal size.
uint32_t build_node(BlockFile& file, const std::vector<DatEntry>& entries, size_t lo, size_t hi,
                    uint32_t max_entries) {
  const size_t n = hi - lo;
  std::vector<uint32_t> branch;
  std::vector<DatEntry> own;
  if (n <= max_entries) {
    own.assign(entries.begin() + static_cast<long>(lo), entries.begin() + static_cast<long>(hi));
  } else {
    const size_t s = std::clamp<size_t>(n / (max_entries + 1), 1, max_entries);
    const size_t per_child = (n - s) / (s + 1);
    size_t at = lo;
    for (size_t c = 0; c <= s; ++c) {
      const size_t take = c == s ? hi - at : per_child;
      branch.push_back(build_node(file, entries, at, at + take, max_entries));
      at += take;
      if (c < s) own.push_back(entries[at++]);
    }
  }
  Writer w;
  for (size_t i = 0; i <= kDatMaxEntries; ++i) w.u32(i < branch.size() ? branch[i] : 0u);
  w.u32(static_cast<uint32_t>(own.size()));
  for (size_t i = 0; i < kDatMaxEntries; ++i) {
    const DatEntry e = i < own.size() ? own[i] : DatEntry{};
    w.u16(e.flags);
    w.u16(e.version);
    w.u32(e.id);
    w.u32(e.offset);
    w.u32(e.size);
    w.u32(e.date);
    w.i32(e.iteration);
  }
  const std::vector<uint8_t> node = w.take();
  return file.add_chain(node);
}

}  // namespace

std::vector<uint8_t> iteration_object(int32_t total) {
  Writer w;
  w.i32(total);
  w.i32(-total);
  w.i32(1);
  return w.take();
}

std::vector<uint8_t> write_dat(std::vector<DatObject> objects, const DatWriteOptions& o) {
  if (o.block_size < 16 || o.block_size % 4 != 0) {
    throw Error(fmt::format("write_dat: block_size {} is not a multiple of 4 >= 16", o.block_size));
  }
  if (o.max_entries < 1 || o.max_entries > kDatMaxEntries) {
    throw Error(fmt::format("write_dat: max_entries {} is not in [1, 61]", o.max_entries));
  }
  if (o.add_iteration) objects.push_back({kIterationId, iteration_object(o.iteration)});
  std::sort(objects.begin(), objects.end(),
            [](const DatObject& a, const DatObject& b) { return a.id < b.id; });
  for (size_t i = 1; i < objects.size(); ++i) {
    if (objects[i].id == objects[i - 1].id) {
      throw Error(fmt::format("write_dat: object 0x{:08X} given twice", objects[i].id));
    }
  }
  BlockFile file(o.block_size);
  std::vector<DatEntry> entries;
  entries.reserve(objects.size());
  for (const DatObject& obj : objects) {
    DatEntry e;
    e.version = 2;  // as DRW writes it
    e.id = obj.id;
    e.offset = file.add_chain(obj.bytes);
    e.size = static_cast<uint32_t>(obj.bytes.size());
    e.date = o.date;
    e.iteration = o.iteration;
    entries.push_back(e);
  }
  const uint32_t root = build_node(file, entries, 0, entries.size(), o.max_entries);
  std::vector<uint8_t>& out = file.bytes();
  DatHeader h;
  h.block_size = o.block_size;
  h.file_size = static_cast<uint32_t>(out.size());
  h.data_set = o.data_set;
  h.btree_root = root;
  Writer w;
  w.u32(h.magic);
  w.u32(h.block_size);
  w.u32(h.file_size);
  w.u32(h.data_set);
  w.u32(h.data_subset);
  w.u32(h.first_free);
  w.u32(h.last_free);
  w.u32(h.free_count);
  w.u32(h.btree_root);
  w.u32(h.young_lru);
  w.u32(h.old_lru);
  w.u32(h.use_lru);
  w.u32(h.master_map_id);
  w.u32(h.engine_pack_version);
  w.u32(h.game_pack_version);
  for (uint8_t b : h.version_major) w.u8(b);
  w.u32(h.version_minor);
  const std::vector<uint8_t> head = w.take();
  std::memcpy(out.data() + kDatHeaderOffset, head.data(), head.size());
  return std::move(out);
}

}  // namespace animkit::asherons_call
