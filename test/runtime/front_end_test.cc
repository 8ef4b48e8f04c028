// The libFuzzer front end's own run (runtime/libfuzzer/front_end.h) over the harness of
// engine_harness.cc (compiled with SanitizerCoverage, as targets are): each run in a forked
// child, started as a target's main starts it, with its standard error in a file. What it
// printed and what it wrote to the corpus directories are read back in the parent.
#include "runtime/libfuzzer/front_end.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <filesystem>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "runtime/engine/coverage_registry.h"
#include "runtime/engine/stack_depth_feature.h"
#include "runtime/libfuzzer/libfuzzer_options.h"
#include "runtime/libfuzzer/libfuzzer_units.h"
#include "runtime/libfuzzer/status_line.h"
#include "test/runtime/engine_harness.h"
#include "test/support/files.h"
#include "test/support/temp_dir.h"

namespace fuzzer::cfuzz {
namespace {

namespace fs = std::filesystem;
using ::cfuzz::test::files_in;
using ::cfuzz::test::read_file;
using ::cfuzz::test::TempDir;
using ::cfuzz::test::write_file;

// The harness registered and its body run, once per process.
const engine_test::HarnessUnderTest& harness() {
  static engine_test::HarnessUnderTest h = engine_test::set_up_harness("front_end_test");
  return h;
}

struct Outcome {
  int status = 0;  // as waitpid returns it
  std::string stderr_;

