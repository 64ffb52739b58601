// Any bytes -> a movement message (written back identical, and applied to a remote character)
// or animkit::Error.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
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

// With ANIMKIT_FUZZ_SEED=DIR: writes well-formed messages there as seeds (`make fuzz`) and exits.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  const char* dir = std::getenv("ANIMKIT_FUZZ_SEED");
  if (!dir) return 0;
  std::filesystem::create_directories(dir);
  int n = 0;
  auto seed = [&](const MovementMessage& m) {
    const std::vector<uint8_t> bytes = write_movement_message(m);
    std::ofstream(std::filesystem::path(dir) / ("seed-" + std::to_string(n++)), std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  };
  MovementMessage walk;
  walk.movement_sequence = 1;
  walk.state.flags = imf::kForward | imf::kForwardSpeed;
  walk.state.forward = static_cast<uint16_t>(motion::kWalkForward);
  walk.state.forward_speed = 1.5f;
  seed(walk);
  MovementMessage turn = walk;
  turn.opcode = kOpPositionAndMovement;
  turn.state.flags = imf::kTurn | imf::kSidestep;
  turn.state.turn = static_cast<uint16_t>(motion::kTurnRight);
  turn.state.sidestep = static_cast<uint16_t>(motion::kSideStepRight);
  turn.state.actions.push_back({0x51, 1, 1.f});
  seed(turn);
  MovementMessage move_to;
  move_to.movement_type = 7;
  move_to.move_to.type = 7;
  seed(move_to);
  std::exit(0);
}

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
