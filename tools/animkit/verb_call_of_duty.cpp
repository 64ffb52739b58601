// The `animkit <engine> ...` verbs of the call_of_duty module.
#include "cli.h"

namespace animkit::cli {

void add_call_of_duty_verbs(CLI::App& /*app*/, Cli& /*cli*/) {}

}  // namespace animkit::cli
