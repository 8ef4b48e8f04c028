#include "core/length_control.h"

#include <gtest/gtest.h>

namespace cfuzz::core {
namespace {

TEST(LengthControl, StartsAtTheLongestCorpusValueButAtLeastFourBytes) {
  EXPECT_EQ(LengthControl(4096, 0, 100).limit(0), 4u);
  EXPECT_EQ(LengthControl(4096, 37, 100).limit(0), 37u);
  EXPECT_EQ(LengthControl(16, 37, 100).limit(0), 16u);  // never past --max-len
}

TEST(LengthControl, OffMeansMaxLenFromTheStart) {
  LengthControl off(4096, 0, 0);
  EXPECT_EQ(off.limit(0), 4096u);
  EXPECT_EQ(off.limit(1000000), 4096u);
}

TEST(LengthControl, GrowsByLog2AfterRateTimesLog2ExecutionsWithoutNewCoverage) {
  LengthControl c(4096, 0, 100);
  // At 4 bytes: log2 = 2, so more than 200 executions, then 4 + 2.
  EXPECT_EQ(c.limit(200), 4u);
  EXPECT_EQ(c.limit(201), 6u);
  // At 6: log2 = 2 again, counted from the step (200): past 400.
  EXPECT_EQ(c.limit(400), 6u);
  EXPECT_EQ(c.limit(401), 8u);
  // At 8: log2 = 3, past 700 → 11.
  EXPECT_EQ(c.limit(700), 8u);
  EXPECT_EQ(c.limit(701), 11u);
}

TEST(LengthControl, ALongCallCatchesUpEveryStepOnTheWay) {
  LengthControl stepwise(4096, 0, 100), at_once(4096, 0, 100);
  for (std::uint64_t execs = 0; execs <= 50000; execs += 7) stepwise.limit(execs);
  EXPECT_EQ(at_once.limit(50000), stepwise.limit(50000));
  EXPECT_GT(at_once.current(), 100u);
  EXPECT_EQ(LengthControl(4096, 0, 100).limit(100000000), 4096u);  // and stops at --max-len
}

TEST(LengthControl, NewCoverageHoldsTheLimit) {
  LengthControl c(4096, 0, 100);
  c.corpus_grew(150);
  EXPECT_EQ(c.limit(350), 4u);  // 200 executions since the corpus grew, not more
  EXPECT_EQ(c.limit(351), 6u);
  c.corpus_grew(100);           // an older count (another worker's call) does not move it back
  EXPECT_EQ(c.limit(550), 6u);  // counted from the step at 350
  EXPECT_EQ(c.limit(551), 8u);
}

}  // namespace
}  // namespace cfuzz::core
