#include "animkit/core/work_budget.h"

#include <fmt/format.h>

#include <string>

#include "animkit/core/error.h"
#include "animkit/core/limits.h"  // mul_u64

namespace animkit {

namespace {

constexpr uint64_t kUnitsPerStep = 64;  // a key costs 1/64 of a step (work_budget.h, "Units")
constexpr const char* kNames[] = {"keys", "nodes", "events", "actions", "motions", "play steps"};

WorkCounter g_run;
std::atomic<uint64_t> g_max_steps{0};  // 0: not armed
thread_local WorkCounter* t_current = nullptr;

WorkCounter& current() { return t_current ? *t_current : g_run; }

uint64_t sat_mul(uint64_t a, uint64_t b) { return mul_u64(a, b).value_or(UINT64_MAX); }

uint64_t sat_add(std::atomic<uint64_t>& to, uint64_t n) {
  // Saturating add: a huge charge must not wrap the total back under the budget.
  uint64_t old = to.load(std::memory_order_relaxed);
  uint64_t next = 0;
  do {
    next = old > UINT64_MAX - n ? UINT64_MAX : old + n;
  } while (!to.compare_exchange_weak(old, next, std::memory_order_relaxed));
  return next;
}

uint64_t steps_of(uint64_t units) { return units / kUnitsPerStep + (units % kUnitsPerStep != 0); }

}  // namespace

void arm_work_budget(uint64_t max_steps) { g_max_steps.store(max_steps, std::memory_order_relaxed); }

void disarm_work_budget() {
  g_max_steps.store(0, std::memory_order_relaxed);
  reset_work();
}

void charge_work(Work kind, uint64_t n, std::string_view where) {
  const uint64_t max_steps = g_max_steps.load(std::memory_order_relaxed);
  if (max_steps == 0) return;  // not armed
  WorkCounter& c = current();
  const auto k = static_cast<size_t>(kind);
  const uint64_t count = sat_add(c.count[k], n);
  const uint64_t units = sat_add(c.units, kind == Work::kKey ? n : sat_mul(n, kUnitsPerStep));
  // A saturated total is over any budget (no run does 2^58 steps of work).
  if (units != UINT64_MAX && units <= sat_mul(max_steps, kUnitsPerStep)) return;
  std::string so_far;
  for (size_t i = 0; i < c.count.size(); ++i) {
    const uint64_t v = c.count[i].load(std::memory_order_relaxed);
    if (v != 0 && i != k) so_far += fmt::format(", {} {}", v, kNames[i]);
  }
  const auto num = [](uint64_t v) { return v == UINT64_MAX ? std::string("over 2^64") : std::to_string(v); };
  throw Error(fmt::format(
      "{}: the run's work budget of {} steps (--max-steps) ran out at {} {}{} ({} steps in all)", where,
      max_steps, num(count), kNames[k], so_far, num(steps_of(units))));
}

uint64_t work_steps() { return steps_of(current().units.load(std::memory_order_relaxed)); }

void reset_work() {
  for (auto& v : g_run.count) v.store(0, std::memory_order_relaxed);
  g_run.units.store(0, std::memory_order_relaxed);
}

WorkScope::WorkScope() : previous_(t_current) { t_current = &counter_; }
WorkScope::~WorkScope() { t_current = previous_; }

}  // namespace animkit
