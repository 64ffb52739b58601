#include "animkit/shadow_of_war/anix.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <unordered_map>

#include "animkit/core/limits.h"
#include "animkit/core/writer.h"
#include "animkit/core/work_budget.h"
#include "animkit/shadow_of_war/text.h"

namespace animkit::shadow_of_war {

const char* channel_name(uint32_t channel_hash) {
  switch (channel_hash) {
    case kRotationChannel:
      return "rotation";
    case kPositionChannel:
      return "position";
    case kEventsChannel:
      return "events";
  }
  return "";
}

std::string Record::name() const {
  size_t n = 0;
  while (n < name_bytes.size() && name_bytes[n] != 0) ++n;
  return std::string(reinterpret_cast<const char*>(name_bytes.data()), n);
}

void Record::set_name(const std::string& name) {
  name_bytes.fill(0);
  std::memcpy(name_bytes.data(), name.data(), std::min(name.size(), name_bytes.size() - 1));
}

uint32_t Record::size() const {
  const size_t t = track_groups.size();
  return static_cast<uint32_t>(kRecordFixedSize + 4 * codecs.size() + t + 2 * remap.size() +
                               table_pad.size() + 16 * blockset_table.size() +
                               8 * named_table.size() + key_strings.size());
}

uint32_t Blockset::body_offset() const {
  return static_cast<uint32_t>(4 + 2 * group_offsets.size() + 2 * named_offsets.size() +
                               align_pad.size() + 4 + 12 + 4 * lith.times.size() + 4);
}

namespace {
// The item at `offset`: a binary search, since parse_anix keeps records and blocksets by offset
// (a look-up per directory entry stays linear in clips); a scan when an edited list is not.
template <class T>
const T* at_offset(const std::vector<T>& items, uint32_t offset) {
  auto it = std::lower_bound(items.begin(), items.end(), offset,
                             [](const T& item, uint32_t o) { return item.offset < o; });
  if (it != items.end() && it->offset == offset) return &*it;
  for (const T& item : items)
    if (item.offset == offset) return &item;
  return nullptr;
}
}  // namespace

const Record* AnimChunk::record_at(uint32_t offset) const { return at_offset(records, offset); }

const Blockset* BlockChunk::blockset_at(uint32_t offset) const {
  return at_offset(blocksets, offset);
}

std::vector<std::pair<uint32_t, uint32_t>> AnixFile::tracks() const {
  std::vector<std::pair<uint32_t, uint32_t>> out;
  for (const TrackRun& run : track_runs)
    for (uint32_t node : run.node_hashes) out.emplace_back(run.channel_hash, node);
  return out;
}

std::vector<GroupData> blockset_groups(const Blockset& b, const std::vector<std::string>& codecs) {
  const uint32_t start = b.body_offset(), end = b.size();
  std::vector<uint32_t> bounds(b.group_offsets.begin(), b.group_offsets.end());
  bounds.insert(bounds.end(), b.named_offsets.begin(), b.named_offsets.end());
  bounds.push_back(end);
  std::sort(bounds.begin(), bounds.end());
  std::vector<GroupData> out;
  for (size_t i = 0; i < b.group_offsets.size(); ++i) {
    const uint32_t from = b.group_offsets[i];
    if (from < start || from > end) return {};
    const uint32_t to = *std::upper_bound(bounds.begin(), bounds.end() - 1, from);
    GroupData g;
    g.codec = i < codecs.size() ? codecs[i] : std::string();
    g.offset = from;
    g.bytes.assign(b.body.begin() + (from - start), b.body.begin() + (std::max(to, from) - start));
    out.push_back(std::move(g));
  }
  return out;
}

std::optional<Aq03Header> aq03_header(const std::vector<uint8_t>& g) {
  if (g.size() < 12) return std::nullopt;
  Reader r(g);
  Aq03Header h;
  h.start_time = r.f32();
  h.end_time = r.f32();
  h.keys = r.u32();
  return h;
}

std::vector<std::string> stri_strings(const std::vector<uint8_t>& g) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < g.size()) {
    size_t j = i;
    while (j < g.size() && g[j] != 0) ++j;
    if (j > i) out.emplace_back(reinterpret_cast<const char*>(g.data() + i), j - i);
    i = j + 1;
  }
  return out;
}

