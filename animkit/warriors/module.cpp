#include "animkit/warriors/module.h"

namespace animkit::warriors {

void register_module(Registry& registry) {
  Engine engine;
  engine.name = "warriors";
  registry.add(std::move(engine));
}

}  // namespace animkit::warriors
