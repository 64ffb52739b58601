#include "animkit/asherons_call/mesh_formats.h"

#include <fmt/format.h>

#include <cmath>
#include <optional>
#include <type_traits>
#include <unordered_map>

#include "animkit/asherons_call/command_ids.h"
#include "animkit/asherons_call/creature.h"
#include "animkit/asherons_call/creature_mesh.h"
#include "animkit/asherons_call/gfx_obj.h"
#include "animkit/asherons_call/palette.h"
#include "animkit/asherons_call/surface.h"
#include "animkit/asherons_call/surface_texture.h"
#include "animkit/asherons_call/texture.h"
#include "animkit/core/error.h"
#include "animkit/core/limits.h"

namespace animkit::asherons_call {

namespace {

using Findings = std::vector<Finding>;

// 2: one id an object names; `field` and `target` name it in the finding, `effect` says what
// export does without it (12.4).
struct Reference {
  uint32_t to;
  const char* code;
  std::string field;
  const char* target;
  const char* effect;
};

void error(Findings& out, const char* code, std::string where, std::string message) {
  out.push_back({Finding::Level::kError, code, std::move(where), std::move(message), ""});
}

// 12.2: id against the key (in a dat), the tail, the round trip.
void common_checks(Findings& out, const std::string& where, std::optional<uint32_t> key,
                   uint32_t stored_id, bool has_id, size_t tail, size_t size,
                   const std::vector<uint8_t>& original, const std::vector<uint8_t>& written) {
  if (key && has_id && *key != stored_id)
    error(out, "ID_MISMATCH", where,
          fmt::format("offset 0x0: the object's id is {}, its key {}", hex32(stored_id), hex32(*key)));
  if (tail)
    error(out, "TRAILING_BYTES", where,
          fmt::format("offset 0x{:X}: {} bytes after the object", size - tail, tail));
  if (written != original) error(out, "ROUND_TRIP", where, "written back, the bytes differ");
}

// ---- per type: parse, write, info, dump, checks ------------------------------------------------

struct GfxObjKind {
  static constexpr const char* kLabel = "GfxObj";
  using T = GfxObj;
  static constexpr const char* kName = "gfx_obj";
  static T read(Bytes b) { return read_gfx_obj(b); }
  static std::vector<uint8_t> write(const T& g) { return write_gfx_obj(g); }
  static uint32_t id(const T& g) { return g.id; }
  static size_t tail(const T& g) { return g.tail.size(); }
  static Json info(const T& g) {
    size_t triangles = 0;
    for (const Polygon& p : g.drawing_polygons)
      if (p.vertex_ids.size() >= 3) triangles += (p.vertex_ids.size() - 2) * (p.sides_type == 2 ? 2 : 1);
    return Json{{"flags", g.flags},
                {"surfaces", g.surfaces.size()},
                {"vertices", g.vertices.size()},
                {"physics_polygons", g.physics_polygons.size()},
                {"drawing_polygons", g.drawing_polygons.size()},
                {"triangles", triangles}};
  }
  // 2, step 2: every listed Surface (a polygon's missing Surface gets a white material).
  static void references(const T& g, std::vector<Reference>& out) {
    for (size_t k = 0; k < g.surfaces.size(); ++k)
      out.push_back({g.surfaces[k], "MISSING_SURFACE", fmt::format("surface {}", k), "Surface",
                     "the polygons on it get a white material"});
  }
  static void checks(const T& g, const std::string& where, Findings& out) {
    // Vertices by key, the last of duplicates (12.10): one lookup per corner, so a whole-dat
    // validate stays linear in each GfxObj's size.
    std::unordered_map<uint16_t, const SWVertex*> by_key;
    for (const SWVertex& v : g.vertices) by_key[v.key] = &v;
    const auto vertex = [&](uint16_t key) -> const SWVertex* {
      auto it = by_key.find(key);
      return it == by_key.end() ? nullptr : it->second;
    };
    if (g.vertex_type != 1)
      error(out, "VERTEX_TYPE", where, fmt::format("offset 0x{:X}: vertex_type {} (must be 1)",
                                                   9 + g.num_surfaces.width - 1 + 4 * g.surfaces.size(),
                                                   g.vertex_type));
    std::vector<std::string> notes;
    gfx_obj_triangles(g, notes);
    for (std::string& n : notes) out.push_back({Finding::Level::kWarning, "POLYGON", where, n, ""});
    // 8 "Checks": each positive side's fan normal against its corners' mean stored normal (the
    // winding inference of 7); a count of disagreeing polygons, for real data to confirm.
    size_t against = 0, checked = 0;
    for (const Polygon& p : g.drawing_polygons) {
      Vec3 fan{}, mean{};
      std::vector<const SWVertex*> vs;
      for (uint16_t id : p.vertex_ids)
        if (const SWVertex* v = vertex(id)) vs.push_back(v);
      if (vs.size() != p.vertex_ids.size() || vs.size() < 3) continue;
      for (size_t k = 1; k + 1 < vs.size(); ++k)
        fan = fan + cross(vs[k]->origin - vs[0]->origin, vs[k + 1]->origin - vs[0]->origin);
      for (const SWVertex* v : vs) mean = mean + v->normal;
      if (length(fan) < 1e-12f || length(mean) < 1e-6f) continue;
      ++checked;
      if (dot(fan, mean) <= 0) ++against;
    }
    if (against)
      out.push_back({Finding::Level::kWarning, "WINDING", where,
                     fmt::format("{} of {} drawing polygons: the fan normal points away from the "
                                 "stored vertex normals (meshes page 7 infers counter-clockwise)",
                                 against, checked), ""});
    for (const Polygon& p : g.drawing_polygons)
      for (size_t i = 0; i < p.pos_uv.size(); ++i) {
        const SWVertex* v = i < p.vertex_ids.size() ? vertex(p.vertex_ids[i]) : nullptr;
        if (!v || (p.pos_uv[i] >= v->uvs.size() && !v->uvs.empty())) {
          out.push_back({Finding::Level::kWarning, "UV_INDEX", where,
                         fmt::format("polygon {} corner {}: UV number {} past its vertex's UVs "
                                     "(UV 0 used)", p.key, i, p.pos_uv[i]), ""});
          break;
        }
      }
  }
};

struct SurfaceKind {
  static constexpr const char* kLabel = "Surface";
  using T = Surface;
  static constexpr const char* kName = "surface";
  static T read(Bytes b) { return read_surface(b); }
  static std::vector<uint8_t> write(const T& s) { return write_surface(s); }
  static uint32_t id(const T&) { return 0; }
  static size_t tail(const T& s) { return s.tail.size(); }
  static Json info(const T& s) {
    Json j{{"type", s.type}, {"type_names", surface_type_names(s.type)}};
    if (s.textured()) j["orig_texture_id"] = hex32(s.orig_texture_id);
    else j["color"] = hex32(s.color);
    return j;
  }
  // 2, step 3. orig_palette_id is not followed: ACE and ACV ignore it (11), export too.
  static void references(const T& s, std::vector<Reference>& out) {
    if (s.textured())
      out.push_back({s.orig_texture_id, "MISSING_SURFACE_TEXTURE", "orig_texture_id",
                     "SurfaceTexture", "placeholder image"});
  }
  static void checks(const T&, const std::string&, Findings&) {}
};

struct SurfaceTextureKind {
  static constexpr const char* kLabel = "SurfaceTexture";
  using T = SurfaceTexture;
  static constexpr const char* kName = "surface_texture";
  static T read(Bytes b) { return read_surface_texture(b); }
  static std::vector<uint8_t> write(const T& s) { return write_surface_texture(s); }
  static uint32_t id(const T& s) { return s.id; }
  static size_t tail(const T& s) { return s.tail.size(); }
  static Json info(const T& s) {
    Json ts = Json::array();
    for (uint32_t t : s.textures) ts.push_back(hex32(t));
    return Json{{"texture_kind", s.texture_kind}, {"textures", ts}};
  }
  // 2, step 4: every listed texture (export draws textures[0], 5.3); the client also looks in
  // client_highres.dat, which a portal dat's validate cannot see.
  static void references(const T& s, std::vector<Reference>& out) {
    for (size_t i = 0; i < s.textures.size(); ++i)
      out.push_back({s.textures[i], "MISSING_TEXTURE", fmt::format("textures[{}]", i), "texture",
                     i == 0 ? "placeholder image (the client also looks in client_highres.dat)"
                            : "unused by export (5.3: textures[0])"});
  }
  static void checks(const T& s, const std::string& where, Findings& out) {
    if (s.textures.empty())
      out.push_back({Finding::Level::kWarning, "NO_TEXTURE", where, "lists no texture", ""});
  }
};

struct TextureKind {
  static constexpr const char* kLabel = "texture";
  using T = Texture;
  static constexpr const char* kName = "texture";
  static T read(Bytes b) { return read_texture(b); }
  static std::vector<uint8_t> write(const T& t) { return write_texture(t); }
  static uint32_t id(const T& t) { return t.id; }
  static size_t tail(const T& t) { return t.tail.size(); }
  static Json info(const T& t) {
    Json j{{"width", t.width}, {"height", t.height}, {"format", t.format},
           {"format_name", pixel_format_name(t.format)}, {"length", t.data.size()}};
    if (has_palette(t.format)) j["default_palette_id"] = hex32(t.default_palette_id);
    return j;
  }
  // 2, step 5: a P8 or INDEX16 image's palette (an id of 0 is missing too: the pixels need one).
  static void references(const T& t, std::vector<Reference>& out) {
    if (has_palette(t.format))
      out.push_back({t.default_palette_id, "MISSING_PALETTE", "default_palette_id", "Palette",
                     "placeholder image"});
  }
  static void checks(const T& t, const std::string& where, Findings& out) {
    if (t.width <= 0 || t.height <= 0)
      error(out, "SIZE", where, fmt::format("offset 0x8: size {} x {}", t.width, t.height));
    const std::optional<uint64_t> need = expected_length(t);
    if (!need && t.format != pixel::kRawJpeg)
      out.push_back({Finding::Level::kWarning, "FORMAT", where,
                     fmt::format("offset 0x10: pixel format {} is not decoded (placeholder)", t.format), ""});
    if (need && t.data.size() < *need)
      error(out, "SHORT_DATA", where,
            fmt::format("offset 0x14: {} {} x {} needs {} bytes, length {}", pixel_format_name(t.format),
                        t.width, t.height, *need, t.data.size()));
  }
};

struct PaletteKind {
  static constexpr const char* kLabel = "Palette";
  using T = Palette;
  static constexpr const char* kName = "palette";
  static T read(Bytes b) { return read_palette(b); }
  static std::vector<uint8_t> write(const T& p) { return write_palette(p); }
  static uint32_t id(const T& p) { return p.id; }
  static size_t tail(const T& p) { return p.tail.size(); }
  static Json info(const T& p) { return Json{{"colors", p.colors.size()}}; }
  static void references(const T&, std::vector<Reference>&) {}
  static void checks(const T&, const std::string&, Findings&) {}
};

// Every rule of one object, loose (no key, no `has`) or in a dat: 12.2 (id, tail, round trip),
// the type's checks, and with `has` each reference of 2 to an object `has` does not find. A
// missing one is a warning: export goes on with a placeholder image, a white material (12.4)
// and a note. The one function of `validate DAT --id ID` and `validate DAT` (issue 28).
template <class K>
void validate_object(const typename K::T& object, const std::vector<uint8_t>& bytes,
                     std::optional<uint32_t> key, const std::function<bool(uint32_t)>& has,
                     Findings& out) {
  const std::string where = key ? hex32(*key) : std::string(K::kName);
  common_checks(out, where, key, K::id(object), !std::is_same_v<K, SurfaceKind>, K::tail(object),
                bytes.size(), bytes, K::write(object));
  K::checks(object, where, out);
  if (!has) return;
  std::vector<Reference> refs;
  K::references(object, refs);
  for (const Reference& r : refs) {
    if (r.to != 0 && has(r.to)) continue;
    out.push_back({Finding::Level::kWarning, r.code, where + " " + r.field,
                   fmt::format("{} {} {} names {} {}, which is not in the dat: {}", K::kLabel, where,
                               r.field, r.target, hex32(r.to), r.effect),
                   ""});
  }
}

template <class K>
class ObjectDocument : public Document {
 public:
  ObjectDocument(std::vector<uint8_t> bytes, std::optional<uint32_t> key,
                 std::function<bool(uint32_t)> has = {})
      : bytes_(std::move(bytes)), key_(key), has_(std::move(has)), object_(K::read(bytes_)) {}
  Json info() const override {
    Json j{{"kind", K::kName}};
    if (std::is_same_v<K, SurfaceKind>) {
      if (key_) j["id"] = hex32(*key_);
    } else {
      j["id"] = hex32(K::id(object_));
    }
    j["bytes"] = bytes_.size();
    j.update(K::info(object_));
    return j;
  }
  Json dump() const override {
    Json j = to_json(object_);
    if (key_ && std::is_same_v<K, SurfaceKind>) j["key"] = hex32(*key_);
    return j;
  }
  std::vector<Finding> validate() const override {
    Findings out;
    validate_object<K>(object_, bytes_, key_, has_, out);
    return out;
  }
  // A GfxObj alone exports as a static mesh (issue 28 item 2): one joint at the origin with the
  // object's drawing polygons bound to it (7; axes C, 8). Its Surfaces are other objects, so each
  // surface is a white material naming its id (12.4), as a creature's missing Surface is.
  std::optional<Animated> to_neutral() const override {
    if constexpr (std::is_same_v<K, GfxObjKind>) {
      Animated a;
      a.skeleton.add_joint(fmt::format("gfx_obj_{:08X}", object_.id), -1, Transform{});
      a.notes.push_back("a GfxObj alone: one joint at the origin; its Surfaces are not in the file "
                        "(white materials named by their ids)");
      return a;
    }
    return std::nullopt;
  }
  std::optional<MeshSet> mesh_set(std::vector<std::string>& notes) const override {
    if constexpr (std::is_same_v<K, GfxObjKind>) {
      MeshSet set;
      for (const PartTriangles& t : gfx_obj_triangles(object_, notes)) {
        if (t.indices.empty()) continue;
        Material mat;
        mat.name = fmt::format("surface_{:08X}", t.surface_id);
        mat.extras = Json{{"surface", hex32(t.surface_id)}, {"double_sided", t.double_sided}};
        Mesh m;
        m.name = fmt::format("{:08X}_{:08X}", object_.id, t.surface_id);
        m.material = static_cast<int>(set.materials.size());
        set.materials.push_back(std::move(mat));
        for (size_t v = 0; v < t.positions.size(); ++v) {
          m.positions.push_back(to_gltf_axes(t.positions[v]));
          const Vec3 n = to_gltf_axes(t.normals[v]);  // unit already (gfx_obj_triangles)
          const float l = length(n);
          m.normals.push_back(l < 0.5f ? Vec3{0, 1, 0} : n * (1 / l));
          m.uvs.push_back(t.uvs[v]);
        }
        m.indices = t.indices;
        m.joints.assign(m.positions.size(), {0, 0, 0, 0});
        m.weights.assign(m.positions.size(), {1, 0, 0, 0});
        set.meshes.push_back(std::move(m));
      }
      if (set.meshes.empty()) notes.push_back("the GfxObj draws no polygon of 3 or more points");
      return set;
    }
    return std::nullopt;
  }

