// Any bytes -> a movement message (written back identical, and applied to a remote character)
// or animkit::Error.
#include <cstddef>
#include <cstdint>
#include <memory>

#include "animkit/asherons_call/command_ids.h"
#include "animkit/asherons_call/synthetic.h"
#include "animkit/asherons_call/wire.h"

using namespace animkit::asherons_call;

namespace {
struct World {
  AnimationStore store;
  std::shared_ptr<const CMotionTable> table;
  World() {
    for (Animation& a : humanoid_animations()) store.add(std::move(a));
    table = std::make_shared<const CMotionTable>(humanoid_table());
  }
};
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static World world;
  try {
    const animkit::Bytes bytes(data, size);
    const MovementMessage m = read_movement_message(bytes);
    if (write_movement_message(m) != std::vector<uint8_t>(data, data + size)) __builtin_trap();
    PhysicsObj obj(world.table, &world.store);
    obj.enter_default_state();
    dispatch_movement(obj, m);
    obj.update_object(0.25);
  } catch (const animkit::Error&) {
  }
  return 0;
}
