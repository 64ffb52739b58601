// `animkit play` for "engine": "call_of_duty": a scenario names a tree and the game folders its
// xanims come from, and the script's calls on nodes (weight with a blend time, rate, restart) by
// update; the trace gives, per update, every started node's time, cycle and weight, the notes
// fired (server walk and client queue), the blended pose and each leaf's delta motion. README,
// "play", has the scenario's keys.
#pragma once

#include <filesystem>
#include <functional>
#include <iosfwd>

#include "animkit/call_of_duty/tree_player.h"
#include "animkit/core/json_util.h"
#include "animkit/core/registry.h"

namespace animkit::call_of_duty {

// Runs the scenario and writes the trace (JSON Lines with options.json); returns the exit code;
// throws animkit::Error on invalid input.
int play_scenario(const Json& scenario, const std::filesystem::path& base,
                  const PlayOptions& options, std::ostream& out);

// Runs the scenario calling `hook` after each update (k from 0); stops when it returns false.
using PlayHook = std::function<bool(int update, const TreePlayer& player)>;
void run_scenario(const Json& scenario, const std::filesystem::path& base, const PlayHook& hook);

// One update's trace line.
Json update_json(int update, float dt, const TreePlayer& player);

// The pose of an update as a neutral skeleton + one-key clip (`cod pose`): a joint `root`
// (identity) and every part its child, rotation the blended lanes normalised (the game's matrix
// conversion scales by 2/|q|²), translation the blended one. Parts no weighted leaf has keep the
// identity.
Animated pose_to_neutral(const TreePlayer& player, const std::string& name);

}  // namespace animkit::call_of_duty