 private:
  std::vector<uint8_t> bytes_;
  std::optional<uint32_t> key_;
  std::function<bool(uint32_t)> has_;  // in a dat: whether an id is there (references, 2)
  typename K::T object_;
};

// ---- sniffs: the id's type byte, then the layout to the last byte --------------------------

constexpr size_t kHeadLimit = 65536;  // Registry: head is the whole file or its first 64 KiB

uint32_t u32_at(Bytes b, size_t at) {
  return b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (uint32_t{b[at + 3]} << 24);
}

bool sniff_gfx_obj(Bytes head) {
  if (head.size() < 4 + 4 + 1 + 4 + 4 + 12 || head[3] != kTypeGfxObj) return false;
  const uint32_t flags = u32_at(head, 4);
  if (flags & ~0xFu) return false;
  if (head.size() < kHeadLimit) {
    try {
      const GfxObj g = read_gfx_obj(head);
      if (!g.tail.empty() || g.vertex_type != 1) return false;
      for (uint32_t s : g.surfaces)
        if ((s >> 24) != kTypeSurface) return false;
      return true;
    } catch (const Error&) {
      return false;
    }
  }
  Reader r(head);
  r.skip(8);
  const CompressedU32 n = read_cu32(r);
  if (!fits(n.value, 4, r.remaining() - 8)) return n.value > 0;  // a long list past the head
  for (uint32_t i = 0; i < n.value; ++i)
    if ((r.u32() >> 24) != kTypeSurface) return false;
  return r.i32() == 1;
}

bool sniff_surface(Bytes head) {
  if (head.size() != 20 && head.size() != 24) return false;
  Surface s;
  try {
    s = read_surface(head);
  } catch (const Error&) {
    return false;  // a textured type in 20 bytes
  }
  if ((s.type & ~kSurfaceKnownFlags) || !s.tail.empty()) return false;
  if (s.textured()) {
    return (s.orig_texture_id >> 24) == kTypeSurfaceTexture &&
           (s.orig_palette_id == 0 || (s.orig_palette_id >> 24) == kTypePalette);
  }
  return std::isfinite(s.translucency) && std::isfinite(s.luminosity) && std::isfinite(s.diffuse);
}

bool sniff_surface_texture(Bytes head) {
  if (head.size() < 13 || head[3] != kTypeSurfaceTexture || head[8] < 1 || head[8] > 5) return false;
  try {
    const SurfaceTexture s = read_surface_texture(head);
    if (!s.tail.empty()) return false;
    for (uint32_t t : s.textures)
      if ((t >> 24) != kTypeTexture && (t >> 24) != kTypeTextureHighres) return false;
    return true;
  } catch (const Error&) {
    return false;
  }
}

bool sniff_texture(Bytes head) {
  if (head.size() < 24 || (head[3] != kTypeTexture && head[3] != kTypeTextureHighres)) return false;
  const uint32_t format = u32_at(head, 16);
  if (pixel_format_name(format) == std::string("unknown")) return false;
  const int32_t length = static_cast<int32_t>(u32_at(head, 20));
  if (length < 0) return false;
  const uint64_t size = 24 + static_cast<uint64_t>(length) + (has_palette(format) ? 4 : 0);
  return head.size() < kHeadLimit ? size == head.size() : size >= head.size();
}

bool sniff_palette(Bytes head) {
  if (head.size() < 8 || head[3] != kTypePalette) return false;
  const int32_t n = static_cast<int32_t>(u32_at(head, 4));
  if (n < 0) return false;
  const uint64_t size = 8 + 4 * static_cast<uint64_t>(n);
  return head.size() < kHeadLimit ? size == head.size() : size >= head.size();
}

template <class K>
Format object_format(std::string name, std::string description, bool (*sniff)(Bytes)) {
  Format f;
  f.name = std::move(name);
  f.engine = "asherons_call";
  f.description = std::move(description);
  f.sniff = [sniff](const std::filesystem::path&, Bytes head) { return sniff(head); };
  f.open = [](const std::filesystem::path&, Bytes bytes, const Options&) -> std::unique_ptr<Document> {
    return std::make_unique<ObjectDocument<K>>(std::vector<uint8_t>(bytes.begin(), bytes.end()),
                                               std::nullopt);
  };
  return f;
}

// ---- the creature with its meshes ------------------------------------------------------------

class CreatureMeshDocument : public Document {
 public:
  CreatureMeshDocument(std::unique_ptr<Document> inner, const DatFile& dat, Setup setup)
      : inner_(std::move(inner)), dat_(dat), setup_(std::move(setup)) {}
  Json info() const override {
    Json j = inner_->info();
    j["meshes"] = meshes().summary;
    return j;
  }
  Json dump() const override {
    Json j = inner_->dump();
    if (j.is_object()) j["meshes"] = meshes().summary;
    return j;
  }
  std::vector<Finding> validate() const override { return inner_->validate(); }
  std::string validate_summary(const std::vector<Finding>& f) const override {
    return inner_->validate_summary(f);
  }
  std::string finding_line(const Finding& f) const override { return inner_->finding_line(f); }
  bool own_line_form() const override { return inner_->own_line_form(); }
  std::optional<Animated> to_neutral() const override { return inner_->to_neutral(); }
  std::optional<MeshSet> mesh_set(std::vector<std::string>& notes) const override {
    const CreatureMeshes& m = meshes();
    notes.insert(notes.end(), m.notes.begin(), m.notes.end());
    if (m.set.meshes.empty()) notes.push_back("no part draws a mesh");
    return m.set;
  }
  std::vector<ClipCurves> curves() const override { return inner_->curves(); }

