// The run's work budget of animkit/core/work_budget.h (issue 30, "--max-steps counts work").
#include "animkit/core/work_budget.h"

#include <gtest/gtest.h>

#include <thread>

#include "animkit/core/error.h"

namespace animkit {
namespace {

struct Fresh {  // the budget disarmed and the run's counter cleared after each test
  ~Fresh() { disarm_work_budget(); }
};

TEST(WorkBudget, UnarmedItNeverThrows) {
  Fresh fresh;
  charge_work(Work::kStep, UINT64_MAX, "play");
  charge_work(Work::kKey, UINT64_MAX, "keys");
  EXPECT_EQ(work_steps(), 0u);
}

TEST(WorkBudget, CountsEveryKindAgainstOneBudget) {
  Fresh fresh;
  arm_work_budget(10);
  charge_work(Work::kNode, 4, "tree");
  charge_work(Work::kMotion, 3, "tick 1");
  charge_work(Work::kKey, 64 * 3, "clip 'a'");  // 192 keys: 3 steps
  EXPECT_EQ(work_steps(), 10u);
  try {
    charge_work(Work::kKey, 1, "clip 'b' keys");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.message(),
              "clip 'b' keys: the run's work budget of 10 steps (--max-steps) ran out at 193 keys, "
              "4 nodes, 3 motions (11 steps in all)");
  }
}

TEST(WorkBudget, AHugeChargeSaturatesInsteadOfWrapping) {
  Fresh fresh;
  arm_work_budget(UINT64_MAX / 2);
  EXPECT_THROW(charge_work(Work::kAction, UINT64_MAX / 8, "actions"), Error);  // x64 overflows
  reset_work();
  charge_work(Work::kEvent, 1, "e");
  EXPECT_THROW(charge_work(Work::kStep, UINT64_MAX, "play"), Error);
}

TEST(WorkBudget, ThreadsShareTheRunsBudget) {
  Fresh fresh;
  arm_work_budget(1000);
  std::thread a([] { charge_work(Work::kNode, 600, "a"); });
  a.join();
  EXPECT_EQ(work_steps(), 600u);
  EXPECT_THROW(charge_work(Work::kNode, 401, "b"), Error);
}

TEST(WorkBudget, AScopeIsAFreshBudgetForItsThread) {
  Fresh fresh;
  arm_work_budget(100);
  charge_work(Work::kNode, 90, "run");
  {
    WorkScope file;
    EXPECT_EQ(work_steps(), 0u);
    charge_work(Work::kNode, 100, "file");  // a whole budget of its own
    EXPECT_THROW(charge_work(Work::kNode, 1, "file"), Error);
  }
  EXPECT_EQ(work_steps(), 90u);  // the run's counter again
  EXPECT_THROW(charge_work(Work::kNode, 11, "run"), Error);
}

}  // namespace
}  // namespace animkit
