#include "animkit/monster_hunter/skeleton.h"

#include <fmt/format.h>

#include <bit>
#include <cstring>

#include "animkit/core/text.h"
#include "animkit/core/writer.h"

namespace animkit::monster_hunter {

namespace {

bool same_floats(const std::array<float, 4>& a, const std::array<float, 4>& b) {
  return std::memcmp(a.data(), b.data(), sizeof(a)) == 0;
}

std::array<float, 4> read_vec4(Reader& r, const char* what) {
  const size_t at = r.pos();
  std::array<float, 4> v;
  for (float& f : v) f = r.f32();
  if (v[3] != 1.0f) r.fail_at(at + 12, fmt::format("bone {} w is {}, expected 1", what, v[3]));
  return v;
}

}  // namespace

std::string Bone::name_bytes() const {
  if (!name) return {};
  size_t n = 0;
  while (n < name->size() && (*name)[n] != 0) ++n;
  return std::string(reinterpret_cast<const char*>(name->data()), n);
}

std::string Bone::name_text() const { return printable(name_bytes(), Keep::kAscii); }

bool operator==(const Bone& a, const Bone& b) {
  return a.kind == b.kind && a.one == b.one && a.index == b.index && a.parent == b.parent &&
         a.first_child == b.first_child && a.next_sibling == b.next_sibling &&
         same_floats(a.bind_scale, b.bind_scale) && same_floats(a.bind_rotation, b.bind_rotation) &&
         same_floats(a.bind_position, b.bind_position) && a.link == b.link &&
         a.stream == b.stream && a.name == b.name;
}

int64_t Skeleton::animated() const {
  return params.size() >= 2 ? static_cast<int64_t>(params[1]) : static_cast<int64_t>(bones.size());
}

std::vector<int> Skeleton::parents() const {
  std::vector<int> p;
  p.reserve(bones.size());
  for (const Bone& b : bones) p.push_back(b.parent);
  return p;
}

namespace {
bool skeleton_head(Bytes bytes, bool whole) {
  if (bytes.size() < 24) return false;
  Reader r(bytes);
  const uint32_t magic = r.u32();
  const uint32_t count = r.u32();
  const uint32_t size = r.u32();
  const uint32_t tag = r.u32();
  r.u32();
  const uint32_t params_size = r.u32();
  if ((magic != kMagicMhfu && magic != kMagicMhp3rd) || count == 0 || tag != 0) return false;
  if ((whole && size > bytes.size()) || size < 0x18 || params_size < 12 || params_size % 4 != 0) return false;
  // The first bone's tag, when the head holds it: 0x4000xxxx.
  const size_t first = 0x18 + (params_size - 12);
  if (count > 1 && first + 4 <= bytes.size()) {
    uint32_t bone_tag;
    std::memcpy(&bone_tag, bytes.data() + first, 4);
    if ((bone_tag >> 16) != 0x4000) return false;
  }
  return true;
}
}  // namespace

bool sniff_skeleton(Bytes bytes) { return skeleton_head(bytes, true); }
bool sniff_cut_skeleton(Bytes bytes) { return skeleton_head(bytes, false); }

Skeleton read_skeleton(Bytes bytes) {
  Reader r(bytes);
  Skeleton s;
  s.magic = r.u32();
  if (s.magic != kMagicMhfu && s.magic != kMagicMhp3rd) {
    r.fail_at(0,
              fmt::format("skeleton magic {:#010x}, expected 0xc0000000 or 0x80000000", s.magic));
  }
  const uint32_t count = r.u32();
  if (count == 0) r.fail_at(4, "bone count + 1 is 0");
  const uint32_t size = r.u32();
  if (size > bytes.size()) {
    r.fail_at(8, fmt::format("size {:#x} exceeds the {:#x} bytes of the file", size, bytes.size()));
  }
  const uint32_t tag = r.u32();
  if (tag != 0) r.fail_at(0x0C, fmt::format("parameter tag {:#x}, expected 0", tag));
  const uint32_t count_word = r.u32();
  const uint32_t params_size = r.u32();
  if (params_size < 12 || params_size % 4 != 0) {
    r.fail_at(0x14,
              fmt::format("parameter section size {:#x} is not 12 + 4 x values", params_size));
  }
  const uint32_t values = (params_size - 12) / 4;
  if (values > (size - std::min<uint32_t>(size, 0x18)) / 4) {
    r.fail_at(0x14, fmt::format("{} parameters run past the size {:#x}", values, size));
  }
  for (uint32_t i = 0; i < values; ++i) s.params.push_back(r.u32());
  if (count_word != values) s.params_count = count_word;
  Reader body = r.sub(0, size);
  body.seek(r.pos());
  for (uint32_t i = 0; i + 1 < count; ++i) {
    const size_t start = body.pos();
    Bone b;
    const uint32_t bone_tag = body.u32();
    if ((bone_tag >> 16) != 0x4000) {
      body.fail_at(start, fmt::format("bone {} tag {:#010x}, expected 0x4000xxxx", i, bone_tag));
    }
    b.kind = static_cast<uint16_t>(bone_tag & 0xFFFF);
    b.one = body.u32();
    const uint32_t section = body.u32();
    if (section < kBoneFixed || section > body.size() - start) {
      body.fail_at(start + 8, fmt::format("bone {} section size {:#x} outside {:#x}..{:#x}", i,
                                          section, kBoneFixed, body.size() - start));
    }
    if (section != kBoneSectionMhfu && section != kBoneSectionMhp3rd) {
      body.fail_at(start + 8,
                   fmt::format("bone {} section size {:#x}: neither 0x10c nor 0x5c", i, section));
    }
    b.index = body.i32();
    if (b.index != static_cast<int32_t>(i)) {
      body.fail_at(start + 0x0C, fmt::format("bone {} has index {}", i, b.index));
    }
    b.parent = body.i32();
    b.first_child = body.i32();
    b.next_sibling = body.i32();
    b.bind_scale = read_vec4(body, "scale");
    b.bind_rotation = read_vec4(body, "rotation");
    b.bind_position = read_vec4(body, "position");
    b.link = body.i32();
    b.stream = body.u32();
    if (section == kBoneSectionMhp3rd) {
      std::array<uint8_t, 8> name;
      const Bytes raw = body.bytes(8);
      std::memcpy(name.data(), raw.data(), 8);
      b.name = name;
    } else {
      const size_t zeros_at = body.pos();
      const Bytes zeros = body.bytes(kBoneSectionMhfu - kBoneFixed);
      for (size_t k = 0; k < zeros.size(); ++k) {
        if (zeros[k] != 0)
          body.fail_at(zeros_at + k, fmt::format("bone {} padding is not zero", i));
      }
    }
    s.bones.push_back(b);
  }
  if (body.pos() != size) {
    r.fail_at(8, fmt::format("size {:#x}, the bones end at {:#x}", size, body.pos()));
  }
  s.tail.assign(bytes.begin() + size, bytes.end());
  return s;
}

std::vector<uint8_t> write_skeleton(const Skeleton& s) {
  Writer w;
  size_t bone_bytes = 0;
  for (const Bone& b : s.bones) bone_bytes += b.section_size();
  w.u32(s.magic);
  w.u32(static_cast<uint32_t>(s.bones.size() + 1));
  w.u32(static_cast<uint32_t>(0x18 + 4 * s.params.size() + bone_bytes));
  w.u32(0);
  w.u32(s.params_count ? *s.params_count : static_cast<uint32_t>(s.params.size()));
  w.u32(static_cast<uint32_t>(12 + 4 * s.params.size()));
  for (uint32_t v : s.params) w.u32(v);
  for (const Bone& b : s.bones) {
    w.u32(0x40000000u | b.kind);
    w.u32(b.one);
    w.u32(b.section_size());
    w.i32(b.index);
    w.i32(b.parent);
    w.i32(b.first_child);
    w.i32(b.next_sibling);
    for (const auto* v : {&b.bind_scale, &b.bind_rotation, &b.bind_position})
      for (float f : *v) w.f32(f);
    w.i32(b.link);
    w.u32(b.stream);
    if (b.name) {
      w.bytes(*b.name);
    } else {
      w.zeros(kBoneSectionMhfu - kBoneFixed);
    }
  }
  w.bytes(s.tail);
  return w.take();
}

void link_children(Skeleton& s) {
  const int n = static_cast<int>(s.bones.size());
  for (Bone& b : s.bones) b.first_child = b.next_sibling = -1;
  for (int i = 0; i < n; ++i) {
    const int p = s.bones[i].parent;
    if (p < 0 || p >= n) continue;
    if (s.bones[p].first_child < 0) s.bones[p].first_child = i;
    for (int j = i + 1; j < n; ++j) {
      if (s.bones[j].parent == p) {
        s.bones[i].next_sibling = j;
        break;
      }
    }
  }
}

}  // namespace animkit::monster_hunter
