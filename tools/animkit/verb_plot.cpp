// `animkit plot` (issue 8).
#include "cli.h"

namespace animkit::cli {

void add_plot_verb(CLI::App& /*app*/, Cli& /*cli*/) {}

}  // namespace animkit::cli