namespace {

struct Span {
  uint32_t start, end;
  std::string what;
};

// Sorts the covered spans of a region, refuses overlaps and returns what lies between them.
std::vector<Gap> gaps_of(const Reader& region, std::vector<Span> spans) {
  std::sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) {
    return a.start != b.start ? a.start < b.start : a.end < b.end;
  });
  std::vector<Gap> gaps;
  uint32_t at = 0;
  const Span* prev = nullptr;
  for (const Span& s : spans) {
    if (prev && s.start < prev->end) {
      region.fail_at(s.start, fmt::format("{} overlaps {} (which ends at {:#x})", s.what,
                                          prev->what, region.base() + prev->end));
    }
    if (s.start > at) {
      Bytes b = region.data().subspan(at, s.start - at);
      gaps.push_back({at, {b.begin(), b.end()}});
    }
    at = std::max(at, s.end);
    prev = &s;
  }
  if (at < region.size()) {
    Bytes b = region.data().subspan(at);
    gaps.push_back({at, {b.begin(), b.end()}});
  }
  return gaps;
}

// A region [offset, offset + size) of the file, with a message naming it when it does not fit.
// `field` is the header offset of the region's offset word (reported on failure).
Reader region(const Reader& file, uint32_t offset, uint32_t size, const char* what,
              uint32_t field) {
  if (offset > file.size() || size > file.size() - offset) {
    throw Error(fmt::format("{} ({:#x} bytes at {:#x}) runs past the end of the file ({:#x} "
                            "bytes)",
                            what, size, offset, file.size()),
                field);
  }
  return file.sub(offset, size);
}

// True when `blocksets` table entries read at `pos` all lie inside a block chunk of `block_size`.
bool table_fits(const Reader& r, size_t pos, size_t blocksets, uint32_t block_size) {
  if (pos > r.size() || blocksets * 16 > r.size() - pos) return false;
  Reader t = r.sub(pos, blocksets * 16);
  for (size_t i = 0; i < blocksets; ++i) {
    const uint32_t off = t.u32(), size = t.u32();
    t.skip(8);
    if (off > block_size || size > block_size - off || size < 24) return false;
  }
  return true;
}

