// `animkit play` for "engine": "warriors": a scripted human playing through its task stack, one
// trace line per update (the trace format; README lists every action).
#pragma once

#include <filesystem>
#include <functional>
#include <iosfwd>

#include "animkit/core/json_util.h"
#include "animkit/core/registry.h"

namespace animkit::warriors {

class CharacterInstance;

// A task's `next` chain is built by recursion, so its length is capped: at most this many `next`
// tasks nested in one task; one more is refused (a scenario of 40,000 nested tasks must be an
// error, not a stack overflow). The only place the number is stated.
inline constexpr int kMaxTaskNesting = 256;

// Runs the scenario; returns the exit code; throws animkit::Error on invalid input. With
// `options.pose` (or "pose": true in the scenario) each trace line carries the pose; a clip with
// an error finding is refused unless `options.force` (or "force": true).
int play_scenario(const Json& scenario, const std::filesystem::path& base,
                  const PlayOptions& options, std::ostream& out);
// Runs the scenario without a trace, calling `hook` after each update is sampled (update k, the
// instance); the run stops when the hook returns false (`warriors pose`).
using UpdateHook = std::function<bool(int update, const CharacterInstance& instance)>;
int run_scenario(const Json& scenario, const std::filesystem::path& base,
                 const PlayOptions& options, const UpdateHook& hook);
// The trace's "pose" object for the instance's last sampled pose.
Json pose_json(const CharacterInstance& instance);
// The same, JSON or text, no pose unless the scenario asks.
int play_scenario(const Json& scenario, const std::filesystem::path& base, bool json,
                  std::ostream& out);

}  // namespace animkit::warriors
