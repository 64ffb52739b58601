#include "animkit/warriors/document.h"

#include <fmt/format.h>

#include "animkit/core/json_text.h"
#include "animkit/core/text.h"
#include "animkit/warriors/clock.h"
#include "animkit/warriors/pose.h"

namespace animkit::warriors {

const char* to_string(FileKind kind) {
  switch (kind) {
    case FileKind::kPack:
      return "pack";
    case FileKind::kCharacter:
      return "character";
    case FileKind::kAnm:
      return "anm";
  }
  return "";
}

std::vector<const Resource*> WarriorsFile::resources() const {
  std::vector<const Resource*> out;
  if (const Pack* p = std::get_if<Pack>(&entry.content)) {
    for (const Resource& r : p->resources) out.push_back(&r);
  } else {
    out.push_back(&std::get<Resource>(entry.content));
  }
  return out;
}

const BoneOffsets* WarriorsFile::bone_offsets() const {
  for (const ClipSet& s : sets) {
    if (s.bone_offsets) return &*s.bone_offsets;
  }
  return nullptr;
}

WarriorsFile read_warriors_file(Bytes bytes, FileKind kind) {
  WarriorsFile f;
  f.kind = kind;
  f.entry = read_entry(bytes);
  if (kind == FileKind::kPack && !f.entry.is_pack()) throw Error("not a pack: no marker", 12);
  if (kind != FileKind::kPack && f.entry.is_pack()) {
    throw Error("a pack, not a resource (marker 0xDE686795)", 12);
  }
  for (const Resource* r : f.resources()) f.sets.push_back(read_clip_set(*r));
  if (kind == FileKind::kAnm) {
    const Resource& r = std::get<Resource>(f.entry.content);
    if (f.sets[0].clips.size() != 1 || r.chunks.size() != 2) {
      throw Error(fmt::format("an .anm resource holds chunks 0x00 + 0x02; this one has {} chunks",
                              r.chunks.size()),
                  0);
    }
  }
  return f;
}

namespace {
bool whole(Bytes head) { return head.size() < 65536; }
uint32_t word(Bytes b, size_t pos) {
  uint32_t v;
  std::memcpy(&v, b.data() + pos, 4);
  return v;
}
// The chunk types of the resource at `pos`, as far as the head reaches.
std::vector<uint32_t> chunk_types(Bytes head, size_t pos) {
  std::vector<uint32_t> types;
  if (head.size() < pos + 16) return types;
  const uint32_t count = word(head, pos);
  size_t p = pos + 16;
  for (uint32_t i = 0; i < count && p + 16 <= head.size(); ++i) {
    types.push_back(word(head, p));
    p += 16 + size_t{word(head, p + 4)};
  }
  return types;
}
}  // namespace

bool sniff_pack(Bytes head) { return looks_like_pack(head, whole(head)); }

bool sniff_anm(Bytes head) {
  if (!looks_like_resource(head, whole(head)) || word(head, 0) != 2) return false;
  const std::vector<uint32_t> t = chunk_types(head, 0);
  if (t.size() != 2) return false;
  return (t[0] == kAnimRotKeyframes && t[1] == kAnimData) ||
         (t[0] == kAnimData && t[1] == kAnimRotKeyframes);
}

bool sniff_character(Bytes head) {
  if (!looks_like_resource(head, whole(head)) || sniff_anm(head)) return false;
  const std::vector<uint32_t> t = chunk_types(head, 0);
  size_t pairs = 0;
  for (size_t i = 0; i < t.size(); ++i) {
    if (t[i] == kCharacterData || t[i] == kAnimRangeList || t[i] == kAnimList) return true;
    if (t[i] == kAnimRotKeyframes && i + 1 < t.size() && t[i + 1] == kAnimData) ++pairs;
  }
  // A head cut before the tables: clips all the way.
  return !whole(head) && pairs >= 2 && pairs * 2 + 1 >= t.size();
}

bool sniff_cut_pack(Bytes head) { return looks_like_pack(head, false); }

bool sniff_cut_anm(Bytes head) {
  if (!looks_like_resource(head, false) || word(head, 0) != 2) return false;
  const std::vector<uint32_t> t = chunk_types(head, 0);
  return !t.empty() && (t[0] == kAnimRotKeyframes || t[0] == kAnimData);
}

bool sniff_cut_character(Bytes head) { return looks_like_resource(head, false) && !sniff_cut_anm(head); }

// ---- dump ------------------------------------------------------------------------------------

namespace {
Json header_json(const ChunkHeader& h) {
  return Json{{"type", h.type},
              {"name", chunk_type_name(h.type)},
              {"size", h.size},
              {"zero", h.zero},
              {"hash", fmt::format("{:#010x}", h.hash)}};
}

Json descriptor_json(const Descriptor& d) {
  std::string mask;
  for (int b = 0; b < kNumBones; ++b) {
    if (d.has_bone(b)) mask += (mask.empty() ? "" : ",") + std::to_string(b);
  }
  Json j{{"vtable", fmt::format("{:#010x}", d.vtable)},
         {"displacement_x", json_float(d.displacement_x)},
         {"displacement_y", json_float(d.displacement_y)},
         {"duration", json_float(d.duration)},
         {"frame_count", clock_frame_count(d.duration)},
         {"section_a_size", d.section_a_size},
         {"section_b_size", d.section_b_size},
         {"section_c_size", d.section_c_size},
         {"num_channels", d.num_channels},
         {"num_events", d.num_events},
         {"keyframes_pointer", fmt::format("{:#010x}", d.keyframes_pointer)},
         {"bone_mask", to_hex(d.bone_mask)},
         {"bones", mask}};
  put_text(j, "name", d.name_bytes());  // the core rule, `name_hex` beside (issue 31, item 2)
  j["name_field"] = to_hex(d.name);
  j["reference_count"] = d.reference_count;
  j["flags"] = fmt::format("{:#010x}", d.flags);
  j["tail"] = to_hex(d.tail);
  return j;
}

Json channel_json(const char* section, int bone, const Channel& c, bool rotation) {
  Json keys = Json::array();
  uint32_t frame = 0;
  for (size_t i = 0; i < c.keys.size(); ++i) {
    const Key& k = c.keys[i];
    if (i > 0) frame += k.delta;
    Json key{{"delta", k.delta}, {"frame", frame}, {"byte1", k.unknown},
             {"x", k.x},         {"y", k.y},       {"z", k.z}};
    if (rotation) {
      key["value"] = to_json(decode_rotation(k));
    } else {
      key["value"] = to_json(decode_position(k));
    }
    keys.push_back(std::move(key));
  }
  Json j{{"section", section}};
  j["bone"] = bone >= 0 ? Json(bone) : Json(nullptr);
  j["keys"] = std::move(keys);
  return j;
}
}  // namespace

Json clip_json(const AnmClip& clip) {
  const Descriptor& d = clip.descriptor;
  const Keyframes& k = clip.keyframes;
  Json channels = Json::array();
  for (const Channel& c : k.section_a) channels.push_back(channel_json("A", -1, c, false));
  for (const Channel& c : k.section_b) channels.push_back(channel_json("B", -1, c, false));
  int bone = -1;
  for (const Channel& c : k.section_c) {
    do {
      ++bone;
    } while (bone < 40 && !d.has_bone(bone));
    channels.push_back(channel_json("C", bone < 40 ? bone : -1, c, true));
  }
  Json events = Json::array();
  for (const AnimEvent& e : k.events) {
    events.push_back(Json{{"frame", e.frame},
                          {"type", e.type},
                          {"name", event_name(e.type)},
                          {"arg0", e.arg0},
                          {"arg1", e.arg1},
                          {"position", {e.position[0], e.position[1], e.position[2]}},
                          {"rotation", {e.rotation[0], e.rotation[1], e.rotation[2]}},
                          {"code", to_hex(e.code)},
                          {"payload", Json::parse(event_payload_json(e))}});
  }
  return Json{{"descriptor", descriptor_json(d)},
              {"channels", std::move(channels)},
              {"events", std::move(events)},
              {"keyframes_tail", to_hex(k.tail)}};
}

// ---- validate --------------------------------------------------------------------------------

// warriors.txt "Descriptor", "Keyframes", "Decoding"; each finding with the file offset of the
// field or key it is about (the chunks' data at `keyframes_at` / `descriptor_at`).
std::vector<ClipFinding> check_clip(const AnmClip& clip, uint64_t keyframes_at,
                                    uint64_t descriptor_at) {
  std::vector<ClipFinding> out;
  const Descriptor& d = clip.descriptor;
  const Keyframes& k = clip.keyframes;
  const auto add = [&](Finding::Level l, const char* code, uint64_t at, std::string msg,
                       std::string fix = {}) {
    out.push_back({{l, code, {}, std::move(msg), std::move(fix)}, at});
  };
  // +0x18 equals the number of bits set in the mask.
  if (k.section_c.size() != size_t(d.mask_bit_count())) {
    add(Finding::Level::kError, "CHANNEL_COUNT", descriptor_at + 0x18,
        fmt::format("{} rotation channels, the bone mask has {} bits set", k.section_c.size(),
                    d.mask_bit_count()),
        "one channel per bone in the mask");
  }
  if (d.num_channels != k.section_c.size()) {
    add(Finding::Level::kError, "NUM_CHANNELS", descriptor_at + 0x18,
        fmt::format("descriptor +0x18 says {} channels, section C splits into {}", d.num_channels,
                    k.section_c.size()));
  }
  for (int b = kNumBones; b < 40; ++b) {
    if (d.has_bone(b)) {
      add(Finding::Level::kError, "MASK_BONE", descriptor_at + 0x20 + b / 8,
          fmt::format("mask bit {} is beyond bone 33", b));
    }
  }
  // The keys, section by section: a section's first key starts a channel (+0 = 0); A and B hold
  // one channel each (a second key with +0 = 0 starts a channel the sampler never reads); a
  // rotation key needs x^2 + y^2 + z^2 <= 1 to rebuild w.
  const auto keys = [&](const std::vector<Channel>& cs, const char* name, uint64_t at,
                        bool single, bool rotation) {
    uint64_t i = 0;
    for (size_t c = 0; c < cs.size(); ++c) {
      for (size_t j = 0; j < cs[c].keys.size(); ++j, ++i) {
        const Key& key = cs[c].keys[j];
        const uint64_t key_at = at + i * kKeySize;
        if (c == 0 && j == 0 && key.delta != 0) {
          add(Finding::Level::kError, "FIRST_DELTA", key_at,
              fmt::format("section {}'s first key has +0 = {}, not 0 (a channel starts with 0)",
                          name, key.delta));
        }
        if (single && c > 0 && j == 0) {
          add(Finding::Level::kError, "SECOND_CHANNEL", key_at,
              fmt::format("a second key with +0 = 0 in section {}: a channel the sampler never "
                          "reads ({} channels, one expected)",
                          name, cs.size()));
        }
        if (rotation) {
          const double x = key.x / 32768.0, y = key.y / 32768.0, z = key.z / 32768.0;
          if (x * x + y * y + z * z > 1.0) {
            add(Finding::Level::kError, "ROTATION_LENGTH", key_at + 2,
                fmt::format("section C channel {} key {}: x^2 + y^2 + z^2 = {:.6f} > 1 (w cannot be "
                            "rebuilt)",
                            c, j, x * x + y * y + z * z));
          }
        }
      }
    }
  };
  keys(k.section_a, "A", keyframes_at, true, false);
  keys(k.section_b, "B", keyframes_at + d.section_a_size, true, false);
  keys(k.section_c, "C", keyframes_at + d.section_a_size + d.section_b_size, false, true);
  if (!std::isfinite(d.duration)) {
    add(Finding::Level::kError, "DURATION", descriptor_at + 0x0c,
        fmt::format("duration {} is not finite", d.duration));
  } else if (d.duration < 0) {
    add(Finding::Level::kError, "DURATION", descriptor_at + 0x0c,
        fmt::format("duration {} s is negative", d.duration));
  } else {
    const float frames = d.duration * 30.0f;
    if (!(d.duration > 0) || std::fabs(frames - std::round(frames)) > 1e-3f) {
      add(Finding::Level::kWarning, "DURATION", descriptor_at + 0x0c,
          fmt::format("duration {} s is not a whole number of frames", d.duration));
    }
  }
  if (!std::isfinite(d.displacement_x) || !std::isfinite(d.displacement_y)) {
    add(Finding::Level::kError, "DISPLACEMENT", descriptor_at + 0x04,
        "the root displacement is not finite");
  }
  const uint32_t f = make_play_clip(clip).frame_count;
  const uint64_t events_at =
      keyframes_at + d.section_a_size + d.section_b_size + d.section_c_size;
  for (size_t i = 0; i < k.events.size(); ++i) {
    const AnimEvent& e = k.events[i];
    if (e.frame >= f) {
      add(Finding::Level::kInfo, "EVENT_AFTER_END", events_at + i * 24,
          fmt::format("event type {:#x} at frame {} never fires (the clip ends before frame {})",
                      e.type, e.frame, f));
    }
  }
  if (f == 2) {
    add(Finding::Level::kWarning, "NEVER_ENDS_AT_075", descriptor_at + 0x0c,
        "a 2-frame clip played at rate 0.75 never ends (overshoot exactly 0.0)");
  }
  if (d.vtable != kDescriptorVtable) {
    add(Finding::Level::kInfo, "VTABLE", descriptor_at,
        fmt::format("vtable placeholder {:#010x}", d.vtable));
  }
  return out;
}

std::vector<Finding> validate_clip(const AnmClip& clip, const std::string& where,
                                   uint64_t keyframes_at, uint64_t descriptor_at) {
  std::vector<Finding> out;
  for (ClipFinding& f : check_clip(clip, keyframes_at, descriptor_at)) {
    f.finding.where = fmt::format("{}: offset {:#x}", where, f.offset);
    out.push_back(std::move(f.finding));
  }
  return out;
}

namespace {
void validate_resource(const Resource& r, const ClipSet& set, const std::string& where,
                       std::vector<Finding>& out) {
  uint64_t sum = 0;
  for (size_t i = 0; i < r.chunks.size(); ++i) {
    const ChunkHeader& h = r.chunks[i].header;
    sum += h.size;
    const std::string w = fmt::format("{} chunk {}: offset {:#x}", where, i, r.chunks[i].offset);
    // warriors-container.md: 0x28 is always 544 bytes (34 entries of 16); the sampler reads
    // entry 1's +4.
    if (h.type == kBoneOffsets && r.chunks[i].data.size() < 34 * 16) {
      out.push_back({Finding::Level::kError, "BONE_OFFSETS_SIZE", w,
                     fmt::format("chunk 0x28 holds {} bytes, 544 needed (34 entries of 16)",
                                 r.chunks[i].data.size()),
                     ""});
    }
    if (h.size % 16 != 0) {
      out.push_back({Finding::Level::kError, "CHUNK_SIZE", w,
                     fmt::format("size {} is not a multiple of 16", h.size), ""});
    }
    if (h.zero != 0) {
      out.push_back({Finding::Level::kError, "CHUNK_ZERO", w,
                     fmt::format("third word {:#x}, expected 0", h.zero), ""});
    }
    if (h.type > kMaxChunkType) {
      out.push_back({Finding::Level::kError, "CHUNK_TYPE", w,
                     fmt::format("type {:#x} beyond the table (0x00-0x53)", h.type), ""});
    }
  }
  if (sum != r.header.data_size) {
    out.push_back(
        {Finding::Level::kError, "RESOURCE_SIZE", where,
         fmt::format("data_size {}, the chunks' sizes sum to {}", r.header.data_size, sum), ""});
  }
  for (size_t i = 0; i < set.clips.size(); ++i) {
    const ClipEntry& c = set.clips[i];
    const std::string w = fmt::format("{} clip {} '{}'", where, i, c.clip.descriptor.name_text());
    for (Finding& f : validate_clip(c.clip, w, r.chunks[c.keyframes_chunk].offset + 16,
                                    r.chunks[c.descriptor_chunk].offset + 16)) {
      out.push_back(std::move(f));
    }
    const std::string cnk = c.clip.descriptor.name_bytes() + ".anm.b.cnk";
    if (r.chunks[c.keyframes_chunk].header.hash != crc32(cnk)) {
      out.push_back({Finding::Level::kInfo, "HASH", w,
                     fmt::format("keyframes hash {:#010x} is not crc32(\"{}\")",
                                 r.chunks[c.keyframes_chunk].header.hash, printable(cnk, Keep::kAscii)),
                     ""});
    }
  }
  if (set.anim_list && set.anim_list->count != kAnimListCountOnDisc) {
    out.push_back({Finding::Level::kInfo, "ANIM_LIST_COUNT", where,
                   fmt::format("Anim List holds {} records, 564 on the disc", set.anim_list->count),
                   ""});
  }
  if (set.range_list && set.range_list->count != kNumAnimIds) {
    out.push_back(
        {Finding::Level::kWarning, "RANGE_COUNT", where,
         fmt::format("Anim Range List holds {} records, expected 722", set.range_list->count), ""});
  }
}

class WarriorsDocument : public Document {
 public:
  WarriorsDocument(std::filesystem::path path, WarriorsFile file)
      : path_(std::move(path)), file_(std::move(file)) {
    for (const ClipSet& s : file_.sets) {
      for (const ClipEntry& c : s.clips) {
        play_.push_back(std::make_shared<PlayClip>(make_play_clip(c.clip)));
      }
    }
  }