Record parse_record(Reader r, uint32_t offset, uint32_t block_size) {
  Record rec;
  rec.offset = offset;
  if (r.size() < kRecordFixedSize) {
    r.fail_at(0, fmt::format("clip record of {:#x} bytes is shorter than its fixed 0x7C bytes "
                             "(it ends at the next record, the event dictionary or the chunk's "
                             "end)",
                             r.size()));
  }
  Bytes name = r.bytes(0x30);
  std::copy(name.begin(), name.end(), rec.name_bytes.begin());
  const uint32_t word = r.u32();
  rec.size_field = static_cast<uint16_t>(word & 0xFFFF);
  rec.flag = static_cast<uint16_t>(word >> 16);
  const uint16_t blocksets = r.u16(), named = r.u16(), groups = r.u16(), tracks = r.u16();
  auto vec3 = [&] {
    Vec3 v;
    v.x = r.f32();
    v.y = r.f32();
    v.z = r.f32();
    return v;
  };
  auto quat = [&] {
    Quat q;
    q.x = r.f32();
    q.y = r.f32();
    q.z = r.f32();
    q.w = r.f32();
    return q;
  };
  rec.root.start_position = vec3();
  rec.root.start_rotation = quat();
  rec.root.end_position = vec3();
  rec.root.end_rotation = quat();
  rec.field_74 = r.u32();
  rec.duration_ms = r.u32();
  const size_t tables = 4u * groups + 3u * tracks + 16u * blocksets + 8u * named;
  if (tables > r.remaining()) {
    r.fail(fmt::format(
        "clip '{}': {} groups, {} tracks, {} blocksets and {} named need {:#x} "
        "bytes of tables, the record has {:#x} left",
        printable(rec.name()), groups, tracks, blocksets, named, tables, r.remaining()));
  }
  rec.codecs.resize(groups);
  for (std::string& c : rec.codecs) {
    Bytes b = r.bytes(4);
    c.assign(reinterpret_cast<const char*>(b.data()), 4);
  }
  rec.track_groups.resize(tracks);
  for (uint8_t& g : rec.track_groups) g = r.u8();
  rec.remap.resize(tracks);
  for (uint16_t& m : rec.remap) m = r.u16();
  // README, Choices: the tables follow without padding; only when the blockset table does not fit
  // the block chunk there but does after aligning to 4 (from the record's start) is the padding
  // taken, and kept.
  const size_t pad = (4 - r.pos() % 4) % 4;
  if (pad && blocksets && !table_fits(r, r.pos(), blocksets, block_size) &&
      r.remaining() >= pad + 16u * blocksets + 8u * named &&
      table_fits(r, r.pos() + pad, blocksets, block_size)) {
    Bytes b = r.bytes(pad);
    rec.table_pad.assign(b.begin(), b.end());
  }
  rec.blockset_table.resize(blocksets);
  for (BlocksetEntry& e : rec.blockset_table) {
    e.offset = r.u32();
    e.size = r.u32();
    e.t0 = r.f32();
    e.t1 = r.f32();
  }
  rec.named_table.resize(named);
  for (NamedEntry& e : rec.named_table) {
    e.hash = r.u32();
    e.offset = r.u32();
  }
  Bytes rest = r.bytes(r.remaining());
  rec.key_strings.assign(rest.begin(), rest.end());
  return rec;
}

Blockset parse_blockset(Reader r, uint32_t offset, size_t groups) {
  Blockset b;
  b.offset = offset;
  b.named_count = r.u32();
  if (groups > r.remaining() / 2 || b.named_count > (r.remaining() - 2 * groups) / 2) {
    r.fail_at(0, fmt::format("blockset at {:#x}: {} group and {} named offsets do not fit in its "
                             "{:#x} bytes",
                             r.base(), groups, b.named_count, r.size()));
  }
  b.group_offsets.resize(groups);
  for (uint16_t& o : b.group_offsets) o = r.u16();
  b.named_offsets.resize(b.named_count);
  for (uint16_t& o : b.named_offsets) o = r.u16();
  while (r.pos() % 4 != 0) b.align_pad.push_back(r.u8());
  b.lith_tag = r.u32();
  if (b.lith_tag != kLithTag) {
    r.fail_at(r.pos() - 4, fmt::format("blockset at {:#x}: LITH tag {:#010x}, expected "
                                       "0x2B99DBC1",
                                       r.base(), b.lith_tag));
  }
  const uint32_t keys = r.u32();
  b.lith.n2 = r.u32();
  b.lith.n3 = r.u32();
  if (keys > r.remaining() / 4) {
    r.fail_at(r.pos() - 12, fmt::format("blockset at {:#x}: LITH has {} keys, only {} bytes left",
                                        r.base(), keys, r.remaining()));
  }
  charge_work(Work::kKey, keys, "shadow_of_war: LITH keys");  // issue 30: the run's work
  b.lith.times.resize(keys);
  for (float& t : b.lith.times) t = r.f32();
  b.lith.end = r.u32();
  Bytes rest = r.bytes(r.remaining());
  b.body.assign(rest.begin(), rest.end());
  return b;
}

