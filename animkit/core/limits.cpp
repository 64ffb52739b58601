#include "animkit/core/limits.h"

#include <fmt/format.h>

#include <algorithm>
#include <string>

#include "animkit/core/error.h"
#include "animkit/core/work_budget.h"

namespace animkit {

namespace {
Limits g_limits;
}  // namespace

const Limits& limits() { return g_limits; }
void set_limits(const Limits& limits) { g_limits = limits; }

std::optional<uint64_t> mul_u64(uint64_t a, uint64_t b) {
  uint64_t product = 0;
  if (__builtin_mul_overflow(a, b, &product)) return std::nullopt;
  return product;
}

bool fits(uint64_t count, uint64_t size, uint64_t available) {
  auto product = mul_u64(count, size);
  return product && *product <= available;
}

uint64_t checked_size(uint64_t count, uint64_t size, std::string_view what,
                      std::optional<uint64_t> offset) {
  auto product = mul_u64(count, size);
  if (!product)
    throw Error(fmt::format("{}: {} x {} bytes overflows 64 bits", what, count, size), offset);
  if (*product > g_limits.max_memory)
    throw Error(fmt::format("{}: {} x {} bytes exceed the memory limit of {} bytes (--max-memory)",
                            what, count, size, g_limits.max_memory),
                offset);
  return *product;
}

void check_memory(uint64_t bytes, std::string_view what, std::optional<uint64_t> offset) {
  if (bytes > g_limits.max_memory)
    throw Error(fmt::format("{}: {} bytes exceed the memory limit of {} bytes (--max-memory)", what,
                            bytes, g_limits.max_memory),
                offset);
}

void MemoryBudget::add(uint64_t count, uint64_t size, std::string_view item) {
  const auto product = mul_u64(count, size);
  if (!product) throw Error(fmt::format("{}: {}: {} x {} bytes overflows 64 bits", what_, item, count, size));
  if (*product > max_ - std::min(bytes_, max_)) {
    throw Error(fmt::format(
        "{}: {}: {} x {} bytes bring the total to {} bytes, over the memory limit of {} bytes "
        "(--max-memory)",
        what_, item, count, size, bytes_ + std::min(*product, UINT64_MAX - bytes_), max_));
  }
  bytes_ += *product;
}

void StepBudget::exceeded() const {
  throw Error(fmt::format("{}: more than {} steps in one update (--max-steps)", what_, max_));
}

uint64_t play_steps(uint64_t updates, uint64_t per_update) {
  return mul_u64(updates, per_update).value_or(UINT64_MAX);
}

uint64_t add_play_steps(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }

// Past the per-play check, the steps go to the run's work budget too (issue 30).
void check_play_steps(uint64_t steps, std::string_view what) { check_grown_play_steps(steps, 0, what); }

void check_grown_play_steps(uint64_t steps, uint64_t charged, std::string_view what) {
  if (steps <= g_limits.max_steps) {
    if (steps > charged) charge_work(Work::kStep, steps - charged, what);
    return;
  }
  const std::string n = steps == UINT64_MAX ? std::string("over 2^64") : std::to_string(steps);
  throw Error(fmt::format("{}: {} steps in one play exceed the limit of {} steps (--max-steps)",
                          what, n, g_limits.max_steps));
}

}  // namespace animkit
