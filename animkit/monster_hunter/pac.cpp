#include "animkit/monster_hunter/pac.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "animkit/core/writer.h"
#include "animkit/monster_hunter/pack.h"
#include "animkit/monster_hunter/skeleton.h"

namespace animkit::monster_hunter {

namespace {

uint64_t align_up(uint64_t n, uint64_t a) { return (n + a - 1) / a * a; }

struct Row {
  uint32_t offset, size;
};

// notes 4, "PAC": the table must describe the file: entries in order after the header, each
// after the previous one's end with fewer than 16 zero bytes between, inside the file; an empty
// row is (0, 0). Throws with the offset of the first row that does not.
std::vector<Row> read_table(Bytes bytes) {
  Reader r(bytes);
  if (bytes.size() < 12) r.fail_at(0, fmt::format("{} bytes: a PAC has at least 12", bytes.size()));
  const uint32_t count = r.u32();
  if (count == 0 || count > kPacMaxEntries)
    r.fail_at(0, fmt::format("entry count {}: a PAC has 1..{}", count, kPacMaxEntries));
  const uint64_t head = 4 + 8 * uint64_t{count};
  if (head > bytes.size())
    r.fail_at(0, fmt::format("{} entries need a {:#x}-byte table, the file has {:#x} bytes", count,
                             head, bytes.size()));
  std::vector<Row> rows(count);
  uint64_t cursor = head;
  for (uint32_t i = 0; i < count; ++i) {
    const size_t at = r.pos();
    rows[i] = {r.u32(), r.u32()};
    const auto [off, size] = rows[i];
    if (size == 0) {
      if (off != 0) r.fail_at(at, fmt::format("entry {}: size 0 at {:#x}; an empty entry is (0, 0)", i, off));
      continue;
    }
    if (off < cursor)
      r.fail_at(at, fmt::format("entry {} at {:#x}: before the end {:#x} of what precedes it", i,
                                off, cursor));
    if (off - cursor >= kPacAlignments[0])
      r.fail_at(at, fmt::format("entry {} at {:#x}: {} bytes after {:#x}; padding is under 16", i,
                                off, off - cursor, cursor));
    if (uint64_t{off} + size > bytes.size())
      r.fail_at(at, fmt::format("entry {} ({:#x} + {:#x}) runs past the end {:#x}", i, off, size,
                                bytes.size()));
    for (uint64_t p = cursor; p < off; ++p)
      if (bytes[p] != 0) r.fail_at(p, fmt::format("padding before entry {} is not zero", i));
    cursor = uint64_t{off} + size;
  }
  return rows;
}

std::vector<PacSpan> table_at(const std::vector<size_t>& sizes, uint32_t alignment) {
  std::vector<PacSpan> out;
  uint64_t at = align_up(4 + 8 * uint64_t{sizes.size()}, alignment);
  for (size_t size : sizes) {
    if (size == 0) {
      out.push_back({0, 0});
      continue;
    }
    at = align_up(at, alignment);
    out.push_back({at, size});
    at += size;
  }
  return out;
}

}  // namespace

std::vector<PacSpan> pac_table(const Pac& pac) {
  std::vector<size_t> sizes;
  for (const auto& e : pac.entries) sizes.push_back(e.size());
  return table_at(sizes, pac.alignment);
}

bool sniff_pac(Bytes bytes) {
  try {
    const std::vector<Row> rows = read_table(bytes);
    if (std::none_of(rows.begin(), rows.end(), [](Row r) { return r.size != 0; })) return false;
    read_pac(bytes);
    return true;
  } catch (const Error&) {
    return false;
  }
}

Pac read_pac(Bytes bytes) {
  const std::vector<Row> rows = read_table(bytes);
  std::vector<size_t> sizes;
  uint64_t end = 4 + 8 * uint64_t{rows.size()};
  for (const Row& r : rows) {
    sizes.push_back(r.size);
    if (r.size != 0) end = uint64_t{r.offset} + r.size;
  }
  // The first alignment whose layout puts every entry where the table does (notes 4).
  for (uint32_t a : kPacAlignments) {
    const std::vector<PacSpan> spans = table_at(sizes, a);
    bool same = true;
    for (size_t i = 0; i < rows.size() && same; ++i)
      same = spans[i].offset == rows[i].offset && spans[i].size == rows[i].size;
    // With every entry empty the writer still pads the table to the alignment.
    if (end == 4 + 8 * uint64_t{rows.size()}) same &= align_up(end, a) == end;
    if (!same) continue;
    Pac pac;
    pac.alignment = a;
    for (const Row& r : rows)
      pac.entries.emplace_back(bytes.begin() + r.offset, bytes.begin() + r.offset + r.size);
    pac.tail.assign(bytes.begin() + end, bytes.end());
    return pac;
  }
  // Report the first row that no alignment places.
  for (size_t i = 0; i < rows.size(); ++i) {
    bool placed = false;
    std::string where;
    for (uint32_t a : kPacAlignments) {
      const PacSpan s = table_at(sizes, a)[i];
      placed |= s.offset == rows[i].offset;
      where += fmt::format("{}{:#x} at {}", where.empty() ? "" : ", ", s.offset, a);
    }
    if (!placed) {
      throw Error(fmt::format("entry {} at {:#x}: not where alignment 16, 8 or 4 puts it ({})", i,
                              rows[i].offset, where),
                  4 + 8 * i);
    }
  }
  throw Error("PAC entries are not laid out at one alignment (16, 8 or 4)", 4);
}

std::vector<uint8_t> write_pac(const Pac& pac) {
  if (pac.entries.empty() || pac.entries.size() > kPacMaxEntries)
    throw Error(fmt::format("a PAC holds 1..{} entries, not {}", kPacMaxEntries, pac.entries.size()));
  if (std::find(std::begin(kPacAlignments), std::end(kPacAlignments), pac.alignment) ==
      std::end(kPacAlignments))
    throw Error(fmt::format("PAC alignment {}: 16, 8 or 4", pac.alignment));
  const std::vector<PacSpan> spans = pac_table(pac);
  Writer w;
  w.u32(static_cast<uint32_t>(pac.entries.size()));
  for (const PacSpan& s : spans) {
    if (s.offset + s.size > 0xFFFFFFFFull) throw Error("a PAC entry ends past 4 GiB");
    w.u32(static_cast<uint32_t>(s.offset));
    w.u32(static_cast<uint32_t>(s.size));
  }
  for (size_t i = 0; i < spans.size(); ++i) {
    if (spans[i].size == 0) continue;
    w.zeros(spans[i].offset - w.pos());
    w.bytes(pac.entries[i]);
  }
  if (std::all_of(spans.begin(), spans.end(), [](const PacSpan& s) { return s.size == 0; }))
    w.zeros(align_up(w.pos(), pac.alignment) - w.pos());
  w.bytes(pac.tail);
  return w.take();
}

void pad_to_block(Pac& pac) {
  pac.tail.clear();
  const size_t size = write_pac(pac).size();
  pac.tail.assign(align_up(size, kPacBlock) - size, 0);
}

std::string pac_entry_kind(Bytes entry) {
  if (entry.empty()) return "empty";
  if (entry.size() >= 8 && std::memcmp(entry.data(), "pmo\0", 4) == 0) return "pmo";
  if (entry.size() >= 8 && std::memcmp(entry.data(), ".TMH0.14", 8) == 0) return "tmh";
  if (sniff_skeleton(entry)) return "skeleton";
  if (sniff_pack(entry)) return "anim-pack";
  if (sniff_pac(entry)) return "pac";
  return "raw";
}

}  // namespace animkit::monster_hunter
