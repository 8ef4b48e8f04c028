// The parts of the libFuzzer front end alone, each held to what libFuzzer does: the status
// lines ClusterFuzz parses (status_line.h), the final stats (final_stats.h), where a run
// stops (stop_conditions.h) and what reaches the output corpus directory (output_corpus.h).
#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "runtime/libfuzzer/final_stats.h"
#include "runtime/libfuzzer/libfuzzer_units.h"
#include "runtime/libfuzzer/output_corpus.h"
#include "runtime/libfuzzer/status_line.h"
#include "runtime/libfuzzer/stop_conditions.h"
#include "test/support/files.h"
#include "test/support/temp_dir.h"

namespace fuzzer::cfuzz {
namespace {

using ::cfuzz::test::files_in;
using ::cfuzz::test::read_file;
using ::cfuzz::test::TempDir;
using ::cfuzz::test::write_file;
using Clock = StopConditions::Clock;

StatusFigures figures() {
  StatusFigures f;
  f.execs = 1234;
  f.cov = 5;
  f.ft = 9;
  f.corpus_units = 3;
  f.corpus_bytes = 12;
  f.seconds = 2;
  f.rss_mb = 30;
  return f;
}

TEST(StatusLine, NewLineHasLibFuzzersFieldsInItsOrder) {
  EXPECT_EQ(status_line("NEW   ", figures(), " L: 4/4096 MS: 1 ChangeByte-"),
            "#1234\tNEW    cov: 5 ft: 9 corp: 3/12b exec/s: 617 rss: 30Mb L: 4/4096 MS: 1 ChangeByte-");
}

TEST(StatusLine, PulseAndDoneLinesCarryTheLengthLimit) {
  StatusFigures f = figures();
  f.len_limit = 8;
  EXPECT_EQ(status_line("pulse ", f), "#1234\tpulse  cov: 5 ft: 9 corp: 3/12b lim: 8 exec/s: 617 rss: 30Mb");
  EXPECT_EQ(status_line("DONE  ", f), "#1234\tDONE   cov: 5 ft: 9 corp: 3/12b lim: 8 exec/s: 617 rss: 30Mb");
}

TEST(StatusLine, InitedLineHasNoLengthLimit) {
  StatusFigures f = figures();
  f.len_limit = 8;
  EXPECT_EQ(status_line("INITED", f), "#1234\tINITED cov: 5 ft: 9 corp: 3/12b exec/s: 617 rss: 30Mb");
}

TEST(StatusLine, ZeroCoverageAndEmptyCorpusAreLeftOut) {
  StatusFigures f;
  f.execs = 2;
  f.rss_mb = 30;
  EXPECT_EQ(status_line("INITED", f), "#2\tINITED exec/s: 0 rss: 30Mb");
}

TEST(StatusLine, ExecsPerSecondIsZeroInTheFirstSecond) {
  StatusFigures f = figures();
  f.seconds = 0;
  EXPECT_EQ(status_line("RELOAD", f), "#1234\tRELOAD cov: 5 ft: 9 corp: 3/12b exec/s: 0 rss: 30Mb");
}

TEST(StatusLine, SizesSwitchUnitsAt16KiBAnd16MiB) {
  EXPECT_EQ(size_text(0), "0b");
  EXPECT_EQ(size_text(16383), "16383b");
  EXPECT_EQ(size_text(16384), "16Kb");
  EXPECT_EQ(size_text((16u << 20) - 1), "16383Kb");
  EXPECT_EQ(size_text(16u << 20), "16Mb");
  StatusFigures f = figures();
  f.corpus_bytes = 20000;
  EXPECT_NE(status_line("NEW   ", f).find(" corp: 3/19Kb "), std::string::npos);
}

TEST(Pulse, ComesAtEachPowerOfTwoAboveTheStart) {
  EXPECT_EQ(Pulse(0).next(), 1u);
  Pulse p(5);
  EXPECT_EQ(p.next(), 8u);
  EXPECT_FALSE(p.reached(7));
  EXPECT_TRUE(p.reached(8));
  EXPECT_EQ(p.next(), 16u);
  EXPECT_FALSE(p.reached(8));
}

TEST(Pulse, CountThatJumpsPastAPulseSkipsIt) {
  Pulse p(9);
  EXPECT_FALSE(p.reached(20));  // a shrink went past 16
  EXPECT_EQ(p.next(), 32u);
  EXPECT_TRUE(p.reached(32));
}

TEST(Pulse, CallIsCutToEndAtTheNextPulse) {
  Pulse p(10);
  EXPECT_EQ(p.call_limit(0, 10), 6u);
  EXPECT_EQ(p.call_limit(100, 10), 6u);
  EXPECT_EQ(p.call_limit(3, 10), 3u);
}

TEST(StopConditions, RunsStopExactlyAtN) {
  StopConditions s(100, 0, Clock::now());
  EXPECT_FALSE(s.done(99));
  EXPECT_TRUE(s.done(100));
  EXPECT_EQ(s.call_limit(0, 40), 60u);     // an unlimited call ends at -runs
  EXPECT_EQ(s.call_limit(1000, 40), 60u);  // so does a longer one
  EXPECT_EQ(s.call_limit(10, 40), 10u);
  EXPECT_EQ(s.call_limit(0, 99), 1u);
}

TEST(StopConditions, RunsMinusOneNeverStopsAndCutsNoCall) {
  StopConditions s(-1, 0, Clock::now());
  EXPECT_FALSE(s.done(UINT64_MAX));
  EXPECT_EQ(s.call_limit(0, 40), 0u);
  EXPECT_EQ(s.call_limit(7, 40), 7u);
  EXPECT_EQ(s.shrink_budget(50, 1u << 30), 50u);
}

TEST(StopConditions, RunsZeroStopsFuzzingButNotAMinimizingStep) {
  StopConditions s(0, 0, Clock::now());
  EXPECT_TRUE(s.done(0));
  EXPECT_FALSE(s.minimize_step_done(1000));
  StopConditions limited(10, 0, Clock::now());
  EXPECT_FALSE(limited.minimize_step_done(9));
  EXPECT_TRUE(limited.minimize_step_done(10));
}

TEST(StopConditions, ShrinkKeepsOneRunBackForTheShrunkInput) {
  StopConditions s(100, 0, Clock::now());
  EXPECT_EQ(s.shrink_budget(50, 10), 50u);
  EXPECT_EQ(s.shrink_budget(50, 90), 9u);
  EXPECT_EQ(s.shrink_budget(50, 99), 0u);
  EXPECT_EQ(s.shrink_budget(50, 100), 0u);
  EXPECT_EQ(s.shrink_budget(50, 120), 0u);  // past -runs (the seeds ran over it)
}

TEST(StopConditions, MaxTotalTimeStopsOnceItHasPassed) {
  StopConditions fresh(-1, 60, Clock::now());
  EXPECT_FALSE(fresh.done(0));
  StopConditions old(-1, 1, Clock::now() - std::chrono::seconds(2));
  EXPECT_TRUE(old.out_of_time());
  EXPECT_TRUE(old.done(0));
  EXPECT_TRUE(old.minimize_step_done(0));
  EXPECT_EQ(old.elapsed_seconds(), 2u);
  StopConditions untimed(-1, 0, Clock::now() - std::chrono::hours(2));
  EXPECT_FALSE(untimed.out_of_time());
}

TEST(OutputCorpus, NewUnitIsWrittenUnderItsSha1) {
  TempDir dir;
  OutputCorpus out(dir.path(), 0);
  EXPECT_EQ(unit_name("abc"), "a9993e364706816aba3e25717850c26c9cd0d89d");
  out.write(unit_name("abc"), "abc");
  std::vector<std::filesystem::path> files = files_in(dir.path());
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].filename(), "a9993e364706816aba3e25717850c26c9cd0d89d");
  EXPECT_EQ(read_file(files[0]), "abc");
}

