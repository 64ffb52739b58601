// Evaluating an xanim at a normalised time as the game does (cod-xanim-format.md §2.1-2.2): the
// frame from t x N, dense or sparse keys, int16 lanes lerped in float and scaled by 1/32767
// (nlerp-like, never slerp), float translations lerped; and the notetracks with the implicit
// `end` (§1.5).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "animkit/call_of_duty/xanim_file.h"
#include "animkit/core/math.h"

namespace animkit::call_of_duty {

// §2.1: where the frame index comes from. Linux: the float product t x N, rounded; Windows: the
// unrounded product. They differ only when the product rounds up to an integer.
enum class XAnimPlatform { kLinux, kWindows };

// Where a time falls between two keys of a stream.
struct XAnimKeySpan {
  uint32_t first = 0;   // key index
  uint32_t second = 0;  // key index (== first for a constant or the last key)
  float frac = 0;       // of the way from first to second
};

struct XAnimFrame {
  bool last = false;  // t = 1.0 or N = 0: the last stored key of every stream
  float ft = 0;       // t x N (float)
  uint32_t f = 0;     // the frame before the time
};
XAnimFrame xanim_frame(float t, uint16_t frame_count_minus_one,
                       XAnimPlatform platform = XAnimPlatform::kLinux);

// The keys a stream of `key_count` keys (with `frames`, empty when dense) interpolates at `at`.
XAnimKeySpan xanim_span(const XAnimFrame& at, uint16_t key_count,
                        const std::vector<uint16_t>& frames);

// One part as the game accumulates it for a single leaf at weight 1.
struct XAnimPartPose {
  Quat lanes;                // quat lanes x, y, z, w: lerped int16 x (1 x 3.0518509447574615e-05f)
  Vec3 translation;          // lerped; 0 with no stream
  bool has_rotation = false;
  bool has_translation = false;
  bool undefined = false;    // an uncompressed part with no rotation (the game reads garbage)
  Quat rotation() const;     // lanes normalised (the matrix conversion scales by 2/|q|^2)
};

XAnimPartPose sample_part(const XAnimPart& part, const XAnimFrame& at);

// The delta-motion streams at a time (§2.5): rotation lanes (z, w) unscaled, (0, 32767) when
// missing; translation 0 when missing.
struct XAnimDeltaSample {
  float z = 0, w = 32767;
  Vec3 translation;
};
XAnimDeltaSample sample_delta(const XAnimFile& file, const XAnimFrame& at);

// The notes with their normalised times, in file order, then `end` at 1.0 (§1.5).
struct XAnimTimedNote {
  std::string name;
  float time = 0;
  int32_t frame = -1;  // -1 for the implicit `end`
};
std::vector<XAnimTimedNote> xanim_notes(const XAnimFile& file);

// §3: the next note from S = `from` < 1: the smallest time >= S, the first in file order on ties
// (`end` at 1.0 guarantees one). The server's walk (xanim_fired_notes) and the tree player's
// notes both start there.
size_t xanim_next_note(const std::vector<XAnimTimedNote>& notes, float from);

// §3: the notes (indices into `notes`, as xanim_notes gives them, `end` last) that fire when the
// time moves from `from` (S, the previous t) to `to` (C, the new t after wrap or clamp).
std::vector<size_t> xanim_fired_notes(const std::vector<XAnimTimedNote>& notes, float from,
                                      float to, bool looped);

}  // namespace animkit::call_of_duty
