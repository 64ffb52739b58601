// The `animkit <engine> ...` verbs of the monster_hunter module.
#include "cli.h"

namespace animkit::cli {

void add_monster_hunter_verbs(CLI::App& /*app*/, Cli& /*cli*/) {}

}  // namespace animkit::cli
