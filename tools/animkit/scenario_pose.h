// The shared half of `warriors pose` and `cod pose` (issue 26): a play scenario run to update K,
// whose pose goes out as glTF. Each engine's verb supplies only how its player runs the scenario.
#pragma once

#include <CLI/CLI.hpp>

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "animkit/core/registry.h"
#include "animkit/core/json_text.h"

namespace animkit::cli {

struct ScenarioPoseArgs {
  std::string scenario_path;
  std::string out_path;
  int update = 0;
};

// Adds SCENARIO (its "engine" named in the help), --update K and -o FILE to `verb`.
void add_scenario_pose_options(CLI::App& verb, ScenarioPoseArgs& args, std::string_view engine);

// Runs the scenario through `play`, which gives the pose at args.update or nothing when the
// scenario ends before it, and writes that pose as .glb (or .gltf by the output's extension).
// Errors name the scenario file.
using PlayToUpdate =
    std::function<std::optional<Animated>(const Json& scenario, const std::filesystem::path& dir)>;
Animated write_scenario_pose(const ScenarioPoseArgs& args, const PlayToUpdate& play);

}  // namespace animkit::cli
