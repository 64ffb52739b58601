#include "animkit/monster_hunter/pmo.h"

#include <fmt/format.h>

#include <cstring>

#include "animkit/core/limits.h"

namespace animkit::monster_hunter {

namespace {

constexpr size_t kHeaderSize = 0x40;
constexpr uint8_t kOpPrim = 0x04, kOpRet = 0x0B, kOpEnd = 0x0C, kOpFinish = 0x0F;

// Walks a GE display list from `at` to its RET / END: does a PRIM draw a vertex?
bool list_draws(Bytes data, uint64_t at) {
  StepBudget budget("PMO display list");
  for (uint64_t p = at; p + 4 <= data.size(); p += 4) {
    budget.step();
    uint32_t word;
    std::memcpy(&word, data.data() + p, 4);
    const uint8_t op = static_cast<uint8_t>(word >> 24);
    if (op == kOpPrim && (word & 0xFFFF) != 0) return true;
    if (op == kOpRet || op == kOpEnd || op == kOpFinish) return false;
  }
  throw Error("display list runs past the end of the PMO without RET", at);
}

}  // namespace

bool sniff_pmo(Bytes bytes) {
  return bytes.size() >= kHeaderSize && std::memcmp(bytes.data(), "pmo\0", 4) == 0 &&
         (std::memcmp(bytes.data() + 4, "1.0\0", 4) == 0 ||
          std::memcmp(bytes.data() + 4, "102\0", 4) == 0);
}

PmoModel read_pmo(Bytes bytes) {
  Reader r(bytes);
  if (!sniff_pmo(bytes)) r.fail_at(0, "not a PMO (\"pmo\\0\" then version \"1.0\" or \"102\")");
  PmoModel m;
  m.version = bytes[4] == '1' && bytes[5] == '.' ? "1.0" : "102";
  const bool v102 = m.version == "102";
  const size_t mesh_size = v102 ? 0x30 : 0x18;
  // model.md 2.1: the 0x40 header.
  r.seek(8);
  m.size = r.u32();
  m.clip = r.f32();
  for (float& f : m.scale) f = r.f32();
  const uint16_t mesh_count = r.u16();
  m.material_count = r.u16();
  m.meshes_at = r.u32();
  m.groups_at = r.u32();
  m.remap_at = r.u32();
  m.palette_at = r.u32();
  m.materials_at = r.u32();
  m.geometry_at = r.u32();
  const uint32_t size = m.size, meshes_at = m.meshes_at, groups_at = m.groups_at,
                 bones_at = m.palette_at, geometry_at = m.geometry_at;
  if (!fits(mesh_count, mesh_size, bytes.size() - std::min<uint64_t>(meshes_at, bytes.size())) ||
      meshes_at > bytes.size())
    r.fail_at(0x20, fmt::format("{} mesh records at {:#x} run past the end", mesh_count, meshes_at));
  // model.md 2.2: mesh records; each mesh's first group and first remap follow the earlier ones.
  size_t group_count = 0, remap_count = 0;
  for (uint16_t i = 0; i < mesh_count; ++i) {
    const size_t at = meshes_at + i * mesh_size;
    PmoMesh mesh;
    r.seek(at);
    if (v102) {
      for (float& f : mesh.scale) f = r.f32();
      for (float& f : mesh.uv_scale) f = r.f32();
      for (float& f : mesh.uv_offset) f = r.f32();
    } else {
      for (float& f : mesh.uv_scale) f = r.f32();
    }
    mesh.lighting = r.u32();
    mesh.blend = r.u32();
    mesh.material_count = r.u8();
    r.u8();
    mesh.first_remap = r.u16();
    mesh.group_count = r.u16();
    mesh.first_group = r.u16();
    if (mesh.first_group != group_count)
      r.fail_at(at + mesh_size - 2,
                fmt::format("mesh {} starts at group {}, not {}", i, mesh.first_group, group_count));
    group_count += mesh.group_count;
    remap_count += mesh.material_count;
    m.meshes.push_back(mesh);
  }
  if (groups_at > bytes.size() || !fits(group_count, 16, bytes.size() - groups_at))
    r.fail_at(0x24, fmt::format("{} group records at {:#x} run past the end", group_count, groups_at));
  // model.md 2.4: remap (u8 per material of each mesh), materials (16 bytes each).
  if (m.remap_at != 0) {
    if (m.remap_at > bytes.size() || remap_count > bytes.size() - m.remap_at)
      r.fail_at(0x28, fmt::format("the remap table at {:#x} runs past the end", m.remap_at));
    m.remap.assign(bytes.begin() + m.remap_at, bytes.begin() + m.remap_at + remap_count);
  }
  if (m.materials_at > bytes.size() || !fits(m.material_count, 16, bytes.size() - m.materials_at))
    r.fail_at(0x30, fmt::format("{} materials at {:#x} run past the end", m.material_count,
                                m.materials_at));
  for (uint16_t i = 0; i < m.material_count; ++i) {
    r.seek(m.materials_at + 16 * size_t{i});
    PmoMaterial mat;
    mat.color = r.u32();
    mat.ambient = r.u32();
    mat.texture = r.u8();
    r.skip(3);
    mat.reserved = r.u32();
    m.materials.push_back(mat);
  }
  m.geometry_here = size <= bytes.size() && geometry_at <= size;
  size_t bone = 0;
  for (size_t g = 0; g < group_count; ++g) {
    const size_t at = groups_at + 16 * g;
    r.seek(at);
    PmoGroup group;
    group.material = r.u8();
    const uint8_t count = r.u8();
    group.first_bone = r.u16();
    group.list = r.u32();
    group.vertices = r.u32();
    group.indices = r.u32();
    if (group.first_bone != bone)
      r.fail_at(at + 2, fmt::format("group {}'s bones start at {}, not {}", g, group.first_bone, bone));
    if (bones_at > bytes.size() || !fits(bone + count, 2, bytes.size() - bones_at))
      r.fail_at(0x2C, fmt::format("the bone palette at {:#x} runs past the end", bones_at));
    for (size_t k = 0; k < count; ++k)
      group.bones.emplace_back(bytes[bones_at + 2 * (bone + k)], bytes[bones_at + 2 * (bone + k) + 1]);
    bone += count;
    if (m.geometry_here) {
      const uint64_t list_at = uint64_t{geometry_at} + group.list;
      if (list_at >= size) r.fail_at(at + 4, fmt::format("group {}'s display list at {:#x} is past the geometry", g, list_at));
      group.draws = list_draws(bytes.first(size), list_at);
    }
    m.groups.push_back(std::move(group));
  }
  return m;
}

}  // namespace animkit::monster_hunter
