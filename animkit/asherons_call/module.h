// Registers the asherons_call module's formats, player and demo part with the format registry.
#pragma once

#include "animkit/core/registry.h"

namespace animkit::asherons_call {

void register_module(Registry& registry);

}  // namespace animkit::asherons_call