  Json info() const override {
    Json j{{"format", fmt::format("warriors-{}", to_string(file_.kind))},
           {"kind", to_string(file_.kind)}};
    const auto res = file_.resources();
    j["resources"] = res.size();
    size_t chunks = 0, clips = 0;
    for (const Resource* r : res) chunks += r->chunks.size();
    for (const ClipSet& s : file_.sets) clips += s.clips.size();
    j["chunks"] = chunks;
    j["clips"] = clips;
    Json list = Json::array();
    for (const ClipSet& s : file_.sets) {
      for (const ClipEntry& c : s.clips) {
        const Descriptor& d = c.clip.descriptor;
        Json jc = Json::object();
        put_text(jc, "name", d.name_bytes());  // the core rule (issue 31, item 2)
        jc["duration"] = json_float(d.duration);
        jc["frames"] = make_play_clip(c.clip).frame_count;
        jc["rotation_channels"] = c.clip.keyframes.section_c.size();
        jc["section_a"] = !c.clip.keyframes.section_a.empty();
        jc["section_b"] = !c.clip.keyframes.section_b.empty();
        jc["events"] = c.clip.keyframes.events.size();
        list.push_back(std::move(jc));
      }
    }
    j["clip_list"] = std::move(list);
    j["bone_offsets"] = file_.bone_offsets() != nullptr;
    j["tail_bytes"] = file_.entry.tail.size();
    return j;
  }

