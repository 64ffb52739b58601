#include "animkit/call_of_duty/xanim_file.h"

#include <fmt/format.h>

#include <cmath>

#include "animkit/core/error.h"
#include "animkit/core/writer.h"
#include "animkit/core/work_budget.h"

namespace animkit::call_of_duty {

float XAnimNote::time(uint16_t n) const {
  if (n == 0) return 0.0f;
  return static_cast<float>(frame) / static_cast<float>(n);
}

int16_t rebuild_w(int16_t x, int16_t y, int16_t z) {
  // 1073676289 = 32767^2, the sum taken modulo 2^32 and read as signed.
  const uint32_t sum = 1073676289u - static_cast<uint32_t>(x * x) - static_cast<uint32_t>(y * y) -
                       static_cast<uint32_t>(z * z);
  const int32_t r = static_cast<int32_t>(sum);
  if (r <= 0) return 0;
  // sqrt(r) is never exactly k + 0.5, so binary64 gives the loader's value.
  return static_cast<int16_t>(std::floor(std::sqrt(static_cast<double>(r)) + 0.5));
}

namespace {

int16_t negate(int16_t v) { return static_cast<int16_t>(-static_cast<int32_t>(v)); }

// The int32 dot product over the stream's lanes, taken modulo 2^32 (4 lanes can exceed 2^31).
int32_t dot(const XAnimQuatKey& a, const XAnimQuatKey& b, bool two_component) {
  uint32_t s = 0;
  for (int i = two_component ? 2 : 0; i < 4; ++i) {
    s += static_cast<uint32_t>(static_cast<int32_t>(a[i]) * static_cast<int32_t>(b[i]));
  }
  return static_cast<int32_t>(s);
}

}  // namespace

XAnimQuatKey decode_key(const int16_t* stored, bool two_component, const XAnimQuatKey* previous,
                        bool sign) {
  XAnimQuatKey q{0, 0, 0, 0};
  if (two_component) {
    q[2] = stored[0];
    q[3] = rebuild_w(0, 0, q[2]);
  } else {
    q[0] = stored[0];
    q[1] = stored[1];
    q[2] = stored[2];
    q[3] = rebuild_w(q[0], q[1], q[2]);
  }
  if (!previous) {
    if (sign) {
      for (int16_t& lane : q) lane = negate(lane);  // "key 0 only", w included
    }
  } else if (dot(*previous, q, two_component) < 0) {
    for (int16_t& lane : q) lane = negate(lane);
  }
  return q;
}

std::vector<XAnimQuatKey> decode_rotation(const XAnimRotationStream& s, bool sign) {
  std::vector<XAnimQuatKey> keys(s.key_count);
  const size_t lanes = s.two_component ? 1 : 3;
  for (size_t k = 0; k < keys.size(); ++k) {
    keys[k] = decode_key(s.stored.data() + k * lanes, s.two_component, k ? &keys[k - 1] : nullptr,
                         sign);
  }
  return keys;
}

Quat key_rotation(const XAnimQuatKey& k) {
  const float x = k[0], y = k[1], z = k[2], w = k[3];
  const float len = std::sqrt(x * x + y * y + z * z + w * w);
  if (!(len > 0)) return Quat::identity();
  return {x / len, y / len, z / len, w / len};
}

namespace {

class Parser {
 public:
  Parser(Bytes bytes, const std::string& name) : r_(bytes), name_(name) {}

