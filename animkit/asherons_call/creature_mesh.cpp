#include "animkit/asherons_call/creature_mesh.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <tuple>

#include "animkit/asherons_call/command_ids.h"
#include "animkit/asherons_call/creature.h"
#include "animkit/asherons_call/surface.h"
#include "animkit/asherons_call/surface_texture.h"
#include "animkit/asherons_call/texture.h"
#include "animkit/core/error.h"

namespace animkit::asherons_call {

float srgb_to_linear(uint8_t c) {
  const double x = c / 255.0;
  return static_cast<float>(x <= 0.04045 ? x / 12.92 : std::pow((x + 0.055) / 1.055, 2.4));
}

namespace {

Vec3 normalized(Vec3 v) {
  const float l = length(v);
  return l > 1e-12f ? v * (1.0f / l) : Vec3{};
}

}  // namespace

std::vector<PartTriangles> gfx_obj_triangles(const GfxObj& g, std::vector<std::string>& notes) {
  std::map<uint16_t, const SWVertex*> by_key;  // 12.10: of duplicate keys the last wins
  for (const SWVertex& v : g.vertices) by_key[v.key] = &v;
  std::vector<PartTriangles> out;
  std::map<std::pair<uint32_t, bool>, size_t> list_of;            // material key -> list
  std::vector<std::map<std::tuple<uint16_t, int, int>, uint32_t>> numbered;  // per list
  const auto list_for = [&](size_t surface_index, bool two) -> size_t {
    const uint32_t sid = g.surfaces[surface_index];
    auto [it, added] = list_of.try_emplace({sid, two}, out.size());
    if (added) {
      out.push_back({sid, two, {}, {}, {}, {}});
      numbered.emplace_back();
    }
    return it->second;
  };
  size_t skipped = 0, degenerate = 0;
  for (const Polygon& p : g.drawing_polygons) {
    const size_t n = p.vertex_ids.size();
    if (n < 3) continue;  // 7: skip n < 3
    std::vector<const SWVertex*> vs(n);
    bool ok = p.pos_surface >= 0 && static_cast<size_t>(p.pos_surface) < g.surfaces.size();
    if (p.sides_type == 2)
      ok = ok && p.neg_surface >= 0 && static_cast<size_t>(p.neg_surface) < g.surfaces.size();
    for (size_t i = 0; ok && i < n; ++i) {
      auto it = by_key.find(p.vertex_ids[i]);
      ok = it != by_key.end();
      if (ok) vs[i] = it->second;
    }
    if (!ok) {  // 12.10
      ++skipped;
      continue;
    }
    // 7: the fan normal, the sum of cross(pk - p0, pk+1 - p0).
    Vec3 fan{};
    for (size_t k = 1; k + 1 < n; ++k)
      fan = fan + cross(vs[k]->origin - vs[0]->origin, vs[k + 1]->origin - vs[0]->origin);
    if (length(fan) < 1e-12f) {  // 12.5: every fan triangle degenerate
      ++degenerate;
      continue;
    }
    fan = normalized(fan);
    const auto emit_side = [&](bool negative) {
      const size_t surface = static_cast<size_t>(negative ? p.neg_surface : p.pos_surface);
      const size_t li = list_for(surface, p.sides_type == 1);
      PartTriangles& t = out[li];
      const std::vector<uint8_t>& uvn = negative && !p.neg_uv.empty() ? p.neg_uv : p.pos_uv;
      std::vector<uint32_t> corner(n);
      for (size_t i = 0; i < n; ++i) {
        const SWVertex& v = *vs[i];
        int uv = uvn.empty() ? 0 : uvn[i];
        if (static_cast<size_t>(uv) >= v.uvs.size()) uv = 0;  // 7: UV number 0, or (0, 0)
        auto [it, added] = numbered[li].try_emplace({v.key, uv, negative ? 1 : 0},
                                                    static_cast<uint32_t>(t.positions.size()));
        if (added) {
          Vec3 normal = length(v.normal) < 1e-6f ? fan : normalized(v.normal);  // 8 [choice]
          t.positions.push_back(v.origin);
          t.normals.push_back(negative ? normal * -1.0f : normal);
          t.uvs.push_back(v.uvs.empty() ? std::array<float, 2>{0, 0} : v.uvs[static_cast<size_t>(uv)]);
        }
        corner[i] = it->second;
      }
      for (size_t k = 1; k + 1 < n; ++k) {
        t.indices.push_back(corner[0]);
        t.indices.push_back(corner[negative ? k + 1 : k]);
        t.indices.push_back(corner[negative ? k : k + 1]);
      }
    };
    emit_side(false);
    if (p.sides_type == 2) emit_side(true);
  }
  if (skipped)
    notes.push_back(fmt::format("GfxObj {}: {} polygon(s) with a surface index out of range or a "
                                "missing vertex skipped",
                                hex32(g.id), skipped));
  if (degenerate)
    notes.push_back(fmt::format("GfxObj {}: {} degenerate polygon(s) dropped", hex32(g.id), degenerate));
  return out;
}

namespace {

// The dat's objects by id, each parsed once; missing ones remembered as absent.
class Objects {
 public:
  explicit Objects(const DatFile& dat) : dat_(dat) {}

