// What happens to what a worker finds, without processes (a fake worker): a new input is
// shrunk, admitted and written to the cache once, or kept as found when its shrink loses
// the coverage; a duplicate is dropped; a failure is minimized, run again, saved under
// testdata/ and reported once; a failing seed is reported by name; an input out of the
// domains is skipped.
#include "libfuzzdriver/run/finding_handler.h"

#include <gtest/gtest.h>

#include "corpus_format/codec.h"
#include "test/libfuzzdriver/fake_worker.h"
#include "test/support/files.h"
#include "test/support/temp_dir.h"

namespace cfuzz::driver {
namespace {

using fakes::bytes_entry;
using fakes::failure_of;
using fakes::FakeWorker;
namespace fs = std::filesystem;

constexpr std::size_t kCounters = 16;

class FindingHandlerTest : public ::testing::Test {
 protected:
  FindingHandlerTest() {
    {
      MutexLock lock(state.mu);
      core::FuzzSession::Settings st;
      st.counters = kCounters;
      st.master_seed = 1;
      state.session = core::FuzzSession(st);
      state.session.corpus().add(core::make_corpus_entry("seed#0", core::Origin::Seed, bytes_entry("seed")));
      state.session.measured(0, {0});  // counter 0, hit once
    }
    settings.test = "FuzzX";
    settings.counters = kCounters;
    settings.cache_dir = (tmp / "cache" / "target" / "FuzzX").string();
    settings.minimize_time = Budget{std::chrono::seconds(60), std::nullopt};
    settings.start = std::chrono::steady_clock::now();
  }

  FindingHandler make() {
    return FindingHandler(settings, FindingHandler::Parts{state, reporter, cache_writes, reproducers, interrupted,
                                                          [this](std::string_view n) { noted.emplace_back(n); }});
  }

  std::vector<fs::path> cache_files() const {
    return fs::exists(settings.cache_dir) ? cfuzz::test::files_in(settings.cache_dir) : std::vector<fs::path>{};
  }
  std::size_t corpus_size() {
    MutexLock lock(state.mu);
    return state.session.corpus().size();
  }
  std::vector<FailureReport> reports() const { return reporter.record().failures; }

