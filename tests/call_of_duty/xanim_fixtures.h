// xanim v14 files built in code (cod-xanim-format.md §1): the import tests' originals. Streams are
// given as the file stores them (stored lanes, frame lists); the bit sets follow from the parts.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "animkit/call_of_duty/xanim_file.h"

namespace animkit::call_of_duty::testing {

inline XAnimRotationStream rot(bool two_component, std::vector<uint16_t> frames,
                               std::vector<int16_t> stored) {
  XAnimRotationStream s;
  s.two_component = two_component;
  s.key_count = static_cast<uint16_t>(stored.size() / (two_component ? 1 : 3));
  s.frames = std::move(frames);
  s.stored = std::move(stored);
  return s;
}

inline XAnimTranslationStream trans(std::vector<uint16_t> frames, std::vector<Vec3> values) {
  XAnimTranslationStream s;
  s.key_count = static_cast<uint16_t>(values.size());
  s.frames = std::move(frames);
  s.values = std::move(values);
  return s;
}

inline XAnimPart part(std::string name, bool sign, XAnimRotationStream r, XAnimTranslationStream t) {
  XAnimPart p;
  p.name = std::move(name);
  p.sign = sign;
  p.rotation = std::move(r);
  p.translation = std::move(t);
  return p;
}

// The bytes of a file: header fields as given, bit sets from the parts (§1.2 items 2-3).
inline std::vector<uint8_t> xanim_bytes(XAnimFile f) {
  f.header.num_parts = static_cast<int16_t>(f.parts.size());
  f.has_delta = f.header.has_delta();
  const size_t bytes = (f.parts.size() + 7) / 8;
  f.sign_bits.resize(bytes, 0);
  f.compressed_bits.resize(bytes, 0);
  for (size_t i = 0; i < f.parts.size(); ++i) {
    if (f.parts[i].sign) f.sign_bits[i >> 3] |= static_cast<uint8_t>(1u << (i & 7));
    if (f.parts[i].rotation.two_component) {
      f.compressed_bits[i >> 3] |= static_cast<uint8_t>(1u << (i & 7));
    }
  }
  return write_xanim(f);
}

inline XAnimNote note(std::string name, uint16_t frame) {
  XAnimNote n;
  n.name = std::move(name);
  n.frame = frame;
  return n;
}

// Looped, delta motion, 30 fps, T = 7 (F = 6, N = 6): several parts in the forms an importer
// writes without a template (no key inside a run of equal keys, 2-component exactly where a part
// is yaw-only): full dense with the sign bit and continuity flips, 2-component sparse, no
// rotation, constants, notetracks out of order and an explicit `end` at N.
inline std::vector<uint8_t> several_parts() {
  XAnimFile f;
  f.header.num_frames = 6;
  f.header.flags = XAnimHeader::kLooped | XAnimHeader::kDelta;
  f.header.frame_rate = 30;
  f.delta_rotation = rot(true, {0, 3, 6}, {0, 8000, 16000});
  f.delta_translation = trans({}, {{0, 0, 0}, {1, 0.5f, 0}, {2, 1, 0}, {3, 1.5f, 0},
                                   {4, 2, 0.25f}, {5, 2.5f, 0}, {6, 3, 0}});
  f.parts.push_back(part("j_spine", true,
                         rot(false, {}, {1000, 2000, 3000, 1100, 2100, 2900, -1200, -2200, -2800,
                                         -1300, -2000, -2600, 1400, 1900, 2400, 1500, 1800, 2200,
                                         1600, 1700, 2000}),
                         trans({}, {{0, 0, 10}, {0, 0.1f, 10}, {0, 0.2f, 10}, {0, 0.3f, 10},
                                    {0, 0.2f, 10}, {0, 0.1f, 10}, {0, 0, 10}})));
  f.parts.push_back(part("j_yaw", false, rot(true, {0, 2, 6}, {0, 12000, -5000}),
                         trans({0, 4, 6}, {{1, 2, 3}, {1.5f, 2, 3}, {1, 2, 3}})));
  f.parts.push_back(part("j_arm", false, rot(false, {0, 1, 6}, {-30000, 5000, 100, 20000, -20000,
                                                                 7000, 0, 30000, 0}),
                         trans({}, {})));
  f.parts.push_back(part("j_still", false, rot(true, {}, {}), trans({}, {})));
  f.parts.push_back(part("j_hold", true, rot(false, {}, {5000, -3000, 1000}),
                         trans({}, {{1, 2, 3}})));
  f.notes = {note("footstep_right", 4), note("footstep_left", 1), note("end", 6)};
  return xanim_bytes(std::move(f));
}

// Not looped, 300 frames at 24 fps: two-byte frame indices (T > 256).
inline std::vector<uint8_t> long_clip() {
  XAnimFile f;
  f.header.num_frames = 300;
  f.header.frame_rate = 24;
  f.parts.push_back(part("tag_origin", false, rot(true, {0, 150, 299}, {0, 23170, -23170}),
                         trans({0, 255, 299}, {{0, 0, 0}, {100, 0, 0}, {120, 5, 0}})));
  f.notes = {note("start", 0), note("fire", 280)};
  return xanim_bytes(std::move(f));
}

// What only a template gives back: a yaw-only part stored in full, a dense stream with repeats,
// a constant stored as two keys, keys whose w is 0 (two stored forms decode alike), unused bit-set bits, an unknown flag bit, bytes after the
// notetracks.
inline std::vector<uint8_t> template_only() {
  XAnimFile f;
  f.header.num_frames = 4;
  f.header.flags = 0x04;
  f.header.frame_rate = 20;
  f.parts.push_back(part("j_fullyaw", false, rot(false, {}, {0, 0, 7000, 0, 0, 7100, 0, 0, 7200,
                                                             0, 0, 7300}),
                         trans({0, 3}, {{2, 2, 2}, {2, 2, 2}})));
  f.parts.push_back(part("j_repeat", false, rot(true, {}, {100, 100, 100, 200}), trans({}, {})));
  // w = 0 keys: stored (0, 32767, 0) flipped by continuity and (0, -32767, 0) unflipped decode
  // alike, as do z = 32767 with the sign bit and z = -32767 without.
  f.parts.push_back(part("j_flip", false, rot(false, {}, {20000, -20000, 7000, 0, 32767, 0, 1000,
                                                          30000, 0, 2000, 28000, 0}),
                         trans({}, {})));
  f.parts.push_back(part("j_signzero", true, rot(true, {}, {32767}), trans({}, {})));
  std::vector<uint8_t> b = xanim_bytes(std::move(f));
  XAnimFile g = parse_xanim(b, "template_only");
  g.sign_bits[0] |= 0x80;
  g.compressed_bits[0] |= 0x40;
  g.tail = {0xDE, 0xAD};
  return write_xanim(g);
}

}  // namespace animkit::call_of_duty::testing
