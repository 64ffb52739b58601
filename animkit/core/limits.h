// The one place that bounds what an input may cost (issue 19): the memory a document or a player
// may allocate, and the steps one update may take. The defaults are far above anything a real
// file or scenario needs; the CLI sets them from --max-memory / --max-steps. Every "count x size
// fits" check goes through the overflow-safe helpers here, so a product cannot wrap to a small
// number and pass.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace animkit {

struct Limits {
  static constexpr uint64_t kDefaultMaxMemory = uint64_t{1} << 30;  // 1 GiB per document / player
  // Loop steps in one update, and the steps of one whole play (play_steps below).
  static constexpr uint64_t kDefaultMaxSteps = 1'000'000;

  uint64_t max_memory = kDefaultMaxMemory;
  uint64_t max_steps = kDefaultMaxSteps;
};

// The limits in force for this process (set once, before any work starts; read from any thread).
const Limits& limits();
void set_limits(const Limits& limits);

// a * b, or nothing when the product does not fit 64 bits.
std::optional<uint64_t> mul_u64(uint64_t a, uint64_t b);
// True when `count` items of `size` bytes fit in `available` bytes (never wraps).
bool fits(uint64_t count, uint64_t size, uint64_t available);
// count * size in bytes, checked against overflow and the memory limit: throws animkit::Error
// "WHAT: COUNT x SIZE bytes exceed the memory limit of N bytes (--max-memory)" (at `offset` when
// given). Use before every allocation whose size comes from input.
uint64_t checked_size(uint64_t count, uint64_t size, std::string_view what,
                      std::optional<uint64_t> offset = std::nullopt);
// Throws unless `bytes` is within the memory limit.
void check_memory(uint64_t bytes, std::string_view what,
                  std::optional<uint64_t> offset = std::nullopt);

// Sums what one document or player allocates from input-driven sizes, item by item (a skeleton,
// then each clip, then each character): the add that takes the total past limits().max_memory
// throws "WHAT: ITEM: COUNT x SIZE bytes bring the total to N bytes, over the memory limit of M
// bytes (--max-memory)". Use where no single allocation is too large but their sum can be.
class MemoryBudget {
 public:
  explicit MemoryBudget(std::string_view what) : what_(what), max_(limits().max_memory) {}
  void add(uint64_t count, uint64_t size, std::string_view item);
  uint64_t bytes() const { return bytes_; }

 private:
  std::string_view what_;
  uint64_t max_;
  uint64_t bytes_ = 0;
};

// Counts the iterations of a loop whose length depends on input (a time step, a link chain, a
// node rebuild); the step past limits().max_steps throws "WHAT: more than N steps in one update
// (--max-steps)". Cheap: an increment and a compare. Make one per update (or per call).
class StepBudget {
 public:
  explicit StepBudget(std::string_view what) : what_(what), max_(limits().max_steps) {}
  void step() {
    if (++steps_ > max_) exceeded();
  }
  void step(uint64_t n) {
    steps_ += n;
    if (steps_ > max_) exceeded();
  }
  uint64_t steps() const { return steps_; }

 private:
  [[noreturn]] void exceeded() const;
  std::string_view what_;
  uint64_t max_;
  uint64_t steps_ = 0;
};

// The work of one whole `animkit play` (issue 19, "a whole-scenario budget"), counted before it
// runs: a scenario that asks for 2e9 updates is refused at once instead of running for hours.
// One step is one character (or monster part) traced in one update, plus one per 8 joints it
// poses (the trace line and the pose are what an update costs). The default of 1,000,000 steps
// is about 10 s of work on a slow machine and far above a real scenario (300 characters of 34
// joints for 600 frames: 900,000).
constexpr uint64_t play_steps_per_update(uint64_t characters, uint64_t joints) {
  return characters * (1 + joints / 8);  // callers keep both far below 2^32
}
// updates x per_update, saturating at UINT64_MAX (a sum of them too: use add_play_steps).
uint64_t play_steps(uint64_t updates, uint64_t per_update);
uint64_t add_play_steps(uint64_t a, uint64_t b);
// Throws unless `steps` is within limits().max_steps: "WHAT: N steps in one play exceed the limit
// of M steps (--max-steps)".
void check_play_steps(uint64_t steps, std::string_view what);

}  // namespace animkit
