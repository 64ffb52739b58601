// `animkit play SCENARIO.json`: runs an engine's player over a scripted scenario and prints a
// per-update trace (JSON Lines with --json). The scenario's "engine" picks the player.
#include <fmt/format.h>

#include <algorithm>
#include <thread>

#include "cli.h"

namespace animkit::cli {

int max_threads() {
  const unsigned hardware = std::max(1u, std::thread::hardware_concurrency());
  return static_cast<int>(std::min(4u * hardware, 256u));
}

void add_play_verb(CLI::App& app, Cli& cli) {
  auto* verb = app.add_subcommand("play", "run an engine player over a scenario");
  static std::string scenario_path;
  static PlayOptions options;
  verb->add_option("scenario", scenario_path, "SCENARIO.json")->required();
  verb->add_flag("--json", options.json, "one JSON line per update");
  // Issue 30: a documented cap, so `--threads 100000` is a usage error, not 100,000 threads.
  const int cap = max_threads();
  verb->add_option("--threads", options.threads,
                   fmt::format("worker threads (engines that use them); 0 .. {} (4 x the "
                               "hardware threads, at most 256)",
                               cap))
      ->check(CLI::Range(0, cap));
  verb->add_flag("--pose", options.pose, "each update's pose in the trace (engines that trace one)");
  verb->add_flag("--force", options.force, "play clips that have error findings");
  verb->callback([&cli] {
    const std::vector<uint8_t> bytes = read_file(scenario_path);
    const Json scenario = parse_json(
        std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()), scenario_path);
    const std::string engine_name = scenario.is_object() ? scenario.value("engine", std::string()) : "";
    const Engine* engine = cli.registry.engine(engine_name);
    if (!engine || !engine->play) {
      throw Error(fmt::format("no player for engine '{}'", engine_name), std::nullopt, scenario_path);
    }
    try {
      const int code = engine->play(scenario, std::filesystem::path(scenario_path).parent_path(),
                                    options, cli.out);
      if (code == 1) {
        cli.fail(scenario_path, "the play reported an error (see the trace)");
      } else {
        cli.exit_code = code;
      }
    } catch (const Error& e) {
      throw e.with_file(scenario_path);
    }
  });
}

}  // namespace animkit::cli
