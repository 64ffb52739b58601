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
  const size_t mesh_size = m.version == "1.0" ? 0x18 : 0x30;
  r.seek(8);
  const uint32_t size = r.u32();
  r.seek(0x1C);
  const uint16_t mesh_count = r.u16();
  r.u16();  // materials
  const uint32_t meshes_at = r.u32(), groups_at = r.u32();
  r.u32();  // remap table
  const uint32_t bones_at = r.u32();
  r.u32();  // materials
  const uint32_t geometry_at = r.u32();
  if (!fits(mesh_count, mesh_size, bytes.size() - std::min<uint64_t>(meshes_at, bytes.size())) ||
      meshes_at > bytes.size())
    r.fail_at(0x20, fmt::format("{} mesh records at {:#x} run past the end", mesh_count, meshes_at));
  size_t group_count = 0;
  for (uint16_t i = 0; i < mesh_count; ++i) {
    const size_t at = meshes_at + i * mesh_size + mesh_size - 8;
    r.seek(at + 4);
    const uint16_t groups = r.u16(), first = r.u16();
    if (first != group_count)
      r.fail_at(at + 6, fmt::format("mesh {} starts at group {}, not {}", i, first, group_count));
    group_count += groups;
  }
  if (groups_at > bytes.size() || !fits(group_count, 16, bytes.size() - groups_at))
    r.fail_at(0x24, fmt::format("{} group records at {:#x} run past the end", group_count, groups_at));
  const bool geometry_here = size <= bytes.size() && geometry_at <= size;
  size_t bone = 0;
  for (size_t g = 0; g < group_count; ++g) {
    const size_t at = groups_at + 16 * g;
    r.seek(at + 1);
    const uint8_t count = r.u8();
    const uint16_t first = r.u16();
    const uint32_t list = r.u32();
    if (first != bone)
      r.fail_at(at + 2, fmt::format("group {}'s bones start at {}, not {}", g, first, bone));
    if (bones_at > bytes.size() || !fits(bone + count, 2, bytes.size() - bones_at))
      r.fail_at(0x2C, fmt::format("the bone palette at {:#x} runs past the end", bones_at));
    PmoGroup group;
    for (size_t k = 0; k < count; ++k)
      group.bones.emplace_back(bytes[bones_at + 2 * (bone + k)], bytes[bones_at + 2 * (bone + k) + 1]);
    bone += count;
    if (geometry_here) {
      const uint64_t list_at = uint64_t{geometry_at} + list;
      if (list_at >= size) r.fail_at(at + 4, fmt::format("group {}'s display list at {:#x} is past the geometry", g, list_at));
      group.draws = list_draws(bytes.first(size), list_at);
    }
    m.groups.push_back(std::move(group));
  }
  return m;
}

}  // namespace animkit::monster_hunter
