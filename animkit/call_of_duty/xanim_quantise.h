// Quantising a rotation into an xanim key (cod-xanim-format.md §1.3) so that the loader's decode
// gives it back: the stored int16 lanes, the part's sign bit (key 0) and the continuity pass
// (each key negated when its dot product with the previous one is negative) are all taken into
// account, so a rotation that some stored lanes decode to exactly is written with those lanes.
#pragma once

#include <array>
#include <cstdint>

#include "animkit/call_of_duty/xanim_file.h"
#include "animkit/core/math.h"
#include "animkit/core/rotation_angle.h"

namespace animkit::call_of_duty {

struct XAnimQuantisedKey {
  std::array<int16_t, 3> stored{};  // x, y, z (full form) or z in [0] (2-component form)
  bool sign = false;                // key 0 only: the part's sign bit
  XAnimQuatKey key{};               // as the loader decodes it
  bool operator==(const XAnimQuantisedKey&) const = default;
};

// The stored lanes whose decode (after `previous`, or as key 0 when it is null) is nearest to
// `target`: first by rotation (either sign), then by sign; among exact ties `preferred` (the
// template's key) wins, else the smallest (sign, lanes). `allow_sign`: key 0 may take the sign bit (never for delta motion).
// The candidates are the rounded lanes of +-target and their neighbours (+-1 per lane), which
// contain the original lanes of any key whose w the loader rebuilt (|lanes| <= 32767).
XAnimQuantisedKey quantise_key(Quat target, bool two_component, const XAnimQuatKey* previous,
                               bool allow_sign, const XAnimQuantisedKey* preferred = nullptr);

// True when every lane but z rounds to 0 (and so the 2-component form can hold the rotation).
bool yaw_only(Quat q);

// (The angle between two rotations is the core's rotation_angle, math.h: issue 32, item 4.)

}  // namespace animkit::call_of_duty
