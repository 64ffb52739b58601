// `animkit sow events FILE.anix`: each clip's events of the event dictionary (ms, the loaded
// clip object's frame, text) and the keywords of both tables the clip carries, printed clip by
// clip and event by event (a clip may hold a million events: nothing is built whole).
#pragma once

#include <ostream>

#include "animkit/shadow_of_war/anix.h"

namespace animkit::shadow_of_war {

// Throws animkit::Error (at the anim chunk's +0x0C, absolute) saying why the file has no
// decoded dictionary: none (offset 0) or the bytes at the offset do not decode.
void print_events(const AnixFile& file, std::ostream& out, bool json);

}  // namespace animkit::shadow_of_war