void parse_anim_chunk(const Reader& chunk, AnimChunk& a, uint32_t block_size) {
  Reader r = chunk;
  a.directory_offset = r.u32();
  a.clip_count = r.u32();
  a.field_08 = r.u32();
  a.event_dictionary_offset = r.u32();
  const uint32_t size = static_cast<uint32_t>(chunk.size());
  if (a.directory_offset > size || a.clip_count > (size - a.directory_offset) / 8) {
    r.fail_at(4, fmt::format("anim chunk: a directory of {} entries at {:#x} does not fit in the "
                             "chunk's {:#x} bytes",
                             a.clip_count, a.directory_offset, size));
  }
  if (a.event_dictionary_offset > size) {
    r.fail_at(0x0C, fmt::format("anim chunk: event dictionary offset {:#x} is past the chunk's "
                                "end ({:#x})",
                                a.event_dictionary_offset, size));
  }
  r.seek(a.directory_offset);
  a.directory.resize(a.clip_count);
  for (DirectoryEntry& e : a.directory) {
    e.name_hash = r.u32();
    e.offset = r.u32();
    if (e.offset >= size) {
      r.fail_at(r.pos() - 4, fmt::format("anim chunk: clip {:#010x} at {:#x} is past the chunk's "
                                         "end ({:#x})",
                                         e.name_hash, e.offset, size));
    }
  }
  // Spec, anim chunk: records are not in directory order; a record ends at the next record by
  // position, the event dictionary or the end of the chunk.
  std::vector<uint32_t> starts;
  for (const DirectoryEntry& e : a.directory) starts.push_back(e.offset);
  std::sort(starts.begin(), starts.end());
  if (std::adjacent_find(starts.begin(), starts.end()) != starts.end()) {
    const uint32_t dup = *std::adjacent_find(starts.begin(), starts.end());
    r.fail_at(a.directory_offset, fmt::format("anim chunk: two directory entries point at the "
                                              "same record ({:#x})",
                                              dup));
  }
  const bool has_dictionary = a.event_dictionary_offset != 0;
  std::vector<uint32_t> bounds = starts;
  if (has_dictionary) bounds.push_back(a.event_dictionary_offset);
  bounds.push_back(size);
  std::sort(bounds.begin(), bounds.end());
  auto end_of = [&](uint32_t start) {
    return *std::upper_bound(bounds.begin(), bounds.end(), start);
  };
  std::vector<Span> spans{
      {0, 0x10, "the anim chunk header"},
      {a.directory_offset, a.directory_offset + 8 * a.clip_count, "the directory"}};
  for (uint32_t s : starts) {
    if (has_dictionary && s == a.event_dictionary_offset) {
      r.fail_at(0x0C, fmt::format("anim chunk: the event dictionary and a record both sit at "
                                  "{:#x}",
                                  s));
    }
    const uint32_t e = end_of(s);
    a.records.push_back(parse_record(chunk.sub(s, e - s), s, block_size));
    spans.push_back({s, e, fmt::format("clip record '{}'", printable(a.records.back().name()))});
  }
  if (has_dictionary) {
    const uint32_t s = a.event_dictionary_offset, e = s == size ? size : end_of(s);
    Bytes b = chunk.data().subspan(s, e - s);
    a.event_dictionary_bytes.assign(b.begin(), b.end());
    try {
      a.event_dictionary = parse_event_dictionary(chunk.sub(s, e - s));
    } catch (const Error& err) {
      a.event_dictionary_error = err.what();
    }
    if (e > s) spans.push_back({s, e, "the event dictionary"});
  }
  a.gaps = gaps_of(chunk, spans);
}