  const GfxObj* gfx_obj(uint32_t id) {
    return load(gfx_, id, "GfxObj", [&](Bytes b) {
      GfxObj g = read_gfx_obj(b);
      check(g.id, id, g.tail.size(), "GfxObj");
      if (g.vertex_type != 1)
        throw Error(fmt::format("GfxObj {}: vertex_type {} (must be 1)", hex32(id), g.vertex_type), 12);
      return g;
    });
  }
  const Surface* surface(uint32_t id) {
    return load(surfaces_, id, "Surface", [&](Bytes b) {
      Surface s = read_surface(b);
      check(id, id, s.tail.size(), "Surface");
      return s;
    });
  }
  const SurfaceTexture* surface_texture(uint32_t id) {
    return load(surface_textures_, id, "SurfaceTexture", [&](Bytes b) {
      SurfaceTexture s = read_surface_texture(b);
      check(s.id, id, s.tail.size(), "SurfaceTexture");
      return s;
    });
  }
  const Texture* texture(uint32_t id) {
    return load(textures_, id, "texture", [&](Bytes b) {
      Texture t = read_texture(b);
      check(t.id, id, t.tail.size(), "texture");
      return t;
    });
  }
  const Palette* palette(uint32_t id) {
    return load(palettes_, id, "Palette", [&](Bytes b) {
      Palette p = read_palette(b);
      check(p.id, id, p.tail.size(), "Palette");
      return p;
    });
  }

 private:
  // 12.2: the id must match the key, and a parse must use every byte.
  static void check(uint32_t stored, uint32_t key, size_t tail, const char* what) {
    if (stored != key)
      throw Error(fmt::format("{} {}: its id is {}", what, hex32(key), hex32(stored)), 0);
    if (tail) throw Error(fmt::format("{} {}: {} bytes after the object", what, hex32(key), tail));
  }
  template <class T, class F>
  const T* load(std::map<uint32_t, std::optional<T>>& cache, uint32_t id, const char* what, F parse) {
    auto it = cache.find(id);
    if (it != cache.end()) return it->second ? &*it->second : nullptr;
    std::optional<T> v;
    if (const std::optional<DatEntry> e = dat_.find(id)) {
      const std::vector<uint8_t> bytes = dat_.read(*e);
      try {
        v = parse(Bytes(bytes));
      } catch (const Error& err) {
        throw Error(fmt::format("{} {}: {}", what, hex32(id), err.what()));
      }
    }
    return cache.emplace(id, std::move(v)).first->second ? &*cache[id] : nullptr;
  }
  const DatFile& dat_;
  std::map<uint32_t, std::optional<GfxObj>> gfx_;
  std::map<uint32_t, std::optional<Surface>> surfaces_;
  std::map<uint32_t, std::optional<SurfaceTexture>> surface_textures_;
  std::map<uint32_t, std::optional<Texture>> textures_;
  std::map<uint32_t, std::optional<Palette>> palettes_;
};

// The model-space rest transform of every joint (parents come first in a Skeleton).
std::vector<Transform> model_rest(const Skeleton& sk) {
  std::vector<Transform> out(sk.num_joints());
  for (size_t j = 0; j < sk.num_joints(); ++j) {
    const Transform& l = sk.rest[j];
    if (sk.parents[j] < 0) {
      out[j] = l;
      continue;
    }
    const Transform& p = out[static_cast<size_t>(sk.parents[j])];
    out[j].rotation = normalize(p.rotation * l.rotation);
    out[j].translation = p.translation + rotate(p.rotation, l.translation * p.scale);
    out[j].scale = p.scale * l.scale;
  }
  return out;
}

struct Builder {
  const Setup& setup;
  Objects objects;
  CreatureMeshes out;
  std::map<std::pair<uint32_t, bool>, int> materials;          // 12.8
  std::map<std::tuple<uint32_t, uint32_t, bool>, int> images;  // 8 "Images"
  int placeholder = -1;
  Json textures = Json::array();

