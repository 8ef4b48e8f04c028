// `cfuzz run` end to end: real targets built with cfuzz-clang++, the real coordinator.
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "test/support/test_support.h"

namespace cfuzz::test {
namespace {

namespace fs = std::filesystem;

// Every fuzzing test checks at its end that no worker outlived the run.
class FuzzRun : public ::testing::Test {
 protected:
  void TearDown() override {
    for (const auto& t : used_) {
      auto left = processes_running(target(t));
      EXPECT_TRUE(left.empty()) << left.size() << " process(es) of " << t << " left behind";
    }
  }

  CommandResult fuzz(const std::string& t, std::vector<std::string> args, std::vector<std::string> env = {}) {
    used_.insert(t);
    std::vector<std::string> argv{cfuzz(), "run", target(t), "--cachedir", (dir / "cache").string()};
    argv.insert(argv.end(), args.begin(), args.end());
    return run(argv, {.cwd = dir.str(), .env = std::move(env)});
  }

  // The one file saved under testdata/fuzz/<test>/, checked against the report.
  fs::path saved_input(const CommandResult& r, const std::string& test) {
    auto files = files_in(dir / "testdata/fuzz" / test);
    EXPECT_EQ(files.size(), 1u) << r.all();
    if (files.empty()) return {};
    std::string written = line_after(r.out, "Failing input written to ");
    EXPECT_EQ(written, "testdata/fuzz/" + test + "/" + files[0].filename().string()) << r.out;
    EXPECT_NE(r.out.find("To re-run:"), std::string::npos) << r.out;
    return files[0];
  }

