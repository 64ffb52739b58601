// The xanim v14 file (cod-xanim-format.md §1): header, optional delta-motion streams, the part
// bitsets and names, one rotation and one translation stream per part, notetracks, and whatever
// follows them. Read losslessly (write_xanim gives the same bytes back) and decoded as the loader
// decodes it (§1.3: the rebuilt w lane, the sign of key 0, the continuity pass).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "animkit/call_of_duty/xanim_header.h"
#include "animkit/core/math.h"
#include "animkit/core/reader.h"

namespace animkit::call_of_duty {

// Lanes x, y, z, w of a decoded key, in units of 1/32767. A 2-component key has x = y = 0.
using XAnimQuatKey = std::array<int16_t, 4>;

// §1.3. The frame list is present when 2 <= K < T.
struct XAnimRotationStream {
  uint64_t offset = 0;         // of the key count
  bool two_component = false;  // the compressed (yaw-only) form: only z is stored
  uint16_t key_count = 0;
  std::vector<uint16_t> frames;
  std::vector<int16_t> stored;       // K x 3 (x, y, z) or K x 1 (z), as in the file
  std::vector<XAnimQuatKey> keys;    // decoded: w rebuilt, signs applied
};

// §1.4.
struct XAnimTranslationStream {
  uint64_t offset = 0;
  uint16_t key_count = 0;
  std::vector<uint16_t> frames;
  std::vector<Vec3> values;  // K x (x, y, z)
};

struct XAnimPart {
  std::string name;
  uint64_t name_offset = 0;
  bool sign = false;  // bit i of the sign bits: key 0 is negated
  XAnimRotationStream rotation;
  XAnimTranslationStream translation;
};

struct XAnimNote {
  std::string name;
  uint16_t frame = 0;
  uint64_t offset = 0;
  // §1.5: (float)frame / (float)N; 0 when N = 0.
  float time(uint16_t frame_count_minus_one) const;
};

struct XAnimFile {
  std::string name;  // the asset name (messages say xanim '<name>')
  XAnimHeader header;
  bool has_delta = false;  // header flag bit 1
  XAnimRotationStream delta_rotation;  // 2-component form, no sign
  XAnimTranslationStream delta_translation;
  std::vector<uint8_t> sign_bits;        // ceil(P/8) bytes, kept as stored
  std::vector<uint8_t> compressed_bits;  // ceil(P/8) bytes
  std::vector<XAnimPart> parts;
  uint64_t notes_offset = 0;
  std::vector<XAnimNote> notes;  // in file order (not sorted)
  std::vector<uint8_t> tail;     // bytes after the notetracks ("ignored")

  uint32_t total_frames() const { return header.total_frames(); }
  uint16_t frame_count_minus_one() const { return header.frame_count_minus_one(); }
};

// Parses a whole file. Throws animkit::Error at the offset of the problem: the game's
// `xanim '%s' out of date (version %d, expecting 14)`, or `malformed xanim '%s': <reason>` for
// data the layout cannot be read from (truncated, an unterminated string, a negative part count).
XAnimFile parse_xanim(Bytes bytes, const std::string& name);

// The bytes of a file: parse_xanim(write_xanim(x)) == x and write_xanim(parse_xanim(b)) == b.
std::vector<uint8_t> write_xanim(const XAnimFile& file);

// §1.3 "Decoding a key": w = floor(sqrt(32767^2 - x^2 - y^2 - z^2) + 0.5), 0 when not positive
// (the sum taken modulo 2^32 as a signed 32-bit value).
int16_t rebuild_w(int16_t x, int16_t y, int16_t z);
// Decodes a stream's stored lanes: w rebuilt, key 0 negated when `sign`, then each key negated
// when its int32 dot product with the previous (decoded) one is negative.
std::vector<XAnimQuatKey> decode_rotation(const XAnimRotationStream& stream, bool sign);
// One key of that pass: `stored` holds 3 lanes (full) or 1 (z, 2-component); `previous` is the
// decoded key before it (nullptr for key 0, which takes `sign`).
XAnimQuatKey decode_key(const int16_t* stored, bool two_component, const XAnimQuatKey* previous,
                        bool sign);
// A decoded key as a unit quaternion, in float as the export writes it (0 lanes: identity).
Quat key_rotation(const XAnimQuatKey& key);

// One finding of the loader's checks (`validate`): the game's own, or the port's hardening [H]
// that the game does not make.
struct XAnimFinding {
  bool error = false;
  bool hardening = false;  // [H]: the port checks it, the game does not
  uint64_t offset = 0;
  std::string message;
};
std::vector<XAnimFinding> check_xanim(const XAnimFile& file);

}  // namespace animkit::call_of_duty