  bool exited_with(int code) const { return WIFEXITED(status) && WEXITSTATUS(status) == code; }
  std::vector<std::string> lines_starting(const std::string& prefix) const {
    std::vector<std::string> lines;
    std::istringstream in(stderr_);
    for (std::string line; std::getline(in, line);) {
      if (line.starts_with(prefix)) lines.push_back(line);
    }
    return lines;
  }
  bool says(const std::string& text) const { return stderr_.find(text) != std::string::npos; }
};

// Runs the front end with a libFuzzer command line (after the program name) in a child.
Outcome run_front_end(std::vector<std::string> args, const TempDir& dir) {
  const RegisteredTest& test = harness().test;
  args.insert(args.begin(), "./front_end_test");
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  LibFuzzerOptions o = parse_libfuzzer_options(static_cast<int>(argv.size()), argv.data());
  fs::path log = dir / "stderr";
  std::fflush(nullptr);
  pid_t pid = ::fork();
  if (pid == 0) {
    ::alarm(60);  // a run that does not stop fails the test instead of hanging it
    int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0) _exit(120);
    ::dup2(fd, 2);
    int status = FrontEnd(o, test, argv[0]).run();
    std::fflush(nullptr);
    _exit(status);
  }
  Outcome outcome;
  ::waitpid(pid, &outcome.status, 0);
  outcome.stderr_ = read_file(log);
  return outcome;
}

TEST(FrontEnd, RunsStopAtExactlyN) {
  TempDir dir;
  fs::create_directory(dir / "corpus");
  Outcome run = run_front_end({"-runs=3000", "-seed=1", (dir / "corpus").string()}, dir);
  ASSERT_TRUE(run.exited_with(0)) << run.stderr_;
  EXPECT_EQ(run.lines_starting("#3000\tDONE   ").size(), 1u) << run.stderr_;
  EXPECT_EQ(run.lines_starting("Done 3000 runs in ").size(), 1u) << run.stderr_;
}

TEST(FrontEnd, StatusLinesAreLibFuzzers) {
  TempDir dir;
  fs::create_directory(dir / "corpus");
  Outcome run = run_front_end({"-runs=3000", "-seed=1", (dir / "corpus").string()}, dir);
  ASSERT_TRUE(run.exited_with(0)) << run.stderr_;
  const std::regex inited(R"(#\d+\tINITED cov: \d+ ft: \d+ corp: 1/\d+b exec/s: \d+ rss: \d+Mb)");
  const std::regex found(
      R"(#\d+\tNEW    cov: \d+ ft: \d+ corp: \d+/\d+b( lim: \d+)? exec/s: \d+ rss: \d+Mb L: \d+/4096 MS: \d+ .*)");
  std::vector<std::string> inited_lines = run.lines_starting("#");
  ASSERT_FALSE(inited_lines.empty()) << run.stderr_;
  EXPECT_TRUE(std::regex_match(inited_lines.front(), inited)) << inited_lines.front();
  std::vector<std::string> new_lines;
  for (const auto& line : inited_lines) {
    if (line.find("\tNEW ") != std::string::npos) new_lines.push_back(line);
  }
  ASSERT_FALSE(new_lines.empty()) << run.stderr_;
  for (const auto& line : new_lines) EXPECT_TRUE(std::regex_match(line, found)) << line;
}

TEST(FrontEnd, NewUnitsGoToTheFirstCorpusDirectoryNamedByTheirSha1) {
  TempDir dir;
  fs::create_directory(dir / "out");
  write_file(dir / "seeds" / "seed", "EGNa");
  Outcome run = run_front_end({"-runs=3000", "-seed=1", (dir / "out").string(), (dir / "seeds").string()}, dir);
  ASSERT_TRUE(run.exited_with(0)) << run.stderr_;
  std::vector<fs::path> written = files_in(dir / "out");
  ASSERT_FALSE(written.empty()) << run.stderr_;
  for (const auto& p : written) EXPECT_EQ(p.filename().string(), unit_name(read_file(p)));
  // One file for each NEW line; the other directory is only read.
  std::size_t new_lines = 0;
  for (const auto& line : run.lines_starting("#")) new_lines += line.find("\tNEW ") != std::string::npos;
  EXPECT_EQ(written.size(), new_lines) << run.stderr_;
  EXPECT_EQ(files_in(dir / "seeds").size(), 1u);
}

TEST(FrontEnd, FinalStatsCountEveryExecutionAndNewUnit) {
  TempDir dir;
  fs::create_directory(dir / "corpus");
  Outcome run = run_front_end({"-runs=2000", "-seed=2", "-print_final_stats=1", (dir / "corpus").string()}, dir);
  ASSERT_TRUE(run.exited_with(0)) << run.stderr_;
  EXPECT_TRUE(run.says("stat::number_of_executed_units: 2000\n")) << run.stderr_;
  std::string added = "stat::new_units_added:          " + std::to_string(files_in(dir / "corpus").size()) + "\n";
  EXPECT_TRUE(run.says(added)) << run.stderr_;
}

TEST(FrontEnd, InputFilesAreRunAndNotFuzzed) {
  TempDir dir;
  write_file(dir / "inputs" / "a", "EGNa");
  Outcome run = run_front_end({"-runs=3", (dir / "inputs" / "a").string()}, dir);
  ASSERT_TRUE(run.exited_with(0)) << run.stderr_;
  EXPECT_TRUE(run.says("./front_end_test: Running 1 inputs 3 time(s) each.\n")) << run.stderr_;
  EXPECT_TRUE(run.says("Running: " + (dir / "inputs" / "a").string() + "\n")) << run.stderr_;
  EXPECT_TRUE(run.says("*** NOTE: fuzzing was not performed")) << run.stderr_;
  EXPECT_TRUE(run.lines_starting("#").empty()) << run.stderr_;
  EXPECT_EQ(files_in(dir / "inputs").size(), 1u);
}

TEST(FrontEnd, CovCountsTheModulesCountersNotTheStackDepthFeature) {
  harness();
  const auto& cov = coverage_registry();
  std::size_t n = 0, module_counter = SIZE_MAX, stack_depth = SIZE_MAX;
  for (std::size_t r = 0; r < cov.region_count; ++r) {
    n = std::max(n, cov.regions[r].offset + cov.regions[r].size);
    if (is_stack_depth_region(cov.regions[r])) {
      stack_depth = cov.regions[r].offset;
    } else if (cov.regions[r].size > 0) {
      module_counter = cov.regions[r].offset;
    }
  }
  ASSERT_NE(module_counter, SIZE_MAX);
  ASSERT_NE(stack_depth, SIZE_MAX);
  std::vector<std::uint8_t> mask(n, 0);
  mask[stack_depth] = 1;
  EXPECT_EQ(covered_module_counters(mask.data(), n), 0u);
  mask[module_counter] = 1;
  EXPECT_EQ(covered_module_counters(mask.data(), n), 1u);
  // Counters past `n` are not read.
  EXPECT_EQ(covered_module_counters(mask.data(), module_counter), 0u);
}

}  // namespace
}  // namespace fuzzer::cfuzz