void parse_block_chunk(const Reader& chunk, const AnimChunk& anim, BlockChunk& bc) {
  std::vector<Span> spans;
  // Each blockset read so far by offset: its size and index. Look-ups and the overlap test are
  // logarithmic, so a file of 10^5 blocksets reads in linear-logarithmic time.
  std::unordered_map<uint32_t, std::pair<uint32_t, size_t>> seen;
  std::map<uint32_t, size_t> by_start;  // start -> index in `spans`
  for (const Record& rec : anim.records) {
    for (const BlocksetEntry& e : rec.blockset_table) {
      if (e.offset > chunk.size() || e.size > chunk.size() - e.offset) {
        throw Error(fmt::format("clip '{}': blockset ({:#x} bytes at {:#x}) runs past the block "
                                "chunk's end ({:#x})",
                                printable(rec.name()), e.size, e.offset, chunk.size()),
                    chunk.base() + std::min<uint64_t>(e.offset, chunk.size()));
      }
      auto it = seen.find(e.offset);
      if (it != seen.end()) {
        if (it->second.first != e.size) {
          chunk.fail_at(e.offset, fmt::format("blockset at {:#x} is listed with sizes {:#x} and "
                                              "{:#x}",
                                              e.offset, it->second.first, e.size));
        }
        const Blockset& b = bc.blocksets[it->second.second];
        if (b.group_offsets.size() != rec.codecs.size()) {
          chunk.fail_at(e.offset,
                        fmt::format("blockset at {:#x} is shared by records with {} and "
                                    "{} groups",
                                    e.offset, b.group_offsets.size(), rec.codecs.size()));
        }
        continue;
      }
      // Two blocksets may share bytes only by being the same blockset (README, Choices 5): the
      // neighbours by start are the only ones that can overlap it.
      const uint64_t end = uint64_t{e.offset} + e.size;
      auto next = by_start.lower_bound(e.offset);
      const Span* other = nullptr;
      if (next != by_start.end() && spans[next->second].start < end) other = &spans[next->second];
      if (next != by_start.begin() && spans[std::prev(next)->second].end > e.offset)
        other = &spans[std::prev(next)->second];
      if (other) {
        chunk.fail_at(e.offset, fmt::format("blockset at {:#x} ({:#x} bytes) of clip '{}' "
                                            "overlaps {} (which ends at {:#x})",
                                            e.offset, e.size, printable(rec.name()), other->what,
                                            chunk.base() + other->end));
      }
      seen.emplace(e.offset, std::pair{e.size, bc.blocksets.size()});
      bc.blocksets.push_back(
          parse_blockset(chunk.sub(e.offset, e.size), e.offset, rec.codecs.size()));
      if (e.size > 0) by_start.emplace(e.offset, spans.size());
      spans.push_back(
          {e.offset, e.offset + e.size,
           fmt::format("blockset at {:#x} of clip '{}'", e.offset, printable(rec.name()))});
    }
  }
  std::sort(bc.blocksets.begin(), bc.blocksets.end(),
            [](const Blockset& a, const Blockset& b) { return a.offset < b.offset; });
  bc.gaps = gaps_of(chunk, spans);
}

}  // namespace