  XAnimFile run() {
    XAnimFile f;
    f.name = name_;
    if (r_.size() < 2) malformed(0, "truncated: no version");
    {
      Reader v(r_.data());
      const int16_t version = v.i16();
      if (version != kXAnimVersion) {
        throw Error(fmt::format("xanim '{}' out of date (version {}, expecting {})", name_,
                                version, kXAnimVersion),
                    0);
      }
    }
    need(kXAnimHeaderSize, "the header");
    f.header = read_xanim_header(r_);
    header_ = f.header;
    if (f.header.num_parts < 0) {
      malformed(4, fmt::format("invalid part count {}", f.header.num_parts));
    }
    f.has_delta = f.header.has_delta();
    if (f.has_delta) {
      f.delta_rotation = rotation(true, "the delta rotation");
      f.delta_translation = translation("the delta translation");
    }
    const size_t parts = static_cast<size_t>(f.header.num_parts);
    const size_t bit_bytes = (parts + 7) / 8;
    need(bit_bytes, "the sign bits");
    const Bytes sign = r_.bytes(bit_bytes);
    f.sign_bits.assign(sign.begin(), sign.end());
    need(bit_bytes, "the compressed-rotation bits");
    const Bytes comp = r_.bytes(bit_bytes);
    f.compressed_bits.assign(comp.begin(), comp.end());
    f.parts.resize(parts);
    for (size_t i = 0; i < parts; ++i) {
      f.parts[i].name_offset = r_.offset();
      f.parts[i].name = c_string(fmt::format("part name {}", i));
      f.parts[i].sign = (f.sign_bits[i >> 3] >> (i & 7)) & 1;
    }
    for (size_t i = 0; i < parts; ++i) {
      XAnimPart& p = f.parts[i];
      const bool two = (f.compressed_bits[i >> 3] >> (i & 7)) & 1;
      p.rotation = rotation(two, fmt::format("the rotation of part {} '{}'", i, p.name));
      p.rotation.keys = decode_rotation(p.rotation, p.sign);
      p.translation = translation(fmt::format("the translation of part {} '{}'", i, p.name));
    }
    f.delta_rotation.keys = decode_rotation(f.delta_rotation, false);  // never a sign
    f.notes_offset = r_.offset();
    need(1, "the notetrack count");
    const uint8_t count = r_.u8();
    f.notes.resize(count);
    for (size_t i = 0; i < count; ++i) {
      f.notes[i].offset = r_.offset();
      f.notes[i].name = c_string(fmt::format("notetrack {} name", i));
      need(2, fmt::format("the frame of notetrack {}", i));
      f.notes[i].frame = r_.u16();
    }
    const Bytes tail = r_.bytes(r_.remaining());
    f.tail.assign(tail.begin(), tail.end());
    return f;
  }

 private:
  [[noreturn]] void malformed(uint64_t offset, const std::string& why) const {
    throw Error(fmt::format("malformed xanim '{}': {}", name_, why), offset);
  }

  void need(size_t n, const std::string& what) const {
    if (n > r_.remaining()) {
      malformed(r_.offset(), fmt::format("truncated: {} needs {} bytes, {} left", what, n,
                                         r_.remaining()));
    }
  }

  std::string c_string(const std::string& what) {
    const Bytes rest = r_.data().subspan(r_.pos());
    for (size_t i = 0; i < rest.size(); ++i) {
      if (rest[i] == 0) {
        std::string s(reinterpret_cast<const char*>(rest.data()), i);
        r_.skip(i + 1);
        return s;
      }
    }
    malformed(r_.offset(), "unterminated string: " + what);
  }

  std::vector<uint16_t> frames(uint16_t k, const std::string& what) {
    std::vector<uint16_t> out;
    // §1.3: an index list when K >= 2 and K < T; 1-byte indices when T <= 256.
    if (k < 2 || k >= header_.total_frames()) return out;
    const bool small = header_.small_indices();
    need(static_cast<size_t>(k) * (small ? 1 : 2), what + " frame indices");
    out.resize(k);
    for (uint16_t i = 0; i < k; ++i) out[i] = small ? r_.u8() : r_.u16();
    return out;
  }

  XAnimRotationStream rotation(bool two_component, const std::string& what) {
    XAnimRotationStream s;
    s.offset = r_.offset();
    s.two_component = two_component;
    need(2, what + " key count");
    s.key_count = r_.u16();
    s.frames = frames(s.key_count, what);
    const size_t lanes = two_component ? 1 : 3;
    need(s.key_count * lanes * 2, what + " keys");
    charge_work(Work::kKey, s.key_count, "call_of_duty: " + what + " keys");  // issue 30
    s.stored.resize(s.key_count * lanes);
    for (int16_t& v : s.stored) v = r_.i16();
    return s;
  }

