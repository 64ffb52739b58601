#include "animkit/monster_hunter/model_export.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "animkit/core/error.h"

#include "animkit/monster_hunter/pmo_geometry.h"

namespace animkit::monster_hunter {

namespace {

// 2.4: materials[remap[mesh.first_remap + group.material]], none when out of range (9.6).
int group_material(const PmoModel& m, const PmoMesh& mesh, const PmoGroup& g) {
  if (g.material >= mesh.material_count) return -1;
  const size_t k = size_t{mesh.first_remap} + g.material;
  const size_t material = m.remap_at == 0 ? k : k < m.remap.size() ? m.remap[k] : SIZE_MAX;
  return material < m.materials.size() ? static_cast<int>(material) : -1;
}

// What was left out or repaired, counted over the whole model and said once each.
struct Report {
  std::map<std::string, int> counts;
  void add(const std::string& what, int n = 1) {
    if (n > 0) counts[what] += n;
  }
};

// 6 "Weights": valid influences with w > 0, repeats merged, the four heaviest kept (ties by
// bone), divided by their sum; none -> the fallback bone with 1.0.
void skin_vertex(std::vector<std::pair<int, float>>& influences, int fallback,
                 std::array<uint16_t, 4>& joints, std::array<float, 4>& weights, Report& report) {
  std::sort(influences.begin(), influences.end());
  std::vector<std::pair<int, float>> merged;
  for (const auto& [bone, w] : influences) {
    if (!merged.empty() && merged.back().first == bone) {
      merged.back().second += w;
    } else {
      merged.push_back({bone, w});
    }
  }
  std::sort(merged.begin(), merged.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  if (merged.size() > 4) {
    report.add("vertices with more than 4 influences kept their 4 heaviest");
    merged.resize(4);
  }
  float sum = 0;
  for (const auto& [bone, w] : merged) sum += w;
  if (!(sum > 0)) {
    report.add("vertices without a weight bound to their group's slot 0 bone (or the first root)");
    merged = {{fallback, 1.f}};
    sum = 1;
  }
  joints = {0, 0, 0, 0};
  weights = {0, 0, 0, 0};
  for (size_t k = 0; k < merged.size(); ++k) {
    joints[k] = static_cast<uint16_t>(merged[k].first);
    weights[k] = merged[k].second / sum;
  }
}

}  // namespace

std::vector<std::array<int, 8>> running_palettes(const PmoModel& model) {
  std::array<int, 256> table;
  table.fill(-1);
  std::vector<std::array<int, 8>> out;
  for (const PmoGroup& g : model.groups) {
    for (const auto& [slot, bone] : g.bones) table[slot] = bone;
    std::array<int, 8> first;
    std::copy(table.begin(), table.begin() + 8, first.begin());
    out.push_back(first);
  }
  return out;
}

void add_model(const ModelSources& src, MeshSet& out, std::vector<std::string>& notes) {
  const PmoModel& m = *src.model;
  Report report;
  const int bones = src.skeleton ? static_cast<int>(src.skeleton->bones.size()) : 0;
  int first_root = 0;
  for (int b = 0; b < bones; ++b)
    if (src.skeleton->bones[b].parent < 0) {
      first_root = b;
      break;
    }

  // 5, 6: every TMH image decoded, in bank order; one that cannot be is left out (9.10).
  std::vector<int> image_of(src.textures ? src.textures->images.size() : 0, -1);
  std::vector<bool> has_alpha;
  for (size_t k = 0; k < image_of.size(); ++k) {
    const TmhImage& im = src.textures->images[k];
    try {
      Image image = decode_tmh(im);
      image.name = fmt::format("tmh_{:02}_{}", k, tmh_format_name(im.format));
      bool alpha = false;
      for (size_t i = 3; i < image.rgba.size() && !alpha; i += 4) alpha = image.rgba[i] < 255;
      image_of[k] = static_cast<int>(out.images.size());
      has_alpha.push_back(alpha);
      out.images.push_back(std::move(image));
    } catch (const Error& e) {
      notes.push_back(fmt::format("warning: TMH image {} ({} {}x{}) left out: {}", k,
                                      tmh_format_name(im.format), im.width, im.height, e.message()));
    }
  }
  // 6: one material per PMO material; its texture is the TMH image it names.
  const size_t material_base = out.materials.size();
  for (size_t i = 0; i < m.materials.size(); ++i) {
    const PmoMaterial& pm = m.materials[i];
    Material mat;
    mat.name = fmt::format("material_{:02}", i);
    if (pm.texture != 0xFF) {
      if (pm.texture < image_of.size() && image_of[pm.texture] >= 0) {
        mat.image = image_of[pm.texture];
        if (has_alpha[mat.image]) mat.alpha_mode = Material::AlphaMode::kMask;
      } else if (pm.texture >= image_of.size()) {
        report.add("material textures past the TMH bank's images left untextured");
      }
    }
    mat.extras = {{"color", pm.color}, {"ambient", pm.ambient}, {"texture", pm.texture},
                  {"reserved", pm.reserved}, {"meshes", Json::array()}};
    out.materials.push_back(std::move(mat));
  }

  const bool palette = std::any_of(m.groups.begin(), m.groups.end(),
                                   [](const PmoGroup& g) { return !g.bones.empty(); });
  const std::vector<std::array<int, 8>> tables = running_palettes(m);
  for (size_t mi = 0; mi < m.meshes.size(); ++mi) {
    const PmoMesh& pm = m.meshes[mi];
    for (size_t gi = 0; gi < pm.group_count; ++gi) {
      const size_t g = size_t{pm.first_group} + gi;
      const GroupGeometry geo = decode_group(src.pmo, m, g);
      Mesh mesh;
      mesh.name = fmt::format("group_{:03}", g);
      for (const auto& t : geo.triangles) {  // 9.7: a degenerate triangle repeats an index
        if (t[0] == t[1] || t[1] == t[2] || t[0] == t[2]) {
          report.add("degenerate triangles dropped");
          continue;
        }
        mesh.indices.insert(mesh.indices.end(), t.begin(), t.end());
      }
      if (mesh.indices.empty()) continue;  // 6: groups with no triangles are skipped
      const VertexType& t = *geo.type;
      if (t.through) report.add("groups in through (screen space) mode exported as stored");
      if (t.morph_count > 1) report.add("groups with morph copies exported with the first");
      const std::array<int, 8>& table = tables[g];
      // 9.9: a rigid group with no palette anywhere binds by its index within the mesh.
      int rigid_bone = table[0];
      if (rigid_bone < 0 && !palette && src.skeleton && static_cast<int>(gi) < bones) {
        rigid_bone = static_cast<int>(gi);
        report.add("rigid groups without a palette bound by their index within the mesh");
      }
      const int fallback = table[0] >= 0 && table[0] < bones ? table[0] : first_root;
      for (const PmoVertex& v : geo.vertices) {
        mesh.positions.push_back(v.position);
        if (t.uv_at >= 0) mesh.uvs.push_back(v.uv);
        if (v.color) mesh.colors.push_back(*v.color);
        if (v.normal) {  // 9.8: normalised; a zero normal becomes (0, 0, 1)
          const Vec3 n = *v.normal;
          const float len = std::sqrt(dot(n, n));
          if (len > 0 && std::isfinite(len)) {
            mesh.normals.push_back({n.x / len, n.y / len, n.z / len});
          } else {
            report.add("zero normals written as (0, 0, 1)");
            mesh.normals.push_back({0, 0, 1});
          }
        }
        if (!src.skeleton) continue;
        std::vector<std::pair<int, float>> influences;
        if (t.weight) {  // 4: weight k belongs to the bone in slot k
          for (int k = 0; k < t.weight_count; ++k) {
            if (!(v.weights[k] > 0)) continue;
            if (table[k] < 0 || table[k] >= bones) {
              report.add("influences on an unset slot or a bone past the skeleton dropped");
              continue;
            }
            influences.push_back({table[k], v.weights[k]});
          }
        } else if (rigid_bone >= 0 && rigid_bone < bones) {
          influences.push_back({rigid_bone, 1.f});
        }
        std::array<uint16_t, 4> js;
        std::array<float, 4> ws;
        skin_vertex(influences, fallback, js, ws, report);
        mesh.joints.push_back(js);
        mesh.weights.push_back(ws);
      }
      // 9.1: counter-clockwise front faces, checked against the vertex normals.
      if (!mesh.normals.empty()) {
        int agree = 0, disagree = 0;
        for (size_t k = 0; k < mesh.indices.size(); k += 3) {
          const uint32_t a = mesh.indices[k], b = mesh.indices[k + 1], c = mesh.indices[k + 2];
          const Vec3 face = cross(mesh.positions[b] - mesh.positions[a], mesh.positions[c] - mesh.positions[a]);
          const Vec3 n = mesh.normals[a], nb = mesh.normals[b], nc = mesh.normals[c];
          const float d = dot(face, Vec3{n.x + nb.x + nc.x, n.y + nb.y + nc.y, n.z + nb.z + nc.z});
          agree += d > 0;
          disagree += d < 0;
        }
        if (disagree > agree) {
          for (size_t k = 0; k < mesh.indices.size(); k += 3) std::swap(mesh.indices[k], mesh.indices[k + 1]);
          report.add("groups flipped: their triangles faced away from their normals");
        }
      }
      const int material = group_material(m, pm, m.groups[g]);
      if (material >= 0) {
        mesh.material = static_cast<int>(material_base) + material;
        Json& used = out.materials[mesh.material].extras["meshes"];
        const Json words = {{"mesh", mi}, {"lighting", pm.lighting}, {"blend", pm.blend}};
        if (std::find(used.begin(), used.end(), words) == used.end()) used.push_back(words);
      }
      out.meshes.push_back(std::move(mesh));
    }
  }
  for (const auto& [what, n] : report.counts) notes.push_back(fmt::format("model: {} ({})", what, n));
}

}  // namespace animkit::monster_hunter