AnixFile parse_anix(Bytes bytes) {
  // The parsed structures take at most kParsedBytesPerFileByte bytes of memory per byte of the
  // file (the worst: a 24-byte blockset, its Blockset, its span and its look-up entries; a 4-byte
  // codec in a std::string), so --max-memory is honoured before anything is read.
  checked_size(bytes.size(), kParsedBytesPerFileByte, "the parsed .anix");
  AnixFile f;
  Reader r(bytes);
  Header& h = f.header;
  h.magic = r.u32();
  if (h.magic != kAnixMagic) {
    r.fail_at(0, fmt::format("not an .anix file: magic {:#010x}, expected 'ANIX'", h.magic));
  }
  h.field_04 = r.u32();
  h.field_08 = r.u32();
  h.file_size = r.u32();
  h.track_count = r.u32();
  h.track_table_offset = r.u32();
  h.block_chunk_offset = r.u32();
  h.block_chunk_size = r.u32();
  h.anim_chunk_offset = r.u32();
  h.anim_chunk_size = r.u32();
  h.field_28 = r.u32();
  h.field_2c = r.u32();

  // Spec, tracks: run-length runs {channel hash, run length, node hashes}.
  if (h.track_table_offset > r.size()) {
    r.fail_at(0x14, fmt::format("track table offset {:#x} is past the end of the file ({:#x})",
                                h.track_table_offset, r.size()));
  }
  Reader t = r.sub(h.track_table_offset, r.size() - h.track_table_offset);
  // Every track takes at least a 4-byte node hash after one 8-byte run header: a count the table
  // cannot hold is the header's error, not the error of whatever run is read past the table.
  const uint64_t room = t.size() < 8 ? 0 : (t.size() - 8) / 4;
  if (h.track_count > room) {
    r.fail_at(0x10, fmt::format("header track count {} ({:#x}) does not fit: the track table at "
                                "{:#x} has {:#x} bytes to the end of the file, room for at most "
                                "{} tracks",
                                h.track_count, h.track_count, h.track_table_offset, t.size(),
                                room));
  }
  uint32_t total = 0;
  while (total < h.track_count) {
    TrackRun run;
    run.channel_hash = t.u32();
    const uint32_t n = t.u32();
    if (n == 0) {
      t.fail_at(t.pos() - 4, fmt::format("track run of length 0 ({} of the header's {} tracks "
                                         "read)",
                                         total, h.track_count));
    }
    if (n > h.track_count - total) {
      t.fail_at(t.pos() - 4, fmt::format("track run of {} tracks exceeds the header's track "
                                         "count ({} left of {})",
                                         n, h.track_count - total, h.track_count));
    }
    if (n > t.remaining() / 4) {
      t.fail(fmt::format("track run of {} node hashes, only {} bytes left", n, t.remaining()));
    }
    run.node_hashes.resize(n);
    for (uint32_t& node : run.node_hashes) node = t.u32();
    total += n;
    f.track_runs.push_back(std::move(run));
  }
  const uint32_t track_table_end = h.track_table_offset + static_cast<uint32_t>(t.pos());

  Reader anim = region(r, h.anim_chunk_offset, h.anim_chunk_size, "anim chunk", 0x20);
  Reader block = region(r, h.block_chunk_offset, h.block_chunk_size, "block chunk", 0x18);
  parse_anim_chunk(anim, f.anim_chunk, h.block_chunk_size);
  parse_block_chunk(block, f.anim_chunk, f.block_chunk);

  std::vector<Span> spans{
      {0, kHeaderSize, "the header"},
      {h.anim_chunk_offset, h.anim_chunk_offset + h.anim_chunk_size, "the anim chunk"},
      {h.block_chunk_offset, h.block_chunk_offset + h.block_chunk_size, "the block chunk"}};
  if (track_table_end > h.track_table_offset) {
    spans.push_back({h.track_table_offset, track_table_end, "the track table"});
  }
  std::erase_if(spans, [](const Span& s) { return s.end == s.start; });
  f.gaps = gaps_of(r, spans);
  return f;
}

