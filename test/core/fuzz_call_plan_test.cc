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

TEST(InputToStateBudget, StartsWithAnAllowanceAndEarnsAQuarterOfTheRunsExecutions) {
  InputToStateBudget b;
  EXPECT_TRUE(b.allows(0));
  b.spent(InputToStateBudget::kStart - 1);
  EXPECT_TRUE(b.allows(0));
  b.spent(1);
  EXPECT_FALSE(b.allows(0));
  EXPECT_FALSE(b.allows(3));
  EXPECT_TRUE(b.allows(4));  // one execution earned
  b.spent(1000);
  EXPECT_FALSE(b.allows(4000));
  EXPECT_TRUE(b.allows(4004));
}

TEST(FuzzCallPlan, NoInputToStateWhileTheStageIsOverItsShare) {
  Corpus corpus;
  corpus.add(make_corpus_entry("only", Origin::Seed, {corpus::Bytes{'a'}}));
  Pcg rng(1, 1);
  EXPECT_EQ(plan_fuzz_call(corpus, rng, 7, 0, true, false).input_to_state, 0u);
  EXPECT_EQ(plan_fuzz_call(corpus, rng, 7, 1, true, true).input_to_state, kInputToStateCandidates);
}

TEST(FuzzCallPlan, InputToStateResumesWhereTheLastCallOnTheEntryStopped) {
  Corpus corpus;
  corpus.add(make_corpus_entry("only", Origin::Seed, {corpus::Bytes{'a'}}));
  Pcg rng(1, 1);
  FuzzCallPlan first = plan_fuzz_call(corpus, rng, 7, 0, true, true);
  EXPECT_EQ(first.input_to_state, kInputToStateCandidates);
  EXPECT_EQ(first.input_to_state_from, 0u);
  note_input_to_state(corpus.at(first.entry), 12, false);  // candidate 11 found new coverage
  FuzzCallPlan second = plan_fuzz_call(corpus, rng, 7, 1, true, true);
  EXPECT_EQ(second.input_to_state_from, 12u);
  note_input_to_state(corpus.at(second.entry), 5, false);  // an older call's answer comes late
  note_input_to_state(corpus.at(second.entry), 40, true);  // all 40 have run
  EXPECT_EQ(corpus.at(0).input_to_state_next, 40u);
  EXPECT_EQ(plan_fuzz_call(corpus, rng, 7, 2, true, true).input_to_state, 0u);
}

TEST(FuzzCallPlan, InputToStateStopsAfterSoManyCallsOnTheEntry) {
  // A target whose comparisons vary from run to run may never get to the end of its list.
  Corpus corpus;
  corpus.add(make_corpus_entry("only", Origin::Seed, {corpus::Bytes{'a'}}));
  Pcg rng(1, 1);
  for (std::uint64_t call = 0; call < kInputToStateCalls; ++call) {
    EXPECT_NE(plan_fuzz_call(corpus, rng, 7, call, true, true).input_to_state, 0u);
  }
  EXPECT_EQ(plan_fuzz_call(corpus, rng, 7, kInputToStateCalls, true, true).input_to_state, 0u);
}

}  // namespace
}  // namespace cfuzz::core
