#include "scenario_pose.h"

#include <fmt/format.h>

#include "animkit/gltf/export.h"

namespace animkit::cli {

void add_scenario_pose_options(CLI::App& verb, ScenarioPoseArgs& args, std::string_view engine) {
  verb.add_option("scenario", args.scenario_path,
                  fmt::format("SCENARIO.json (\"engine\": \"{}\")", engine))
      ->required();
  verb.add_option("--update", args.update, "the update (0-based, as the trace counts)")
      ->required()
      ->check(CLI::NonNegativeNumber);
  verb.add_option("-o,--output", args.out_path, "the .glb (or .gltf) to write")->required();
}

Animated write_scenario_pose(const ScenarioPoseArgs& args, const PlayToUpdate& play) {
  const std::vector<uint8_t> bytes = read_file(args.scenario_path);
  const Json scenario = parse_json(
      std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()),
      args.scenario_path);
  std::optional<Animated> posed;
  try {
    posed = play(scenario, std::filesystem::path(args.scenario_path).parent_path());
  } catch (const Error& e) {
    throw e.with_file(args.scenario_path);
  }
  if (!posed) {
    throw Error(fmt::format("the scenario ends before update {}", args.update), std::nullopt,
                args.scenario_path);
  }
  gltf::ExportOptions eo;
  eo.binary = std::filesystem::path(args.out_path).extension() != ".gltf";
  gltf::write(*posed, args.out_path, eo);
  return std::move(*posed);
}

}  // namespace animkit::cli