  TempDir dir;
  std::set<std::string> used_;
};

TEST_F(FuzzRun, FindsSevenNestedByteChecksAndTheSavedInputReproduces) {
  for (std::string t : {"nested_word", "nested_word_asan"}) {
    auto r = fuzz(t, {"--fuzztime", "120s", "--parallel", "2"});
    ASSERT_EQ(r.exit_code, 1) << t << r.all();
    EXPECT_NE(r.out.find("gathering baseline coverage"), std::string::npos);
    EXPECT_NE(r.out.find("deadly signal SIGABRT"), std::string::npos) << r.out;
    fs::path saved = saved_input(r, "FuzzNestedWord");
    EXPECT_EQ(read_file(saved), "go test fuzz v1\n[]byte(\"cfuzzer\")\n");
    auto rerun = run({target(t), "--run", "FuzzNestedWord/" + saved.filename().string()}, {.cwd = dir.str()});
    EXPECT_NE(rerun.exit_code, 0);
    EXPECT_NE(rerun.err.find("FuzzNestedWord/" + saved.filename().string()), std::string::npos) << rerun.all();
    fs::remove_all(dir / "testdata");
  }
}

TEST_F(FuzzRun, TheProgressLineShowsTheCoverageJsonReports) {
  // A run with a seed, one worker and an execution budget repeats itself: the text line's
  // cov: and ft: are the JSON summary's covered_counters and coverage_bits.
  std::vector<std::string> args{"--seed", "5", "--parallel", "1", "--fuzztime", "3000x"};
  auto text = fuzz("exec_counter", args);
  ASSERT_EQ(text.exit_code, 0) << text.all();
  std::smatch m;
  std::string last = text.out.substr(text.out.rfind("fuzz: elapsed: "));
  ASSERT_TRUE(std::regex_search(last, m, std::regex(R"(\(total: \d+\), cov: (\d+), ft: (\d+)\n)"))) << last;
  long cov = std::stol(m[1]), ft = std::stol(m[2]);
  EXPECT_GT(cov, 0);
  EXPECT_GE(ft, cov) << "every edge reached is at least one feature";
  fs::remove_all(dir / "cache");
  args.push_back("--json");
  auto json = fuzz("exec_counter", args);
  ASSERT_EQ(json.exit_code, 0) << json.all();
  nlohmann::json done = last_event(json.out, "done");
  ASSERT_TRUE(done.is_object()) << json.out;
  EXPECT_EQ(done["covered_counters"], cov) << last;
  EXPECT_EQ(done["coverage_bits"], ft) << last;
}

TEST_F(FuzzRun, WorkersDoNotInheritTheCoordinatorsOtherDescriptors) {
  // fd 9 is open (not close-on-exec) in cfuzz, as a shell or a CI runner may leave one; the
  // target aborts on any input if it sees it.
  used_.insert("failure_kinds");
  std::string cmd = "exec 9</dev/null; exec " + cfuzz() + " run " + target("failure_kinds") + " --cachedir " +
                    (dir / "cache").string() + " --parallel 1 --fuzztime 2000x";
  auto r = run({"/bin/bash", "-c", cmd}, {.cwd = dir.str(), .env = {"CFUZZ_TEST_FAILURE=inherited_fd"}});
  EXPECT_EQ(r.exit_code, 0) << r.all();
}

TEST_F(FuzzRun, JsonOutputIsJsonOnlyAndFuzzingIsAnnouncedBeforeAFailure) {
  // 'X' is one mutation away from the seed: the failure comes within the first fuzz calls.
  auto r = fuzz("failure_kinds", {"--parallel", "1", "--fuzztime", "60s", "--json"}, {"CFUZZ_TEST_FAILURE=abort"});
  ASSERT_EQ(r.exit_code, 1) << r.all();
  std::vector<std::string> events;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);) {
    auto j = nlohmann::json::parse(line, nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << "not JSON: " << line;
    events.push_back(j["event"].get<std::string>());
  }
  auto fuzzing = std::find(events.begin(), events.end(), "fuzzing");
  auto failure = std::find(events.begin(), events.end(), "failure");
  ASSERT_NE(failure, events.end()) << r.out;
  EXPECT_LT(fuzzing - events.begin(), failure - events.begin()) << r.out;
}

TEST_F(FuzzRun, NxRunsExactlyNExecutions) {
  for (int parallel : {1, 2}) {
    fs::path count = dir / ("count" + std::to_string(parallel));
    auto r = fuzz("exec_counter", {"--fuzztime", "5000x", "--parallel", std::to_string(parallel)},
                  {"CFUZZ_TEST_COUNT_FILE=" + count.string()});
    ASSERT_EQ(r.exit_code, 0) << r.all();
    EXPECT_EQ(fs::file_size(count), 5000u) << "with " << parallel << " workers\n" << r.out;
    EXPECT_NE(r.out.find("execs: 5000 "), std::string::npos) << r.out;
  }
}

TEST_F(FuzzRun, LengthControlStartsShortAndGrowsWhenNothingNewIsFound) {
  // exec_counter's seed is 1 byte and every input covers the same: with no new coverage,
  // the limit (4 bytes at first) grows by log2 of itself every 100 * log2 executions.
  auto longest = [&](const std::string& name, std::vector<std::string> args) {
    fs::path lengths = dir / name;
    args.insert(args.end(), {"--parallel", "1", "--seed", "7"});
    auto r = fuzz("exec_counter", args, {"CFUZZ_TEST_LENGTH_FILE=" + lengths.string()});
    EXPECT_EQ(r.exit_code, 0) << r.all();
    std::string bytes = read_file(lengths);
    EXPECT_FALSE(bytes.empty()) << r.all();
    unsigned most = 0;
    for (std::size_t i = 0; i + 1 < bytes.size(); i += 2) {
      unsigned len =
          static_cast<unsigned char>(bytes[i]) | static_cast<unsigned>(static_cast<unsigned char>(bytes[i + 1])) << 8;
      most = std::max(most, len);
    }
    return most;
  };
  // One call of 1000 executions, planned when the limit was still 4 bytes.
  EXPECT_LE(longest("short", {"--fuzztime", "1000x"}), 4u);
  // Without length control the same call grows inputs at once.
  EXPECT_GT(longest("off", {"--fuzztime", "1000x", "--len-control", "0"}), 4u);
  // 30000 executions in calls of 2000: the limit was at most 301 bytes (libFuzzer's steps).
  unsigned grown = longest("grown", {"--fuzztime", "30000x"});
  EXPECT_GT(grown, 4u);
  EXPECT_LE(grown, 301u);
}

TEST_F(FuzzRun, SecondRunStartsFromTheCachedCorpus) {
  auto first = fuzz("maze", {"--fuzztime", "3000x", "--parallel", "1", "--seed", "3"});
  ASSERT_EQ(first.exit_code, 0) << first.all();
  auto cached = files_in(dir / "cache/FuzzMaze");
  ASSERT_FALSE(cached.empty()) << first.all();
  auto second = fuzz("maze", {"--fuzztime", "10x", "--parallel", "1"});
  ASSERT_EQ(second.exit_code, 0) << second.all();
  std::string total = std::to_string(cached.size() + 1);  // the cache plus the f.add seed
  // The cache entries' baseline is known from the first run of this binary; the seed runs.
  EXPECT_NE(
      second.out.find("gathering baseline coverage: " + std::to_string(cached.size()) + "/" + total + " completed"),
      std::string::npos)
      << second.out;
  // Nothing new to find in 10 executions: the second run started with the first's coverage.
  EXPECT_NE(second.out.find("new interesting: 0 (total: " + total + ")"), std::string::npos) << second.out;
  // The cache files are plain v1 corpus files.
  EXPECT_EQ(read_file(cached[0]).rfind("go test fuzz v1\n[]byte(", 0), 0u);
}

TEST_F(FuzzRun, TemporaryFilesLeftByAKilledWriteAreCleanedUpWhenStale) {
  // What a kill -9 in the middle of an atomic write leaves, in the cache and in testdata.
  fs::path stale_cache = dir / "cache/FuzzMaze/.0123456789abcdef.cfuzz-tmp-k3j4h5";
  fs::path stale_testdata = dir / "testdata/fuzz/FuzzMaze/.fedcba9876543210.cfuzz-tmp-a1b2c3";
  fs::path fresh = dir / "cache/FuzzMaze/.1111111111111111.cfuzz-tmp-x9y8z7";  // being written now
  for (const auto& p : {stale_cache, stale_testdata, fresh}) write_file(p, "go test fuzz v1\n[]byte(\"half");
  auto an_hour_ago = fs::file_time_type::clock::now() - std::chrono::hours(1);
  fs::last_write_time(stale_cache, an_hour_ago);
  fs::last_write_time(stale_testdata, an_hour_ago);
  auto r = fuzz("maze", {"--fuzztime", "100x", "--parallel", "1"});
  ASSERT_EQ(r.exit_code, 0) << r.all();
  EXPECT_FALSE(fs::exists(stale_cache));
  EXPECT_FALSE(fs::exists(stale_testdata));
  EXPECT_TRUE(fs::exists(fresh)) << "a temporary file another cfuzz may be writing was removed";
}

TEST_F(FuzzRun, NewCoverageInputsAreMinimizedBeforeTheyAreCached) {
  // The maze's coverage depends only on how much of the phrase an input matches, plus at
  // most the one byte after it; mutations leave other bytes around, which minimization
  // removes. (Bytes are printable after minimization: one literal char each.)
  auto r = fuzz("maze", {"--fuzztime", "100000x", "--parallel", "1", "--seed", "5"});
  ASSERT_EQ(r.exit_code, 0) << r.all();
  auto cached = files_in(dir / "cache/FuzzMaze");
  ASSERT_GE(cached.size(), 3u) << r.all();
  std::string phrase = "the quick brown fox";
  for (const auto& f : cached) {
    std::string text = read_file(f);
    std::string value = text.substr(text.find("[]byte(\"") + 8);
    value = value.substr(0, value.rfind('"'));
    std::size_t matched = 0;
    while (matched < value.size() && matched < phrase.size() && value[matched] == phrase[matched]) ++matched;
    EXPECT_LE(value.size(), matched + 1) << "not minimized: " << text;
  }
}

TEST_F(FuzzRun, SameSeedSameCorpusOneWorkerGivesTheSameRun) {
  auto entries = [&](const std::string& cache) {
    auto r = run({cfuzz(), "run", target("maze"), "--cachedir", (dir / cache).string(), "--seed", "11", "--parallel",
                  "1", "--fuzztime", "400000x", "--json"},
                 {.cwd = dir.str()});
    used_.insert("maze");
    std::vector<std::string> names;
    std::istringstream in(r.out);
    for (std::string line; std::getline(in, line);) {
      auto j = nlohmann::json::parse(line);
      if (j["event"] == "new_entry")
        names.push_back(j["name"].get<std::string>() + "@" + std::to_string(j["execs"].get<long>()));
      if (j["event"] == "done") names.push_back("execs=" + std::to_string(j["execs"].get<long>()));
    }
    return names;
  };
  auto a = entries("cache_a");
  auto b = entries("cache_b");
  EXPECT_GE(a.size(), 4u);
  EXPECT_EQ(a, b);
}

TEST_F(FuzzRun, KilledWorkerIsReplacedAndFuzzingGoesOn) {
  used_.insert("exec_counter");
  Background bg({cfuzz(), "run", target("exec_counter"), "--cachedir", (dir / "cache").string(), "--parallel", "2",
                 "--fuzztime", "8s"},
                {.cwd = dir.str()});
  std::vector<pid_t> workers;
  for (int i = 0; i < 100 && workers.size() < 2; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    workers = processes_running(target("exec_counter"));
  }
  ASSERT_EQ(workers.size(), 2u);
  std::this_thread::sleep_for(std::chrono::seconds(2));
  ::kill(workers[0], SIGKILL);
  std::this_thread::sleep_for(std::chrono::seconds(1));
  auto now = processes_running(target("exec_counter"));
  auto r = bg.wait();
  EXPECT_EQ(r.exit_code, 0) << r.all();
  EXPECT_EQ(now.size(), 2u) << "the killed worker was not replaced";
  // Killed inside or outside the fuzz function: either way not a failure of any input.
  EXPECT_NE(r.err.find("signal SIGKILL"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("restarting it"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir / "testdata"));
  // Progress lines after the kill show executions still growing.
  std::istringstream in(r.out);
  std::vector<long> execs;
  for (std::string line; std::getline(in, line);) {
    std::string e = line_after(line, "execs: ");
    if (!e.empty()) execs.push_back(std::stol(e));
  }
  ASSERT_GE(execs.size(), 2u) << r.out;
  EXPECT_GT(execs.back(), execs[execs.size() - 2]);
}

TEST_F(FuzzRun, MalformedMessageFromAWorkerDoesNotKillTheCoordinator) {
  fs::path marker = dir / "garbage-written";
  auto r = fuzz("flaky_rpc", {"--fuzztime", "3s", "--parallel", "1"}, {"CFUZZ_TEST_MARKER=" + marker.string()});
  EXPECT_TRUE(fs::exists(marker)) << "the target never wrote its garbage";
  EXPECT_EQ(r.exit_code, 0) << r.all();
  EXPECT_NE(r.err.find("not reproducible"), std::string::npos) << r.all();
  EXPECT_FALSE(fs::exists(dir / "testdata")) << "nothing is a failure here";
}

TEST_F(FuzzRun, WorkersThatDieAtStartUpAreASetupErrorNotAPass) {
  // Aborting, or exiting with status 0, before answering: never PASS; exit 2 and one line
  // that names the target and ends with what the worker last said.
  for (const std::string how : {"abort", "exit0"}) {
    SCOPED_TRACE(how);
    auto r = fuzz("dies_as_worker", {"--fuzztime", "5s", "--parallel", "2"}, {"DIES_AS_WORKER=" + how});
    EXPECT_EQ(r.exit_code, 2) << r.all();
    EXPECT_EQ(r.out.find("PASS"), std::string::npos) << r.all();
    std::string error = line_after(r.err, "cfuzz: ");
    EXPECT_NE(error.find(target("dies_as_worker") + ": "), std::string::npos) << r.err;
    EXPECT_NE(error.find("did not start"), std::string::npos) << r.err;
    EXPECT_NE(error.find("dies_as_worker: cannot initialize the parser tables"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir / "testdata")) << "no input failed";
  }
}

TEST_F(FuzzRun, AMemorySanitizerBuildFindsAnUninitializedRead) {
  // The workers of an MSan build run the baseline and fuzz (they died at their first call
  // before the runtime handled MemorySanitizer); the uninitialized read is the failure.
  fs::create_directories(dir / "cache/LLVMFuzzerTestOneInput");
  write_file(dir / "cache/LLVMFuzzerTestOneInput/seed", "go test fuzz v1\n[]byte(\"Mx\")\n");
  auto r = fuzz("crash_depths_msan", {"--fuzztime", "60s", "--parallel", "2"});
  EXPECT_EQ(r.exit_code, 1) << r.all();
  EXPECT_NE(r.out.find("MemorySanitizer: use-of-uninitialized-value"), std::string::npos) << r.all();
  EXPECT_EQ(r.err.find("restarting it"), std::string::npos) << r.all();
  fs::path saved = saved_input(r, "LLVMFuzzerTestOneInput");
  EXPECT_NE(read_file(saved).find("[]byte(\"M"), std::string::npos) << read_file(saved);
}

TEST_F(FuzzRun, FailingSeedStopsTheRunAndIsNotRewritten) {
  write_file(dir / "testdata/fuzz/FuzzFailure/known_crasher", "go test fuzz v1\n[]byte(\"Xyz\")\n");
  auto r = fuzz("failure_kinds", {"--fuzztime", "30s"}, {"CFUZZ_TEST_FAILURE=fatal"});
  EXPECT_EQ(r.exit_code, 1) << r.all();
  EXPECT_NE(r.out.find("failure while testing seed corpus entry: FuzzFailure/known_crasher"), std::string::npos)
      << r.out;
  EXPECT_EQ(files_in(dir / "testdata/fuzz/FuzzFailure").size(), 1u);
}

TEST_F(FuzzRun, KeepFuzzingSavesEachDistinctFailureOnce) {
  auto r = fuzz("failure_kinds", {"--fuzztime", "6s", "--keepfuzzing", "--fuzzminimizetime", "5s"},
                {"CFUZZ_TEST_FAILURE=two"});
  EXPECT_EQ(r.exit_code, 1) << r.all();
  auto saved = files_in(dir / "testdata/fuzz/FuzzFailure");
  ASSERT_EQ(saved.size(), 2u) << r.all();
  std::set<std::string> contents{read_file(saved[0]), read_file(saved[1])};
  EXPECT_TRUE(contents.count("go test fuzz v1\n[]byte(\"X\")\n")) << r.out;
  EXPECT_TRUE(contents.count("go test fuzz v1\n[]byte(\"Y\")\n")) << r.out;
}

// A big cache's baseline is measured once per binary: the next run of the same binary
// starts fuzzing without running the entries again, and another binary runs them all.
TEST_F(FuzzRun, ASecondRunReusesTheBaselineOfTheSameBinaryAndAChangedBinaryDoesNot) {
  fs::path entries = dir / "cache/FuzzCount";
  fs::create_directories(entries);
  for (int i = 0; i < 2000; ++i) {
    write_file(entries / ("entry" + std::to_string(i)),
               "go test fuzz v1\n[]byte(\"" + std::to_string(i * 7919) + "\")\n");
  }
  const std::string ran_out = "before fuzzing began";  // the warning of a run that never fuzzed
  // 2001 executions: the 2000 entries and the seed, nothing fuzzed.
  auto first = fuzz("exec_counter", {"--fuzztime", "2001x", "--parallel", "2"});
  ASSERT_EQ(first.exit_code, 0) << first.all();
  ASSERT_TRUE(fs::exists(dir / "cache/FuzzCount.baseline")) << first.all();
  // 50 executions are far from a baseline of 2001 entries: only the one it knows from the
  // first run lets this run fuzz at all.
  auto second = fuzz("exec_counter", {"--fuzztime", "50x", "--parallel", "2"});
  ASSERT_EQ(second.exit_code, 0) << second.all();
  EXPECT_EQ(second.all().find(ran_out), std::string::npos) << second.all();
  EXPECT_NE(second.out.find("now fuzzing"), std::string::npos) << second.all();

  // Entries that left the cache leave the baseline file too: it does not grow run after run.
  auto full_size = fs::file_size(dir / "cache/FuzzCount.baseline");
  for (int i = 0; i < 1000; ++i) fs::remove(entries / ("entry" + std::to_string(i)));
  auto pruned = fuzz("exec_counter", {"--fuzztime", "50x", "--parallel", "2"});
  ASSERT_EQ(pruned.exit_code, 0) << pruned.all();
  EXPECT_LT(fs::file_size(dir / "cache/FuzzCount.baseline"), full_size * 3 / 4);

  // The same target with one more byte: another binary, whose counters may differ.
  fs::path changed = dir / "exec_counter_changed";
  fs::copy_file(target("exec_counter"), changed);
  { std::ofstream(changed, std::ios::app) << "rebuilt"; }
  auto third = run({cfuzz(), "run", changed.string(), "--cachedir", (dir / "cache").string(), "--fuzztime", "50x",
                    "--parallel", "2"},
                   {.cwd = dir.str()});
  ASSERT_EQ(third.exit_code, 0) << third.all();
  EXPECT_NE(third.all().find("50 of 1001 corpus entries had their first run"), std::string::npos) << third.all();
}

// Issue 19's scale: a cache of 100,000 entries loads, its baseline runs and fuzzing begins;
// an interrupt then loses nothing (every entry still there, the baseline kept), and the
// next run fuzzes within a budget far smaller than the cache.
TEST_F(FuzzRun, AHundredThousandEntryCacheLoadsFuzzesAndLosesNothingWhenInterrupted) {
  used_.insert("exec_counter");
  fs::path entries = dir / "cache/FuzzCount";
  fs::create_directories(entries);
  const int kEntries = 100000;
  for (int i = 0; i < kEntries; ++i) {
    char name[32];
    std::snprintf(name, sizeof name, "%016x", i);
    write_file(entries / name, "go test fuzz v1\n[]byte(\"" + std::to_string(i) + "\")\n");
  }
  Background bg({cfuzz(), "run", target("exec_counter"), "--cachedir", (dir / "cache").string(), "--parallel", "2"},
                {.cwd = dir.str()});
  bg.wait_for_output("now fuzzing", std::chrono::seconds(120));
  bg.signal(SIGINT);
  auto first = bg.wait(std::chrono::seconds(60));
  ASSERT_EQ(first.exit_code, 0) << first.all();
  EXPECT_NE(first.out.find("gathering baseline coverage: " + std::to_string(kEntries + 1) + "/" +
                           std::to_string(kEntries + 1) + " completed, now fuzzing"),
            std::string::npos)
      << first.out;
  EXPECT_GE(files_in(entries).size(), static_cast<std::size_t>(kEntries));
  EXPECT_TRUE(fs::exists(dir / "cache/FuzzCount.baseline"));

  auto second = fuzz("exec_counter", {"--fuzztime", "100x", "--parallel", "2"});
  ASSERT_EQ(second.exit_code, 0) << second.all();
  EXPECT_EQ(second.all().find("before fuzzing began"), std::string::npos) << second.all();
  EXPECT_NE(second.out.find("now fuzzing"), std::string::npos) << second.out;
}

TEST_F(FuzzRun, JsonLinesDescribeTheRunForCI) {
  auto r = fuzz("nested_word", {"--fuzztime", "120s", "--json"});
  ASSERT_EQ(r.exit_code, 1) << r.all();
  std::set<std::string> events;
  std::string written;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);) {
    auto j = nlohmann::json::parse(line);  // every line is JSON
    events.insert(j["event"].get<std::string>());
    if (j["event"] == "failure") written = j["written_to"];
  }
  EXPECT_TRUE(events.count("baseline") && events.count("failure") && events.count("done")) << r.out;
  EXPECT_TRUE(fs::exists(dir / written)) << written;
}

