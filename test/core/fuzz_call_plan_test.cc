#include "core/fuzz_call_plan.h"

#include <gtest/gtest.h>

namespace cfuzz::core {
namespace {

TEST(InterestingMinimizeBudget, StartsWithOneFullShrink) {
  InterestingMinimizeBudget b;
  EXPECT_EQ(b.grant(0), kInterestingMinimizeExecs);
  b.spent(4000);
  EXPECT_EQ(b.grant(0), 96u);  // what is left of the first 4096
  b.spent(96);
  EXPECT_EQ(b.grant(0), 0u);
}

TEST(InterestingMinimizeBudget, EarnsAQuarterOfTheRunsExecutions) {
  InterestingMinimizeBudget b;
  b.spent(kInterestingMinimizeExecs);
  EXPECT_EQ(b.grant(255), 0u);   // 63 earned: too little to be worth a shrink
  EXPECT_EQ(b.grant(256), 64u);  // the smallest grant
  EXPECT_EQ(b.grant(4000), 1000u);
  EXPECT_EQ(b.grant(1000000), kInterestingMinimizeExecs);  // never more than one shrink's budget
  b.spent(1000);
  EXPECT_EQ(b.grant(4000), 0u);
  EXPECT_EQ(b.grant(8000), 1000u);
}

}  // namespace
}  // namespace cfuzz::core
