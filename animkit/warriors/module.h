// Registers the warriors module's formats, player and demo part with the format registry.
#pragma once

#include "animkit/core/registry.h"

namespace animkit::warriors {

void register_module(Registry& registry);

}  // namespace animkit::warriors
