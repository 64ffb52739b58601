#include "animkit/monster_hunter/pmo_geometry.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "animkit/core/limits.h"

namespace animkit::monster_hunter {

namespace {

// 3.1 GE commands.
constexpr uint8_t kVaddr = 0x01, kIaddr = 0x02, kPrim = 0x04, kBezier = 0x05, kSpline = 0x06,
                  kJump = 0x08, kBjump = 0x09, kCall = 0x0A, kRet = 0x0B, kEnd = 0x0C,
                  kFinish = 0x0F, kBase = 0x10, kOffsetAddr = 0x13, kOrigin = 0x14,
                  kVtype = 0x12, kFface = 0x9B;

constexpr int kSizes[] = {0, 1, 2, 4};  // 8-bit, 16-bit, f32 fields

int align_to(int at, int to) { return (at + to - 1) / to * to; }

// 3.3 value = raw / unit: 128 for 8-bit, 32768 for 16-bit, 1 for f32.
float component(Bytes b, uint64_t at, int format, bool is_signed) {
  switch (format) {
    case 1:
      return is_signed ? static_cast<int8_t>(b[at]) / 128.f : b[at] / 128.f;
    case 2: {
      uint16_t v;
      std::memcpy(&v, b.data() + at, 2);
      return is_signed ? static_cast<int16_t>(v) / 32768.f : v / 32768.f;
    }
    case 3: {
      float v;
      std::memcpy(&v, b.data() + at, 4);
      return v;
    }
  }
  return 0;
}

}  // namespace

// 3.2 bits; 3.3 order weights, texcoord, colour, normal, position, each aligned to its component
// size; model.md 9.2 (8888 aligns to 4, 16-bit colours to 2) and 9.3 (position 0: 3 bytes).
VertexType vertex_type(uint32_t v) {
  VertexType t;
  t.word = v;
  t.texcoord = v & 3;
  t.color = (v >> 2) & 7;
  t.normal = (v >> 5) & 3;
  t.position = (v >> 7) & 3;
  t.weight = (v >> 9) & 3;
  t.index = (v >> 11) & 3;
  t.weight_count = static_cast<int>((v >> 14) & 7) + 1;
  t.morph_count = static_cast<int>((v >> 18) & 7) + 1;
  t.through = (v >> 23) & 1;
  int at = 0, largest = 1;
  const auto place = [&](int component_size, int count) {
    at = align_to(at, component_size);
    const int here = at;
    at += component_size * count;
    largest = std::max(largest, component_size);
    return here;
  };
  if (t.weight) t.weights_at = place(kSizes[t.weight], t.weight_count);
  if (t.texcoord) t.uv_at = place(kSizes[t.texcoord], 2);
  if (t.color >= 4) t.color_at = place(t.color == 7 ? 4 : 2, 1);
  if (t.normal) t.normal_at = place(kSizes[t.normal], 3);
  t.position_at = place(t.position ? kSizes[t.position] : 1, 3);
  t.size = align_to(at, largest);
  t.stride = t.size * t.morph_count;
  return t;
}

GroupGeometry decode_group(Bytes bytes, const PmoModel& m, size_t g) {
  Reader r(bytes);
  const PmoGroup& group = m.groups.at(g);
  if (!m.geometry_here) r.fail_at(0x34, "the geometry region is not in this PMO (a companion file)");
  const PmoMesh* mesh = nullptr;
  for (const PmoMesh& candidate : m.meshes)
    if (g >= candidate.first_group && g < size_t{candidate.first_group} + candidate.group_count)
      mesh = &candidate;
  const uint64_t end = m.size;  // the geometry region ends where the PMO's size says
  const uint64_t region = m.geometry_at;
  const uint64_t buffer = region + group.vertices;
  GroupGeometry out;
  // 9.4: origin, base and face order start at 0 for each group's list; the list's IADDR wins
  // over the group record's index offset.
  uint64_t origin = 0, base = 0, vaddr = buffer, iaddr = group.indices ? region + group.indices : 0;
  int face = 0;
  uint64_t vertex_count = 0;
  std::vector<uint32_t> indices;
  StepBudget budget("PMO display list");
  for (uint64_t p = region + group.list;; p += 4) {
    budget.step();
    if (p + 4 > end) r.fail_at(p, fmt::format("group {}'s display list runs past the geometry without RET", g));
    uint32_t word;
    std::memcpy(&word, bytes.data() + p, 4);
    const uint8_t op = static_cast<uint8_t>(word >> 24);
    const uint32_t arg = word & 0xFFFFFF;
    if (op == kRet || op == kEnd || op == kFinish) break;
    switch (op) {
      case kOrigin: origin = p; break;
      case kBase: base = arg; break;
      case kOffsetAddr: origin = uint64_t{arg} << 8; break;
      case kVaddr:
      case kIaddr: {
        const uint64_t address = (origin + (((base & 0x0F0000) << 8) | arg)) & 0x0FFFFFFF;
        (op == kVaddr ? vaddr : iaddr) = address;
        break;
      }
      case kVtype:
        if (out.type && out.type->word != arg)
          r.fail_at(p, fmt::format("group {} sets a second vertex type {:#x} after {:#x}", g, arg, out.type->word));
        out.type = vertex_type(arg);
        break;
      case kFface: face = arg & 1; break;
      case kJump: case kBjump: case kCall: case kBezier: case kSpline:
        r.fail_at(p, fmt::format("group {}: GE command {:#04x} is not read", g, op));
      case kPrim: {
        const int type = (arg >> 16) & 7;
        const uint32_t count = arg & 0xFFFF;
        if (!out.type || count == 0) break;  // 9.4: no VTYPE draws nothing
        const VertexType& t = *out.type;
        // 3.4: the indices, or 0..count-1; the first vertex (vaddr - buffer) / stride.
        indices.resize(count);
        if (t.index) {
          const int size = kSizes[t.index];
          if (iaddr > end || uint64_t{count} * size > end - iaddr)
            r.fail_at(p, fmt::format("group {}: {} indices at {:#x} run past the geometry", g, count, iaddr));
          for (uint32_t i = 0; i < count; ++i) {
            uint32_t v = 0;
            std::memcpy(&v, bytes.data() + iaddr + uint64_t{i} * size, size);
            indices[i] = v;
          }
          iaddr += uint64_t{count} * size;
        } else {
          for (uint32_t i = 0; i < count; ++i) indices[i] = i;
        }
        if (vaddr < buffer || (vaddr - buffer) % t.stride != 0)
          r.fail_at(p, fmt::format("group {}: vertex address {:#x} is not a whole vertex after the "
                                   "group's buffer at {:#x}", g, vaddr, buffer));
        const uint64_t first = (vaddr - buffer) / t.stride;
        const uint64_t top = first + *std::max_element(indices.begin(), indices.end()) + 1;
        if (top > (end - std::min(end, buffer)) / t.stride)
          r.fail_at(p, fmt::format("group {}: vertex {} runs past the geometry", g, top - 1));
        vertex_count = std::max(vertex_count, top);
        if (!t.index) vaddr += uint64_t{count} * t.stride;
        const auto add = [&](uint64_t a, uint64_t b, uint64_t c) {
          out.triangles.push_back({static_cast<uint32_t>(first + a), static_cast<uint32_t>(first + b),
                                   static_cast<uint32_t>(first + c)});
        };
        const std::vector<uint32_t>& i = indices;
        if (type == 3) {
          for (uint32_t k = 0; k + 2 < count; k += 3)
            face ? add(i[k + 1], i[k], i[k + 2]) : add(i[k], i[k + 1], i[k + 2]);
        } else if (type == 4) {
          for (uint32_t k = 0; k + 2 < count; ++k)
            (k + face) % 2 == 0 ? add(i[k], i[k + 1], i[k + 2]) : add(i[k + 1], i[k], i[k + 2]);
        } else if (type == 5) {
          for (uint32_t k = 0; k + 2 < count; ++k)
            face ? add(i[k + 1], i[0], i[k + 2]) : add(i[0], i[k + 1], i[k + 2]);
        }
        out.draws += type >= 3 && type <= 5 && count >= 3;
        break;
      }
      default: break;  // 9.4: unknown commands are ignored
    }
  }
  if (!out.type) return out;
  // 3.3: the vertices, the first morph copy only.
  const VertexType& t = *out.type;
  const std::array<float, 3> scale =
      m.version == "102" && mesh ? std::array<float, 3>{mesh->scale[0], mesh->scale[1], mesh->scale[2]}
                                 : m.scale;
  const std::array<float, 2> uv_scale = mesh ? mesh->uv_scale : std::array<float, 2>{1, 1};
  const std::array<float, 2> uv_offset = mesh ? mesh->uv_offset : std::array<float, 2>{0, 0};
  out.vertices.reserve(checked_size(vertex_count, sizeof(PmoVertex), "PMO vertices"));
  for (uint64_t v = 0; v < vertex_count; ++v) {
    const uint64_t at = buffer + v * t.stride;
    PmoVertex x;
    if (t.weights_at >= 0)
      for (int k = 0; k < t.weight_count; ++k)
        x.weights[k] = component(bytes, at + t.weights_at + k * kSizes[t.weight], t.weight, false);
    if (t.uv_at >= 0)
      for (int k = 0; k < 2; ++k)
        x.uv[k] = component(bytes, at + t.uv_at + k * kSizes[t.texcoord], t.texcoord, false) *
                      uv_scale[k] + uv_offset[k];
    if (t.color_at >= 0) {
      uint32_t raw = 0;
      std::memcpy(&raw, bytes.data() + at + t.color_at, t.color == 7 ? 4 : 2);
      x.color = decode_color(static_cast<GeColor>(t.color - 4), raw);
    }
    if (t.normal_at >= 0) {
      const int s = kSizes[t.normal];
      x.normal = Vec3{component(bytes, at + t.normal_at, t.normal, true),
                      component(bytes, at + t.normal_at + s, t.normal, true),
                      component(bytes, at + t.normal_at + 2 * s, t.normal, true)};
    }
    if (t.position) {
      const int s = kSizes[t.position];
      x.position = {component(bytes, at + t.position_at, t.position, true) * scale[0],
                    component(bytes, at + t.position_at + s, t.position, true) * scale[1],
                    component(bytes, at + t.position_at + 2 * s, t.position, true) * scale[2]};
    }
    out.vertices.push_back(x);
  }
  return out;
}

}  // namespace animkit::monster_hunter
