#include "animkit/shadow_of_war/anix_json.h"

#include <fmt/format.h>

#include <bit>
#include <cctype>
#include <cmath>
#include <cstring>
#include <iterator>
#include <unordered_map>

#include "animkit/core/error.h"
#include "animkit/shadow_of_war/keyword.h"
#include "animkit/shadow_of_war/text.h"

namespace animkit::shadow_of_war {

namespace {

std::string hex(uint32_t v) { return fmt::format("{:#010x}", v); }

// A text whose printed form does not give its bytes back (invalid UTF-8 printed as \xNN, or a
// backslash that would read as one) also carries its exact bytes.
bool needs_hex(std::string_view s) {
  return printable(s) != s || s.find('\\') != std::string_view::npos;
}

Json bytes_hex(std::span<const uint8_t> b) { return to_hex(b); }


void put_text(Json& j, const char* key, const std::string& s) {
  j[key] = printable(s);
  if (needs_hex(s)) j[std::string(key) + "_hex"] = bytes_hex(std::vector<uint8_t>(s.begin(), s.end()));
}

// A float32 exactly: finite values as their shortest decimal, NaN and infinities as their bits.
Json float_json(float v) {
  if (std::isfinite(v)) return json_float(v);
  return fmt::format("{:#010x}", std::bit_cast<uint32_t>(v));
}
Json floats_json(Vec3 v) { return {float_json(v.x), float_json(v.y), float_json(v.z)}; }
Json floats_json(Quat q) {
  return {float_json(q.x), float_json(q.y), float_json(q.z), float_json(q.w)};
}

// Codecs are four-byte tags: printable ASCII kept (and the backslash, as in names).
Json codec_json(const std::string& c) { return animkit::printable(c, Keep::kAscii, Backslash::kKept); }

// Each blockset's codecs: those of the first record that lists it (one pass, not one per blockset).
std::unordered_map<uint32_t, const std::vector<std::string>*> codecs_by_blockset(const AnixFile& f) {
  std::unordered_map<uint32_t, const std::vector<std::string>*> out;
  for (const Record& r : f.anim_chunk.records)
    for (const BlocksetEntry& e : r.blockset_table) out.emplace(e.offset, &r.codecs);
  return out;
}

Json event_json(const EventDictionary& d, uint32_t w) {
  const uint32_t i = event_string_index(w);
  Json e{{"word", hex(w)}, {"string_index", i}, {"ms", event_ms(w)}};
  e["text"] = i == kNoText ? Json(nullptr) : Json(printable(d.text(w)));
  return e;
}

// A dictionary's events are streamed one by one: a clip may hold a million.
void emit_dictionary(const EventDictionary& d, JsonSink& out) {
  out.begin_object("event_dictionary");
  Json path;
  put_text(path, "path", d.path);
  for (const auto& [k, v] : path.items()) out.value(k, v);
  Json strings = Json::array(), strings_hex = Json::array();
  bool plain = true;
  for (const std::string& s : d.strings) {
    strings.push_back(printable(s));
    strings_hex.push_back(bytes_hex(std::vector<uint8_t>(s.begin(), s.end())));
    plain = plain && !needs_hex(s);
  }
  out.value("strings", strings);
  if (!plain) out.value("strings_hex", strings_hex);
  out.begin_array("clips");
  for (const ClipEvents& c : d.clips) {
    out.begin_object("");
    Json name;
    put_text(name, "name", c.name);
    for (const auto& [k, v] : name.items()) out.value(k, v);
    out.value("hash", hex(keyword_hash(c.name)));
    out.value("frames", c.frames);
    out.value("duration_ms", c.duration_ms);
    out.begin_array("events");
    for (uint32_t w : c.events) out.value("", event_json(d, w));
    out.end();
    out.end();
  }
  out.end();
  out.value("align_pad", bytes_hex(d.align_pad));
  out.value("tail", bytes_hex(d.tail));
  out.end();
}

Json record_json(const Record& r) {
  Json rec;
  rec["offset"] = hex(r.offset);
  const std::string name = r.name();
  put_text(rec, "name", name);
  rec["name_tail"] =
      bytes_hex(std::vector<uint8_t>(r.name_bytes.begin() + name.size(), r.name_bytes.end()));
  rec["flag"] = hex(r.flag);
  rec["size_field"] = hex(r.size_field);
  rec["blocksets"] = r.blockset_table.size();
  rec["named"] = r.named_table.size();
  rec["groups"] = r.codecs.size();
  rec["tracks"] = r.track_groups.size();
  rec["root_summary"] = {{"start_position", floats_json(r.root.start_position)},
                         {"start_rotation", floats_json(r.root.start_rotation)},
                         {"end_position", floats_json(r.root.end_position)},
                         {"end_rotation", floats_json(r.root.end_rotation)}};
  rec["field_74"] = hex(r.field_74);
  rec["duration_ms"] = r.duration_ms;
  Json codecs = Json::array(), codecs_hex = Json::array();
  bool plain = true;
  for (const std::string& c : r.codecs) {
    codecs.push_back(codec_json(c));
    codecs_hex.push_back(bytes_hex(std::vector<uint8_t>(c.begin(), c.end())));
    plain = plain && codec_json(c) == c && c.find('\\') == std::string::npos;
  }
  rec["codecs"] = codecs;
  if (!plain) rec["codecs_hex"] = codecs_hex;
  rec["track_groups"] = r.track_groups;
  rec["remap"] = r.remap;
  if (!r.table_pad.empty()) rec["table_pad"] = bytes_hex(r.table_pad);
  Json table = Json::array();
  for (const BlocksetEntry& e : r.blockset_table)
    table.push_back({{"offset", hex(e.offset)},
                     {"size", hex(e.size)},
                     {"t0", float_json(e.t0)},
                     {"t1", float_json(e.t1)}});
  rec["blockset_table"] = table;
  Json named = Json::array();
  for (const NamedEntry& e : r.named_table)
    named.push_back({{"hash", hex(e.hash)}, {"offset", hex(e.offset)}});
  rec["named_table"] = named;
  rec["key_strings"] = bytes_hex(r.key_strings);
  return rec;
}

Json blockset_json(const Blockset& b, const std::vector<std::string>& codecs) {
  Json bj;
  bj["offset"] = hex(b.offset);
  bj["size"] = hex(b.size());
  bj["named_count"] = b.named_count;
  bj["group_offsets"] = b.group_offsets;
  bj["named_offsets"] = b.named_offsets;
  bj["align_pad"] = bytes_hex(b.align_pad);
  bj["lith"] = {{"tag", hex(b.lith_tag)}, {"keys", b.lith.times.size()}, {"n2", b.lith.n2},
                {"n3", b.lith.n3},        {"times", Json::array()},      {"end", b.lith.end}};
  for (float t : b.lith.times) bj["lith"]["times"].push_back(float_json(t));
  Json groups = Json::array();
  for (const GroupData& g : blockset_groups(b, codecs)) {
    Json gj{{"codec", codec_json(g.codec)}, {"offset", hex(g.offset)}, {"size", g.bytes.size()}};
    if (g.codec == "AQ03") {
      if (auto hd = aq03_header(g.bytes))
        gj["aq03_header"] = {{"start_time", json_float(hd->start_time)},
                             {"end_time", json_float(hd->end_time)},
                             {"keys", hd->keys}};
    } else if (g.codec == "STRI") {
      gj["strings"] = Json::array();
      for (const std::string& s : stri_strings(g.bytes)) gj["strings"].push_back(printable(s));
    }
    gj["bytes"] = bytes_hex(g.bytes);
    groups.push_back(gj);
  }
  bj["groups"] = groups;
  bj["body"] = bytes_hex(b.body);
  return bj;
}

void emit_gaps(const std::vector<Gap>& gaps, JsonSink& out) {
  out.begin_array("gaps");
  for (const Gap& g : gaps) out.value("", {{"offset", g.offset}, {"bytes", bytes_hex(g.bytes)}});
  out.end();
}

}  // namespace

void emit_json(const AnixFile& f, JsonSink& out) {
  const Header& h = f.header;
  out.begin_object("");
  out.value("format", "sow-anix");
  out.value("header", {{"magic", "ANIX"},
                       {"field_04", hex(h.field_04)},
                       {"field_08", hex(h.field_08)},
                       {"file_size", h.file_size},
                       {"track_count", h.track_count},
                       {"track_table_offset", hex(h.track_table_offset)},
                       {"block_chunk_offset", hex(h.block_chunk_offset)},
                       {"block_chunk_size", hex(h.block_chunk_size)},
                       {"anim_chunk_offset", hex(h.anim_chunk_offset)},
                       {"anim_chunk_size", hex(h.anim_chunk_size)},
                       {"field_28", h.field_28},
                       {"field_2c", h.field_2c}});
  out.begin_array("tracks");
  for (const TrackRun& r : f.track_runs) {
    Json nodes = Json::array();
    for (uint32_t n : r.node_hashes) nodes.push_back(hex(n));
    out.value("", {{"channel_hash", hex(r.channel_hash)},
                   {"channel", channel_name(r.channel_hash)},
                   {"run_length", r.node_hashes.size()},
                   {"node_hashes", nodes}});
  }
  out.end();

  const AnimChunk& a = f.anim_chunk;
  out.begin_object("anim_chunk");
  out.value("directory_offset", hex(a.directory_offset));
  out.value("clip_count", a.clip_count);
  out.value("field_08", hex(a.field_08));
  out.value("event_dictionary_offset", hex(a.event_dictionary_offset));
  out.begin_array("directory");
  for (const DirectoryEntry& e : a.directory) {
    const Record* r = a.record_at(e.offset);
    out.value("", {{"name_hash", hex(e.name_hash)},
                   {"offset", hex(e.offset)},
                   {"name", r ? printable(r->name()) : std::string()}});
  }
  out.end();
  out.begin_array("records");
  for (const Record& r : a.records) out.value("", record_json(r));
  out.end();
  if (a.event_dictionary) {
    emit_dictionary(*a.event_dictionary, out);
  } else if (a.event_dictionary_offset != 0) {
    out.value("event_dictionary", {{"error", a.event_dictionary_error},
                                   {"bytes", bytes_hex(a.event_dictionary_bytes)}});
  }
  emit_gaps(a.gaps, out);
  out.end();

  static const std::vector<std::string> none;
  const auto codecs = codecs_by_blockset(f);
  out.begin_object("block_chunk");
  out.begin_array("blocksets");
  for (const Blockset& b : f.block_chunk.blocksets) {
    const auto it = codecs.find(b.offset);
    out.value("", blockset_json(b, it != codecs.end() ? *it->second : none));
  }
  out.end();
  emit_gaps(f.block_chunk.gaps, out);
  out.end();
  emit_gaps(f.gaps, out);
  out.end();
}

Json to_json(const AnixFile& f) {
  JsonBuild build;
  emit_json(f, build);
  return build.take();
}


namespace {

// Readers for what to_json prints; `at` is the JSON path named in errors.
[[noreturn]] void bad(const std::string& at, const std::string& what) {
  throw Error(fmt::format("{}: {}", at, what));
}

const Json& field(const Json& j, const std::string& at, const char* key) {
  if (!j.is_object()) bad(at, "expected an object");
  if (!j.contains(key)) bad(at, fmt::format("no '{}'", key));
  return j[key];
}

uint64_t number_of(const Json& v, const std::string& at, uint64_t max) {
  uint64_t x = 0;
  if (v.is_number_unsigned()) {
    x = v.get<uint64_t>();
  } else if (v.is_number_integer() && v.get<int64_t>() >= 0) {
    x = static_cast<uint64_t>(v.get<int64_t>());
  } else if (v.is_string()) {
    const std::string s = v.get<std::string>();
    if (s.size() < 3 || s.size() > 18 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
      bad(at, fmt::format("'{}' is not a number or a 0x hex number", s));
    for (size_t i = 2; i < s.size(); ++i) {
      const char c = s[i];
      const int d = c >= '0' && c <= '9'   ? c - '0'
                    : c >= 'a' && c <= 'f' ? c - 'a' + 10
                    : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                           : -1;
      if (d < 0) bad(at, fmt::format("'{}' is not a hex number", s));
      x = x * 16 + static_cast<uint64_t>(d);
    }
  } else {
    bad(at, "expected a non-negative number");
  }
  if (x > max) bad(at, fmt::format("{} does not fit (at most {})", x, max));
  return x;
}
uint32_t u32_of(const Json& v, const std::string& at) {
  return static_cast<uint32_t>(number_of(v, at, 0xFFFFFFFFu));
}
uint16_t u16_of(const Json& v, const std::string& at) {
  return static_cast<uint16_t>(number_of(v, at, 0xFFFFu));
}
uint32_t u32_at(const Json& j, const std::string& at, const char* key) {
  return u32_of(field(j, at, key), at + "." + key);
}

float float_of(const Json& v, const std::string& at) {
  if (v.is_string()) return std::bit_cast<float>(u32_of(v, at));  // NaN / Inf bits
  if (!v.is_number()) bad(at, "expected a number");
  return float_from_json(v, at.c_str());
}

std::vector<uint8_t> bytes_of(const Json& v, const std::string& at) {
  if (!v.is_string()) bad(at, "expected a hex string");
  try {
    return parse_hex(v.get<std::string>());
  } catch (const Error& e) {
    bad(at, e.message());
  }
}
std::vector<uint8_t> bytes_at(const Json& j, const std::string& at, const char* key) {
  return j.contains(key) ? bytes_of(j[key], at + "." + key) : std::vector<uint8_t>{};
}

// A printed text back to bytes: \xNN is a byte, everything else is itself.
std::string unescape(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    auto hexdigit = [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; };
    if (s[i] == '\\' && i + 3 < s.size() && s[i + 1] == 'x' && hexdigit(s[i + 2]) &&
        hexdigit(s[i + 3])) {
      out += static_cast<char>(std::stoi(s.substr(i + 2, 2), nullptr, 16));
      i += 3;
    } else {
      out += s[i];
    }
  }
  return out;
}

// The exact bytes while the text is as printed; an edited text otherwise.
std::string text_of(const Json& text, const Json* exact, const std::string& at) {
  if (!text.is_string()) bad(at, "expected a string");
  const std::string t = text.get<std::string>();
  if (exact) {
    const std::vector<uint8_t> b = bytes_of(*exact, at + "_hex");
    std::string s(b.begin(), b.end());
    if (printable(s) == t) return s;
  }
  return unescape(t);
}
std::string text_at(const Json& j, const std::string& at, const char* key) {
  const std::string hex_key = std::string(key) + "_hex";
  return text_of(field(j, at, key), j.contains(hex_key) ? &j[hex_key] : nullptr, at + "." + key);
}

std::vector<std::string> texts_at(const Json& j, const std::string& at, const char* key) {
  const Json& list = field(j, at, key);
  if (!list.is_array()) bad(at + "." + key, "expected an array");
  const std::string hex_key = std::string(key) + "_hex";
  const Json* exact = j.contains(hex_key) ? &j[hex_key] : nullptr;
  if (exact && (!exact->is_array() || exact->size() != list.size())) exact = nullptr;
  std::vector<std::string> out;
  for (size_t i = 0; i < list.size(); ++i)
    out.push_back(text_of(list[i], exact ? &(*exact)[i] : nullptr,
                          fmt::format("{}.{}[{}]", at, key, i)));
  return out;
}

const Json& array_at(const Json& j, const std::string& at, const char* key) {
  const Json& a = field(j, at, key);
  if (!a.is_array()) bad(at + "." + key, "expected an array");
  return a;
}

template <class T, class F>
std::vector<T> list_of(const Json& j, const std::string& at, const char* key, F read) {
  const Json& a = array_at(j, at, key);
  std::vector<T> out;
  out.reserve(a.size());
  // One path string, its index rewritten per element: a million events cost no million strings.
  std::string path = fmt::format("{}.{}[", at, key);
  const size_t prefix = path.size();
  for (size_t i = 0; i < a.size(); ++i) {
    path.resize(prefix);
    fmt::format_to(std::back_inserter(path), "{}]", i);
    out.push_back(read(a[i], path));
  }
  return out;
}

std::vector<Gap> gaps_of(const Json& j, const std::string& at) {
  return list_of<Gap>(j, at, "gaps", [](const Json& g, const std::string& p) {
    return Gap{u32_at(g, p, "offset"), bytes_at(g, p, "bytes")};
  });
}

Vec3 vec3_of(const Json& v, const std::string& at) {
  if (!v.is_array() || v.size() != 3) bad(at, "expected 3 numbers");
  return {float_of(v[0], at + "[0]"), float_of(v[1], at + "[1]"), float_of(v[2], at + "[2]")};
}
Quat quat_of(const Json& v, const std::string& at) {
  if (!v.is_array() || v.size() != 4) bad(at, "expected 4 numbers");
  return {float_of(v[0], at + "[0]"), float_of(v[1], at + "[1]"), float_of(v[2], at + "[2]"),
          float_of(v[3], at + "[3]")};
}

Record record_of(const Json& j, const std::string& at) {
  Record r;
  r.offset = u32_at(j, at, "offset");
  const std::string name = text_at(j, at, "name");
  const std::vector<uint8_t> tail = bytes_at(j, at, "name_tail");
  if (name.size() > r.name_bytes.size()) bad(at + ".name", "longer than 0x30 bytes");
  std::memcpy(r.name_bytes.data(), name.data(), name.size());
  // The tail keeps the bytes after the name while the two still fill 0x30 bytes; a renamed
  // record gets zeros after its name.
  if (name.size() + tail.size() == r.name_bytes.size())
    std::memcpy(r.name_bytes.data() + name.size(), tail.data(), tail.size());
  r.flag = u16_of(field(j, at, "flag"), at + ".flag");
  r.size_field = u16_of(field(j, at, "size_field"), at + ".size_field");
  const Json& root = field(j, at, "root_summary");
  const std::string ra = at + ".root_summary";
  r.root.start_position = vec3_of(field(root, ra, "start_position"), ra + ".start_position");
  r.root.start_rotation = quat_of(field(root, ra, "start_rotation"), ra + ".start_rotation");
  r.root.end_position = vec3_of(field(root, ra, "end_position"), ra + ".end_position");
  r.root.end_rotation = quat_of(field(root, ra, "end_rotation"), ra + ".end_rotation");
  r.field_74 = u32_at(j, at, "field_74");
  r.duration_ms = u32_at(j, at, "duration_ms");
  r.codecs = texts_at(j, at, "codecs");
  for (size_t i = 0; i < r.codecs.size(); ++i)
    if (r.codecs[i].size() != 4) bad(fmt::format("{}.codecs[{}]", at, i), "a codec is 4 bytes");
  r.track_groups = list_of<uint8_t>(j, at, "track_groups", [](const Json& v, const std::string& p) {
    return static_cast<uint8_t>(number_of(v, p, 0xFF));
  });
  r.remap = list_of<uint16_t>(j, at, "remap", u16_of);
  if (r.remap.size() != r.track_groups.size())
    bad(at + ".remap", fmt::format("{} entries for {} tracks", r.remap.size(), r.track_groups.size()));
  r.table_pad = bytes_at(j, at, "table_pad");
  r.blockset_table = list_of<BlocksetEntry>(j, at, "blockset_table", [](const Json& e, const std::string& p) {
    return BlocksetEntry{u32_at(e, p, "offset"), u32_at(e, p, "size"),
                         float_of(field(e, p, "t0"), p + ".t0"), float_of(field(e, p, "t1"), p + ".t1")};
  });
  r.named_table = list_of<NamedEntry>(j, at, "named_table", [](const Json& e, const std::string& p) {
    return NamedEntry{u32_at(e, p, "hash"), u32_at(e, p, "offset")};
  });
  r.key_strings = bytes_at(j, at, "key_strings");
  if (r.blockset_table.size() > 0xFFFF || r.named_table.size() > 0xFFFF || r.codecs.size() > 0xFFFF ||
      r.track_groups.size() > 0xFFFF)
    bad(at, "a table count does not fit its u16");
  return r;
}

Blockset blockset_of(const Json& j, const std::string& at) {
  Blockset b;
  b.offset = u32_at(j, at, "offset");
  b.named_count = u32_at(j, at, "named_count");
  b.group_offsets = list_of<uint16_t>(j, at, "group_offsets", u16_of);
  b.named_offsets = list_of<uint16_t>(j, at, "named_offsets", u16_of);
  b.align_pad = bytes_at(j, at, "align_pad");
  const Json& lith = field(j, at, "lith");
  const std::string la = at + ".lith";
  b.lith_tag = u32_at(lith, la, "tag");
  b.lith.n2 = u32_at(lith, la, "n2");
  b.lith.n3 = u32_at(lith, la, "n3");
  b.lith.times = list_of<float>(lith, la, "times", float_of);
  b.lith.end = u32_at(lith, la, "end");
  b.body = bytes_at(j, at, "body");
  return b;
}

EventDictionary dictionary_of(const Json& j, const std::string& at) {
  EventDictionary d;
  d.path = text_at(j, at, "path");
  d.strings = texts_at(j, at, "strings");
  d.clips = list_of<ClipEvents>(j, at, "clips", [](const Json& c, const std::string& p) {
    ClipEvents ce;
    ce.name = text_at(c, p, "name");
    ce.frames = u32_at(c, p, "frames");
    ce.duration_ms = u32_at(c, p, "duration_ms");
    ce.events = list_of<uint32_t>(c, p, "events", [](const Json& e, const std::string& q) {
      const uint32_t index = static_cast<uint32_t>(number_of(field(e, q, "string_index"), q, 0xFF));
      const uint32_t ms = static_cast<uint32_t>(number_of(field(e, q, "ms"), q, 0xFFFFFF));
      return event_word(index, ms);
    });
    return ce;
  });
  d.align_pad = bytes_at(j, at, "align_pad");
  d.tail = bytes_at(j, at, "tail");
  return d;
}

}  // namespace

AnixFile anix_from_json(const Json& j) {
  AnixFile f;
  try {
    const std::string at = "$";
    if (j.value("format", std::string()) != "sow-anix") bad(at, "'format' is not \"sow-anix\"");
    const Json& h = field(j, at, "header");
    const std::string ha = "$.header";
    const Json& magic = field(h, ha, "magic");
    f.header.magic = magic == "ANIX" ? kAnixMagic : u32_of(magic, ha + ".magic");
    f.header.field_04 = u32_at(h, ha, "field_04");
    f.header.field_08 = u32_at(h, ha, "field_08");
    f.header.file_size = u32_at(h, ha, "file_size");
    f.header.track_count = u32_at(h, ha, "track_count");
    f.header.track_table_offset = u32_at(h, ha, "track_table_offset");
    f.header.block_chunk_offset = u32_at(h, ha, "block_chunk_offset");
    f.header.block_chunk_size = u32_at(h, ha, "block_chunk_size");
    f.header.anim_chunk_offset = u32_at(h, ha, "anim_chunk_offset");
    f.header.anim_chunk_size = u32_at(h, ha, "anim_chunk_size");
    f.header.field_28 = u32_at(h, ha, "field_28");
    f.header.field_2c = u32_at(h, ha, "field_2c");
    f.track_runs = list_of<TrackRun>(j, at, "tracks", [](const Json& r, const std::string& p) {
      TrackRun run;
      run.channel_hash = u32_at(r, p, "channel_hash");
      run.node_hashes = list_of<uint32_t>(r, p, "node_hashes", u32_of);
      return run;
    });
    const Json& a = field(j, at, "anim_chunk");
    const std::string aa = "$.anim_chunk";
    AnimChunk& anim = f.anim_chunk;
    anim.directory_offset = u32_at(a, aa, "directory_offset");
    anim.field_08 = u32_at(a, aa, "field_08");
    anim.event_dictionary_offset = u32_at(a, aa, "event_dictionary_offset");
    anim.directory = list_of<DirectoryEntry>(a, aa, "directory", [](const Json& e, const std::string& p) {
      return DirectoryEntry{u32_at(e, p, "name_hash"), u32_at(e, p, "offset")};
    });
    anim.clip_count = static_cast<uint32_t>(anim.directory.size());
    anim.records = list_of<Record>(a, aa, "records", record_of);
    if (a.contains("event_dictionary")) {
      const Json& d = a["event_dictionary"];
      const std::string da = aa + ".event_dictionary";
      if (d.contains("error")) {
        anim.event_dictionary_bytes = bytes_at(d, da, "bytes");
        anim.event_dictionary_error = d["error"].is_string() ? d["error"].get<std::string>() : "";
      } else {
        anim.event_dictionary = dictionary_of(d, da);
        anim.event_dictionary_bytes = write_event_dictionary(*anim.event_dictionary);
      }
    }
    anim.gaps = gaps_of(a, aa);
    const Json& b = field(j, at, "block_chunk");
    f.block_chunk.blocksets = list_of<Blockset>(b, "$.block_chunk", "blocksets", blockset_of);
    f.block_chunk.gaps = gaps_of(b, "$.block_chunk");
    f.gaps = gaps_of(j, at);
  } catch (const Json::exception& e) {
    throw Error(std::string("anix JSON: ") + e.what());
  }
  return f;
}

}  // namespace animkit::shadow_of_war
