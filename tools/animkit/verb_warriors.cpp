// The `animkit <engine> ...` verbs of the warriors module.
#include "cli.h"

namespace animkit::cli {

void add_warriors_verbs(CLI::App& /*app*/, Cli& /*cli*/) {}

}  // namespace animkit::cli