 private:
  const CreatureMeshes& meshes() const {
    if (!meshes_) {
      // The skeleton the export writes: joints found by name, so any rig or joint order works.
      const std::optional<Animated> a = inner_->to_neutral();
      const Skeleton sk = a ? a->skeleton : creature_skeleton(setup_, rig_parents(setup_, Rig::kFlat));
      meshes_ = creature_meshes(dat_, setup_, sk);
    }
    return *meshes_;
  }
  std::unique_ptr<Document> inner_;
  DatFile dat_;
  Setup setup_;
  mutable std::optional<CreatureMeshes> meshes_;
};

template <class K>
std::unique_ptr<Document> open_in_dat(const DatFile& dat, uint32_t id) {
  const std::optional<DatEntry> e = dat.find(id);
  if (!e) throw Error(fmt::format("object {} is not in the dat", hex32(id)));
  try {
    return std::make_unique<ObjectDocument<K>>(dat.read(*e), id,
                                               [dat](uint32_t to) { return dat.find(to).has_value(); });
  } catch (const Error& err) {
    throw Error(fmt::format("{} {}: {}", K::kName, hex32(id), err.what()));
  }
}

template <class K>
void validate_in_dat(uint32_t id, const std::vector<uint8_t>& bytes,
                     const std::function<bool(uint32_t)>& has, Findings& out) {
  typename K::T object;
  try {
    object = K::read(bytes);
  } catch (const Error& err) {
    throw Error(fmt::format("{} {}: {}", K::kName, hex32(id), err.message()), err.offset());
  }
  validate_object<K>(object, bytes, id, has, out);
}

}  // namespace

void add_mesh_formats(Engine& engine) {
  engine.formats.push_back(object_format<GfxObjKind>(
      "ac-gfx-obj", "Asheron's Call GfxObj object (0x01xxxxxx): a part's mesh", sniff_gfx_obj));
  engine.formats.push_back(object_format<SurfaceTextureKind>(
      "ac-surface-texture", "Asheron's Call SurfaceTexture object (0x05xxxxxx)", sniff_surface_texture));
  engine.formats.push_back(object_format<TextureKind>(
      "ac-texture", "Asheron's Call RenderSurface / Texture object (0x06xxxxxx, 0x07xxxxxx)", sniff_texture));
  engine.formats.push_back(object_format<PaletteKind>(
      "ac-palette", "Asheron's Call Palette object (0x04xxxxxx)", sniff_palette));
  engine.formats.push_back(object_format<SurfaceKind>(
      "ac-surface", "Asheron's Call Surface object (0x08xxxxxx; 20 or 24 bytes, no id)", sniff_surface));
}

std::unique_ptr<Document> open_mesh_object(const DatFile& dat, uint32_t id) {
  switch (id >> 24) {
    case kTypeGfxObj: return open_in_dat<GfxObjKind>(dat, id);
    case kTypeSurface: return open_in_dat<SurfaceKind>(dat, id);
    case kTypeSurfaceTexture: return open_in_dat<SurfaceTextureKind>(dat, id);
    case kTypeTexture: case kTypeTextureHighres: return open_in_dat<TextureKind>(dat, id);
    case kTypePalette: return open_in_dat<PaletteKind>(dat, id);
    default: return nullptr;
  }
}

bool validate_mesh_object(uint32_t id, const std::vector<uint8_t>& bytes,
                          const std::function<bool(uint32_t)>& has, std::vector<Finding>& out) {
  switch (id >> 24) {
    case kTypeGfxObj: validate_in_dat<GfxObjKind>(id, bytes, has, out); return true;
    case kTypeSurface: validate_in_dat<SurfaceKind>(id, bytes, has, out); return true;
    case kTypeSurfaceTexture: validate_in_dat<SurfaceTextureKind>(id, bytes, has, out); return true;
    case kTypeTexture: case kTypeTextureHighres: validate_in_dat<TextureKind>(id, bytes, has, out); return true;
    case kTypePalette: validate_in_dat<PaletteKind>(id, bytes, has, out); return true;
    default: return false;
  }
}

std::unique_ptr<Document> with_creature_meshes(std::unique_ptr<Document> inner, const DatFile& dat,
                                               Setup setup) {
  return std::make_unique<CreatureMeshDocument>(std::move(inner), dat, std::move(setup));
}

}  // namespace animkit::asherons_call
