// `animkit play` for "engine": "warriors": a scripted human playing through its task stack, one
// trace line per update (the trace format; README lists every action).
#pragma once

#include <filesystem>
#include <iosfwd>

#include "animkit/core/json_util.h"

namespace animkit::warriors {

// Runs the scenario; returns the exit code; throws animkit::Error on invalid input.
int play_scenario(const Json& scenario, const std::filesystem::path& base, bool json,
                  std::ostream& out);

}  // namespace animkit::warriors
