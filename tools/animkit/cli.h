// The command-line program's shared context. One file per verb (DESIGN.md, "The house"); each
// defines add_<verb>_verb(app, cli). The engines are known only through the registry, except
// for the engine verb groups (`animkit warriors ...`, `animkit mh ...`), one file per engine.
#pragma once

#include <CLI/CLI.hpp>

#include <iostream>
#include <string>
#include <vector>

#include "animkit/core/registry.h"

namespace animkit::cli {

struct Cli {
  Registry registry;
  bool json = false;  // --json, on every verb
  int exit_code = 0;  // set by a verb: 0 ok, 1 invalid input
  std::ostream& out = std::cout;
  std::ostream& err = std::cerr;
};

// Adds the engines' shared options (--skeleton, --game, ...) and --format to a verb, collecting
// their values into `options` (only those given).
void add_engine_options(CLI::App& verb, Cli& cli, Options& options);
// Opens the files named on the command line, or, when none are, the set the options name.
std::vector<std::unique_ptr<Document>> open_documents(Cli& cli, const std::vector<std::string>& files,
                                                      const Options& options);
// Skeleton + clips from the documents: the first skeleton, and every clip that fits it.
Animated merge_neutral(const std::vector<std::unique_ptr<Document>>& documents);

// The most --threads a verb accepts: 4 x the hardware threads, at most 256 (issue 30).
int max_threads();

// The shared verbs.
void add_info_verb(CLI::App& app, Cli& cli);
void add_dump_verb(CLI::App& app, Cli& cli);
void add_validate_verb(CLI::App& app, Cli& cli);
void add_export_verb(CLI::App& app, Cli& cli);
void add_play_verb(CLI::App& app, Cli& cli);
void add_survey_verb(CLI::App& app, Cli& cli);
void add_demo_verb(CLI::App& app, Cli& cli);
void add_view_verb(CLI::App& app, Cli& cli);
void add_plot_verb(CLI::App& app, Cli& cli);
void add_pose_verb(CLI::App& app, Cli& cli);
void add_import_verb(CLI::App& app, Cli& cli);

// The engine verb groups, one file each (verb_<engine>.cpp).
void add_warriors_verbs(CLI::App& app, Cli& cli);
void add_monster_hunter_verbs(CLI::App& app, Cli& cli);
void add_call_of_duty_verbs(CLI::App& app, Cli& cli);
void add_asherons_call_verbs(CLI::App& app, Cli& cli);
void add_shadow_of_war_verbs(CLI::App& app, Cli& cli);

// Registers every module's formats (core first).
void register_all(Registry& registry);

}  // namespace animkit::cli