  XAnimTranslationStream translation(const std::string& what) {
    XAnimTranslationStream s;
    s.offset = r_.offset();
    need(2, what + " key count");
    s.key_count = r_.u16();
    s.frames = frames(s.key_count, what);
    need(s.key_count * size_t{12}, what + " keys");
    charge_work(Work::kKey, s.key_count, "call_of_duty: " + what + " keys");  // issue 30
    s.values.resize(s.key_count);
    for (Vec3& v : s.values) {
      v.x = r_.f32();
      v.y = r_.f32();
      v.z = r_.f32();
    }
    return s;
  }

  Reader r_;
  const std::string& name_;
  XAnimHeader header_;
};

void write_frames(Writer& w, const std::vector<uint16_t>& frames, bool small) {
  for (uint16_t f : frames) {
    if (small) {
      w.u8(static_cast<uint8_t>(f));
    } else {
      w.u16(f);
    }
  }
}

}  // namespace

XAnimFile parse_xanim(Bytes bytes, const std::string& name) { return Parser(bytes, name).run(); }

std::vector<uint8_t> write_xanim(const XAnimFile& f) {
  Writer w;
  const XAnimHeader& h = f.header;
  w.i16(h.version);
  w.u16(h.num_frames);
  w.i16(h.num_parts);
  w.u8(h.flags);
  w.i16(h.frame_rate);
  const bool small = h.small_indices();
  auto rotation = [&](const XAnimRotationStream& s) {
    w.u16(s.key_count);
    write_frames(w, s.frames, small);
    for (int16_t v : s.stored) w.i16(v);
  };
  auto translation = [&](const XAnimTranslationStream& s) {
    w.u16(s.key_count);
    write_frames(w, s.frames, small);
    for (const Vec3& v : s.values) {
      w.f32(v.x);
      w.f32(v.y);
      w.f32(v.z);
    }
  };
  if (f.has_delta) {
    rotation(f.delta_rotation);
    translation(f.delta_translation);
  }
  w.bytes(f.sign_bits);
  w.bytes(f.compressed_bits);
  for (const XAnimPart& p : f.parts) w.c_string(p.name);
  for (const XAnimPart& p : f.parts) {
    rotation(p.rotation);
    translation(p.translation);
  }
  w.u8(static_cast<uint8_t>(f.notes.size()));
  for (const XAnimNote& n : f.notes) {
    w.c_string(n.name);
    w.u16(n.frame);
  }
  w.bytes(f.tail);
  return w.take();
}

namespace {

void check_frames(const std::vector<uint16_t>& frames, uint16_t n, uint64_t at,
                  const std::string& what, std::vector<XAnimFinding>& out) {
  if (frames.empty()) return;
  // §1.3: "Sparse indices must start at 0, rise strictly, and end at N" ([H]; the evaluator
  // assumes it).
  const size_t width = n < 256 ? 1 : 2;
  const uint64_t list = at + 2;
  if (frames.front() != 0) {
    out.push_back({false, true, list,
                   fmt::format("{}: the first frame index is {}, not 0", what, frames.front())});
  }
  for (size_t i = 1; i < frames.size(); ++i) {
    if (frames[i] <= frames[i - 1]) {
      // An error, not a warning: keys out of order have no time line (`export` refuses them).
      out.push_back({true, true, list + i * width,
                     fmt::format("{}: frame index {} ({}) does not rise above {}", what, i,
                                 frames[i], frames[i - 1])});
      break;
    }
  }
  if (frames.back() != n) {
    out.push_back({false, true, list + (frames.size() - 1) * width,
                   fmt::format("{}: the last frame index is {}, not N = {}", what, frames.back(),
                               n)});
  }
}

void check_count(uint16_t k, uint32_t t, uint64_t at, const std::string& what,
                 std::vector<XAnimFinding>& out) {
  if (k > t) {
    out.push_back({false, true, at,
                   fmt::format("{}: {} keys for {} frames (K > T)", what, k, t)});
  }
}

}  // namespace

std::vector<XAnimFinding> check_xanim(const XAnimFile& f) {
  std::vector<XAnimFinding> out;
  const XAnimHeader& h = f.header;
  const uint16_t n = f.frame_count_minus_one();
  const uint32_t t = f.total_frames();
  if (h.num_parts > 128) {
    out.push_back({false, true, 4,
                   fmt::format("{} parts: more than DOBJ_MAX_BONES (128)", h.num_parts)});
  }
  if (h.looped() && h.num_frames == 65535) {
    out.push_back({false, true, 2, "looped with 65535 frames: T = 65536 does not fit"});
  }
  if (!h.looped() && h.num_frames == 0) {
    out.push_back({false, true, 2, "not looped with 0 frames: no frame to play"});
  }
  if (h.frame_rate == 0) {
    out.push_back({false, false, 7, "frame rate 0: time does not advance"});
  }
  if (h.frame_rate < 0) {
    // §1.1: not checked by the game, but time then runs backwards (`export` and `play` refuse it).
    out.push_back({true, false, 7,
                   fmt::format("frame rate {} is negative: time would run backwards",
                               h.frame_rate)});
  }
  if (n == 0 && t != 0) {
    out.push_back({false, false, 2, "one frame (N = 0): frequency and note times are 0"});
  }
  auto streams = [&](const XAnimRotationStream& r, const XAnimTranslationStream& tr,
                     const std::string& what) {
    check_count(r.key_count, t, r.offset, what + " rotation", out);
    check_frames(r.frames, n, r.offset, what + " rotation", out);
    check_count(tr.key_count, t, tr.offset, what + " translation", out);
    check_frames(tr.frames, n, tr.offset, what + " translation", out);
    for (size_t k = 0; k < tr.values.size(); ++k) {
      const Vec3& v = tr.values[k];
      if (!std::isfinite(v.x) || !std::isfinite(v.y) || !std::isfinite(v.z)) {
        out.push_back({true, false, tr.offset,
                       fmt::format("{} translation: key {} is not finite (`export` refuses it)",
                                   what, k)});
        break;
      }
    }
  };
  if (f.has_delta) streams(f.delta_rotation, f.delta_translation, "delta");
  for (size_t i = 0; i < f.parts.size(); ++i) {
    const XAnimPart& p = f.parts[i];
    const std::string what = fmt::format("part {} '{}'", i, p.name);
    if (p.name.size() + 1 > 255) {
      out.push_back({false, true, p.name_offset,
                     fmt::format("{}: the name takes {} bytes with its NUL (more than 255)", what,
                                 p.name.size() + 1)});
    }
    if (!p.rotation.two_component && p.rotation.key_count == 0) {
      // §1.3: the game dereferences the missing stream while evaluating.
      out.push_back({true, true, p.rotation.offset,
                     what + ": uncompressed part has no rotation (the game reads a missing "
                            "stream)"});
    }
    streams(p.rotation, p.translation, what);
  }
  for (size_t i = 0; i < f.notes.size(); ++i) {
    const XAnimNote& note = f.notes[i];
    if (note.name.size() + 1 > 255) {
      out.push_back({false, true, note.offset,
                     fmt::format("notetrack {}: the name takes {} bytes with its NUL (more than "
                                 "255)",
                                 i, note.name.size() + 1)});
    }
    if (note.frame > n) {
      out.push_back({false, false, note.offset + note.name.size() + 1,
                     fmt::format("notetrack {} '{}': frame {} is past N = {} (time {} > 1)", i,
                                 note.name, note.frame, n, note.time(n))});
    }
    if (i > 0 && note.frame < f.notes[i - 1].frame) {
      out.push_back({false, false, note.offset,
                     fmt::format("notetrack {} '{}': frame {} before the previous note's {} (the "
                                 "list is not sorted; firing assumes ascending times)",
                                 i, note.name, note.frame, f.notes[i - 1].frame)});
    }
  }
  return out;
}

}  // namespace animkit::call_of_duty