  Json dump() const override {
    const auto res = file_.resources();
    if (file_.kind == FileKind::kAnm) {
      Json j{{"kind", "anm"}};
      j["resource"] = resource_header(*res[0]);
      Json c = clip_json(file_.sets[0].clips[0].clip);
      for (auto it = c.begin(); it != c.end(); ++it) j[it.key()] = it.value();
      return j;
    }
    Json j{{"kind", to_string(file_.kind)}};
    if (const Pack* p = std::get_if<Pack>(&file_.entry.content)) {
      j["pack"] = Json{{"count", p->header.count},
                       {"size", p->header.size},
                       {"zero", p->header.zero},
                       {"marker", fmt::format("{:#010x}", p->header.marker)}};
    }
    Json list = Json::array();
    for (size_t i = 0; i < res.size(); ++i) list.push_back(resource_json(*res[i], file_.sets[i]));
    j["resources"] = std::move(list);
    j["tail_bytes"] = file_.entry.tail.size();
    return j;
  }

  std::vector<Finding> validate() const override {
    std::vector<Finding> out;
    const auto res = file_.resources();
    for (size_t i = 0; i < res.size(); ++i) {
      validate_resource(*res[i], file_.sets[i], fmt::format("resource {}", i), out);
    }
    if (const Pack* p = std::get_if<Pack>(&file_.entry.content)) {
      uint64_t size = 0;
      for (const Resource& r : p->resources) size += 16 + 16 * r.chunks.size() + r.header.data_size;
      if (size != p->header.size) {
        out.push_back({Finding::Level::kError, "PACK_SIZE", "pack",
                       fmt::format("size {}, the resources take {}", p->header.size, size), ""});
      }
    }
    return out;
  }

