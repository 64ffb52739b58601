// Registers the shadow_of_war module's formats, player and demo part with the format registry.
#pragma once

#include "animkit/core/registry.h"

namespace animkit::shadow_of_war {

void register_module(Registry& registry);

}  // namespace animkit::shadow_of_war
