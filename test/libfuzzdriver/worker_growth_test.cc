// When a worker that has grown or aged is replaced: growth measured from its size after its
// first call, never while it is young, never with the limits at 0.
#include "libfuzzdriver/worker/worker_growth.h"

#include <chrono>

#include <gtest/gtest.h>

namespace cfuzz::driver {
namespace {

using std::chrono::seconds;

TEST(WorkerGrowth, GrowthIsMeasuredFromTheSizeAfterTheFirstCall) {
  WorkerGrowth g(100);
  auto t0 = WorkerGrowth::Clock::now();
  g.started(t0);
  EXPECT_FALSE(g.outgrown(300, t0 + seconds(1)));  // the first call: 300 MiB is its size
  EXPECT_EQ(g.base_mb(), 300u);
  EXPECT_FALSE(g.outgrown(400, t0 + seconds(60)));  // grown by exactly the limit
  EXPECT_TRUE(g.outgrown(401, t0 + seconds(60)));
}

TEST(WorkerGrowth, AYoungWorkerIsNotReplaced) {
  WorkerGrowth g(10);
  auto t0 = WorkerGrowth::Clock::now();
  g.started(t0);
  EXPECT_FALSE(g.outgrown(50, t0));
  EXPECT_FALSE(g.outgrown(500, t0 + WorkerGrowth::kMinAge - seconds(1)));
  EXPECT_TRUE(g.outgrown(500, t0 + WorkerGrowth::kMinAge));
}

TEST(WorkerGrowth, AWorkerThatStartsSlowlyLivesAHundredTimesItsStart) {
  WorkerGrowth g(10);
  auto t0 = WorkerGrowth::Clock::now();
  g.started(t0, seconds(2));
  EXPECT_FALSE(g.outgrown(50, t0));
  EXPECT_FALSE(g.outgrown(500, t0 + seconds(199)));
  EXPECT_TRUE(g.outgrown(500, t0 + seconds(200)));
}

TEST(WorkerGrowth, ANewProcessMeasuresAfresh) {
  WorkerGrowth g(10);
  auto t0 = WorkerGrowth::Clock::now();
  g.started(t0);
  EXPECT_FALSE(g.outgrown(50, t0));
  EXPECT_TRUE(g.outgrown(100, t0 + seconds(30)));
  g.started(t0 + seconds(31));
  EXPECT_FALSE(g.outgrown(90, t0 + seconds(32)));
  EXPECT_EQ(g.base_mb(), 90u);
  EXPECT_FALSE(g.outgrown(100, t0 + seconds(60)));
}

TEST(WorkerGrowth, AnOldWorkerIsReplacedWhateverItsSize) {
  WorkerGrowth g(0, seconds(60));  // no growth limit
  auto t0 = WorkerGrowth::Clock::now();
  g.started(t0);
  EXPECT_FALSE(g.outgrown(50, t0));
  EXPECT_FALSE(g.outgrown(50, t0 + seconds(59)));
  EXPECT_TRUE(g.outgrown(50, t0 + seconds(60)));
  g.started(t0 + seconds(61));
  EXPECT_FALSE(g.outgrown(50, t0 + seconds(62)));  // the new process is young
}

TEST(WorkerGrowth, TheAgeLimitIsNeverBelowTheYoungestAgeAllowed) {
  WorkerGrowth g(0, seconds(1));
  auto t0 = WorkerGrowth::Clock::now();
  g.started(t0, seconds(1));  // a slow start: at least 100 s
  EXPECT_FALSE(g.outgrown(0, t0 + seconds(2)));
  EXPECT_FALSE(g.outgrown(0, t0 + seconds(99)));
  EXPECT_TRUE(g.outgrown(0, t0 + seconds(100)));  // even with the size unknown
}

TEST(WorkerGrowth, ZeroNeverReplacesAndAnUnreadSizeIsIgnored) {
  WorkerGrowth never(0);
  auto t0 = WorkerGrowth::Clock::now();
  never.started(t0);
  EXPECT_FALSE(never.outgrown(10, t0));
  EXPECT_FALSE(never.outgrown(100000, t0 + seconds(600)));
  WorkerGrowth g(10);
  g.started(t0);
  EXPECT_FALSE(g.outgrown(0, t0));  // /proc could not be read: not a base of 0
  EXPECT_EQ(g.base_mb(), 0u);
}

}  // namespace
}  // namespace cfuzz::driver
