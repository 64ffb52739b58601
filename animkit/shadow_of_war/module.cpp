#include "animkit/shadow_of_war/module.h"

namespace animkit::shadow_of_war {

void register_module(Registry& registry) {
  Engine engine;
  engine.name = "shadow_of_war";
  registry.add(std::move(engine));
}

}  // namespace animkit::shadow_of_war
