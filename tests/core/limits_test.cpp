// The budgets of animkit/core/limits.h (issue 19, "Budgets in the core").
#include "animkit/core/limits.h"

#include <gtest/gtest.h>

#include "animkit/core/error.h"

namespace animkit {
namespace {

// Restores the process limits after a test that changes them.
struct LimitsGuard {
  Limits saved = limits();
  ~LimitsGuard() { set_limits(saved); }
};

TEST(Limits, MulDetectsOverflow) {
  EXPECT_EQ(mul_u64(1u << 20, 1u << 20), uint64_t{1} << 40);
  EXPECT_FALSE(mul_u64(uint64_t{1} << 33, uint64_t{1} << 31));
  // The AC animation case of issue 19: a product that wraps to 0 in 64 bits.
  EXPECT_FALSE(mul_u64(uint64_t{1} << 32, uint64_t{1} << 32));
  EXPECT_EQ(mul_u64(0, UINT64_MAX), 0u);
}

TEST(Limits, FitsNeverWraps) {
  EXPECT_TRUE(fits(10, 8, 80));
  EXPECT_FALSE(fits(10, 8, 79));
  EXPECT_FALSE(fits(uint64_t{1} << 32, uint64_t{1} << 32, 100));  // wraps to 0: must not fit
  EXPECT_TRUE(fits(0, 12, 0));
}

TEST(Limits, CheckedSizeNamesTheLimit) {
  LimitsGuard guard;
  set_limits({.max_memory = 1000, .max_steps = 10});
  EXPECT_EQ(checked_size(10, 100, "keys"), 1000u);
  try {
    checked_size(11, 100, "keys", 0x40);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.offset(), 0x40u);
    EXPECT_EQ(e.message(), "keys: 11 x 100 bytes exceed the memory limit of 1000 bytes (--max-memory)");
  }
  EXPECT_THROW(checked_size(uint64_t{1} << 40, uint64_t{1} << 40, "frames"), Error);
  EXPECT_THROW(check_memory(1001, "pose"), Error);
  EXPECT_NO_THROW(check_memory(1000, "pose"));
}

TEST(Limits, StepBudgetStopsAtTheLimit) {
  LimitsGuard guard;
  set_limits({.max_memory = Limits::kDefaultMaxMemory, .max_steps = 3});
  StepBudget budget("hooks");
  budget.step();
  budget.step();
  budget.step();
  try {
    budget.step();
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.message(), "hooks: more than 3 steps in one update (--max-steps)");
  }
  StepBudget bulk("nodes");
  EXPECT_THROW(bulk.step(4), Error);
}

TEST(Limits, MemoryBudgetSumsItems) {
  LimitsGuard guard;
  set_limits({.max_memory = 1000, .max_steps = 10});
  MemoryBudget budget("scenario");
  budget.add(10, 50, "skeleton");  // 500
  budget.add(5, 100, "clip 'a'");   // 1000: at the limit, allowed
  EXPECT_EQ(budget.bytes(), 1000u);
  try {
    budget.add(1, 1, "character 'x'");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.message(),
              "scenario: character 'x': 1 x 1 bytes bring the total to 1001 bytes, over the memory "
              "limit of 1000 bytes (--max-memory)");
  }
  EXPECT_EQ(budget.bytes(), 1000u);  // a refused add is not counted
  MemoryBudget wrap("clip");
  EXPECT_THROW(wrap.add(uint64_t{1} << 32, uint64_t{1} << 32, "keys"), Error);  // wraps to 0
}

}  // namespace
}  // namespace animkit
