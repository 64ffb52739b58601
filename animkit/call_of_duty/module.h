// Registers the call_of_duty module's formats, player and demo part with the format registry.
#pragma once

#include "animkit/core/registry.h"

namespace animkit::call_of_duty {

void register_module(Registry& registry);

}  // namespace animkit::call_of_duty
