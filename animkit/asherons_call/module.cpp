#include "animkit/asherons_call/module.h"

namespace animkit::asherons_call {

void register_module(Registry& registry) {
  Engine engine;
  engine.name = "asherons_call";
  registry.add(std::move(engine));
}

}  // namespace animkit::asherons_call
