#include "animkit/monster_hunter/module.h"

namespace animkit::monster_hunter {

void register_module(Registry& registry) {
  Engine engine;
  engine.name = "monster_hunter";
  registry.add(std::move(engine));
}

}  // namespace animkit::monster_hunter
