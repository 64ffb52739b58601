// The `animkit <engine> ...` verbs of the asherons_call module.
#include "cli.h"

namespace animkit::cli {

void add_asherons_call_verbs(CLI::App& /*app*/, Cli& /*cli*/) {}

}  // namespace animkit::cli