TEST_F(FuzzRun, InterruptStopsCleanlyWithExitZero) {
  used_.insert("exec_counter");
  Background bg({cfuzz(), "run", target("exec_counter"), "--cachedir", (dir / "cache").string(), "--parallel", "2"},
                {.cwd = dir.str()});
  bg.wait_for_output("now fuzzing", std::chrono::seconds(10));
  bg.signal(SIGINT);
  auto r = bg.wait(std::chrono::seconds(20));
  EXPECT_FALSE(r.timed_out);
  EXPECT_EQ(r.exit_code, 0) << r.all();
  EXPECT_NE(r.out.find("PASS"), std::string::npos) << r.out;
}

TEST_F(FuzzRun, MultiValueEntryBugIsFoundAndMinimizedInEveryValue) {
  auto r = fuzz("typed_args", {"--fuzz", "FuzzTyped$", "--fuzztime", "120s"});
  ASSERT_EQ(r.exit_code, 1) << r.all();
  fs::path saved = saved_input(r, "FuzzTyped");
  std::string text = read_file(saved);
  // Each value shrank to what the bug needs: a short name, the smallest level.
  EXPECT_NE(text.find("bool(false)"), std::string::npos) << text;
  EXPECT_NE(text.find("byte('\\t')"), std::string::npos) << text;
  auto rerun = run({target("typed_args"), "--run", "FuzzTyped/" + saved.filename().string()}, {.cwd = dir.str()});
  EXPECT_EQ(rerun.exit_code, 1) << rerun.all();
  EXPECT_NE(rerun.out.find("planted bug"), std::string::npos) << rerun.out;
}

