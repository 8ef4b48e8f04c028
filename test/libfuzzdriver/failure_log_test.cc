// Who handles a failure a worker found: the first failure ends the run and later ones are
// dropped; with --keepfuzzing each distinct failure is handled once and the run goes on,
// but a failing seed still ends it. And the minimizations shown on the progress line.
#include "libfuzzdriver/run/failure_log.h"

#include <gtest/gtest.h>

namespace cfuzz::driver {
namespace {

core::FailureRecord failure_at(const char* site) {
  core::FailureRecord f{};
  f.kind = static_cast<std::uint32_t>(core::FailureKind::Signal);
  core::failure_set(f.site, site);
  return f;
}

TEST(FailureLog, TheFirstFailureEndsTheRunAndLaterOnesAreDropped) {
  FailureLog log(/*keep_fuzzing=*/false);
  FailureLog::Claim first = log.claim(failure_at("a.cc:1"), false);
  EXPECT_TRUE(first.handle);
  EXPECT_TRUE(first.ends_run);
  EXPECT_FALSE(log.claim(failure_at("b.cc:2"), false).handle);  // another worker's, meanwhile
  EXPECT_FALSE(log.claim(failure_at("c.cc:3"), true).handle);   // a seed's too
}

TEST(FailureLog, KeepFuzzingHandlesEachDistinctFailureOnceAndGoesOn) {
  FailureLog log(/*keep_fuzzing=*/true);
  FailureLog::Claim a = log.claim(failure_at("a.cc:1"), false);
  EXPECT_TRUE(a.handle);
  EXPECT_FALSE(a.ends_run);
  EXPECT_FALSE(log.claim(failure_at("a.cc:1"), false).handle);  // the same signature
  EXPECT_TRUE(log.claim(failure_at("b.cc:2"), false).handle);
  FailureLog::Claim seed = log.claim(failure_at("a.cc:1"), true);  // a failing seed stops the run
  EXPECT_TRUE(seed.handle);
  EXPECT_TRUE(seed.ends_run);
}

TEST(FailureLog, KeepsReportsAndTheMinimizationsInProgress) {
  FailureLog log(false);
  FailureReport r;
  r.test = "FuzzX";
  log.add(r);
  EXPECT_EQ(log.size(), 1u);
  log.minimizing(1, MinimizeProgress{{}, 100, 100, 0, 0});
  log.minimizing(0, MinimizeProgress{{}, 50, 50, 0, 0});
  log.minimizing(1, MinimizeProgress{{}, 100, 40, 300, 1});
  auto now = log.minimizing_now();
  ASSERT_EQ(now.size(), 2u);
  EXPECT_EQ(now[1].bytes_now, 40u);  // by worker index
  log.done_minimizing(1);
  EXPECT_EQ(log.minimizing_now().size(), 1u);
}

}  // namespace
}  // namespace cfuzz::driver