  cfuzz::test::TempDir tmp;
  RunState state;
  fakes::ReporterOutput out;
  Reporter reporter{/*json=*/true, out.file()};
  CacheWrites cache_writes{(tmp / "cache").string(), [](const std::string&) {}};
  ReproducerFiles reproducers{
      ReproducerFiles::Settings{"FuzzX", "./target", (tmp / "src").string(), "", (tmp / "cache").string(),
                                (tmp / "cache" / "target" / "FuzzX").string(), std::chrono::system_clock::now(),
                                std::chrono::milliseconds(1000), 2048, std::nullopt}};
  std::atomic<bool> interrupted{false};
  std::vector<std::string> noted;
  FindingHandler::Settings settings;
};

// A worker whose last execution ran `input` and reached counter 3 for the first time.
FakeWorker found(const std::string& input) {
  FakeWorker w(kCounters);
  w.current = bytes_entry(input);
  w.cov[3] = 1;
  return w;
}

TEST_F(FindingHandlerTest, ANewInputThatItsShrinkKeepsIsAdmittedAndWrittenToTheCacheOnce) {
  FindingHandler h = make();
  FakeWorker w = found("abcdefgh");
  w.on_shrink = [](const corpus::Entry&) { return fakes::kept(bytes_entry("ab")); };
  h.new_coverage(w, 0);

  ASSERT_EQ(w.executed.size(), 1u);  // the shrunk input, measured once more
  ASSERT_EQ(corpus_size(), 2u);
  {
    MutexLock lock(state.mu);
    EXPECT_TRUE(corpus::same_entry(state.session.corpus().at(1).values, bytes_entry("ab")));
    EXPECT_EQ(state.session.admitted(core::Origin::Found), 1u);
    EXPECT_NE(state.baseline_cache.find(state.session.corpus().at(1).key), nullptr);
  }
  auto files = cache_files();
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(cfuzz::test::read_file(files[0]), corpus::encode(bytes_entry("ab")));
  // Known to the cache watcher by the name it has on disk.
  ASSERT_EQ(noted.size(), 1u);
  EXPECT_EQ(files[0].filename().string(), noted[0]);
  EXPECT_NE(out.text().find("\"new_entry\""), std::string::npos);

  // The same coverage again (another worker's stale report): nothing shrunk, kept or written.
  FakeWorker again = found("abcdefgh");
  h.new_coverage(again, 0);
  EXPECT_EQ(again.coverage_shrinks, 0);
  EXPECT_EQ(corpus_size(), 2u);
  EXPECT_EQ(cache_files().size(), 1u);
  EXPECT_EQ(noted.size(), 1u);
}

TEST_F(FindingHandlerTest, AShrunkInputThatLosesTheNewCoverageIsNotWhatIsKept) {
  FindingHandler h = make();
  FakeWorker w = found("abcdefgh");
  w.on_shrink = [](const corpus::Entry&) { return fakes::kept(bytes_entry("ab")); };
  w.on_exec = [&w](const corpus::Entry&) {
    w.cov[3] = 0;  // the smaller input misses counter 3
    return CallOutcome{};
  };
  h.new_coverage(w, 0);
  ASSERT_EQ(corpus_size(), 2u);
  MutexLock lock(state.mu);
  EXPECT_TRUE(corpus::same_entry(state.session.corpus().at(1).values, bytes_entry("abcdefgh")));
}

TEST_F(FindingHandlerTest, WithMinimizationOffANewInputIsKeptAsFound) {
  settings.minimize_time = Budget{std::chrono::seconds(0), std::nullopt};
  FindingHandler h = make();
  FakeWorker w = found("abcdefgh");
  h.new_coverage(w, 0);
  EXPECT_EQ(w.coverage_shrinks, 0);
  EXPECT_EQ(corpus_size(), 2u);
  EXPECT_EQ(cache_files().size(), 1u);
}

TEST_F(FindingHandlerTest, AShrinkThatFindsAFailureReportsItAndKeepsNothing) {
  FindingHandler h = make();
  FakeWorker w = found("abcdefgh");
  core::FailureRecord crash = failure_of(core::FailureKind::Signal);
  w.on_shrink = [&](const corpus::Entry& input) {
    MinimizeOutcome mo = fakes::kept(input);
    mo.found_failure = true;
    mo.failure = crash;
    mo.failing_input = bytes_entry("ab!");
    return mo;
  };
  w.on_reproduce = [&](const corpus::Entry&) { return Reproduction{true, crash, "again"}; };
  h.new_coverage(w, 0);
  EXPECT_EQ(corpus_size(), 1u);
  EXPECT_TRUE(cache_files().empty());
  ASSERT_EQ(reports().size(), 1u);
  EXPECT_EQ(cfuzz::test::read_file(tmp / "src" / "testdata" / "fuzz" / "FuzzX" /
                                   fs::path(reports()[0].written_to).filename().string()),
            corpus::encode(bytes_entry("ab!")));
}

TEST_F(FindingHandlerTest, AFailureIsMinimizedRunAgainAndSavedUnderTestdataWithItsRerunCommand) {
  FindingHandler h = make();
  FakeWorker w(kCounters);
  core::FailureRecord crash = failure_of(core::FailureKind::Signal);
  w.on_minimize = [](const corpus::Entry&) {
    MinimizeOutcome mo = fakes::kept(bytes_entry("x"));
    mo.execs = 40;
    return mo;
  };
  w.on_reproduce = [&](const corpus::Entry&) { return Reproduction{true, crash, "the fresh worker's output"}; };
  h.failure(w, crash, bytes_entry("xxxxx"), "the first output", nullptr);

  ASSERT_EQ(reports().size(), 1u);
  FailureReport r = reports()[0];
  EXPECT_EQ(r.output, "the fresh worker's output");
  EXPECT_EQ(r.minimized, "minimized from 5 to 1 bytes in 40 executions");
  std::string name = fs::path(r.written_to).filename().string();
  EXPECT_EQ(cfuzz::test::read_file(tmp / "src" / "testdata" / "fuzz" / "FuzzX" / name),
            corpus::encode(bytes_entry("x")));
  EXPECT_EQ(r.rerun, "./target --run FuzzX/" + name);
  EXPECT_EQ(w.kills, 1);  // a fresh worker for what comes next
  MutexLock lock(state.mu);
  EXPECT_TRUE(state.scheduler.stopped());  // the first failure ends the run
}

TEST_F(FindingHandlerTest, AMinimizedInputThatDoesNotFailAgainIsNotWhatIsSaved) {
  FindingHandler h = make();
  FakeWorker w(kCounters);
  w.on_minimize = [](const corpus::Entry&) { return fakes::kept(bytes_entry("x")); };
  w.on_reproduce = [](const corpus::Entry&) { return Reproduction{true, {}, ""}; };  // passes
  h.failure(w, failure_of(core::FailureKind::Signal), bytes_entry("xxxxx"), "", nullptr);
  ASSERT_EQ(reports().size(), 1u);
  EXPECT_EQ(cfuzz::test::read_file(reports()[0].written_to), corpus::encode(bytes_entry("xxxxx")));
  EXPECT_TRUE(reports()[0].minimized.starts_with("not minimized"));
}

TEST_F(FindingHandlerTest, OnlyTheFirstFailureIsHandledWithoutKeepFuzzing) {
  FindingHandler h = make();
  FakeWorker w(kCounters);
  h.failure(w, failure_of(core::FailureKind::Signal, "a.cc:1"), bytes_entry("a"), "", nullptr);
  h.failure(w, failure_of(core::FailureKind::Signal, "b.cc:2"), bytes_entry("b"), "", nullptr);
  EXPECT_EQ(reports().size(), 1u);
  EXPECT_EQ(w.failure_minimizations, 1);
  EXPECT_EQ(h.failures().size(), 1u);
}

TEST_F(FindingHandlerTest, KeepFuzzingHandlesEachDistinctFailureOnceAndTheRunGoesOn) {
  settings.keep_fuzzing = true;
  FindingHandler h = make();
  FakeWorker w(kCounters);
  h.failure(w, failure_of(core::FailureKind::Signal, "a.cc:1"), bytes_entry("a"), "", nullptr);
  h.failure(w, failure_of(core::FailureKind::Signal, "a.cc:1"), bytes_entry("aa"), "", nullptr);
  h.failure(w, failure_of(core::FailureKind::Signal, "b.cc:2"), bytes_entry("b"), "", nullptr);
  EXPECT_EQ(reports().size(), 2u);
  MutexLock lock(state.mu);
  EXPECT_FALSE(state.scheduler.stopped());
}

TEST_F(FindingHandlerTest, AFailingSeedIsReportedByNameAndNothingIsWritten) {
  FindingHandler h = make();
  FakeWorker w(kCounters);
  core::CorpusEntry seed = core::make_corpus_entry("a1b2c3", core::Origin::Testdata, bytes_entry("boom"));
  EXPECT_TRUE(h.input_failed(w, failure_of(core::FailureKind::Signal), seed.values, &seed));
  ASSERT_EQ(reports().size(), 1u);
  EXPECT_TRUE(reports()[0].seed);
  EXPECT_EQ(reports()[0].seed_name, "a1b2c3");
  EXPECT_TRUE(reports()[0].written_to.empty());
  EXPECT_EQ(w.failure_minimizations, 0);
  EXPECT_FALSE(fs::exists(tmp / "src" / "testdata"));
  MutexLock lock(state.mu);
  EXPECT_TRUE(state.scheduler.stopped());
}

TEST_F(FindingHandlerTest, AnInputOutOfTheDomainsIsSkippedUnlessItIsASeed) {
  FindingHandler h = make();
  FakeWorker w(kCounters);
  core::FailureRecord outside = failure_of(core::FailureKind::Returned);
  outside.flags |= core::kFailureOutOfDomain;
  core::failure_set(outside.message, "x > 10\n");
  EXPECT_FALSE(h.input_failed(w, outside, bytes_entry("cached"), nullptr));
  EXPECT_TRUE(reports().empty());
  EXPECT_NE(out.text().find("skipped an input out of the fuzz function's domains: x > 10\""), std::string::npos);

  core::CorpusEntry seed = core::make_corpus_entry("seed#0", core::Origin::Seed, bytes_entry("s"));
  EXPECT_TRUE(h.input_failed(w, outside, seed.values, &seed));
  EXPECT_EQ(reports().size(), 1u);
}

}  // namespace
}  // namespace cfuzz::driver
