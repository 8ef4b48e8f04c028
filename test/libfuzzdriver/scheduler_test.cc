// The coordinator's scheduler, driven alone: the baseline handed out in shrinking batches,
// each entry once; fuzzing begun once, after the last baseline entry is done; entries from
// other runs before fuzz calls; and a counted budget that is never overspent.
#include "libfuzzdriver/run/scheduler.h"

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace cfuzz::driver {
namespace {

// A session over n entries, the longest of 16 bytes ("entry 1234567890").
core::FuzzSession corpus_of(std::size_t n, bool repeatable = false) {
  core::FuzzSession::Settings st;
  st.counters = 64;
  st.master_seed = 42;
  st.repeatable = repeatable;
  core::FuzzSession c(st);
  for (std::size_t i = 0; i < n; ++i) {
    std::string s = "entry " + std::to_string(1234567890 + i);
    c.corpus().add(core::make_corpus_entry(s, core::Origin::Cache, {corpus::Bytes(s.begin(), s.end())}));
  }
  return c;
}

Scheduler::Settings settings(int workers, std::optional<std::uint64_t> budget = std::nullopt) {
  Scheduler::Settings s;
  s.workers = workers;
  s.exec_budget = budget;
  return s;
}

// What the coordinator does when the scheduler says fuzzing begins.
void begin(core::FuzzSession& session) { session.begin_fuzzing({corpus::Type::Bytes}); }

std::vector<std::size_t> all_of(std::size_t n) {
  std::vector<std::size_t> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = i;
  return v;
}

TEST(Scheduler, HandsOutEveryBaselineEntryOnceInShrinkingBatches) {
  core::FuzzSession corpus = corpus_of(1000);
  Scheduler s(settings(2));
  s.plan_baseline(1000, all_of(1000));
  std::multiset<std::size_t> seen;
  std::vector<std::size_t> sizes;
  Job j;
  while (s.next(corpus, &j) == Scheduler::Step::Job && j.kind == Job::Kind::Baseline) {
    sizes.push_back(j.batch.size());
    EXPECT_EQ(j.limit, j.batch.size());
    seen.insert(j.batch.begin(), j.batch.end());
  }
  // Nothing left to hand out, and nothing done: wait for the workers.
  EXPECT_EQ(s.next(corpus, &j), Scheduler::Step::Wait);
  EXPECT_EQ(seen.size(), 1000u);
  EXPECT_EQ(std::set<std::size_t>(seen.begin(), seen.end()).size(), 1000u);
  EXPECT_EQ(sizes.front(), 250u);  // a quarter of what is left, with two workers
  EXPECT_TRUE(std::is_sorted(sizes.rbegin(), sizes.rend()));
  EXPECT_EQ(sizes.back(), 1u);
}

TEST(Scheduler, BeginsFuzzingOnceAfterTheLastBaselineEntryIsDone) {
  core::FuzzSession corpus = corpus_of(3);
  Scheduler s(settings(1));
  s.plan_baseline(3, all_of(3));
  Job j;
  ASSERT_EQ(s.next(corpus, &j), Scheduler::Step::Job);
  ASSERT_EQ(j.kind, Job::Kind::Baseline);
  ASSERT_EQ(j.batch.size(), 1u);  // 3 / 2 workers' share, at least one
  s.baseline_ran(1);
  // One entry fails in a batch and the one after it comes back to run again.
  ASSERT_EQ(s.next(corpus, &j), Scheduler::Step::Job);
  std::size_t again = j.batch[0];
  s.run_again(&again, &again + 1);
  ASSERT_EQ(s.next(corpus, &j), Scheduler::Step::Job);
  EXPECT_EQ(j.batch, std::vector<std::size_t>{again});  // retries first
  s.baseline_ran(1);
  ASSERT_EQ(s.next(corpus, &j), Scheduler::Step::Job);
  EXPECT_FALSE(s.fuzzing());
  EXPECT_EQ(s.next(corpus, &j), Scheduler::Step::Wait);  // the last entry still runs
  s.baseline_ran(1);
  EXPECT_EQ(s.next(corpus, &j), Scheduler::Step::BeginFuzzing);
  EXPECT_TRUE(s.fuzzing());
  begin(corpus);
  ASSERT_EQ(s.next(corpus, &j), Scheduler::Step::Job);
  EXPECT_EQ(j.kind, Job::Kind::Fuzz);
  EXPECT_LT(j.call.plan.entry, 3u);
  EXPECT_EQ(j.limit, 0u);  // unlimited: bounded by time
  EXPECT_NE(j.call.params.deadline_ms, 0u);
  EXPECT_EQ(j.call.params.max_len, 16u);  // the length control's start: the longest value
}

TEST(Scheduler, AKnownBaselineGoesStraightToFuzzing) {
  core::FuzzSession corpus = corpus_of(5);
  Scheduler s(settings(2));
  s.plan_baseline(5, {});
  EXPECT_EQ(s.baseline_done(), 5u);
  Job j;
  EXPECT_EQ(s.next(corpus, &j), Scheduler::Step::BeginFuzzing);
  begin(corpus);
  ASSERT_EQ(s.next(corpus, &j), Scheduler::Step::Job);
  EXPECT_EQ(j.kind, Job::Kind::Fuzz);
}

TEST(Scheduler, EntriesFromOtherRunsComeBeforeFuzzCalls) {
  core::FuzzSession corpus = corpus_of(2);
  Scheduler s(settings(1));
  EXPECT_FALSE(s.takes_synced_entries());  // not during the baseline
  s.plan_baseline(2, {});
  Job j;
  ASSERT_EQ(s.next(corpus, &j), Scheduler::Step::BeginFuzzing);
  begin(corpus);
  EXPECT_TRUE(s.takes_synced_entries());
  s.add_synced(std::make_shared<const CachedEntry>(CachedEntry{"a", {}, {}}));
  EXPECT_FALSE(s.takes_synced_entries());  // until this lot has run
  ASSERT_EQ(s.next(corpus, &j), Scheduler::Step::Job);
  ASSERT_EQ(j.kind, Job::Kind::Sync);
  EXPECT_EQ(j.synced->name, "a");
  EXPECT_EQ(j.limit, 1u);
  ASSERT_EQ(s.next(corpus, &j), Scheduler::Step::Job);
  EXPECT_EQ(j.kind, Job::Kind::Fuzz);
}

TEST(Scheduler, ACountedBudgetIsNeverOverspent) {
  core::FuzzSession corpus = corpus_of(10);
  Scheduler s(settings(2, 1000));
  s.plan_baseline(10, all_of(10));
  std::uint64_t used_total = 0;
  Job j;
  std::vector<Job> running;
  for (int round = 0; round < 10000 && !s.stopped(); ++round) {
    Scheduler::Step step = s.next(corpus, &j);
    if (step == Scheduler::Step::BeginFuzzing) begin(corpus);
    if (step == Scheduler::Step::Job && j.kind == Job::Kind::Stop) break;
    if (step == Scheduler::Step::Job) {
      running.push_back(j);
    }
    // Two workers: settle the older job once two are out, or when the scheduler waits.
    if (running.size() == 2 || (step != Scheduler::Step::Job && !running.empty())) {
      Job done = running.front();
      running.erase(running.begin());
      if (done.kind == Job::Kind::Baseline) s.baseline_ran(done.batch.size());
      std::uint64_t used = done.limit - done.limit / 3;  // calls end early
      used_total += used;
      s.settle(done.limit, used);
    }
    // The minimizer takes from the same budget.
    if (round == 5) {
      std::uint64_t granted = s.reserve(300);
      EXPECT_EQ(granted, 300u);
      used_total += granted;
      s.settle(granted, granted);
    }
    ASSERT_LE(s.execs_done(), 1000u);
  }
  EXPECT_TRUE(s.stopped());
  EXPECT_EQ(s.execs_done(), 1000u);
  EXPECT_EQ(used_total, 1000u);
  EXPECT_TRUE(running.empty());
  EXPECT_EQ(s.reserve(1), 0u);
}

TEST(Scheduler, TheSameSeedPlansTheSameCalls) {
  auto plans = [] {
    core::FuzzSession corpus = corpus_of(20, /*repeatable=*/true);
    Scheduler::Settings st = settings(1, 1000000);
    st.seeded = true;
    Scheduler s(st);
    s.plan_baseline(20, {});
    std::vector<std::uint64_t> out;
    Job j;
    EXPECT_EQ(s.next(corpus, &j), Scheduler::Step::BeginFuzzing);
    begin(corpus);
    for (int i = 0; i < 50; ++i) {
      EXPECT_EQ(s.next(corpus, &j), Scheduler::Step::Job);
      EXPECT_EQ(j.limit, core::kSeededCallExecs);
      EXPECT_EQ(j.call.params.limit, core::kSeededCallExecs);
      EXPECT_EQ(j.call.params.deadline_ms, 0u);
      out.insert(out.end(), {j.call.plan.entry, j.call.plan.splice, j.call.params.seed});
      s.settle(j.limit, j.limit);
    }
    return out;
  };
  EXPECT_EQ(plans(), plans());
}

TEST(Scheduler, ASeededRunBoundedByTimeGetsCallsBoundedByTime) {
  // Only a budget of executions lets a seeded run repeat; bounded by time, it gets what a
  // run without a seed gets: every entry the same time, not the same executions.
  core::FuzzSession corpus = corpus_of(20);
  Scheduler::Settings st = settings(1);
  st.seeded = true;
  Scheduler s(st);
  s.plan_baseline(20, {});
  Job j;
  EXPECT_EQ(s.next(corpus, &j), Scheduler::Step::BeginFuzzing);
  begin(corpus);
  EXPECT_EQ(s.next(corpus, &j), Scheduler::Step::Job);
  EXPECT_EQ(j.limit, 0u);
  EXPECT_EQ(j.call.params.deadline_ms, core::kCallMillis);
}

}  // namespace
}  // namespace cfuzz::driver
