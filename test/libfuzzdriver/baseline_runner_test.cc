// The baseline's runs, without processes (a fake worker): a batch that passes measures
// every entry; a failing seed or testdata entry ends the run with its name; a lost worker,
// features past the target's counters and an entry too big for the batch area each leave
// exactly the entries not accounted for to run again; an entry another run wrote is kept
// only for coverage this run lacks.
#include "libfuzzdriver/run/baseline_runner.h"

#include <algorithm>

#include <gtest/gtest.h>

#include "test/libfuzzdriver/fake_worker.h"
#include "test/support/temp_dir.h"

namespace cfuzz::driver {
namespace {

using fakes::bytes_entry;
using fakes::failure_of;
using fakes::FakeWorker;

constexpr std::size_t kCounters = 16;

class BaselineRunnerTest : public ::testing::Test {
 protected:
  // A corpus of `origins.size()` entries "entry0", "entry1"..., all in the baseline.
  void plan(const std::vector<core::Origin>& origins) {
    MutexLock lock(state.mu);
    core::FuzzSession::Settings st;
    st.counters = kCounters;
    st.master_seed = 1;
    state.session = core::FuzzSession(st);
    for (std::size_t i = 0; i < origins.size(); ++i) {
      std::string v = "entry" + std::to_string(i);
      state.session.corpus().add(core::make_corpus_entry("file" + std::to_string(i), origins[i], bytes_entry(v)));
    }
    state.scheduler = Scheduler(Scheduler::Settings{});
    std::vector<std::size_t> queue(origins.size());
    for (std::size_t i = 0; i < queue.size(); ++i) queue[i] = i;
    state.scheduler.plan_baseline(origins.size(), queue);
  }
  // The scheduler's baseline jobs, as one.
  Job next() {
    MutexLock lock(state.mu);
    Job all, j;
    all.kind = Job::Kind::Baseline;
    while (state.scheduler.next(state.session, &j) == Scheduler::Step::Job && j.kind == Job::Kind::Baseline) {
      all.batch.insert(all.batch.end(), j.batch.begin(), j.batch.end());
      all.limit += j.limit;
    }
    return all;
  }
  // The entries the scheduler hands out again, in order.
  std::vector<std::size_t> run_again() {
    MutexLock lock(state.mu);
    std::vector<std::size_t> v;
    Job j;
    while (state.scheduler.next(state.session, &j) == Scheduler::Step::Job && j.kind == Job::Kind::Baseline) {
      v.insert(v.end(), j.batch.begin(), j.batch.end());
    }
    std::sort(v.begin(), v.end());
    return v;
  }
  std::size_t done() {
    MutexLock lock(state.mu);
    return state.scheduler.baseline_done();
  }
  bool reached(std::size_t counter) {
    MutexLock lock(state.mu);
    return state.session.mask()[counter] != 0;
  }