  int placeholder_image() {
    if (placeholder < 0) {
      placeholder = static_cast<int>(out.set.images.size());
      out.set.images.push_back(asherons_call::placeholder_image());
    }
    return placeholder;
  }

  // 2, steps 3-5: the Surface's image, or the placeholder with a note (12.4).
  int image_for(const Surface& s, uint32_t surface_id, Json& extras) {
    const auto fail = [&](const std::string& why) {
      out.notes.push_back(fmt::format("Surface {}: {}; placeholder image", hex32(surface_id), why));
      return placeholder_image();
    };
    const SurfaceTexture* st = objects.surface_texture(s.orig_texture_id);
    if (!st) return fail(fmt::format("SurfaceTexture {} is missing", hex32(s.orig_texture_id)));
    if (st->textures.empty()) return fail(fmt::format("SurfaceTexture {} lists no texture", hex32(st->id)));
    const uint32_t tid = st->textures[0];  // 5.3 [choice]
    extras["render_surface_id"] = hex32(tid);
    const Texture* t = objects.texture(tid);
    if (!t) return fail(fmt::format("texture {} is missing", hex32(tid)));
    const uint32_t pid = has_palette(t->format) ? t->default_palette_id : 0;
    const bool clip = (s.type & kSurfaceBase1ClipMap) != 0;
    const auto key = std::make_tuple(tid, pid, clip);
    if (auto it = images.find(key); it != images.end()) return it->second;
    const Palette* pal = pid ? objects.palette(pid) : nullptr;
    Json info{{"id", hex32(tid)}, {"format", pixel_format_name(t->format)},
              {"width", t->width}, {"height", t->height}};
    if (pid) info["palette"] = hex32(pid);
    int index;
    try {
      Image im = decode_texture(*t, pal, clip, out.notes);
      im.name = fmt::format("{:08X}_{:08X}{}", tid, pid, clip ? "_c" : "");
      index = static_cast<int>(out.set.images.size());
      out.set.images.push_back(std::move(im));
      info["image"] = index;
    } catch (const Error& e) {
      out.notes.push_back(fmt::format("{}; placeholder image", e.what()));
      index = placeholder_image();
      info["placeholder"] = true;
    }
    textures.push_back(std::move(info));
    images.emplace(key, index);
    return index;
  }

