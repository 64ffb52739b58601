// Conversions between the two clip encodings (issue 5, "Formats"): the same content re-encoded
// where it fits, with a report of what cannot be carried over.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "animkit/monster_hunter/pack.h"

namespace animkit::monster_hunter {

struct Conversion {
  AnimPack pack;
  std::vector<std::string> report;  // one line per thing not carried over (or carried with a risk)
};

// Re-encodes every clip of a pack in `to`'s encoding; the container, slots, sharing and tail are
// kept. To MHP3rd: a clip with a track over 0xFFFF bytes or a channel over 0xFFFF keys cannot be
// encoded: its slots are emptied and reported. To MHFU: scale channels are carried but reported
// (the MHFU engine crashes on them; `animkit mh fix` drops them). Either way the tracks are not
// re-mapped: MHFU clips are per part, MHP3rd records count from a per-monster offset (use
// rig_from_records / put to move a motion between rigs).
Conversion convert_pack(const AnimPack& pack, Game to);

// An MHP3rd clip as a whole-rig clip (one track per bone): record r at the bone the record map
// gives (records.for_monster with the species `em`); other bones get no track.
Clip rig_from_records(const Clip& clip, int bones, std::optional<int> em);

}  // namespace animkit::monster_hunter