namespace {

void put(std::vector<uint8_t>& out, size_t at, std::span<const uint8_t> b) {
  if (out.size() < at + b.size()) out.resize(at + b.size(), 0);
  std::copy(b.begin(), b.end(), out.begin() + at);
}

std::vector<uint8_t> write_record(const Record& rec) {
  Writer w;
  w.bytes(rec.name_bytes);
  w.u32(static_cast<uint32_t>(rec.flag) << 16 | rec.size_field);
  w.u16(static_cast<uint16_t>(rec.blockset_table.size()));
  w.u16(static_cast<uint16_t>(rec.named_table.size()));
  w.u16(static_cast<uint16_t>(rec.codecs.size()));
  w.u16(static_cast<uint16_t>(rec.track_groups.size()));
  for (Vec3 v : {rec.root.start_position}) {
    w.f32(v.x), w.f32(v.y), w.f32(v.z);
  }
  w.f32(rec.root.start_rotation.x), w.f32(rec.root.start_rotation.y);
  w.f32(rec.root.start_rotation.z), w.f32(rec.root.start_rotation.w);
  w.f32(rec.root.end_position.x), w.f32(rec.root.end_position.y), w.f32(rec.root.end_position.z);
  w.f32(rec.root.end_rotation.x), w.f32(rec.root.end_rotation.y);
  w.f32(rec.root.end_rotation.z), w.f32(rec.root.end_rotation.w);
  w.u32(rec.field_74);
  w.u32(rec.duration_ms);
  for (const std::string& c : rec.codecs) w.fixed_string(c, 4);
  w.bytes(rec.track_groups);
  for (uint16_t m : rec.remap) w.u16(m);
  w.bytes(rec.table_pad);
  for (const BlocksetEntry& e : rec.blockset_table) {
    w.u32(e.offset), w.u32(e.size), w.f32(e.t0), w.f32(e.t1);
  }
  for (const NamedEntry& e : rec.named_table) w.u32(e.hash), w.u32(e.offset);
  w.bytes(rec.key_strings);
  return w.take();
}

std::vector<uint8_t> write_blockset(const Blockset& b) {
  Writer w;
  w.u32(b.named_count);
  for (uint16_t o : b.group_offsets) w.u16(o);
  for (uint16_t o : b.named_offsets) w.u16(o);
  w.bytes(b.align_pad);
  w.u32(b.lith_tag);
  w.u32(static_cast<uint32_t>(b.lith.times.size()));
  w.u32(b.lith.n2);
  w.u32(b.lith.n3);
  for (float t : b.lith.times) w.f32(t);
  w.u32(b.lith.end);
  w.bytes(b.body);
  return w.take();
}

std::vector<uint8_t> write_anim_chunk(const AnimChunk& a) {
  std::vector<uint8_t> out;
  Writer head;
  head.u32(a.directory_offset);
  head.u32(static_cast<uint32_t>(a.directory.size()));
  head.u32(a.field_08);
  head.u32(a.event_dictionary_offset);
  put(out, 0, head.bytes());
  Writer dir;
  for (const DirectoryEntry& e : a.directory) dir.u32(e.name_hash), dir.u32(e.offset);
  put(out, a.directory_offset, dir.bytes());
  for (const Record& rec : a.records) put(out, rec.offset, write_record(rec));
  if (a.event_dictionary_offset != 0) put(out, a.event_dictionary_offset, a.event_dictionary_bytes);
  for (const Gap& g : a.gaps) put(out, g.offset, g.bytes);
  return out;
}

std::vector<uint8_t> write_block_chunk(const BlockChunk& bc) {
  std::vector<uint8_t> out;
  for (const Blockset& b : bc.blocksets) put(out, b.offset, write_blockset(b));
  for (const Gap& g : bc.gaps) put(out, g.offset, g.bytes);
  return out;
}

}  // namespace

std::vector<uint8_t> write_anix(const AnixFile& f) {
  std::vector<uint8_t> out;
  const Header& h = f.header;
  Writer w;
  for (uint32_t v : {h.magic, h.field_04, h.field_08, h.file_size, h.track_count,
                     h.track_table_offset, h.block_chunk_offset, h.block_chunk_size,
                     h.anim_chunk_offset, h.anim_chunk_size, h.field_28, h.field_2c})
    w.u32(v);
  put(out, 0, w.bytes());
  Writer t;
  for (const TrackRun& run : f.track_runs) {
    t.u32(run.channel_hash);
    t.u32(static_cast<uint32_t>(run.node_hashes.size()));
    for (uint32_t n : run.node_hashes) t.u32(n);
  }
  put(out, h.track_table_offset, t.bytes());
  std::vector<uint8_t> block = write_block_chunk(f.block_chunk);
  block.resize(std::max<size_t>(block.size(), h.block_chunk_size), 0);
  put(out, h.block_chunk_offset, block);
  std::vector<uint8_t> anim = write_anim_chunk(f.anim_chunk);
  anim.resize(std::max<size_t>(anim.size(), h.anim_chunk_size), 0);
  put(out, h.anim_chunk_offset, anim);
  for (const Gap& g : f.gaps) put(out, g.offset, g.bytes);
  return out;
}

}  // namespace animkit::shadow_of_war
