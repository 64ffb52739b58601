// The run's work budget (issue 30, "--max-steps counts work across the whole run"): every parser
// and player charges the input-driven work it does -- keys read, nodes walked, events, actions,
// motions, play steps -- to one counter, and the charge that takes it past the armed budget
// throws animkit::Error naming the budget and where it ran out. One counter serves the whole
// process (any thread may charge it); a WorkScope gives the current thread a fresh one for one
// unit of a run that stands alone (survey's files). The budget is armed by a program that is one
// run (the CLI, from --max-steps); unarmed (a library, a test binary, a fuzzer, the Python module
// running many files in one process) charging costs one load and a compare, and never throws.
//
// Units: a step is one play step of limits.h (a character traced in one update). Keys are cheap
// (a few bytes decoded each), so 64 keys make one step; every node, event, action and motion is
// one step. Charge in bulk where a count is known (a key array: its length, once) so the hot
// paths pay one atomic add per array, not per key.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <string_view>

namespace animkit {

enum class Work : uint8_t {
  kKey,     // one keyframe (or one sample of a track) read
  kNode,    // one tree / graph / list node walked or built
  kEvent,   // one clip or scenario event
  kAction,  // one scenario action (a request, a command, a message)
  kMotion,  // one motion performed or queued (Asheron's Call "do", a sequence link)
  kStep,    // one play step (limits.h, play_steps)
};

// Arms the run's budget: from now on, more than `max_steps` steps of work throw (see below).
void arm_work_budget(uint64_t max_steps);
// Disarms it and clears the run's counter (tests).
void disarm_work_budget();

// Charges `n` units of `kind`. Past the budget throws animkit::Error
// "WHERE: the run's work ran out at N keys (or nodes, ...): over the budget of M steps
// (--max-steps); so far K keys, ... (total T steps)". `where` says what was being done
// ("warriors: clip 'walk' keys", "asherons_call: tick 3 motions").
void charge_work(Work kind, uint64_t n, std::string_view where);

// check_play_steps (limits.h) for a play whose total grows as it runs: checks the new total
// `steps` against the per-play limit and charges the run's budget only what it adds to `charged`,
// what the play charged before. (check_play_steps itself charges its whole total once.)
void check_grown_play_steps(uint64_t steps, uint64_t charged, std::string_view what);

// Work charged so far to the current thread's budget, in steps (keys rounded up).
uint64_t work_steps();

// While alive, the current thread charges a fresh budget of its own (same limit) instead of the
// run's; scopes nest. Survey opens one per file so a folder of many files is not one budget.
struct WorkCounter {
  std::array<std::atomic<uint64_t>, 6> count{};  // per Work kind, as charged
  std::atomic<uint64_t> units{0};                // 64 per step, 1 per key
};

class WorkScope {
 public:
  WorkScope();
  ~WorkScope();
  WorkScope(const WorkScope&) = delete;
  WorkScope& operator=(const WorkScope&) = delete;

 private:
  WorkCounter counter_;
  WorkCounter* previous_;
};

// Clears the run's counter (a program that runs several runs in one process).
void reset_work();

}  // namespace animkit