TEST_F(FuzzRun, MinimizingACrashThatMostCandidatesCrashDifferentlyStopsAtABudgetProportionalToTheInput) {
  // Every candidate that changes the 30-byte string's length dies of SIGABRT, not the SIGSEGV
  // being minimized: without a restart budget this took 1004 worker restarts (8 s with ASan).
  auto r = fuzz("minimize_cases",
                {"--fuzz", "FuzzRestartStorm", "--parallel", "1", "--seed", "1", "--fuzztime", "60s", "--json"});
  ASSERT_EQ(r.exit_code, 1) << r.all();
  nlohmann::json failure, minimizing;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);) {
    auto j = nlohmann::json::parse(line);
    if (j["event"] == "failure") failure = j;
    if (j["event"] == "minimizing") minimizing = j;
    // While minimizing, progress is minimization's own, never a stale fuzzing line.
    if (!minimizing.is_null() && failure.is_null()) EXPECT_NE(j["event"], "progress") << line;
  }
  ASSERT_FALSE(failure.is_null()) << r.out;
  EXPECT_EQ(minimizing["bytes"], 30) << r.out;
  std::string minimized = failure["minimized"];
  EXPECT_NE(failure["summary"].get<std::string>().find("deadly signal SIGSEGV"), std::string::npos) << r.out;
  EXPECT_NE(
      minimized.find("128 worker restarts; stopped: the budget of 1m0s and 128 worker restarts (for 30 bytes) used up"),
      std::string::npos)
      << minimized;
}

