// The command-line program's shared context. One file per verb (DESIGN.md, "The house"); each
// defines add_<verb>_verb(app, cli). The engines are known only through the registry, except
// for the engine verb groups (`animkit warriors ...`, `animkit mh ...`), one file per engine.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <iostream>
#include <string>
#include <vector>

#include "animkit/core/json_text.h"
#include "animkit/core/registry.h"

namespace animkit::cli {

struct Cli {
  Registry registry;
  bool json = false;  // --json, on every verb
  int exit_code = 0;  // set by a verb: 0 ok, 1 invalid input
  std::ostream& out = std::cout;
  std::ostream& err = std::cerr;
  // A verb that finishes its output and then exits 1 (validate with errors, a tree that does not
  // load) says why here; main prints it as the one `error:` line on stderr (issue 31, item 4).
  std::string error;
  void fail(const std::string& file, const std::string& why) {
    exit_code = 1;
    if (error.empty()) error = file.empty() ? why : file + ": " + why;
  }
};

// Adds the engines' shared options (--skeleton, --game, ...) and --format to a verb, collecting
// their values into `options` (only those given).
void add_engine_options(CLI::App& verb, Cli& cli, Options& options);
// Opens the files named on the command line, or, when none are, the set the options name.
std::vector<std::unique_ptr<Document>> open_documents(Cli& cli, const std::vector<std::string>& files,
                                                      const Options& options);
// Skeleton + clips from the documents: the first skeleton, and every clip that fits it. `files`
// names the documents in order (errors name them); a number that is not finite where the
// samplers and glTF need one is an error (issue 31).
Animated merge_neutral(const std::vector<std::unique_ptr<Document>>& documents,
                       const std::vector<std::string>& files = {});
// merge_neutral, plus the meshes of the document whose skeleton it took (nullopt when that file
// holds no model); what the meshes leave out goes to the Animated's notes.
Animated merge_neutral(const std::vector<std::unique_ptr<Document>>& documents,
                       const std::vector<std::string>& files, std::optional<MeshSet>& meshes);

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

// The one rule for numbers on the command line (issue 31, item 3): every floating-point option
// of every verb takes a finite number that fits a float32 (the engines' type); NaN, +-inf and
// 1e39 are usage errors naming the option (exit 2). check_numbers adds the validator to every
// FLOAT option of `app` and its verbs, after they are all declared, so no verb can miss it, and
// puts it before any range check the option has (so "inf" reads as not finite, not out of range).
// Integer options get the same NaN / inf message first; CLI11 then refuses what is not an
// integer or is out of the type's (or the option's) range.
extern const CLI::Validator kFiniteFloat;
extern const CLI::Validator kFiniteInteger;
void check_numbers(CLI::App& app);
// An integer option's range as its README states it ([lo, hi], both ends accepted): a value
// outside is a usage error naming the option (exit 2), checked after the finite rule. The engine
// options (EngineOption::Kind::kInteger) and the engine verbs' own integer options use it.
CLI::Option* integer_range(CLI::Option* option, int64_t lo, int64_t hi);
// [0, 2^31 - 1]: a species number, an entry or a clip id (never negative; the spec states no
// bound), as the engine options --em and --entry have it.
constexpr int64_t kMaxId = INT32_MAX;
// A value computed from an option (seconds x the file's frequency): a usage error naming the
// option when it is not finite.
float finite_option_value(double value, const std::string& option);

// Registers every module's formats (core first).
void register_all(Registry& registry);

}  // namespace animkit::cli
