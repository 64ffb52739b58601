// animkit: read, write, play and export the character animation of five game engines.
#include <fmt/format.h>

#include <cstdint>
#include <filesystem>
#include <new>
#include <system_error>

#include "animkit/core/limits.h"
#include "animkit/core/memory_limit.h"
#include "animkit/core/work_budget.h"
#include "cli.h"
#include "memory_budget.h"

int main(int argc, char** argv) {
  using namespace animkit::cli;
  Cli cli;
  register_all(cli.registry);

  CLI::App app{"animkit: character animation of five game engines, exactly as each engine does it"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "animkit 0.1.0");
  // The budgets of animkit/core/limits.h, before or after the verb (issue 19).
  animkit::Limits limits;
  app.add_option("--max-memory", limits.max_memory,
                 "bytes a run may read from one file, inflate from one archive entry, and hold "
                 "(plus 32 MiB for the program; default 1 GiB)")
      ->check(CLI::Range(uint64_t{1}, UINT64_MAX));
  app.add_option("--max-steps", limits.max_steps,
                 "the run's work: play steps, and keys (64 a step), nodes, events, actions, "
                 "motions read or done (default 1,000,000); also the loop steps of one update")
      ->check(CLI::Range(uint64_t{1}, UINT64_MAX));
  app.fallthrough();
  app.parse_complete_callback([&] {
    animkit::set_limits(limits);
    animkit::arm_work_budget(limits.max_steps);  // the whole run's work (issue 30)
    arm_memory_budget(limits.max_memory);  // the whole run's heap (issue 30)
  });
  add_info_verb(app, cli);
  add_dump_verb(app, cli);
  add_validate_verb(app, cli);
  add_export_verb(app, cli);
  add_play_verb(app, cli);
  add_survey_verb(app, cli);
  add_demo_verb(app, cli);
  add_view_verb(app, cli);
  add_plot_verb(app, cli);
  add_pose_verb(app, cli);
  add_import_verb(app, cli);
  add_warriors_verbs(app, cli);
  add_monster_hunter_verbs(app, cli);
  add_call_of_duty_verbs(app, cli);
  add_asherons_call_verbs(app, cli);
  add_shadow_of_war_verbs(app, cli);
  check_numbers(app);  // every verb's float options: finite, a float32 (issue 31)

  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);  // --help, --version
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return 2;  // bad usage (DESIGN.md, "The command line")
  } catch (const animkit::Error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  } catch (const animkit::MemoryLimitExceeded& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  } catch (const std::bad_alloc&) {  // issue 30: one line, never the library's message
    std::cerr << "error: out of memory (--max-memory bounds what one run may hold)\n";
    return 1;
  } catch (const std::filesystem::filesystem_error& e) {
    std::cerr << fmt::format("error: {}: {}\n", e.path1().string(), e.code().message());
    return 1;
  } catch (const std::system_error& e) {  // e.g. a thread the system would not start
    std::cerr << fmt::format("error: {}\n", e.code().message());
    return 1;
  } catch (const nlohmann::json::exception& e) {
    std::cerr << fmt::format("error: JSON: {}\n", e.what());
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
  if (cli.exit_code == 1) {  // the one error line (DESIGN.md, "The command line")
    std::cerr << "error: " << (cli.error.empty() ? "invalid input" : cli.error) << "\n";
  }
  return cli.exit_code;
}
