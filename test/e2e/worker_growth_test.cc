// A worker that keeps growing over a long run (as one does under ASan) is replaced by a
// fresh one between calls, before it reaches the memory limit and takes a passing input
// for an out-of-memory failure.
#include <string>

#include <gtest/gtest.h>

#include "test/support/test_support.h"

namespace cfuzz::test {
namespace {

std::size_t count_of(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// growing_worker grows about 10 MiB a second: without replacement its worker passes
// --rss-limit-mb 200 after about 20 s and the run fails (out of memory). Replaced once
// it has grown 40 MiB and is 10 s old (worker_growth.h), it stays near 110 MiB.
TEST(GrowingWorker, AGrowingWorkerIsReplacedBeforeItReachesTheMemoryLimit) {
  TempDir dir;
  auto r = run({cfuzz(), "run", target("growing_worker"), "--cachedir", (dir / "cache").string(), "--parallel", "1",
                "--fuzztime", "30s", "--rss-limit-mb", "200", "--worker-growth-mb", "40", "-v"},
               {.cwd = dir.str()});
  EXPECT_EQ(r.exit_code, 0) << r.all();
  EXPECT_NE(r.out.find("PASS"), std::string::npos) << r.all();
  EXPECT_GE(count_of(r.err, "since its first call; replaced in"), 2u) << r.all();
  EXPECT_EQ(r.all().find("out of memory"), std::string::npos) << r.all();
}

// Without replacement the limit holds: the worker's memory is checked across calls, not
// only within one (each fuzzing call lasts 20 ms, shorter than the check's period).
TEST(GrowingWorker, WithoutReplacementAWorkerGrowingAcrossCallsIsOutOfMemory) {
  TempDir dir;
  auto r = run({cfuzz(), "run", target("growing_worker"), "--cachedir", (dir / "cache").string(), "--parallel", "1",
                "--fuzztime", "60s", "--rss-limit-mb", "200", "--worker-growth-mb", "0", "--worker-max-age", "0"},
               {.cwd = dir.str()});
  EXPECT_EQ(r.exit_code, 1) << r.all();
  EXPECT_NE(r.out.find("over the 200 MB limit (--rss-limit-mb)"), std::string::npos) << r.all();
}

// A worker is also replaced at --worker-max-age whatever its size: here the growth limit is
// out of reach, and only the age limit keeps the worker under --rss-limit-mb (reached
// after about 17 s).
TEST(GrowingWorker, AnOldWorkerIsReplacedWhateverItsSize) {
  TempDir dir;
  auto r = run(
      {cfuzz(), "run", target("growing_worker"), "--cachedir", (dir / "cache").string(), "--parallel", "1",
       "--fuzztime", "25s", "--rss-limit-mb", "200", "--worker-growth-mb", "100000", "--worker-max-age", "10s", "-v"},
      {.cwd = dir.str()});
  EXPECT_EQ(r.exit_code, 0) << r.all();
  EXPECT_GE(count_of(r.err, " s old, grew from"), 1u) << r.all();
  EXPECT_EQ(r.all().find("out of memory"), std::string::npos) << r.all();
}

TEST(GrowingWorker, TheAgeLimitIsADuration) {
  auto r = run({cfuzz(), "run", target("growing_worker"), "--worker-max-age", "-5s"});
  EXPECT_EQ(r.exit_code, 2) << r.all();
  EXPECT_NE(r.err.find("--worker-max-age -5s: expected a duration"), std::string::npos) << r.all();
}

TEST(GrowingWorker, TheFlagTakesAWholeNumberOfMiB) {
  auto r = run({cfuzz(), "run", target("growing_worker"), "--worker-growth-mb", "lots"});
  EXPECT_EQ(r.exit_code, 2) << r.all();
  EXPECT_NE(r.err.find("--worker-growth-mb"), std::string::npos) << r.all();
}

}  // namespace
}  // namespace cfuzz::test