TEST(OutputCorpus, WithoutADirectoryNothingIsWritten) {
  OutputCorpus out;
  out.write(unit_name("abc"), "abc");
  EXPECT_TRUE(out.take_new_units().empty());
}

TEST(OutputCorpus, ReloadReadsBackOnlyUnitsOthersWrote) {
  TempDir dir;
  OutputCorpus out(dir.path(), 60);
  out.write(unit_name("mine"), "mine");
  write_file(dir / "seed", "seed");
  out.note("seed");
  write_file(dir / "theirs", "theirs");
  std::vector<std::pair<std::string, std::string>> expected = {{"theirs", "theirs"}};
  EXPECT_EQ(out.take_new_units(), expected);
  write_file(dir / "later", "later");
  EXPECT_TRUE(out.take_new_units().empty());  // within -reload's interval
}

TEST(OutputCorpus, ReloadReadsEachUnitOnceAfterTheInterval) {
  TempDir dir;
  OutputCorpus out(dir.path(), 1);
  write_file(dir / "first", "1");
  EXPECT_EQ(out.take_new_units().size(), 1u);
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  write_file(dir / "second", "2");
  std::vector<std::pair<std::string, std::string>> expected = {{"second", "2"}};
  EXPECT_EQ(out.take_new_units(), expected);
}

TEST(OutputCorpus, ReloadIsOffWithoutTheFlag) {
  TempDir dir;
  OutputCorpus out(dir.path(), 0);
  write_file(dir / "theirs", "theirs");
  EXPECT_TRUE(out.take_new_units().empty());
}

TEST(FinalStats, LinesAreLibFuzzers) {
  TempDir dir;
  std::filesystem::path path = dir / "stats";
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  ASSERT_GE(fd, 0);
  FinalStats s;
  s.execs = 3000;
  s.seconds = 2.0;
  s.new_units = 7;
  s.slowest_ns = 2'500'000'000;
  s.peak_rss_mb = 41;
  write_final_stats(fd, s);
  ::close(fd);
  EXPECT_EQ(read_file(path),
            "stat::number_of_executed_units: 3000\n"
            "stat::average_exec_per_sec:     1500\n"
            "stat::new_units_added:          7\n"
            "stat::slowest_unit_time_sec:    2\n"
            "stat::peak_rss_mb:              41\n");
}

}  // namespace
}  // namespace fuzzer::cfuzz