TEST(FuzzRunErrors, APlainLibFuzzerBinaryIsRefusedWithoutRunningIt) {
  if (!fs::exists(target("plain_libfuzzer"))) GTEST_SKIP() << "clang cannot link -fsanitize=fuzzer here";
  TempDir dir;
  auto r = run({cfuzz(), "run", target("plain_libfuzzer"), "--fuzztime", "1s"}, {.cwd = dir.str()});
  EXPECT_EQ(r.exit_code, 2) << r.all();
  EXPECT_NE(r.err.find("is a libFuzzer binary"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("rebuild it with cfuzz-clang++"), std::string::npos) << r.err;
  // It never ran: no libFuzzer output, and nothing left in the working directory.
  EXPECT_EQ(r.all().find("INFO: Seed"), std::string::npos) << r.all();
  EXPECT_TRUE(files_in(dir.path()).empty());
}

TEST(FuzzRunErrors, ACorpusPathThatIsAFileIsAnErrorAsInTheSeedRun) {
  TempDir dir;
  fs::create_directories(dir / "testdata/fuzz");
  write_file(dir / "testdata/fuzz/FuzzFailure", "not a directory\n");
  auto seeds = run({target("failure_kinds")}, {.cwd = dir.str()});
  EXPECT_EQ(seeds.exit_code, 2) << seeds.all();
  auto r = run({cfuzz(), "run", target("failure_kinds"), "--cachedir", (dir / "cache").string(), "--fuzztime", "10x"},
               {.cwd = dir.str()});
  EXPECT_EQ(r.exit_code, 2) << r.all();
  EXPECT_NE(r.err.find("testdata/fuzz/FuzzFailure"), std::string::npos) << r.err;
}

TEST(Cli, VersionFlagPrintsTheVersion) {
  auto r = run({cfuzz(), "--version"});
  EXPECT_EQ(r.exit_code, 0) << r.all();
  EXPECT_EQ(r.out.rfind("cfuzz 0.", 0), 0u) << r.all();
}

TEST(FuzzRunErrors, SetupErrorsExitTwoWithAClearMessage) {
  TempDir dir;
  struct Case {
    std::vector<std::string> args;
    std::string expect;
  };
  std::vector<Case> cases = {
      {{"run", (dir / "missing").string()}, "no such file"},
      {{"run", target("not_instrumented")}, "is not instrumented"},
      {{"run", "/bin/true"}, "is not a cfuzz target"},
      // A pattern matching several tests fuzzes them all (multi_run.h), which needs a budget.
      {{"run", target("typed_args"), "--fuzz", "FuzzTyped"}, "fuzzing several fuzz tests needs --fuzztime"},
      {{"run", target("typed_args")}, "has several fuzz tests: [FuzzTyped FuzzTypedPasses]; choose one with --fuzz"},
      {{"run", target("typed_args"), "--fuzz", "Nothing"}, "matches no fuzz test"},
      {{"run", target("nested_word"), "--fuzztime", "soon"}, "--fuzztime soon: invalid duration"},
      {{"run", target("nested_word"), "--fuzztime", "0x"}, "--fuzztime 0x: must be more than zero"},
      {{"run", target("nested_word"), "--timeout", "fast"}, "--timeout fast"},
      {{"run"}, "target is required"},
      // Numbers out of range are refused before any conversion can wrap them.
      {{"run", target("nested_word"), "--max-len", "99999999999"}, "--max-len: Value 99999999999 not in range"},
      {{"run", target("nested_word"), "--rss-limit-mb", "-5"}, "--rss-limit-mb: Value -5 not in range"},
      {{"run", target("nested_word"), "-p", "100000"}, "--parallel: Value 100000 not in range 0 to 1024"},
      {{"run", target("nested_word"), "--parallel", "-1"}, "--parallel: Value -1 not in range 0 to 1024"},
      {{"minimize", target("nested_word"), "--target", target("nested_word"), "--rss-limit-mb", "-1"},
       "--rss-limit-mb: Value -1 not in range"},
  };
  for (const auto& c : cases) {
    std::vector<std::string> argv{cfuzz()};
    argv.insert(argv.end(), c.args.begin(), c.args.end());
    auto r = run(argv, {.cwd = dir.str()});
    EXPECT_EQ(r.exit_code, 2) << c.expect << "\n" << r.all();
    EXPECT_NE(r.err.find(c.expect), std::string::npos) << r.err;
  }
}

TEST(FuzzRunBudget, ABudgetThatEndsDuringTheBaselineSaysNothingWasFuzzed) {
  TempDir dir;
  for (int i = 0; i < 30; ++i) {
    write_file(dir / "testdata/fuzz/LLVMFuzzerTestOneInput" / ("s" + std::to_string(i)),
               "go test fuzz v1\n[]byte(\"LEN:" + std::to_string(100 + i) + "\")\n");
  }
  auto r = run({cfuzz(), "run", target("libfuzzer_harness"), "--srcdir", dir.str(), "--cachedir",
                (dir / "cache").string(), "--parallel", "1", "--fuzztime", "5x"});
  EXPECT_EQ(r.exit_code, 0) << r.all();
  EXPECT_NE(r.err.find("warning: --fuzztime ran out before fuzzing began: 5 of 30 corpus entries had their first "
                       "run, and nothing was fuzzed"),
            std::string::npos)
      << r.all();
  // A budget that reaches fuzzing says nothing of the kind.
  auto enough = run({cfuzz(), "run", target("libfuzzer_harness"), "--srcdir", dir.str(), "--cachedir",
                     (dir / "cache").string(), "--parallel", "1", "--fuzztime", "500x"});
  EXPECT_EQ(enough.err.find("before fuzzing began"), std::string::npos) << enough.all();
}

}  // namespace
}  // namespace cfuzz::test
