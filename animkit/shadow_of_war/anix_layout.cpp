#include "animkit/shadow_of_war/anix_layout.h"

#include <fmt/format.h>

#include <algorithm>
#include <string>

#include "animkit/core/error.h"
#include "animkit/core/limits.h"
#include "animkit/shadow_of_war/anix_document.h"

namespace animkit::shadow_of_war {

namespace {

// A structure as write_anix places it: [start, end) in its region, and the JSON path that put it
// there.
struct Placed {
  uint64_t start = 0, end = 0;
  std::string path;
};

[[noreturn]] void bad(const std::string& path, const std::string& what) {
  throw Error(fmt::format("{}: {}", path, what));
}

// Every structure inside [0, size) of its region and no two sharing a byte.
void check_region(std::vector<Placed> items, uint64_t size, const char* region) {
  for (const Placed& p : items)
    if (p.end > size)
      bad(p.path, fmt::format("{:#x} bytes at {:#x} run past the end of {} ({:#x} bytes)",
                              p.end - p.start, p.start, region, size));
  std::erase_if(items, [](const Placed& p) { return p.end == p.start; });
  std::sort(items.begin(), items.end(),
            [](const Placed& a, const Placed& b) { return a.start < b.start; });
  for (size_t i = 1; i < items.size(); ++i)
    if (items[i].start < items[i - 1].end)
      bad(items[i].path, fmt::format("starts at {:#x} in {}, inside {} (which ends at {:#x})",
                                     items[i].start, region, items[i - 1].path,
                                     items[i - 1].end));
}

std::string at(const char* list, size_t i) { return fmt::format("{}[{}]", list, i); }

void add_gaps(std::vector<Placed>& items, const std::vector<Gap>& gaps, const char* list) {
  for (size_t i = 0; i < gaps.size(); ++i)
    items.push_back({gaps[i].offset, uint64_t{gaps[i].offset} + gaps[i].bytes.size(),
                     at(list, i) + ".offset"});
}

uint64_t record_size(const Record& r) {
  return uint64_t{kRecordFixedSize} + 4 * uint64_t{r.codecs.size()} + r.track_groups.size() +
         2 * uint64_t{r.remap.size()} + r.table_pad.size() + 16 * uint64_t{r.blockset_table.size()} +
         8 * uint64_t{r.named_table.size()} + r.key_strings.size();
}

uint64_t blockset_size(const Blockset& b) {
  return 4 + 2 * uint64_t{b.group_offsets.size()} + 2 * uint64_t{b.named_offsets.size()} +
         b.align_pad.size() + 16 + 4 * uint64_t{b.lith.times.size()} + 4 + b.body.size();
}

void check_block_chunk(const AnixFile& f) {
  const uint64_t size = f.header.block_chunk_size;
  std::vector<Placed> items;
  const auto& blocksets = f.block_chunk.blocksets;
  for (size_t i = 0; i < blocksets.size(); ++i) {
    const Blockset& b = blocksets[i];
    const std::string path = at("$.block_chunk.blocksets", i);
    const uint64_t n = blockset_size(b);
    // Spec, blockset: group and LITH offsets are u16, so a blockset holds at most 64 KB.
    if (n > kMaxBlocksetSize)
      bad(path, fmt::format("{:#x} bytes ({} LITH times, {:#x} bytes of body): group and LITH "
                            "offsets are u16, a blockset holds at most 64 KB",
                            n, b.lith.times.size(), b.body.size()));
    items.push_back({b.offset, b.offset + n, path + ".offset"});
  }
  add_gaps(items, f.block_chunk.gaps, "$.block_chunk.gaps");
  check_region(std::move(items), size, "the block chunk ($.header.block_chunk_size)");
}

void check_anim_chunk(const AnixFile& f) {
  const AnimChunk& a = f.anim_chunk;
  const uint64_t size = f.header.anim_chunk_size;
  std::vector<Placed> items{{0, 0x10, "$.anim_chunk (its 16-byte header)"},
                            {a.directory_offset, a.directory_offset + 8 * uint64_t{a.directory.size()},
                             "$.anim_chunk.directory_offset"}};
  for (size_t i = 0; i < a.directory.size(); ++i)
    if (a.directory[i].offset >= size)
      bad(at("$.anim_chunk.directory", i) + ".offset",
          fmt::format("{:#x} is past the anim chunk's end ({:#x})", a.directory[i].offset, size));
  for (size_t i = 0; i < a.records.size(); ++i) {
    const Record& r = a.records[i];
    const std::string path = at("$.anim_chunk.records", i);
    items.push_back({r.offset, r.offset + record_size(r), path + ".offset"});
    // The reader's bound on the blockset table: each entry inside the block chunk.
    for (size_t k = 0; k < r.blockset_table.size(); ++k) {
      const BlocksetEntry& e = r.blockset_table[k];
      if (uint64_t{e.offset} + e.size > f.header.block_chunk_size)
        bad(path + at(".blockset_table", k),
            fmt::format("{:#x} bytes at {:#x} run past the block chunk's end ({:#x})", e.size,
                        e.offset, f.header.block_chunk_size));
    }
  }
  if (a.event_dictionary_offset != 0)
    items.push_back({a.event_dictionary_offset,
                     a.event_dictionary_offset + uint64_t{a.event_dictionary_bytes.size()},
                     "$.anim_chunk.event_dictionary_offset"});
  add_gaps(items, a.gaps, "$.anim_chunk.gaps");
  check_region(std::move(items), size, "the anim chunk ($.header.anim_chunk_size)");
}

}  // namespace

void check_layout(const AnixFile& f) {
  const Header& h = f.header;
  // The file is as large as the header says (validate's FILE_SIZE), and writing it holds it in
  // memory once: refused before anything of that size is allocated.
  check_memory(h.file_size, "$.header.file_size");
  uint64_t tracks = 0;
  for (const TrackRun& run : f.track_runs) tracks += 8 + 4 * uint64_t{run.node_hashes.size()};
  std::vector<Placed> items{
      {0, kHeaderSize, "$.header"},
      {h.track_table_offset, h.track_table_offset + tracks, "$.header.track_table_offset"},
      {h.block_chunk_offset, uint64_t{h.block_chunk_offset} + h.block_chunk_size,
       "$.header.block_chunk_offset"},
      {h.anim_chunk_offset, uint64_t{h.anim_chunk_offset} + h.anim_chunk_size,
       "$.header.anim_chunk_offset"}};
  add_gaps(items, f.gaps, "$.gaps");
  check_region(items, h.file_size, "the file ($.header.file_size)");
  check_block_chunk(f);
  check_anim_chunk(f);
  uint64_t end = 0;
  for (const Placed& p : items) end = std::max(end, p.end);
  if (end != h.file_size)
    bad("$.header.file_size", fmt::format("{:#x}, but the file's structures and gaps end at {:#x}",
                                          h.file_size, end));
}

std::vector<uint8_t> write_anix_checked(const AnixFile& f) {
  check_layout(f);
  std::vector<uint8_t> bytes = write_anix(f);
  AnixFile back;
  try {
    back = parse_anix(bytes);
  } catch (const Error& e) {
    throw Error("the file built from it would not read back: " + e.message(), e.offset());
  }
  for (const Finding& finding : check(back, bytes.size()))
    if (finding.level == Finding::Level::kError)
      throw Error(fmt::format("the file built from it fails validate: {} at {}: {}", finding.code,
                              finding.where, finding.message));
  return bytes;
}

}  // namespace animkit::shadow_of_war