  cfuzz::test::TempDir tmp;
  RunState state;
  fakes::ReporterOutput out;
  Reporter reporter{/*json=*/true, out.file()};
  CacheWrites cache_writes{tmp.str(), [](const std::string&) {}};
  ReproducerFiles reproducers{ReproducerFiles::Settings{
      "FuzzX", "./target", (tmp / "src").string(), "", tmp.str(), (tmp / "t" / "FuzzX").string(),
      std::chrono::system_clock::now(), std::chrono::milliseconds(1000), 2048, std::nullopt}};
  std::atomic<bool> interrupted{false};
  FindingHandler findings{[] {
                            FindingHandler::Settings s;
                            s.test = "FuzzX";
                            s.counters = kCounters;
                            s.minimize_time = Budget{std::chrono::seconds(0), std::nullopt};
                            return s;
                          }(),
                          FindingHandler::Parts{state, reporter, cache_writes, reproducers, interrupted, nullptr}};
  std::vector<std::string> lost;
  BaselineRunner runner{state, findings, kCounters,
                        [this](WorkerCalls&, const std::string& why) { lost.push_back(why); }};
};

// A batch call that ran `done` of the `sent` inputs, entry k with feature 8*k (counter k).
BatchRun batch(std::size_t sent, std::size_t done, core::rpc::Status status = core::rpc::Status::Ok) {
  BatchRun b;
  b.sent = sent;
  b.reply.result.status = status;
  b.reply.result.done = done;
  b.features.emplace();
  for (std::size_t k = 0; k < done; ++k) b.features->push_back({static_cast<std::uint32_t>(8 * k)});
  return b;
}

TEST_F(BaselineRunnerTest, ABatchThatPassesMeasuresEveryEntry) {
  plan({core::Origin::Cache, core::Origin::Cache, core::Origin::Cache});
  FakeWorker w(kCounters);
  w.on_batch = [](const std::vector<const corpus::Entry*>& v) { return batch(v.size(), v.size()); };
  runner.run(w, next());
  EXPECT_EQ(done(), 3u);
  EXPECT_TRUE(run_again().empty());
  EXPECT_TRUE(reached(0) && reached(1) && reached(2));
  EXPECT_FALSE(reached(3));
  EXPECT_TRUE(lost.empty());
  MutexLock lock(state.mu);
  const std::vector<std::uint32_t>* kept = state.baseline_cache.find(state.session.corpus().at(2).key);
  ASSERT_NE(kept, nullptr);  // for the next run
  EXPECT_EQ(*kept, std::vector<std::uint32_t>{16});
}

TEST_F(BaselineRunnerTest, AFailingTestdataEntryEndsTheRunWithItsFileNamed) {
  plan({core::Origin::Seed, core::Origin::Testdata, core::Origin::Seed});
  FakeWorker w(kCounters);
  w.on_batch = [](const std::vector<const corpus::Entry*>& v) {
    BatchRun b = batch(v.size(), 1, core::rpc::Status::Failure);  // the second input failed
    b.reply.failure = failure_of(core::FailureKind::Signal);
    b.reply.input_fault = true;
    b.reply.kind = CallOutcome::Kind::Ok;
    return b;
  };
  runner.run(w, next());
  std::vector<FailureReport> reports = reporter.record().failures;
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_TRUE(reports[0].seed);
  EXPECT_EQ(reports[0].seed_name, "file1");
  EXPECT_EQ(done(), 2u);  // the first passed, the second failed; the third never ran
  EXPECT_TRUE(reached(0));
  MutexLock lock(state.mu);
  EXPECT_TRUE(state.scheduler.stopped());
}

TEST_F(BaselineRunnerTest, AWorkerLostInTheMiddleOfABatchRunsTheRestAgain) {
  plan({core::Origin::Cache, core::Origin::Cache, core::Origin::Cache});
  FakeWorker w(kCounters);
  w.on_batch = [](const std::vector<const corpus::Entry*>& v) {
    BatchRun b = batch(v.size(), 1);
    b.reply.kind = CallOutcome::Kind::Died;
    b.reply.error = "killed by signal 9";
    return b;
  };
  runner.run(w, next());
  EXPECT_EQ(lost, std::vector<std::string>{"killed by signal 9"});
  EXPECT_EQ(done(), 1u);
  EXPECT_EQ(run_again(), (std::vector<std::size_t>{1, 2}));
}

TEST_F(BaselineRunnerTest, FeaturesPastTheTargetsCountersAreNotBelieved) {
  plan({core::Origin::Cache, core::Origin::Cache});
  FakeWorker w(kCounters);
  w.on_batch = [](const std::vector<const corpus::Entry*>& v) {
    BatchRun b = batch(v.size(), v.size());
    b.features->back().push_back(8 * kCounters);  // one past the last counter
    return b;
  };
  runner.run(w, next());
  EXPECT_EQ(lost, std::vector<std::string>{"exec_batch results that do not hold together"});
  EXPECT_EQ(done(), 0u);
  EXPECT_FALSE(reached(0));
  EXPECT_EQ(run_again(), (std::vector<std::size_t>{0, 1}));
}

TEST_F(BaselineRunnerTest, ADeathIsPinnedOnTheEntryTheCurrentAreaHolds) {
  plan({core::Origin::Cache, core::Origin::Cache, core::Origin::Cache});
  FakeWorker w(kCounters);
  w.current = bytes_entry("entry1");
  w.on_batch = [](const std::vector<const corpus::Entry*>& v) {
    BatchRun b = batch(v.size(), 0);
    b.features.reset();  // written over
    b.reply.kind = CallOutcome::Kind::Died;
    b.reply.input_fault = true;
    b.reply.failure = failure_of(core::FailureKind::Signal);
    return b;
  };
  runner.run(w, next());
  std::vector<FailureReport> reports = reporter.record().failures;
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_FALSE(reports[0].seed);  // a cache entry: saved under testdata/
  EXPECT_NE(reports[0].input_summary.find("entry1"), std::string::npos);
  EXPECT_TRUE(lost.empty());
  EXPECT_EQ(done(), 1u);
  MutexLock lock(state.mu);
  EXPECT_TRUE(state.scheduler.stopped());
}

TEST_F(BaselineRunnerTest, AnEntryTooBigForTheBatchAreaRunsAloneAndTheRestAgain) {
  plan({core::Origin::Cache, core::Origin::Cache});
  FakeWorker w(kCounters);
  w.on_batch = [](const std::vector<const corpus::Entry*>&) { return BatchRun{}; };  // not even the first fits
  w.on_exec = [&w](const corpus::Entry&) {
    w.cov[5] = 1;
    return CallOutcome{};
  };
  runner.run(w, next());
  ASSERT_EQ(w.executed.size(), 1u);
  EXPECT_TRUE(corpus::same_entry(w.executed[0], bytes_entry("entry0")));
  EXPECT_TRUE(reached(5));
  EXPECT_EQ(done(), 1u);
  EXPECT_EQ(run_again(), (std::vector<std::size_t>{1}));
}

TEST_F(BaselineRunnerTest, AnEntryAnotherRunWroteIsKeptOnlyForCoverageThisRunLacks) {
  plan({});
  FakeWorker w(kCounters);
  w.on_exec = [&w](const corpus::Entry&) {
    w.cov[7] = 1;
    return CallOutcome{};
  };
  Job job;
  job.kind = Job::Kind::Sync;
  job.synced = std::make_shared<const CachedEntry>(CachedEntry{"other1", bytes_entry("theirs"), std::nullopt});
  runner.run_synced(w, job);
  job.synced = std::make_shared<const CachedEntry>(CachedEntry{"other2", bytes_entry("theirs too"), std::nullopt});
  runner.run_synced(w, job);
  MutexLock lock(state.mu);
  EXPECT_EQ(state.session.corpus().size(), 1u);
  EXPECT_EQ(state.session.admitted(core::Origin::Cache), 1u);
  EXPECT_EQ(state.session.corpus().at(0).name, "other1");
}

}  // namespace
}  // namespace cfuzz::driver
