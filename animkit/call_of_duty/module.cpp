#include "animkit/call_of_duty/module.h"

namespace animkit::call_of_duty {

void register_module(Registry& registry) {
  Engine engine;
  engine.name = "call_of_duty";
  registry.add(std::move(engine));
}

}  // namespace animkit::call_of_duty
