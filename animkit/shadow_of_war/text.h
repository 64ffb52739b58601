// Text read from files goes into JSON, which must be valid UTF-8: core printable (issue 16
// item 5), valid UTF-8 kept, other bytes and control characters as "\xNN", the backslash kept
// (paths read as written: "orc\anims\run"). The JSON form carries a `<key>_hex` beside any text
// that does not give its bytes back (anix_json.cpp), which a kept backslash needs.
#pragma once

#include <string>
#include <string_view>

#include "animkit/core/text.h"

namespace animkit::shadow_of_war {

inline std::string printable(std::string_view bytes) {
  return animkit::printable(bytes, Keep::kUtf8, Backslash::kKept);
}

}  // namespace animkit::shadow_of_war
