// The one place that names every engine module (DESIGN.md: the CLI knows the engines only
// through the registry).
#include "animkit/asherons_call/module.h"
#include "animkit/call_of_duty/module.h"
#include "animkit/core/neutral_json.h"
#include "animkit/monster_hunter/module.h"
#include "animkit/shadow_of_war/module.h"
#include "animkit/warriors/module.h"
#include "cli.h"

namespace animkit::cli {

void register_all(Registry& registry) {
  register_neutral_format(registry);
  warriors::register_module(registry);
  monster_hunter::register_module(registry);
  call_of_duty::register_module(registry);
  asherons_call::register_module(registry);
  shadow_of_war::register_module(registry);
}

}  // namespace animkit::cli
