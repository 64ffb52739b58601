// Any bytes -> an Animation (written back identical, and played a little) or animkit::Error.
#include <cstddef>
#include <cstdint>

#include "animkit/asherons_call/sequence.h"

using namespace animkit::asherons_call;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    const animkit::Bytes bytes(data, size);
    Animation a = read_animation(bytes);
    if (write_animation(a) != std::vector<uint8_t>(data, data + size)) __builtin_trap();
    AnimationStore store;
    const uint32_t id = a.id;
    store.add(std::move(a));
    CSequence seq;
    seq.set_store(&store);
    std::vector<QueuedHook> hooks;
    seq.set_hook_obj(&hooks);
    seq.append_animation({id, 0, -1, 30.0f});
    seq.append_animation({id, 0, -1, -30.0f});
    AFrame delta;
    for (int i = 0; i < 8; ++i) seq.update(0.1, &delta);
  } catch (const animkit::Error&) {
  }
  return 0;
}