  std::optional<Animated> to_neutral() const override {
    Animated a;
    const BoneOffsets* off = file_.bone_offsets();
    a.skeleton = neutral_skeleton(off);
    a.notes.push_back(off ? "warriors: bone offsets from the 0x28 chunk"
                          : "warriors: no 0x28 chunk: the reference pose with unit offsets");
    const float bind = off ? off->bind_height() : 0.f;
    for (const ClipSet& s : file_.sets) {
      for (const ClipEntry& c : s.clips) a.clips.push_back(neutral_clip(c.clip, bind));
    }
    return a;
  }

  std::vector<ClipCurves> curves() const override;

 private:
  static Json resource_header(const Resource& r) {
    Json chunks = Json::array();
    for (const Chunk& c : r.chunks) chunks.push_back(header_json(c.header));
    return Json{{"count", r.header.count},
                {"data_size", r.header.data_size},
                {"zero", r.header.zero},
                {"name_hash", fmt::format("{:#010x}", r.header.name_hash)},
                {"chunks", std::move(chunks)}};
  }

  static Json resource_json(const Resource& r, const ClipSet& s) {
    Json j = resource_header(r);
    Json clips = Json::array();
    for (const ClipEntry& c : s.clips) {
      Json cj = clip_json(c.clip);
      cj["keyframes_chunk"] = c.keyframes_chunk;
      cj["descriptor_chunk"] = c.descriptor_chunk;
      clips.push_back(std::move(cj));
    }
    j["clips"] = std::move(clips);
    if (s.character_data) {
      Json slots = Json::object();
      for (int id = 0; id < kNumAnimIds; ++id) {
        const int c = s.clip_for_anim(id);
        if (c >= 0) slots[std::to_string(id)] = c;
      }
      j["character_data"] = Json{{"size", s.character_data->raw.size()}, {"anim_to_clip", slots}};
    }
    if (s.range_list) {
      Json recs = Json::array();
      for (size_t id = 0; id < s.range_list->records.size(); ++id) {
        const RangeRecord& r = s.range_list->records[id];
        if (r == RangeRecord{}) continue;
        recs.push_back(Json{
            {"id", id},
            {"direction", {json_float(r.direction_x * 0.001f), json_float(r.direction_y * 0.001f)}},
            {"reach", json_float(r.reach)},
            {"far_range", json_float(r.far())},
            {"damage", r.damage},
            {"hit_code", r.hit_code},
            {"flags", r.flags},
            {"rate_index", rate_index(r.flags)},
            {"stuns", r.stuns()}});
      }
      j["range_list"] = Json{{"count", s.range_list->count},
                             {"records", std::move(recs)},
                             {"tail_bytes", s.range_list->tail.size()}};
    }
    if (s.anim_list) {
      Json recs = Json::array();
      for (const AnimListRecord& r : s.anim_list->records) {
        recs.push_back(Json{{"hash", fmt::format("{:#010x}", r.hash)}, {"size", r.size}});
      }
      j["anim_list"] = Json{{"count", s.anim_list->count},
                            {"records", std::move(recs)},
                            {"tail_bytes", s.anim_list->tail.size()}};
    }
    if (s.bone_offsets) {
      Json e = Json::array();
      for (const auto& row : s.bone_offsets->entries) {
        e.push_back(
            {json_float(row[0]), json_float(row[1]), json_float(row[2]), json_float(row[3])});
      }
      j["bone_offsets"] = std::move(e);
    }
    return j;
  }

