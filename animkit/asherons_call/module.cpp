#include "animkit/asherons_call/module.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <set>
#include <ostream>

#include "animkit/asherons_call/assets.h"
#include "animkit/asherons_call/command_ids.h"
#include "animkit/asherons_call/creature.h"
#include "animkit/asherons_call/dat.h"
#include "animkit/asherons_call/dat_objects.h"
#include "animkit/asherons_call/import.h"
#include "animkit/asherons_call/mesh_formats.h"
#include "animkit/asherons_call/neutral.h"
#include "animkit/asherons_call/player.h"
#include "animkit/asherons_call/synthetic.h"
#include "animkit/asherons_call/synthetic_meshes.h"
#include "animkit/core/demo_gltf.h"

namespace animkit::asherons_call {

namespace {

std::string_view text_of(Bytes bytes) {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

// `"asherons_call": "<kind>"` (a scenario's `"engine": "asherons_call"` does not match). Issue
// 28: JSON by content, not by a first byte: a whole file must parse as that JSON form; a 64 KiB
// head of a larger one must be JSON text (no control byte) naming the kind.
bool json_kind(Bytes head, ObjectKind want) {
  if (!looks_like_json(head)) return false;
  if (head.size() < 65536) return recognize_object(head).kind == want;
  const std::string_view s = text_of(head);
  const std::string kind = "\"" + std::string(object_kind_name(want)) + "\"";
  constexpr std::string_view key = "\"asherons_call\"";
  for (size_t at = s.find(key); at != std::string_view::npos; at = s.find(key, at + 1)) {
    size_t i = at + key.size();
    while (i < s.size() &&
           (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r' || s[i] == ':'))
      ++i;
    if (s.substr(i, kind.size()) == kind) return true;
  }
  return false;
}

std::optional<Parts> parts_option(const Options& options) {
  auto it = options.find("parts");
  if (it == options.end()) return std::nullopt;
  return load_parts(it->second);
}

// A number as `--id` takes one ("0x02000001" or decimal), not a file name.
bool is_object_id(const std::string& text) {
  try {
    const uint32_t id = parse_command(text);
    return !command_id(text) && id != 0;
  } catch (const Error&) {
    return false;
  }
}

CreatureOptions creature_options(const Options& options) {
  CreatureOptions o;
  if (auto it = options.find("rig"); it != options.end()) {
    if (it->second == "flat")
      o.rig = Rig::kFlat;
    else if (it->second == "parents")
      o.rig = Rig::kParents;
    else
      throw Error(fmt::format("--rig {}: expected flat or parents", it->second));
  }
  return o;
}

// `--setup`: a Setup file (binary), or with a dat the id of one of its Setups.
std::optional<Setup> setup_option(const Options& options, const DatFile* dat) {
  auto it = options.find("setup");
  if (it == options.end()) return std::nullopt;
  if (is_object_id(it->second)) {
    const uint32_t id = parse_command(it->second);
    if (!dat) {
      throw Error(fmt::format("--setup {} names a dat object: open the dat (DAT --setup {})",
                              it->second, it->second));
    }
    if ((id >> 24) != kTypeSetup)
      throw Error(fmt::format("--setup {}: not a Setup id (0x02xxxxxx)", it->second));
    return setup_from_dat(*dat, id);
  }
  const std::vector<uint8_t> bytes = read_file(it->second);
  try {
    return read_setup(bytes);
  } catch (const Error& e) {
    throw e.with_file(it->second);
  }
}

// A Setup of N parts with no placement (identity rest), N the most parts an animation has: the
// skeleton a table exports over when no Setup is known.
Setup bare_setup(uint32_t num_parts) {
  Setup s;
  s.parts.assign(num_parts, 0x01000000u);
  return s;
}

Setup bare_setup(const AnimationStore& store) {
  uint32_t n = 0;
  for (const auto& [id, a] : store.all()) n = std::max(n, a.num_parts);
  return bare_setup(n);
}

// The table's own rules and its references (`has`: whether an animation is there; none: not
// checked). One function for `validate TABLE`, `validate DAT --id` and `validate DAT` (issue 28).
void validate_table(const MotionTable& table, const std::function<bool(uint32_t)>& has,
                    std::vector<Finding>& out) {
  const std::string prefix = hex32(table.id) + " ";
  auto check = [&](const MotionData& md, const std::string& where) {
    if (md.flags & ~0x03u) {
      out.push_back(
          {Finding::Level::kWarning, "UNKNOWN_FLAGS", prefix + where,
           fmt::format("MotionData flags 0x{:02X} has bits beyond velocity/omega", md.flags), ""});
    }
    for (const AnimData& a : md.anims) {
      if ((a.anim_id & 0xFF000000u) != 0x03000000u) {
        out.push_back({Finding::Level::kWarning, "NOT_AN_ANIMATION", prefix + where,
                       fmt::format("anim id {} is not a 0x03xxxxxx animation", hex32(a.anim_id)),
                       ""});
      } else if (has && !has(a.anim_id)) {
        out.push_back({Finding::Level::kError, "MISSING_ANIMATION", prefix + where,
                       fmt::format("motion table {} names animation {}, which is not there",
                                   hex32(table.id), hex32(a.anim_id)),
                       ""});
      }
    }
  };
  for (const StyleDefault& s : table.style_defaults) {
    bool found = false;
    for (const KeyedMotion& k : table.cycles) found |= k.key == motion_key(s.style, s.default_substate);
    if (!found) {
      out.push_back(
          {Finding::Level::kError, "NO_DEFAULT_CYCLE", prefix + command_label(s.style),
           fmt::format("no cycle for the default substate {}", command_label(s.default_substate)),
           ""});
    }
  }
  for (const KeyedMotion& k : table.cycles) check(k.data, "cycle " + motion_key_label(k.key));
  for (const KeyedMotion& k : table.modifiers) check(k.data, "modifier " + motion_key_label(k.key));
  for (const LinkSet& l : table.links) {
    for (const LinkTarget& t : l.targets)
      check(t.data, "link " + motion_key_label(l.key) + " -> " + command_label(t.to_motion));
  }
}

// A Setup's own rules (container page 5): trailing bytes (a parse consumes exactly the
// object's size) with their offset, parent indices.
void validate_setup(const Setup& s, std::vector<Finding>& out) {
  const std::string where = hex32(s.id);
  if (!s.tail.empty()) {
    out.push_back({Finding::Level::kWarning, "TRAILING_BYTES", where,
                   fmt::format("offset {:#x}: {} bytes after the Setup",
                               write_setup(s).size() - s.tail.size(), s.tail.size()),
                   ""});
  }
  for (size_t i = 0; i < s.parent_index.size(); ++i) {
    const uint32_t p = s.parent_index[i];
    if (p != kNoParent && (p >= s.parts.size() || p == i)) {
      out.push_back({Finding::Level::kWarning, "BAD_PARENT", fmt::format("{} part {}", where, i),
                     fmt::format("parent_index {} is not another part (treated as a root)", p),
                     ""});
    }
  }
}

class MotionTableDocument : public Document {
 public:
  MotionTableDocument(MotionTable table, std::optional<AnimationStore> store,
                      std::optional<Parts> parts, std::optional<Setup> setup = std::nullopt,
                      CreatureOptions creature = {})
      : table_(std::move(table)),
        store_(std::move(store)),
        parts_(std::move(parts)),
        setup_(std::move(setup)),
        creature_(creature) {}

  Json info() const override {
    size_t links = 0;
    for (const LinkSet& l : table_.links) links += l.targets.size();
    Json j{{"kind", "motion_table"},
           {"id", hex32(table_.id)},
           {"default_style", command_label(table_.default_style)},
           {"styles", table_.style_defaults.size()},
           {"cycles", table_.cycles.size()},
           {"modifiers", table_.modifiers.size()},
           {"links", links}};
    if (store_) j["animations"] = store_->all().size();
    if (!table_.tail.empty()) j["tail_bytes"] = table_.tail.size();
    return j;
  }
  Json dump() const override { return to_json(table_); }
  std::vector<Finding> validate() const override {
    std::vector<Finding> out;
    if (!table_.tail.empty()) {
      out.push_back({Finding::Level::kWarning, "TRAILING_BYTES", hex32(table_.id),
                     fmt::format("offset {:#x}: {} bytes after the motion table",
                                 write_motion_table(table_).size() - table_.tail.size(),
                                 table_.tail.size()),
                     ""});
    }
    std::function<bool(uint32_t)> has;
    if (store_) has = [this](uint32_t id) { return store_->find(id) != nullptr; };
    validate_table(table_, has, out);
    return out;
  }
  // Issue 28: one export path for a table, from a dat or loose: the creature's (container page
  // 6: Y up, cycles, modifiers and links), over the Setup given, else a bare one with as many
  // parts as the animations have. Only an explicit `--parts` hierarchy keeps the older export.
  std::optional<Animated> to_neutral() const override {
    if (setup_) return creature_to_neutral(*setup_, &table_, store_ ? *store_ : AnimationStore{},
                                           creature_);
    if (!store_) return std::nullopt;
    if (parts_) return table_to_neutral(table_, *store_, &*parts_);
    Animated a = creature_to_neutral(bare_setup(*store_), &table_, *store_, creature_);
    a.notes.push_back("no Setup: a bare one of as many parts as the animations (identity rest)");
    return a;
  }

 private:
  MotionTable table_;
  std::optional<AnimationStore> store_;
  std::optional<Parts> parts_;
  std::optional<Setup> setup_;  // --setup: the creature's skeleton (container page 6)
  CreatureOptions creature_;
};

class AnimationDocument : public Document {
 public:
  AnimationDocument(Animation a, std::optional<Parts> parts,
                    std::optional<Setup> setup = std::nullopt, CreatureOptions creature = {})
      : a_(std::move(a)),
        parts_(std::move(parts)),
        setup_(std::move(setup)),
        creature_(creature) {}
  Json info() const override {
    size_t hooks = 0;
    for (const AnimationFrame& f : a_.frames) hooks += f.hooks.size();
    return Json{{"kind", "animation"},
                {"id", hex32(a_.id)},
                {"num_parts", a_.num_parts},
                {"num_frames", a_.frames.size()},
                {"pos_frames", a_.has_pos_frames()},
                {"hooks", hooks}};
  }
  Json dump() const override { return to_json(a_); }
  // Issue 31: every frame's origin and orientation finite (NaN would reach the samplers and
  // glTF), each at its offset in the binary form (16-byte head, pos frames, then the frames).
  std::vector<Finding> validate() const override {
    std::vector<Finding> out;
    auto check = [&](const AFrame& f, uint64_t at, const std::string& where) {
      const float v[7] = {f.origin.x, f.origin.y, f.origin.z, f.orientation.w,
                          f.orientation.x, f.orientation.y, f.orientation.z};
      static constexpr const char* kNames[7] = {"origin.x", "origin.y", "origin.z", "orientation.w",
                                                "orientation.x", "orientation.y", "orientation.z"};
      for (int k = 0; k < 7; ++k) {
        if (std::isfinite(v[k])) continue;
        out.push_back({Finding::Level::kError, "NON_FINITE", where,
                       fmt::format("offset {:#x}: {} is {}", at + 4 * k, kNames[k], v[k]), ""});
      }
    };
    uint64_t at = 16;
    for (size_t i = 0; i < a_.pos_frames.size(); ++i, at += 28) {
      check(a_.pos_frames[i], at, fmt::format("pos_frames[{}]", i));
    }
    for (size_t i = 0; i < a_.frames.size(); ++i) {
      Writer frame;
      write_animation_frame(frame, a_.frames[i]);
      for (size_t p = 0; p < a_.frames[i].parts.size(); ++p) {
        check(a_.frames[i].parts[p], at + 28 * p, fmt::format("frames[{}].parts[{}]", i, p));
      }
      at += frame.pos();
    }
    return out;
  }
  std::optional<Animated> to_neutral() const override {
    if (setup_) return creature_animation_to_neutral(*setup_, a_, 30.0f, creature_);
    if (parts_) return animation_to_neutral(a_, &*parts_);
    // Issue 32 item 4: a lone animation takes the creature path too (container page 6, "Axes":
    // Z up -> Y up), over a bare Setup of its part count, so that `import --as ac-animation`
    // (which always maps back from glTF axes) gives it back byte for byte, with or without
    // --setup. Only an explicit `--parts` hierarchy keeps the older export in AC's axes.
    Animated a = creature_animation_to_neutral(bare_setup(a_.num_parts), a_, 30.0f, creature_);
    a.notes.push_back("no Setup: a bare one of the animation's parts (identity rest)");
    return a;
  }

 private:
  Animation a_;
  std::optional<Parts> parts_;
  std::optional<Setup> setup_;
  CreatureOptions creature_;
};

std::optional<AnimationStore> store_option(const Options& options) {
  auto it = options.find("animations");
  if (it == options.end()) return std::nullopt;
  return load_animation_dir(it->second);
}

Format make_format(std::string name, std::string description, bool json, bool table) {
  Format f;
  f.name = std::move(name);
  f.engine = "asherons_call";
  f.description = std::move(description);
  f.sniff = [json, table](const std::filesystem::path&, Bytes head) {
    if (json) return json_kind(head, table ? ObjectKind::kMotionTable : ObjectKind::kAnimation);
    return table ? looks_like_motion_table(head) : looks_like_animation(head);
  };
  if (!json && !table) {
    f.sniff_cut = [](const std::filesystem::path&, Bytes head) { return looks_like_animation(head, false); };
  }
  f.open = [json, table](const std::filesystem::path& path, Bytes bytes,
                         const Options& options) -> std::unique_ptr<Document> {
    if (table) {
      MotionTable t = json ? motion_table_from_json(parse_json(text_of(bytes), path.string()))
                           : read_motion_table(bytes);
      return std::make_unique<MotionTableDocument>(std::move(t), store_option(options),
                                                   parts_option(options),
                                                   setup_option(options, nullptr),
                                                   creature_options(options));
    }
    Animation a = json ? animation_from_json(parse_json(text_of(bytes), path.string()))
                       : read_animation(bytes);
    return std::make_unique<AnimationDocument>(std::move(a), parts_option(options),
                                               setup_option(options, nullptr),
                                               creature_options(options));
  };
  // `animkit import --as ac-animation[-json]` (issue 17 item 4).
  if (!table) f.import_gltf = [json](const ImportRequest& r) { return import_animation(r, json); };
  // The import bound's layout (gltf/import_budget.h): an Animation frame holds every part's
  // origin and orientation, 28 bytes (container page 6), at the clip's rate or --frame-rate.
  if (!table) f.import_joint_frame_bytes = 28;
  return f;
}

// ---- ac-dat (container page) -----------------------------------------------------------------

// An object of a dat that is neither a motion table nor an animation: its entry and size.
class DatObjectDocument : public Document {
 public:
  explicit DatObjectDocument(DatEntry e) : e_(e) {}
  Json info() const override {
    Json j = to_json(e_);
    j["kind"] = "dat_object";
    return j;
  }
  Json dump() const override { return to_json(e_); }

 private:
  DatEntry e_;
};

// A Setup: `info`/`dump` its fields; exported (view, plot) as the creature with its motion
// table's clips, or one animation's (container page 6).
class SetupDocument : public Document {
 public:
  explicit SetupDocument(Setup s, std::optional<MotionTable> table = std::nullopt,
                         AnimationStore store = {}, std::optional<Animation> animation = {},
                         CreatureOptions creature = {})
      : s_(std::move(s)),
        table_(std::move(table)),
        store_(std::move(store)),
        animation_(std::move(animation)),
        creature_(creature) {}
  Json info() const override {
    return Json{{"kind", "setup"},
                {"id", hex32(s_.id)},
                {"flags", s_.flags},
                {"num_parts", s_.parts.size()},
                {"placement_frames", s_.placement_frames.size()},
                {"default_motion_table", hex32(s_.default_motion_table)}};
  }
  Json dump() const override { return to_json(s_); }
  std::vector<Finding> validate() const override {
    std::vector<Finding> out;
    validate_setup(s_, out);
    if (table_) validate_table(*table_, [this](uint32_t id) { return store_.find(id) != nullptr; },
                               out);
    return out;
  }
  std::optional<Animated> to_neutral() const override {
    if (animation_) return creature_animation_to_neutral(s_, *animation_, 30.0f, creature_);
    Animated a = creature_to_neutral(s_, table_ ? &*table_ : nullptr, store_, creature_);
    if (!table_) {
      a.notes.push_back(s_.default_motion_table
                            ? fmt::format("motion table {} is not here: no clips (a dat holds it; "
                                          "loose: --motion-table T --animations DIR)",
                                          hex32(s_.default_motion_table))
                            : std::string("the Setup names no motion table: no clips (--id picks one)"));
    }
    return a;
  }

 private:
  Setup s_;
  std::optional<MotionTable> table_;
  AnimationStore store_;
  std::optional<Animation> animation_;
  CreatureOptions creature_;
};

class DatDocument : public Document {
 public:
  explicit DatDocument(DatFile dat) : dat_(std::move(dat)) {}
  // `info`: the header and the number of objects per type (reads the directory only).
  Json info() const override {
    std::map<std::string, size_t> counts;
    size_t total = 0;
    dat_.for_each(0, 0xFFFFFFFFu, [&](const DatEntry& e) {
      ++total;
      counts[e.id == kIterationId ? "iteration" : dat_type_name(static_cast<uint8_t>(e.id >> 24))]++;
    });
    Json types = Json::object();
    for (const auto& [name, n] : counts) types[name] = n;
    return Json{{"kind", "dat"}, {"header", to_json(dat_.header())}, {"entries", total},
                {"types", types}};
  }
  // A dat is many objects (`--id` / `--setup` pick one to export), so it holds no animation of
  // its own; its directory is read first so that a damaged or cut dat reports the offset at
  // fault rather than that (issue 31, item 4).
  std::optional<Animated> to_neutral() const override {
    (void)dat_.list();
    return std::nullopt;
  }
  Json dump() const override {
    Json entries = Json::array();
    for (const DatEntry& e : dat_.list()) entries.push_back(to_json(e));
    return Json{{"asherons_call", "dat"}, {"header", to_json(dat_.header())}, {"entries", entries}};
  }
  // Issue 28: the directory, every object's chain, every motion table, animation, Setup and
  // mesh object (GfxObj, Surface, SurfaceTexture, texture, Palette) parsed (id == key; bytes
  // past the object reported with their offset), and every reference between them: Setup ->
  // motion table (and GfxObj parts, when the dat holds GfxObjs), motion table -> animation,
  // GfxObj -> Surface -> SurfaceTexture -> texture -> Palette. The rules of `validate DAT --id`
  // are the same functions.
  std::vector<Finding> validate() const override {
    std::vector<Finding> out;
    std::vector<DatEntry> entries;
    try {
      entries = dat_.list();
    } catch (const Error& e) {
      out.push_back({Finding::Level::kError, "BAD_DIRECTORY", "directory", e.what(), ""});
      return out;
    }
    if (dat_.header().file_size != dat_.file_bytes()) {
      out.push_back({Finding::Level::kWarning, "FILE_SIZE", "header",
                     fmt::format("file_size {} but the file has {} bytes",
                                 dat_.header().file_size, dat_.file_bytes()),
                     ""});
    }
    auto bad = [&](uint32_t id, const Error& err) {
      out.push_back({Finding::Level::kError, "BAD_OBJECT", hex32(id), err.what(), ""});
    };
    std::set<uint32_t> present, readable_animations, tables;
    bool any_gfx = false;
    for (const DatEntry& e : entries) {
      present.insert(e.id);
      any_gfx |= (e.id >> 24) == 0x01;
    }
    const std::function<bool(uint32_t)> has = [&](uint32_t id) { return present.count(id) != 0; };
    std::vector<Setup> setups;
    std::vector<MotionTable> parsed_tables;
    for (const DatEntry& e : entries) {
      const uint8_t type = static_cast<uint8_t>(e.id >> 24);
      try {
        if (type == kTypeSetup) {
          setups.push_back(setup_from_dat(dat_, e.id));
        } else if (type == kTypeMotionTable) {
          parsed_tables.push_back(motion_table_from_dat(dat_, e.id));
          tables.insert(e.id);
        } else if (type == kTypeAnimation) {
          const Animation a = animation_from_dat(dat_, e.id);
          readable_animations.insert(e.id);
          if (!a.tail.empty()) {
            out.push_back({Finding::Level::kWarning, "TRAILING_BYTES", hex32(e.id),
                           fmt::format("offset {:#x}: {} bytes after the animation",
                                       write_animation(a).size() - a.tail.size(), a.tail.size()),
                           ""});
          }
        } else {
          // The chain of every other object (container page 2); the mesh objects parsed and
          // checked, references included, as `validate DAT --id` does (meshes page 2, 12).
          const std::vector<uint8_t> bytes = dat_.read(e);
          (void)validate_mesh_object(e.id, bytes, has, out);
        }
      } catch (const Error& err) {
        bad(e.id, err);
      }
    }
    for (const Setup& s : setups) {
      validate_setup(s, out);
      if (s.default_motion_table != 0 && !tables.count(s.default_motion_table)) {
        out.push_back({Finding::Level::kError, "MISSING_MOTION_TABLE", hex32(s.id),
                       fmt::format("Setup {} names motion table {}, which {}", hex32(s.id),
                                   hex32(s.default_motion_table),
                                   present.count(s.default_motion_table)
                                       ? "cannot be read"
                                       : "is not in the dat"),
                       ""});
      }
      if (!any_gfx) continue;  // a motion-only dat: parts are not checked
      for (size_t i = 0; i < s.parts.size(); ++i) {
        // The invisible anchor part is never drawn (meshes page 8.1); a missing GfxObj leaves the
        // part's joint without a mesh (12.7): a warning, as the other missing mesh objects (12.4).
        if (present.count(s.parts[i]) || s.parts[i] == 0x010001ECu) continue;
        out.push_back({Finding::Level::kWarning, "MISSING_GFX_OBJECT",
                       fmt::format("{} part {}", hex32(s.id), i),
                       fmt::format("Setup {} part {} names GfxObj {}, which is not in the dat",
                                   hex32(s.id), i, hex32(s.parts[i])),
                       ""});
      }
    }
    for (const MotionTable& t : parsed_tables) {
      if (!t.tail.empty()) {
        out.push_back({Finding::Level::kWarning, "TRAILING_BYTES", hex32(t.id),
                       fmt::format("offset {:#x}: {} bytes after the motion table",
                                   write_motion_table(t).size() - t.tail.size(), t.tail.size()),
                       ""});
      }
      validate_table(t, [&](uint32_t id) { return readable_animations.count(id) != 0; }, out);
    }
    return out;
  }

 private:
  DatFile dat_;
};

uint32_t id_option(const std::string& text) {
  const uint32_t id = parse_command(text);  // a number ("0x09000001")
  return id;
}

// `DAT --id 0x09000001`: the object as the document the loose file would give.
// `DAT --setup 0x02000001 [--id TABLE|ANIMATION]` (or `--id` a Setup): the creature with the
// Setup's default motion table, or the table / animation `--id` picks.
std::unique_ptr<Document> open_creature(const DatFile& dat, Setup setup, const Options& options) {
  auto it = options.find("id");
  uint32_t id = setup.default_motion_table;
  if (it != options.end() && options.count("setup")) id = id_option(it->second);
  const uint8_t type = static_cast<uint8_t>(id >> 24);
  if (id != 0 && type == kTypeAnimation) {
    return std::make_unique<SetupDocument>(std::move(setup), std::nullopt, AnimationStore{},
                                           animation_from_dat(dat, id), creature_options(options));
  }
  if (id != 0 && type != kTypeMotionTable) {
    throw Error(fmt::format("--id {} with --setup: expected a motion table (0x09) or an "
                            "animation (0x03)",
                            hex32(id)));
  }
  const bool named = it != options.end() && options.count("setup");
  if (id == 0 || (!named && !dat.find(id))) {
    return std::make_unique<SetupDocument>(std::move(setup), std::nullopt, AnimationStore{},
                                           std::nullopt, creature_options(options));
  }
  MotionTable t = motion_table_from_dat(dat, id);
  AnimationStore store = animations_for(dat, t);
  return std::make_unique<SetupDocument>(std::move(setup), std::move(t), std::move(store),
                                         std::nullopt, creature_options(options));
}

// The first Setup of the dat (by id) whose default motion table is `table`; unreadable Setups
// are passed over (validate reports them).
std::optional<Setup> setup_naming(const DatFile& dat, uint32_t table) {
  for (const DatEntry& e : dat.list_type(kTypeSetup)) {
    try {
      Setup s = setup_from_dat(dat, e.id);
      if (s.default_motion_table == table) return s;
    } catch (const Error&) {
    }
  }
  return std::nullopt;
}

std::unique_ptr<Document> open_dat(const std::filesystem::path& path, const Options& options) {
  DatFile dat = DatFile::open(path);
  if (std::optional<Setup> setup = setup_option(options, &dat)) {
    Setup drawn = *setup;  // issue 28: the parts' meshes (asherons-call-meshes.md)
    return with_creature_meshes(open_creature(dat, std::move(*setup), options), dat, std::move(drawn));
  }
  auto it = options.find("id");
  if (it == options.end()) return std::make_unique<DatDocument>(std::move(dat));
  const uint32_t id = id_option(it->second);
  const uint8_t type = static_cast<uint8_t>(id >> 24);
  if (type == kTypeMotionTable) {
    MotionTable t = motion_table_from_dat(dat, id);
    AnimationStore store = animations_for(dat, t);
    // Issue 28: the creature path, over the first Setup that names this table (else bare).
    std::optional<Setup> setup = parts_option(options) ? std::nullopt : setup_naming(dat, id);
    return std::make_unique<MotionTableDocument>(std::move(t), std::move(store),
                                                 parts_option(options), std::move(setup),
                                                 creature_options(options));
  }
  if (type == kTypeAnimation) {
    return std::make_unique<AnimationDocument>(animation_from_dat(dat, id), parts_option(options));
  }
  if (type == kTypeSetup) {
    Setup s = setup_from_dat(dat, id);
    return with_creature_meshes(open_creature(dat, s, options), dat, s);
  }
  if (std::unique_ptr<Document> d = open_mesh_object(dat, id)) return d;  // issue 28
  const std::optional<DatEntry> e = dat.find(id);
  if (!e) throw Error(fmt::format("object {} is not in the dat", hex32(id)));
  return std::make_unique<DatObjectDocument>(*e);
}

Format dat_format() {
  Format f;
  f.name = "ac-dat";
  f.engine = "asherons_call";
  f.description = "Asheron's Call .dat container (client_portal.dat); --id picks an object";
  f.maps_file = true;
  f.extensions = {".dat"};
  f.sniff = [](const std::filesystem::path&, Bytes head) {
    if (head.size() < kDatHeaderEnd) return false;
    try {
      read_dat_header(head);
      return true;
    } catch (const Error&) {
      return false;
    }
  };
  f.open = [](const std::filesystem::path& path, Bytes,
              const Options& options) -> std::unique_ptr<Document> {
    return open_dat(path, options);
  };
  return f;
}

// ---- ac-setup, ac-setup-json (issue 28 item 2): a Setup on its own --------------------------

// A loose Setup exports as the creature: the rest pose, plus the clips of `--motion-table T
// [--animations DIR]` when given (its default table lives in a dat, not beside the file).
Format setup_format(bool json) {
  Format f;
  f.name = json ? "ac-setup-json" : "ac-setup";
  f.engine = "asherons_call";
  f.description = json ? "Asheron's Call Setup, animkit JSON form"
                       : "Asheron's Call Setup object (0x02xxxxxx)";
  f.sniff = [json](const std::filesystem::path&, Bytes head) {
    return json ? json_kind(head, ObjectKind::kSetup) : looks_like_setup(head);
  };
  f.open = [json](const std::filesystem::path& path, Bytes bytes,
                  const Options& options) -> std::unique_ptr<Document> {
    Setup setup = json ? setup_from_json(parse_json(text_of(bytes), path.string()))
                       : read_setup(bytes);
    std::optional<MotionTable> table;
    AnimationStore store;
    if (auto it = options.find("motion-table"); it != options.end()) {
      table = load_motion_table(it->second);
      if (std::optional<AnimationStore> dir = store_option(options)) store = std::move(*dir);
    }
    return std::make_unique<SetupDocument>(std::move(setup), std::move(table), std::move(store),
                                           std::nullopt, creature_options(options));
  };
  return f;
}

// `animkit demo`: the humanoid table driven walk -> run -> stop, traced and exported.
void demo(DemoContext& ctx) {
  const std::filesystem::path dir = ctx.out_dir / "asherons_call";
  std::filesystem::create_directories(dir / "animations");
  const MotionTable table = humanoid_table();
  write_file(dir / "0x09000101.bin", write_motion_table(table));
  write_text(dir / "table.json", to_json(table).dump(1) + "\n");
  AnimationStore store;
  for (Animation& a : humanoid_animations()) {
    write_file(dir / "animations" / (hex32(a.id) + ".bin"), write_animation(a));
    store.add(std::move(a));
  }
  write_text(dir / "parts.json", std::string(humanoid_parts_json()) + "\n");

  auto runtime = std::make_shared<const CMotionTable>(table);
  PhysicsObj obj(runtime, &store);
  obj.enter_default_state();
  // Inbound wire messages: walk, run with a sidestep, stop (type 0 interpreted states).
  auto message = [](uint16_t seq, uint32_t forward, float speed, uint32_t sidestep) {
    MovementMessage m;
    m.guid = 0x50000001;
    m.movement_sequence = seq;
    m.current_style = 0x003D;
    InterpretedMotionState s;
    s.forward_command = forward;
    s.forward_speed = speed;
    s.sidestep_command = sidestep;
    m.state = wire_state_from(s);
    return write_movement_message(m);
  };
  struct Step {
    int tick;
    std::vector<uint8_t> wire;
    const char* what;
  };
  const std::vector<Step> steps = {
      {5, message(1, motion::kWalkForward, 1.0f, 0), "walk"},
      {45, message(2, motion::kRunForward, 1.0f, motion::kSideStepRight), "run + sidestep"},
      {85, message(3, motion::kReady, 1.0f, 0), "stop"}};
  std::string trace;
  size_t hooks = 0, done = 0;
  std::vector<InputRecord> inputs;
  for (int k = 0; k < 120; ++k) {
    obj.begin_tick();
    inputs.clear();
    for (const Step& s : steps) {
      if (s.tick == k) inputs.push_back(apply_wire(obj, s.wire));
    }
    obj.update_object(1.0 / 30.0);
    hooks += obj.tick_hooks.size();
    done += obj.tick_motion_done.size();
    trace += trace_json(obj, static_cast<uint64_t>(k), 1.0 / 30.0, inputs).dump() + "\n";
  }
  write_text(dir / "trace.jsonl", trace);
  const Parts parts = parts_from_json(parse_json(humanoid_parts_json()));
  const Animated animated = table_to_neutral(table, store, &parts);
  write_demo_gltf(animated, dir / "humanoid.glb");
  ctx.out << fmt::format(
      "asherons_call: humanoid table {} ({} cycles, {} link sets, {} animations) written as "
      "binary and JSON\n",
      hex32(table.id), table.cycles.size(), table.links.size(), store.all().size());
  ctx.out << fmt::format(
      "asherons_call: walk -> run + sidestep -> stop over 120 ticks at 30 Hz by wire "
      "messages: {} hooks, {} motions done; ends at {} with {} node(s), position ({:.3f}, "
      "{:.3f}, {:.3f})\n",
      hooks, done, command_label(obj.manager.state.substate), obj.sequence.anim_list().size(),
      obj.position.origin.x, obj.position.origin.y, obj.position.origin.z);
  ctx.out << fmt::format("asherons_call: wrote {} (trace) and {} ({} clips)\n",
                         (dir / "trace.jsonl").string(), (dir / "humanoid.glb").string(),
                         animated.clips.size());
  // The creature as the client poses it: Setup 0x02000001 of a dat, with its motion table.
  write_file(dir / "humanoid.dat", humanoid_dat());
  const Animated creature = open_dat(dir / "humanoid.dat", {{"setup", "0x02000001"}})->to_neutral()
                                .value();
  write_demo_gltf(creature, dir / "creature.glb");
  ctx.out << fmt::format("asherons_call: wrote {} (Setup 0x02000001 + table + animations) and {} "
                         "({} joints, {} clips)\n",
                         (dir / "humanoid.dat").string(), (dir / "creature.glb").string(),
                         creature.skeleton.num_joints(), creature.clips.size());
  // Issue 28: the textured humanoid (a box per part, every decoded pixel format); `animkit
  // export textured.dat --setup 0x02000002 -o textured.glb` writes it with its meshes.
  write_file(dir / "textured.dat", textured_humanoid_dat());
  std::vector<std::string> notes;
  const MeshSet meshes =
      open_dat(dir / "textured.dat", {{"setup", "0x02000002"}})->mesh_set(notes).value();
  ctx.out << fmt::format("asherons_call: wrote {} (Setup 0x02000002: {} meshes, {} materials, {} "
                         "images)\n",
                         (dir / "textured.dat").string(), meshes.meshes.size(),
                         meshes.materials.size(), meshes.images.size());
}

}  // namespace

void register_module(Registry& registry) {
  Engine engine;
  engine.name = "asherons_call";
  engine.formats.push_back(make_format(
      "ac-motion-table", "Asheron's Call MotionTable object (0x09xxxxxx)", false, true));
  engine.formats.push_back(
      make_format("ac-animation", "Asheron's Call Animation object (0x03xxxxxx)", false, false));
  engine.formats.push_back(make_format(
      "ac-motion-table-json", "Asheron's Call MotionTable, animkit JSON form", true, true));
  engine.formats.push_back(
      make_format("ac-animation-json", "Asheron's Call Animation, animkit JSON form", true, false));
  engine.formats.push_back(dat_format());
  add_mesh_formats(engine);  // issue 28: GfxObj, Surface, SurfaceTexture, Texture, Palette
  engine.formats.push_back(setup_format(false));  // issue 28: Setups on their own
  engine.formats.push_back(setup_format(true));
  engine.options = {{"motion-table", "Asheron's Call motion table (binary or JSON)"},
                    {"id", "Asheron's Call dat: the object to open, e.g. 0x09000001"},
                    {"animations", "Asheron's Call animation folder (binary or JSON files)"},
                    {"parts", "Asheron's Call part hierarchy JSON (flat when absent)"},
                    {"setup", "Asheron's Call Setup: its parts as the skeleton (with a dat, an "
                              "id such as 0x02000001; else a Setup file)"},
                    {"rig", "Asheron's Call Setup rig: parents (default: by parent_index) or "
                            "flat"}};
  engine.open_set = [](const Options& options) -> std::unique_ptr<Document> {
    auto it = options.find("motion-table");
    if (it == options.end()) return nullptr;
    MotionTable t = load_motion_table(it->second);
    std::optional<AnimationStore> store = store_option(options);
    if (!store) store = AnimationStore{};
    return std::make_unique<MotionTableDocument>(std::move(t), std::move(store),
                                                 parts_option(options),
                                                 setup_option(options, nullptr),
                                                 creature_options(options));
  };
  engine.play = [](const Json& scenario, const std::filesystem::path& base,
                   const PlayOptions& options,
                   std::ostream& out) { return play_scenario(scenario, base, options.json, out); };
  engine.demo = demo;
  registry.add(std::move(engine));
}

}  // namespace animkit::asherons_call
