// Registers the monster_hunter module's formats, player and demo part with the format registry.
#pragma once

#include "animkit/core/registry.h"

namespace animkit::monster_hunter {

void register_module(Registry& registry);

}  // namespace animkit::monster_hunter
