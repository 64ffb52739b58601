#include "animkit/asherons_call/json_helpers.h"

#include <fmt/format.h>

#include <cmath>

#include <algorithm>
#include <climits>

#include "animkit/asherons_call/command_ids.h"
#include "animkit/core/error.h"

namespace animkit::asherons_call {

Json hex_json(uint32_t v) { return hex32(v); }

Json command_json(uint32_t v) { return command_label(v); }

uint32_t u32_from_json(const Json& j, const char* what) {
  if (j.is_number_unsigned()) {
    const uint64_t v = j.get<uint64_t>();
    if (v <= 0xFFFFFFFFu) return static_cast<uint32_t>(v);
  } else if (j.is_number_integer()) {
    const int64_t v = j.get<int64_t>();
    if (v >= 0 && v <= 0xFFFFFFFF) return static_cast<uint32_t>(v);
  } else if (j.is_string()) {
    try {
      return parse_command(j.get<std::string>());
    } catch (const Error&) {
    }
  }
  throw Error(fmt::format("{}: expected a 32-bit id (number, \"0x...\" or a command name), got {}",
                          what, j.dump()));
}

const Json& member(const Json& j, const char* key) {
  if (!j.is_object()) throw Error(fmt::format("expected an object with \"{}\"", key));
  auto it = j.find(key);
  if (it == j.end()) throw Error(fmt::format("missing \"{}\"", key));
  return *it;
}

float float_from_json(const Json& j, const char* what) {
  if (!j.is_number()) throw Error(fmt::format("{}: expected a number", what));
  // A value past the f32 range would become infinity and poison the state (issue 13, item 5).
  const double d = j.get<double>();
  const float f = static_cast<float>(d);
  if (!std::isfinite(d) || !std::isfinite(f))
    throw Error(fmt::format("{}: {} is not a finite 32-bit number", what, j.dump()));
  return f;
}

int64_t int_from_json(const Json& j, const char* what, int64_t lo, int64_t hi) {
  if (!j.is_number_integer()) throw Error(fmt::format("{}: expected an integer", what));
  const int64_t v =
      j.is_number_unsigned()
          ? static_cast<int64_t>(std::min<uint64_t>(j.get<uint64_t>(), uint64_t{INT64_MAX}))
          : j.get<int64_t>();
  if (v < lo || v > hi)
    throw Error(fmt::format("{}: {} is out of range [{}, {}]", what, v, lo, hi));
  return v;
}

}  // namespace animkit::asherons_call