  std::filesystem::path path_;
  WarriorsFile file_;
  std::vector<std::shared_ptr<PlayClip>> play_;
};

std::vector<ClipCurves> WarriorsDocument::curves() const {
  std::vector<ClipCurves> out;
  for (const auto& pc : play_) {
    ClipCurves cc;
    cc.clip = pc->name;
    cc.duration = pc->duration;
    for (const AnimEvent& e : pc->events) {
      cc.events.push_back({e.frame / 30.f, event_name(e.type), event_payload_json(e)});
    }
    const auto add = [&](const std::string& joint, const PlayClip::Range& r, bool rotation,
                         bool held, const char* unit) {
      if (r.count == 0) return;
      const int comps = rotation ? 4 : 3;
      static const char* kPos[] = {"location.x", "location.y", "location.z"};
      static const char* kRot[] = {"quat.x", "quat.y", "quat.z", "quat.w"};
      for (int c = 0; c < comps; ++c) {
        Curve cv;
        cv.joint = joint;
        cv.channel = rotation ? kRot[c] : kPos[c];
        cv.unit = unit;
        for (uint32_t k = r.first; k < r.first + r.count; ++k) {
          cv.key_times.push_back(pc->starts[k] / 30.f);
          const Quat& v = pc->values[k];
          cv.key_values.push_back(c == 0 ? v.x : c == 1 ? v.y : c == 2 ? v.z : v.w);
        }
        std::shared_ptr<PlayClip> keep = pc;
        const PlayClip::Range range = r;
        cv.evaluate = [keep, range, rotation, held, c](float seconds) {
          const Quat v = evaluate_channel(*keep, range, seconds * 30.f, rotation, held);
          return c == 0 ? v.x : c == 1 ? v.y : c == 2 ? v.z : v.w;
        };
        cc.curves.push_back(std::move(cv));
      }
    };
    add("root_velocity", pc->velocity, false, false, "m/s");
    add(bone_name(1), pc->translation, false, false, "m");
    for (int b = 0; b < kNumBones; ++b) add(bone_name(b), pc->bones[b], true, b == 0, "");
    out.push_back(std::move(cc));
  }
  return out;
}
}  // namespace

Skeleton neutral_skeleton(const BoneOffsets* offsets) {
  Skeleton s;
  const auto& ref = reference_pose();
  const std::array<Vec3, kNumBones> unit = unit_offsets();
  for (int b = 0; b < kNumBones; ++b) {
    Transform t;
    t.rotation = b == 0 ? Quat::identity() : ref[b];
    if (b >= 2) t.translation = offsets ? offsets->offset(b) : unit[b];
    if (b == 1 && offsets) t.translation = {0, 0, offsets->bind_height()};
    s.add_joint(bone_name(b), kParents[b], t);
  }
  return s;
}

Clip neutral_clip(const AnmClip& anm, float bind_height) {
  const PlayClip p = make_play_clip(anm);
  Clip c;
  c.name = anm.descriptor.name_bytes();  // the bytes: JSON and glTF writers apply the core rule
  c.duration = p.duration;
  c.frame_rate = 30;
  c.joints.resize(kNumBones);
  // Bone 0's turn is motion and never applied to the skeleton (warriors.txt, "Bone transforms").
  if (p.translation.count > 0) {
    Track<Vec3>& t = c.joints[1].translation;
    t.interpolation = Interpolation::kLinear;
    for (uint32_t k = p.translation.first; k < p.translation.first + p.translation.count; ++k) {
      const Quat& v = p.values[k];
      t.add(p.starts[k] / 30.f, Vec3{v.x, v.y, v.z + bind_height});
    }
  }
  for (int b = 1; b < kNumBones; ++b) {
    const PlayClip::Range& r = p.bones[b];
    if (r.count == 0) continue;  // the reference pose (the rest)
    Track<Quat>& t = c.joints[b].rotation;
    t.interpolation = Interpolation::kNlerp;
    for (uint32_t k = r.first; k < r.first + r.count; ++k) t.add(p.starts[k] / 30.f, p.values[k]);
  }
  for (const AnimEvent& e : p.events) {
    c.events.push_back({e.frame / 30.f, event_name(e.type), event_payload_json(e)});
  }
  return c;
}

std::unique_ptr<Document> open_document(const std::filesystem::path& path, Bytes bytes,
                                        FileKind kind) {
  return std::make_unique<WarriorsDocument>(path, read_warriors_file(bytes, kind));
}

}  // namespace animkit::warriors