  // 8, "Material from a Surface".
  int material_for(uint32_t surface_id, bool double_sided) {
    if (auto it = materials.find({surface_id, double_sided}); it != materials.end()) return it->second;
    Material m;
    m.name = fmt::format("surface_{:08X}{}", surface_id, double_sided ? "_2s" : "");
    Json extras{{"surface_id", hex32(surface_id)}, {"double_sided", double_sided}};
    const Surface* s = objects.surface(surface_id);
    if (!s) {
      out.notes.push_back(fmt::format("Surface {} is missing: white material", hex32(surface_id)));
    } else {
      extras["type"] = s->type;
      extras["translucency"] = json_float(s->translucency);
      extras["luminosity"] = json_float(s->luminosity);
      extras["diffuse"] = json_float(s->diffuse);
      const float fade = 1.0f - s->translucency;
      if (s->textured()) {
        extras["orig_texture_id"] = hex32(s->orig_texture_id);
        extras["orig_palette_id"] = hex32(s->orig_palette_id);
        m.image = image_for(*s, surface_id, extras);
        m.base_color = {1, 1, 1, fade};
      } else {
        const uint32_t c = s->color;
        extras["color"] = hex32(c);
        m.base_color = {srgb_to_linear((c >> 16) & 255), srgb_to_linear((c >> 8) & 255),
                        srgb_to_linear(c & 255), static_cast<float>(c >> 24) / 255.0f * fade};
      }
      if ((s->type & (kSurfaceTranslucent | kSurfaceAlpha | kSurfaceInvAlpha | kSurfaceAdditive)) ||
          s->translucency > 0)
        m.alpha_mode = Material::AlphaMode::kBlend;
      else if (s->type & kSurfaceBase1ClipMap)
        m.alpha_mode = Material::AlphaMode::kMask;
      if (s->luminosity > 0) {  // 8: the core's Material has no emissive slot: kept in extras
        const float l = std::clamp(s->luminosity, 0.0f, 1.0f);
        Json e = Json::array();
        for (int k = 0; k < 3; ++k)  // textured: (L, L, L); solid: L x linear colour (12.6)
          e.push_back(json_float(s->textured() ? l : std::clamp(s->luminosity * m.base_color[k], 0.0f, 1.0f)));
        extras["emissive_factor"] = std::move(e);
      }
    }
    m.extras = std::move(extras);
    const int index = static_cast<int>(out.set.materials.size());
    out.set.materials.push_back(std::move(m));
    materials.emplace(std::make_pair(surface_id, double_sided), index);
    return index;
  }
};

}  // namespace

CreatureMeshes creature_meshes(const DatFile& dat, const Setup& setup, const Skeleton& skeleton) {
  Builder b{setup, Objects(dat), {}, {}, {}, -1, Json::array()};
  const std::vector<Transform> rest = model_rest(skeleton);
  Json meshes = Json::array();
  std::map<uint32_t, std::vector<PartTriangles>> triangles;  // parts share a GfxObj's fans
  for (size_t i = 0; i < setup.parts.size(); ++i) {
    const uint32_t gid = setup.parts[i];
    Json entry{{"part", i}, {"gfx_obj", hex32(gid)}};
    if (gid == kInvisibleAnchorGfxObj) {
      entry["mesh"] = "invisible anchor";
      meshes.push_back(std::move(entry));
      continue;
    }
    const std::string joint_name = part_joint_name(i);
    int joint = -1;
    for (size_t j = 0; j < skeleton.num_joints(); ++j)
      if (skeleton.names[j] == joint_name) joint = static_cast<int>(j);
    const GfxObj* g = b.objects.gfx_obj(gid);
    if (!g) {
      b.out.notes.push_back(fmt::format("part {}: GfxObj {} is missing: no mesh", i, hex32(gid)));
      entry["mesh"] = "missing";
      meshes.push_back(std::move(entry));
      continue;
    }
    if (joint < 0) throw Error(fmt::format("part {}: no joint {} in the skeleton", i, joint_name));
    auto it = triangles.find(gid);
    if (it == triangles.end()) it = triangles.emplace(gid, gfx_obj_triangles(*g, b.out.notes)).first;
    // 8, "Attachment": default_scale in part space, then the joint's rest (axes mapped, C).
    Vec3 scale{1, 1, 1};
    if ((setup.flags & kSetupHasDefaultScale) && i < setup.default_scale.size()) {
      const Vec3 s = setup.default_scale[i];
      scale = {s.x, s.z, s.y};
    }
    const Transform& world = rest[static_cast<size_t>(joint)];
    size_t vertices = 0, tris = 0;
    for (const PartTriangles& t : it->second) {
      if (t.indices.empty()) continue;
      Mesh m;
      m.name = fmt::format("part_{}_{:08X}_{:08X}", i, gid, t.surface_id);
      m.material = b.material_for(t.surface_id, t.double_sided);
      for (size_t v = 0; v < t.positions.size(); ++v) {
        const Vec3 p = to_gltf_axes(t.positions[v]) * scale;
        m.positions.push_back(world.translation + rotate(world.rotation, p * world.scale));
        Vec3 n = to_gltf_axes(t.normals[v]);
        n = {scale.x != 0 ? n.x / scale.x : n.x, scale.y != 0 ? n.y / scale.y : n.y,
             scale.z != 0 ? n.z / scale.z : n.z};
        Vec3 nn = normalized(rotate(world.rotation, n));
        if (length(nn) < 0.5f) nn = {0, 1, 0};
        m.normals.push_back(nn);
        m.uvs.push_back(t.uvs[v]);
      }
      m.indices = t.indices;
      m.joints.assign(m.positions.size(), {static_cast<uint16_t>(joint), 0, 0, 0});
      m.weights.assign(m.positions.size(), {1, 0, 0, 0});
      vertices += m.positions.size();
      tris += m.indices.size() / 3;
      b.out.set.meshes.push_back(std::move(m));
    }
    if (tris == 0) {
      b.out.notes.push_back(fmt::format("part {}: GfxObj {} draws no polygon of 3 or more points: no mesh",
                                        i, hex32(gid)));  // 12.7
    }
    entry["vertices"] = vertices;
    entry["triangles"] = tris;
    entry["stored_vertices"] = g->vertices.size();
    entry["drawing_polygons"] = g->drawing_polygons.size();
    entry["surfaces"] = g->surfaces.size();
    meshes.push_back(std::move(entry));
  }
  b.out.summary = Json{{"meshes", meshes},
                       {"materials", b.out.set.materials.size()},
                       {"images", b.out.set.images.size()},
                       {"textures", b.textures}};
  return std::move(b.out);
}

}  // namespace animkit::asherons_call
