// The `animkit <engine> ...` verbs of the shadow_of_war module.
#include "cli.h"

namespace animkit::cli {

void add_shadow_of_war_verbs(CLI::App& /*app*/, Cli& /*cli*/) {}

}  // namespace animkit::cli
