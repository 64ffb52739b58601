// Any bytes -> a Setup (issue 28): binary (written back identical, exported as the creature)
// or its JSON form (read back equal to what it writes), else animkit::Error.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string_view>

#include "animkit/asherons_call/assets.h"
#include "animkit/asherons_call/creature.h"
#include "animkit/asherons_call/setup.h"
#include "animkit/asherons_call/synthetic.h"
#include "animkit/core/registry.h"

using namespace animkit::asherons_call;

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  const char* dir = std::getenv("ANIMKIT_FUZZ_SEED");
  if (!dir) return 0;
  std::filesystem::create_directories(dir);
  Setup s = humanoid_setup();
  const std::vector<uint8_t> bytes = write_setup(s);
  std::ofstream(std::filesystem::path(dir) / "seed-binary", std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  s.id = 0x0200007Bu;  // first byte '{'
  s.tail = {1, 2, 3};
  const std::vector<uint8_t> b7 = write_setup(s);
  std::ofstream(std::filesystem::path(dir) / "seed-7b", std::ios::binary)
      .write(reinterpret_cast<const char*>(b7.data()), static_cast<std::streamsize>(b7.size()));
  std::ofstream(std::filesystem::path(dir) / "seed-json") << to_json(s).dump();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const animkit::Bytes bytes(data, size);
  try {
    const Recognized r = recognize_object(bytes);
    if (r.kind == ObjectKind::kSetup && !r.json.is_null()) {
      const Setup s = setup_from_json(r.json);
      if (setup_from_json(to_json(s)) != s) __builtin_trap();
      (void)write_setup(s);
    } else {
      const Setup s = read_setup(bytes);
      if (write_setup(s) != std::vector<uint8_t>(data, data + size)) __builtin_trap();
      if (s.parts.size() <= 64) (void)creature_to_neutral(s, nullptr, AnimationStore{});
    }
  } catch (const animkit::Error&) {
  }
  return 0;
}
