// Text read from files goes into JSON, which must be valid UTF-8: invalid bytes become "\xNN".
#pragma once

#include <string>
#include <string_view>

namespace animkit::shadow_of_war {

std::string printable(std::string_view bytes);

}  // namespace animkit::shadow_of_war
