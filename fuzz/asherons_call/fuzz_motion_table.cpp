// Any bytes -> a MotionTable (written back identical, and driven a little) or animkit::Error.
#include <cstddef>
#include <cstdint>
#include <memory>

#include "animkit/asherons_call/command_ids.h"
#include "animkit/asherons_call/motion_table_runtime.h"
#include "animkit/asherons_call/synthetic.h"

using namespace animkit::asherons_call;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    const animkit::Bytes bytes(data, size);
    MotionTable t = read_motion_table(bytes);
    if (write_motion_table(t) != std::vector<uint8_t>(data, data + size)) __builtin_trap();
    // Drive the state machine over the parsed table (no animations: nodes are dropped).
    const CMotionTable table(std::move(t));
    CSequence seq;
    MotionState st;
    uint32_t ticks = 0;
    table.set_default_state(st, seq, ticks);
    for (uint32_t m : {motion::kWalkForward, motion::kRunForward, motion::kSideStepRight,
                       motion::kTurnRight, motion::kReady, 0x8000003Eu, 0x1000004Au}) {
      table.do_object_motion(m, st, seq, 1.0f, ticks);
      table.do_object_motion(m, st, seq, -0.5f, ticks);
    }
    table.stop_object_completely(st, seq, ticks);
  } catch (const animkit::Error&) {
  }
  return 0;
}
