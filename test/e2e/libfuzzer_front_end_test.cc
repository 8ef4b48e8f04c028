// A cfuzz target driven the way ClusterFuzz, OSS-Fuzz and ClusterFuzzLite drive libFuzzer
// binaries: fuzzing into corpus directories with -artifact_prefix, each failure kind with
// its artifact, exit status and report lines (matched with ClusterFuzz's own regexes), then
// reproduction of the artifact with -runs=100.
#include <signal.h>

#include <cctype>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

#include <gtest/gtest.h>

#include "core/sha1.h"
#include "test/support/test_support.h"

namespace cfuzz::test {
namespace {

namespace fs = std::filesystem;

// ClusterFuzz's libFuzzer engine (bot/fuzzers/libFuzzer/stats.py): how it finds a
// testcase of each kind, the log lines it counts as the engine's, and the end of the log.
const std::regex kTestUnitWritten(".*Test unit written to (.*)");
std::regex unit_of_kind(const std::string& kind) { return std::regex(".*Test unit written to.*" + kind); }
const std::regex kEngineLine(R"(^#\d+[\s]*(READ|INITED|NEW|pulse|REDUCE|RELOAD|DONE|:)\s.*)");
const std::regex kLogEnd(R"(Done\s+\d+\s+runs.*)");
const std::regex kModulesLoaded(R"(^INFO:\s+Loaded\s+\d+\s+(modules|PC tables)\s+\((\d+)\s+.*\).*)");

// Python's re.match: anchored at the start of the line, not at its end.
bool any_line(const std::string& text, const std::regex& re) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (std::regex_search(line, re, std::regex_constants::match_continuous)) return true;
  }
  return false;
}

std::string testcase_path(const std::string& text) {
  std::istringstream in(text);
  std::smatch m;
  for (std::string line; std::getline(in, line);) {
    if (std::regex_match(line, m, kTestUnitWritten)) return m[1];
  }
  return "";
}

std::string sha1_of(const std::string& data) {
  char hex[core::kSha1HexSize + 1];
  core::sha1_hex(reinterpret_cast<const std::uint8_t*>(data.data()), data.size(), hex);
  return hex;
}

// ClusterFuzz's merge statistics line (libFuzzer/stats.py): features and edges added.
std::pair<int, int> merge_stats(const std::string& log) {
  static const std::regex re(
      R"(MERGE-OUTER:\s+\d+\s+new files with\s+(\d+)\s+new features added;\s+(\d+)\s+new coverage edges.*)");
  std::pair<int, int> stats{-1, -1};
  std::istringstream in(log);
  std::smatch m;
  for (std::string line; std::getline(in, line);) {
    if (std::regex_search(line, m, re, std::regex_constants::match_continuous)) {
      stats = {std::stoi(m[1]), std::stoi(m[2])};
    }
  }
  return stats;
}

struct FuzzTask {
  TempDir dir;
  fs::path new_dir = dir / "new", corpus_dir = dir / "corpus", artifacts = dir / "crashes";
  FuzzTask() {
    fs::create_directories(new_dir);
    fs::create_directories(corpus_dir);
    fs::create_directories(artifacts);
    write_file(corpus_dir / "seed", "a=1;n=2;");
  }
  // ClusterFuzz's fuzz task: new units to a fresh first directory, the corpus second.
  CommandResult fuzz(const std::string& armed, std::vector<std::string> extra = {}) {
    std::vector<std::string> argv = {target("libfuzzer_kinds"), "-timeout=25",
                                     "-rss_limit_mb=2560",      "-artifact_prefix=" + artifacts.string() + "/",
                                     "-max_total_time=120",     "-print_final_stats=1"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    argv.push_back(new_dir.string());
    argv.push_back(corpus_dir.string());
    return run(argv, CommandOptions{.cwd = dir.str(), .env = {"LIBFUZZER_KINDS_ARMED=" + armed}});
  }
  CommandResult reproduce(const std::string& testcase, std::vector<std::string> extra = {}) {
    std::vector<std::string> argv = {target("libfuzzer_kinds"), "-runs=100"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    argv.push_back(testcase);
    return run(argv, CommandOptions{.cwd = dir.str()});
  }
};

// ClusterFuzz's tasks in turn: fuzz until the armed kind is found (the artifact, its name, the
// log), reproduce it, minimize it, and merge the units the fuzzing found into the corpus.
void expect_cluster_fuzz_tasks(const std::string& armed, const std::string& kind, int exit_code,
                               const std::string& error_line, std::vector<std::string> extra = {}) {
  FuzzTask task;
  CommandResult r = task.fuzz(armed, extra);
  SCOPED_TRACE(r.err.substr(0, 6000));
  EXPECT_EQ(r.exit_code, exit_code);
  EXPECT_NE(r.err.find(error_line), std::string::npos);
  EXPECT_TRUE(any_line(r.err, unit_of_kind(kind)));
  EXPECT_TRUE(any_line(r.err, kEngineLine));
  EXPECT_NE(r.err.find("stat::number_of_executed_units: "), std::string::npos);
  std::string path = testcase_path(r.err);
  ASSERT_FALSE(path.empty());
  ASSERT_TRUE(fs::exists(path)) << path;
  std::string unit = read_file(path);
  EXPECT_EQ(fs::path(path).filename().string(), kind + "-" + sha1_of(unit));
  EXPECT_EQ(fs::path(path).parent_path(), task.artifacts);
  EXPECT_EQ(unit.substr(0, 4), armed);
  EXPECT_NE(r.err.find("Base64: "), std::string::npos);
  // New units go to the first directory only; the corpus directory is not written.
  EXPECT_FALSE(files_in(task.new_dir).empty());
  EXPECT_EQ(files_in(task.corpus_dir).size(), 1u);
  for (const auto& f : files_in(task.new_dir)) EXPECT_EQ(f.filename().string(), sha1_of(read_file(f)));

  CommandResult again = task.reproduce(path, extra);
  EXPECT_EQ(again.exit_code, exit_code) << again.err;
  EXPECT_NE(again.err.find(error_line), std::string::npos) << again.err;
  EXPECT_NE(again.err.find("Running: " + path), std::string::npos);

  // ClusterFuzz's minimize task: the result at an exact path, still failing the same way.
  fs::path minimized = task.dir / "minimized";
  std::vector<std::string> minimize = {target("libfuzzer_kinds"), "-timeout=25", "-rss_limit_mb=2560"};
  minimize.insert(minimize.end(), extra.begin(), extra.end());
  minimize.insert(minimize.end(), {"-max_total_time=30", "-exact_artifact_path=" + minimized.string(),
                                   "-minimize_crash=1", "-artifact_prefix=" + (task.dir / "minimize-").string(), path});
  CommandResult m = run(minimize, CommandOptions{.cwd = task.dir.str()});
  EXPECT_EQ(m.exit_code, 0) << m.err;
  ASSERT_TRUE(fs::exists(minimized)) << m.err;
  EXPECT_LE(read_file(minimized).size(), unit.size());
  EXPECT_EQ(read_file(minimized).substr(0, 4), armed);
  EXPECT_EQ(task.reproduce(minimized.string(), extra).exit_code, exit_code);

  // And its merge of what fuzzing found into the corpus, in two steps on one control file.
  fs::path merged = task.dir / "merged";
  std::string mcf = "-merge_control_file=" + (task.dir / "MCF").string();
  fs::create_directories(merged);
  CommandOptions as_fuzzed{.cwd = task.dir.str(), .env = {"LIBFUZZER_KINDS_ARMED=" + armed}};
  CommandResult step1 = run({target("libfuzzer_kinds"), "-timeout=25", "-rss_limit_mb=2560", "-merge=1", mcf,
                             merged.string(), task.corpus_dir.string()},
                            as_fuzzed);
  fs::remove_all(merged);
  fs::create_directories(merged);
  CommandResult step2 = run({target("libfuzzer_kinds"), "-timeout=25", "-rss_limit_mb=2560", "-merge=1", mcf,
                             merged.string(), task.corpus_dir.string(), task.new_dir.string()},
                            as_fuzzed);
  ASSERT_EQ(step1.exit_code, 0) << step1.err;
  ASSERT_EQ(step2.exit_code, 0) << step2.err;
  EXPECT_GT(merge_stats(step2.err).first, merge_stats(step1.err).first) << step1.err << step2.err;
  EXPECT_GT(files_in(merged).size(), 1u);
}

TEST(LibFuzzerFrontEnd, ACrashIsFoundWrittenUnderTheArtifactPrefixAndReproduces) {
  // ASan reports the overflow and ends the process with its own exit status, 1.
  expect_cluster_fuzz_tasks("CRSH", "crash", 1, "ERROR: AddressSanitizer: heap-buffer-overflow");
}

TEST(LibFuzzerFrontEnd, UseValueProfileFindsAnExactSumThatPlainCoverageMisses) {
  // The puzzle of ComparisonGuidance's value-profile test, as ClusterFuzz runs it when it
  // picks -use_value_profile=1: only the value profile leads to the sum.
  for (const char* use : {"0", "1"}) {
    TempDir dir;
    auto r = run({target("magic_values"), std::string("-use_value_profile=") + use, "-runs=2000000", "-seed=1",
                  "-artifact_prefix=" + dir.str() + "/", "--run", "FuzzRotatedSum$"},
                 {.cwd = dir.str()});
    SCOPED_TRACE(r.err.substr(0, 4000));
    if (std::string(use) == "1") {
      EXPECT_NE(r.exit_code, 0);
      EXPECT_NE(r.err.find("Test unit written to " + dir.str() + "/crash-"), std::string::npos);
    } else {
      EXPECT_EQ(r.exit_code, 0);
    }
  }
}

TEST(LibFuzzerFrontEnd, AHangIsATimeoutWithExitStatus70) {
  expect_cluster_fuzz_tasks("HANG", "timeout", 70, "ERROR: libFuzzer: timeout after 1 seconds", {"-timeout=1"});
}

TEST(LibFuzzerFrontEnd, MemoryPastTheLimitIsAnOutOfMemoryWithExitStatus71) {
  expect_cluster_fuzz_tasks("OOMM", "oom", 71, "ERROR: libFuzzer: out-of-memory (used: ", {"-rss_limit_mb=300"});
}

TEST(LibFuzzerFrontEnd, OneAllocationPastTheMallocLimitIsAnOutOfMemory) {
  expect_cluster_fuzz_tasks("BIGM", "oom", 71, "ERROR: libFuzzer: out-of-memory (malloc(209715200))",
                            {"-malloc_limit_mb=100"});
}

TEST(LibFuzzerFrontEnd, ALeakIsFoundByLeakSanitizerAndWrittenAsALeakUnit) {
  // libFuzzer checks for leaks itself and ends with -error_exitcode.
  expect_cluster_fuzz_tasks("LEAK", "leak", 77, "ERROR: LeakSanitizer: detected memory leaks");
}

TEST(LibFuzzerFrontEnd, WritingToTheConstInputIsAFailureAsUnderLibFuzzer) {
  expect_cluster_fuzz_tasks("OVWR", "crash", 77, "ERROR: libFuzzer: fuzz target overwrites its const input");
}

TEST(LibFuzzerFrontEnd, ADeadlySignalWithoutASanPrintsItsStackAndExitsWithTheErrorExitCode) {
  TempDir dir;
  fs::create_directories(dir / "corpus");
  write_file(dir / "corpus" / "seed", "X");
  CommandResult r = run({target("failure_kinds"), "-artifact_prefix=" + dir.str() + "/", (dir / "corpus").string()},
                        CommandOptions{.cwd = dir.str(), .env = {"CFUZZ_TEST_FAILURE=segv"}});
  EXPECT_EQ(r.exit_code, 77) << r.err;
  EXPECT_NE(r.err.find("ERROR: libFuzzer: deadly signal"), std::string::npos) << r.err;
  // Frames as sanitizers print unsymbolized ones, for ClusterFuzz to symbolize.
  EXPECT_TRUE(any_line(r.err, std::regex(R"(    #0 0x[0-9a-f]+ in \(.*failure_kinds\+0x[0-9a-f]+\))"))) << r.err;
  EXPECT_NE(r.err.find("SUMMARY: libFuzzer: deadly signal"), std::string::npos);
  EXPECT_TRUE(any_line(r.err, unit_of_kind("crash"))) << r.err;
}

TEST(LibFuzzerFrontEnd, RunsSeedAndTheEndOfTheLogAreAsLibFuzzers) {
  TempDir dir;
  auto fuzz = [&](const std::string& out) {
    fs::create_directories(dir / out);
    return run({target("libfuzzer_kinds"), "-seed=7", "-runs=3000", "-print_final_stats=1", (dir / out).string()},
               CommandOptions{.env = {"LIBFUZZER_KINDS_ARMED=none"}});
  };
  CommandResult a = fuzz("a");
  ASSERT_EQ(a.exit_code, 0) << a.err;
  EXPECT_NE(a.err.find("INFO: Seed: 7\n"), std::string::npos);
  EXPECT_TRUE(any_line(a.err, kModulesLoaded));
  EXPECT_TRUE(any_line(a.err, kLogEnd));
  EXPECT_NE(a.err.find("Done 3000 runs in "), std::string::npos) << a.err;
  EXPECT_NE(a.err.find("stat::number_of_executed_units: 3000\n"), std::string::npos) << a.err;
  EXPECT_NE(a.err.find("INITED cov: "), std::string::npos);
  // The same seed makes the same run: the same units found.
  CommandResult b = fuzz("b");
  ASSERT_EQ(b.exit_code, 0) << b.err;
  std::set<std::string> names_a, names_b;
  for (const auto& f : files_in(dir / "a")) names_a.insert(f.filename().string());
  for (const auto& f : files_in(dir / "b")) names_b.insert(f.filename().string());
  EXPECT_FALSE(names_a.empty());
  EXPECT_EQ(names_a, names_b);
}

// A seed with a time budget (how ClusterFuzz runs a fuzz task) fuzzes until the time is up,
// not for a fixed number of executions: only -seed with -runs makes the calls repeatable.
TEST(LibFuzzerFrontEnd, ASeedWithMaxTotalTimeFuzzesUntilTheTimeIsUp) {
  TempDir dir;
  fs::create_directories(dir / "c");
  CommandResult r = run({target("libfuzzer_kinds"), "-seed=7", "-max_total_time=2", (dir / "c").string()},
                        CommandOptions{.env = {"LIBFUZZER_KINDS_ARMED=none"}});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("INFO: Seed: 7\n"), std::string::npos) << r.err;
  std::smatch m;
  static const std::regex done(R"(Done (\d+) runs in (\d+) second\(s\))");
  ASSERT_TRUE(std::regex_search(r.err, m, done)) << r.err;
  EXPECT_GT(std::stoull(m[1]), 0u);
  EXPECT_GE(std::stoi(m[2]), 2) << "stopped before -max_total_time: " << m[0];
  EXPECT_FALSE(files_in(dir / "c").empty());
}

TEST(LibFuzzerFrontEnd, OnlyAsciiUnitsAreMadeWithOnlyAscii) {
  TempDir dir;
  fs::create_directories(dir / "c");
  CommandResult r = run({target("libfuzzer_kinds"), "-only_ascii=1", "-seed=3", "-runs=20000", (dir / "c").string()},
                        CommandOptions{.cwd = dir.str(), .env = {"LIBFUZZER_KINDS_ARMED=none"}});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto units = files_in(dir / "c");
  EXPECT_GT(units.size(), 10u);
  for (const auto& f : units) {
    for (unsigned char c : read_file(f)) EXPECT_TRUE(std::isprint(c) || std::isspace(c)) << f << " has " << int(c);
  }
}

TEST(LibFuzzerFrontEnd, FlagsAreWarnedAboutAsLibFuzzerDoes) {
  TempDir dir;
  CommandOptions in_dir{.cwd = dir.str(), .env = {"LIBFUZZER_KINDS_ARMED=none"}};
  CommandResult unknown = run({target("libfuzzer_kinds"), "-no_such_flag=1", "-runs=10"}, in_dir);
  EXPECT_EQ(unknown.exit_code, 0) << unknown.err;
  EXPECT_NE(unknown.err.find("WARNING: unrecognized flag '-no_such_flag=1'; use -help=1 to list all flags"),
            std::string::npos);
  CommandResult help = run({target("libfuzzer_kinds"), "-help=1"}, in_dir);
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.out.find(" max_total_time "), std::string::npos);
  CommandResult bad = run({target("libfuzzer_kinds"), "-runs=many"}, in_dir);
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("-runs=many: expected an integer"), std::string::npos) << bad.err;
}

// The flag names of a -help=1 listing: lines " name<spaces><TAB>default<TAB>help".
std::set<std::string> listed_flags(const std::string& help) {
  std::set<std::string> names;
  static const std::regex row(R"(^ ([a-z0-9_]+) *\t)");
  std::istringstream in(help);
  std::smatch m;
  for (std::string line; std::getline(in, line);) {
    if (std::regex_search(line, m, row)) names.insert(m[1]);
  }
  return names;
}

// -help=1 prints the flag list and exits 0 without fuzzing, as libFuzzer does.
TEST(LibFuzzerFrontEnd, HelpListsTheFlagsAndExitsZero) {
  TempDir dir;
  CommandResult help = run({target("libfuzzer_kinds"), "-help=1"},
                           CommandOptions{.cwd = dir.str(), .env = {"LIBFUZZER_KINDS_ARMED=none"}});
  EXPECT_EQ(help.exit_code, 0) << help.err;
  EXPECT_NE(help.out.find("\nFlags: (strictly in form -flag=value)\n"), std::string::npos) << help.out;
  auto ignored_heading = help.out.find("\nAccepted and ignored");
  ASSERT_NE(ignored_heading, std::string::npos) << help.out;
  std::set<std::string> listed = listed_flags(help.out);
  for (const char* flag : {"runs", "max_total_time", "dict", "merge", "fork", "use_cmp", "set_cover_merge"}) {
    EXPECT_TRUE(listed.count(flag)) << flag << " is not listed:\n" << help.out;
  }
  EXPECT_GT(help.out.find("\n use_cmp "), ignored_heading) << "use_cmp is not among the ignored flags";
  EXPECT_EQ(help.err.find("INFO: Seed:"), std::string::npos) << "it fuzzed:\n" << help.err;
  EXPECT_TRUE(files_in(dir.path()).empty());
}

// Every flag libFuzzer's own -help=1 lists (clang's libFuzzer on this machine) is in
// cfuzz's table, so no flag an OSS-Fuzz script passes is unknown to cfuzz.
TEST(LibFuzzerFrontEnd, HelpListsEveryFlagLibFuzzersHelpLists) {
  std::string libfuzzer = target("libfuzzer_kinds_libfuzzer");
  if (!fs::exists(libfuzzer)) GTEST_SKIP() << "no libFuzzer build: clang cannot link -fsanitize=fuzzer here";
  TempDir dir;
  CommandResult theirs = run({libfuzzer, "-help=1"}, CommandOptions{.cwd = dir.str()});
  ASSERT_EQ(theirs.exit_code, 0) << theirs.err;
  std::set<std::string> libfuzzer_flags = listed_flags(theirs.err);  // libFuzzer prints it on stderr
  ASSERT_GT(libfuzzer_flags.size(), 50u) << theirs.err;
  CommandResult ours = run({target("libfuzzer_kinds"), "-help=1"},
                           CommandOptions{.cwd = dir.str(), .env = {"LIBFUZZER_KINDS_ARMED=none"}});
  ASSERT_EQ(ours.exit_code, 0) << ours.err;
  std::set<std::string> cfuzz_flags = listed_flags(ours.out);
  for (const auto& flag : libfuzzer_flags) EXPECT_TRUE(cfuzz_flags.count(flag)) << "libFuzzer has -" << flag;
}

TEST(LibFuzzerFrontEnd, ATypedTestFuzzesWithUnitsInGoFormatAndItsFindingReproduces) {
  TempDir dir;
  fs::create_directories(dir / "corpus");
  CommandResult r = run({target("typed_args"), "--run", "FuzzTyped$", "-max_total_time=120",
                         "-artifact_prefix=" + dir.str() + "/", (dir / "corpus").string()});
  ASSERT_EQ(r.exit_code, 77) << r.err;
  EXPECT_NE(r.err.find("planted bug"), std::string::npos) << r.err;
  std::string path = testcase_path(r.err);
  ASSERT_FALSE(path.empty()) << r.err;
  EXPECT_EQ(read_file(path).substr(0, 16), "go test fuzz v1\n");
  for (const auto& f : files_in(dir / "corpus")) EXPECT_EQ(read_file(f).substr(0, 16), "go test fuzz v1\n");
  CommandResult again = run({target("typed_args"), "--run", "FuzzTyped$", path});
  EXPECT_EQ(again.exit_code, 77) << again.err;
  EXPECT_NE(again.err.find("planted bug"), std::string::npos);
}

// Units from a short fuzzing run with a fixed seed.
void fuzz_units(const fs::path& dir, const std::string& seed, const std::string& runs) {
  fs::create_directories(dir);
  CommandResult r = run({target("libfuzzer_kinds"), "-seed=" + seed, "-runs=" + runs, dir.string()},
                        CommandOptions{.env = {"LIBFUZZER_KINDS_ARMED=none"}});
  ASSERT_EQ(r.exit_code, 0) << r.err;
}

TEST(LibFuzzerFrontEnd, MergeIsResumedAfterTheProcessIsKilledAndSkipsTheUnitThatHung) {
  TempDir dir;
  fuzz_units(dir / "corpus", "1", "3000");
  fs::create_directories(dir / "out");
  // Longer than any fuzzed unit, so listed (by size, as libFuzzer lists) after all of them
  // but one: a merge killed on its very last unit has, as libFuzzer's, nothing left to do.
  const std::string hang = "HANG" + std::string(5000, '.');
  write_file(dir / "corpus" / "zz-hang", hang);
  write_file(dir / "corpus" / "zz-last", "LAST" + std::string(6000, '.'));
  CommandOptions only_hang{.cwd = dir.str(), .env = {"LIBFUZZER_KINDS_ARMED=HANG"}};
  std::vector<std::string> merge = {target("libfuzzer_kinds"), "-merge=1",
                                    "-merge_control_file=" + (dir / "MCF").string(), (dir / "out").string(),
                                    (dir / "corpus").string()};
  {
    // The inner process hangs on the unit (no -timeout): kill everything, as an
    // infrastructure's time limit would.
    Background b(merge, only_hang);
    auto hang_started = [&] {  // the control file is not there at first
      return fs::exists(dir / "MCF") &&
             read_file(dir / "MCF").find(" " + std::to_string(hang.size()) + "\n") != std::string::npos;
    };
    for (int i = 0; i < 600 && !hang_started(); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    for (pid_t pid : processes_running(target("libfuzzer_kinds"))) kill(pid, SIGKILL);
    b.wait(std::chrono::seconds(30));
  }
  std::string mcf = read_file(dir / "MCF");
  ASSERT_NE(mcf.find("STARTED"), std::string::npos) << mcf;
  EXPECT_TRUE(files_in(dir / "out").empty());

  CommandResult resumed = run(merge, only_hang);
  ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
  EXPECT_NE(resumed.err.find("MERGE-OUTER: control file ok"), std::string::npos) << resumed.err;
  EXPECT_NE(resumed.err.find("zz-hang' will be skipped as unlucky"), std::string::npos) << resumed.err;
  auto [features, edges] = merge_stats(resumed.err);
  EXPECT_GT(features, 0);
  EXPECT_GT(edges, 0);
  auto out = files_in(dir / "out");
  EXPECT_FALSE(out.empty());
  EXPECT_LT(out.size(), files_in(dir / "corpus").size());
  for (const auto& f : out) EXPECT_EQ(f.filename().string(), sha1_of(read_file(f)));

  // The same command again runs only the units now in the output directory, and adds
  // nothing.
  CommandResult again = run(merge, only_hang);
  EXPECT_EQ(again.exit_code, 0);
  EXPECT_NE(again.err.find("reusing coverage information from the given control file"), std::string::npos);
  EXPECT_EQ(merge_stats(again.err), std::make_pair(0, 0)) << again.err;
  EXPECT_EQ(files_in(dir / "out").size(), out.size());
}

TEST(LibFuzzerFrontEnd, TwoStepMergeGivesTheCoverageTheNewUnitsAdd) {
  // ClusterFuzz's two steps: the old corpus alone, then with the new units, one control
  // file; the difference of the two statistics is what fuzzing added.
  TempDir dir;
  fuzz_units(dir / "corpus", "1", "300");
  fuzz_units(dir / "new", "2", "20000");
  std::string mcf = "-merge_control_file=" + (dir / "MCF").string();
  fs::create_directories(dir / "out");
  CommandOptions unarmed{.cwd = dir.str(), .env = {"LIBFUZZER_KINDS_ARMED=none"}};
  CommandResult one =
      run({target("libfuzzer_kinds"), "-merge=1", mcf, (dir / "out").string(), (dir / "corpus").string()}, unarmed);
  ASSERT_EQ(one.exit_code, 0) << one.err;
  fs::remove_all(dir / "out");
  fs::create_directories(dir / "out");
  CommandResult two = run({target("libfuzzer_kinds"), "-merge=1", mcf, (dir / "out").string(),
                           (dir / "corpus").string(), (dir / "new").string()},
                          unarmed);
  ASSERT_EQ(two.exit_code, 0) << two.err;
  EXPECT_NE(two.err.find("reusing coverage information from the given control file"), std::string::npos) << two.err;
  auto [f1, e1] = merge_stats(one.err);
  auto [f2, e2] = merge_stats(two.err);
  EXPECT_GT(f1, 0);
  EXPECT_GT(f2, f1) << one.err << two.err;
  EXPECT_GE(e2, e1);
  // Only the new units ran in the second step.
  EXPECT_NE(two.err.find("MERGE-INNER: " + std::to_string(files_in(dir / "new").size()) + " total files"),
            std::string::npos)
      << two.err;
}

TEST(LibFuzzerFrontEnd, MinimizeCrashShrinksTheInputAndCleanseKeepsItCrashing) {
  TempDir dir;
  write_file(dir / "crash", "CRSH\x40 and a long tail that the crash does not need");
  CommandResult min = run({target("libfuzzer_kinds"), "-minimize_crash=1", "-max_total_time=60",
                           "-exact_artifact_path=" + (dir / "min").string(), (dir / "crash").string()},
                          CommandOptions{.cwd = dir.str()});
  ASSERT_EQ(min.exit_code, 0) << min.err;
  EXPECT_NE(min.err.find("CRASH_MIN: failed to minimize beyond"), std::string::npos) << min.err;
  std::string small = read_file(dir / "min");
  EXPECT_EQ(small.size(), 5u) << small;
  EXPECT_EQ(small.substr(0, 4), "CRSH");
  EXPECT_NE(run({target("libfuzzer_kinds"), (dir / "min").string()}).exit_code, 0);

  write_file(dir / "to-cleanse", "CRSH\x40xyz");
  CommandResult clean = run({target("libfuzzer_kinds"), "-cleanse_crash=1",
                             "-exact_artifact_path=" + (dir / "clean").string(), (dir / "to-cleanse").string()});
  ASSERT_EQ(clean.exit_code, 0) << clean.err;
  EXPECT_NE(clean.err.find("CLEANSE: Replaced byte 4 with 0x20"), std::string::npos) << clean.err;
  std::string cleansed = read_file(dir / "clean");
  EXPECT_EQ(cleansed.substr(0, 4), "CRSH");
  EXPECT_EQ(cleansed.substr(4), "    ");
  EXPECT_NE(run({target("libfuzzer_kinds"), (dir / "clean").string()}).exit_code, 0);

  write_file(dir / "fine", "a=1;");
  CommandResult fine = run({target("libfuzzer_kinds"), "-minimize_crash=1", "-runs=100", (dir / "fine").string()});
  EXPECT_EQ(fine.exit_code, 1);
  EXPECT_NE(fine.err.find("ERROR: the input " + (dir / "fine").string() + " did not crash"), std::string::npos);
}

int count_of(const std::string& text, const std::string& what) {
  int n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(LibFuzzerFrontEnd, JobsRunTwoWorkersAndTheirCrashIsReportedOnce) {
  FuzzTask task;
  CommandResult r = task.fuzz("CRSH", {"-jobs=2", "-workers=2"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("Running 2 workers"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("== Job 0 exited with exit code"), std::string::npos);
  EXPECT_NE(r.err.find("== Job 1 exited with exit code"), std::string::npos);
  EXPECT_EQ(count_of(r.err, "Test unit written to"), 1) << r.err;
  EXPECT_EQ(files_in(task.artifacts).size(), 1u);
  EXPECT_TRUE(fs::exists(task.dir / "fuzz-0.log"));
  EXPECT_TRUE(fs::exists(task.dir / "fuzz-1.log"));
}

TEST(LibFuzzerFrontEnd, ForkRunsTwoFuzzingProcessesAndTheirCrashIsReportedOnce) {
  {
    // Two children fuzz at once, beside the parent.
    TempDir dir;
    fs::create_directories(dir / "c");
    Background b({target("libfuzzer_kinds"), "-fork=2", "-max_total_time=4", (dir / "c").string()},
                 CommandOptions{.env = {"LIBFUZZER_KINDS_ARMED=none"}});
    std::size_t most = 0;
    for (int i = 0; i < 30; ++i) {
      most = std::max(most, processes_running(target("libfuzzer_kinds")).size());
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    CommandResult r = b.wait(std::chrono::seconds(60));
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(most, 3u);
    EXPECT_TRUE(any_line(r.err, kEngineLine)) << r.err;  // "#N: cov: ..." status lines
    EXPECT_FALSE(files_in(dir / "c").empty());
  }
  FuzzTask task;
  CommandResult r = task.fuzz("CRSH", {"-fork=2"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("INFO: -fork=2: fuzzing in separate process(s)"), std::string::npos);
  EXPECT_NE(r.err.find("INFO: log from the inner process:"), std::string::npos);
  EXPECT_EQ(count_of(r.err, "Test unit written to"), 1) << r.err;
  EXPECT_EQ(files_in(task.artifacts).size(), 1u);
  std::string path = testcase_path(r.err);
  ASSERT_FALSE(path.empty());
  EXPECT_NE(task.reproduce(path).exit_code, 0);
}

// The lines tools read from a libFuzzer log, one regular expression a kind, as libFuzzer
// prints them (FuzzerDriver.cpp, FuzzerLoop.cpp, FuzzerTracePC.cpp).
const std::vector<std::pair<std::string, std::regex>>& libfuzzer_line_kinds() {
  static const std::vector<std::pair<std::string, std::regex>> kinds = {
      {"dictionary", std::regex(R"(^Dictionary: \d+ entries$)")},
      {"seed", std::regex(R"(^INFO: Seed: \d+$)")},
      {"modules",
       std::regex(
           R"(^INFO: Loaded \d+ modules +\(\d+ inline 8-bit counters\): (\d+ \[0x[0-9a-f]+, 0x[0-9a-f]+\), )+$)")},
      {"pc tables", std::regex(R"(^INFO: Loaded \d+ PC tables \(\d+ PCs\): (\d+ \[0x[0-9a-f]+,0x[0-9a-f]+\), )+$)")},
      {"files found", std::regex(R"(^INFO: +\d+ files found in .+$)")},
      {"seed corpus", std::regex(R"(^INFO: seed corpus: files: \d+ min: \d+b max: \d+b total: \d+b rss: \d+Mb$)")},
      {"inited", std::regex(R"(^#\d+\tINITED cov: \d+ ft: \d+ corp: \d+/\d+b exec/s: \d+ rss: \d+Mb$)")},
      {"new", std::regex(R"(^#\d+\tNEW    cov: \d+ ft: \d+ corp: \d+/\d+b .*L: \d+/\d+ MS: \d+ ([A-Za-z]+-)+.*$)")},
      {"new with words", std::regex(R"(^#\d+\tNEW    .* MS: \d+ ([A-Za-z]+-)+ DE: (".*"-)+$)")},
      {"new func", std::regex(R"(^\tNEW_FUNC\[\d+/\d+\]: 0x[0-9a-f]+ in .+$)")},
      {"pulse", std::regex(R"(^#(\d+)\tpulse  cov: .*$)")},
      {"done", std::regex(R"(^#\d+\tDONE   cov: \d+ ft: \d+ corp: .*$)")},
      {"recommended dictionary", std::regex(R"(^###### Recommended dictionary\. ######$)")},
      {"recommended word", std::regex(R"(^".*" # Uses: \d+$)")},
      {"done runs", std::regex(R"(^Done \d+ runs in \d+ second\(s\)$)")},
      {"crash ms", std::regex(R"(^MS: \d+ .*; base unit: [0-9a-f]{40}$)")},
      {"crash unit", std::regex(R"(^(0x([0-9a-f]|[1-9a-f][0-9a-f]),)+$)")},  // "0x%x,": no leading zero
      {"artifact", std::regex(R"(^artifact_prefix='\./'; Test unit written to \./crash-[0-9a-f]{40}$)")},
      {"base64", std::regex(R"(^Base64: [A-Za-z0-9+/=]*$)")},
  };
  return kinds;
}

// Each kind of line `log` has, with its lines.
std::map<std::string, std::vector<std::string>> lines_by_kind(const std::string& log) {
  std::map<std::string, std::vector<std::string>> out;
  std::istringstream in(log);
  for (std::string line; std::getline(in, line);) {
    for (const auto& [kind, re] : libfuzzer_line_kinds()) {
      if (std::regex_match(line, re)) out[kind].push_back(line);
    }
  }
  return out;
}

// The number a line of `kind` starts its figures with ("Done 4 runs", "Dictionary: 2").
std::string first_number(const std::vector<std::string>& lines) {
  if (lines.empty()) return "";
  std::smatch m;
  std::regex_search(lines[0], m, std::regex(R"(\d+)"));
  return m.empty() ? "" : m.str(0);
}

// libFuzzer's build of the same harness and the cfuzz build, run the same way in the same
// kind of directory: every kind of line libFuzzer printed, cfuzz printed too, in libFuzzer's
// format; `same_figure` kinds also with the same first number.
void expect_same_line_kinds(const std::vector<std::string>& args, const std::vector<std::string>& seeds,
                            const std::set<std::string>& same_figure, const std::string& armed = "CRSH") {
  std::string libfuzzer = target("libfuzzer_kinds_libfuzzer");
  if (!fs::exists(libfuzzer)) GTEST_SKIP() << "no libFuzzer build: clang cannot link -fsanitize=fuzzer here";
  std::map<std::string, std::vector<std::string>> kinds[2];
  std::string logs[2];
  for (int i = 0; i < 2; ++i) {
    TempDir dir;
    fs::create_directories(dir / "corpus");
    for (std::size_t s = 0; s < seeds.size(); ++s) write_file(dir / "corpus" / ("seed" + std::to_string(s)), seeds[s]);
    write_file(dir / "words.dict", "kw1=\"name\"\nkw2=\"CRSH\"\n");
    std::vector<std::string> argv = {i == 0 ? libfuzzer : target("libfuzzer_kinds")};
    argv.insert(argv.end(), args.begin(), args.end());
    argv.push_back("corpus");
    logs[i] = run(argv, CommandOptions{.cwd = dir.str(), .env = {"LIBFUZZER_KINDS_ARMED=" + armed}}).err;
    kinds[i] = lines_by_kind(logs[i]);
  }
  SCOPED_TRACE("libFuzzer's log:\n" + logs[0].substr(0, 3000) + "\ncfuzz's log:\n" + logs[1].substr(0, 3000));
  EXPECT_FALSE(kinds[0].empty());
  for (const auto& [kind, lines] : kinds[0]) {
    EXPECT_TRUE(kinds[1].count(kind)) << "libFuzzer printed a line of kind '" << kind << "' (" << lines[0]
                                      << "), cfuzz none";
    if (same_figure.count(kind) && kinds[1].count(kind)) {
      EXPECT_EQ(first_number(kinds[1][kind]), first_number(lines)) << kind;
    }
  }
  // A pulse comes at a power of two, as libFuzzer's.
  for (const auto& line : kinds[1]["pulse"]) {
    std::uint64_t n = std::stoull(line.substr(1));
    EXPECT_EQ(n & (n - 1), 0u) << line;
  }
}

TEST(LibFuzzerFrontEnd, ASeedOnlyRunPrintsLibFuzzersLines) {
  expect_same_line_kinds({"-seed=1", "-runs=0"}, {"a=1;", "name=2;", "[1,2]"},
                         {"modules", "pc tables", "files found", "seed corpus", "done runs"});
}

TEST(LibFuzzerFrontEnd, AFuzzingRunWithADictionaryPrintsLibFuzzersLines) {
  // Nothing armed: the run must reach DONE, and whether 3000 runs find the crash "CRSH"
  // (a dictionary word) moves with the target's code addresses, which the comparison
  // table's sites are keyed on, so with any change to the runtime's size.
  expect_same_line_kinds({"-seed=1", "-runs=3000", "-dict=words.dict", "-max_len=64"}, {"a=1;"},
                         {"dictionary", "modules", "pc tables", "done runs"}, "none");
}

TEST(LibFuzzerFrontEnd, ACrashPrintsLibFuzzersLines) {
  // Found while fuzzing, from a seed one step away, written where libFuzzer writes by default.
  expect_same_line_kinds({"-seed=1", "-dict=words.dict", "-max_total_time=60"}, {"CRSH"}, {"modules", "pc tables"});
}

// The NEW_FUNC lines of a run (-print_funcs), and each one's text after its address.
std::vector<std::string> new_function_lines(const std::string& log) {
  static const std::regex re(R"(^\tNEW_FUNC\[\d+/\d+\]: 0x[0-9a-f]+( .*)?$)");
  std::vector<std::string> lines;
  std::istringstream in(log);
  std::smatch m;
  for (std::string line; std::getline(in, line);) {
    if (std::regex_match(line, m, re)) lines.push_back(m[1]);
  }
  return lines;
}

// Fuzzes new_functions.cc's harness from the seed "ab" in a fresh directory.
CommandResult fuzz_new_functions(const std::string& binary, std::vector<std::string> args) {
  TempDir dir;
  fs::create_directories(dir / "corpus");
  write_file(dir / "corpus" / "seed", "ab");
  write_file(dir / "words.dict", "w=\"MAGIC\\x0aWD\"\n");
  std::vector<std::string> argv = {target(binary)};
  argv.insert(argv.end(), args.begin(), args.end());
  argv.push_back("corpus");
  return run(argv, CommandOptions{.cwd = dir.str()});
}

TEST(LibFuzzerFrontEnd, AFunctionFirstReachedWhileFuzzingGetsLibFuzzersNewFuncLine) {
  // reached_by_mutation() is reached only by mutated inputs: one NEW_FUNC line names it,
  // symbolized (AddressSanitizer's symbolizer) as libFuzzer's build names it.
  CommandResult ours = fuzz_new_functions("new_functions_asan", {"-seed=1", "-runs=200000"});
  std::vector<std::string> lines = new_function_lines(ours.err);
  ASSERT_FALSE(lines.empty()) << ours.err;
  EXPECT_EQ(lines.size(), 1u) << ours.err;  // the seeds' functions are not announced
  EXPECT_NE(lines[0].find(" in (anonymous namespace)::reached_by_mutation(unsigned char const*, unsigned long) "),
            std::string::npos)
      << lines[0];
  EXPECT_TRUE(std::regex_search(lines[0], std::regex(R"(/new_functions\.cc:\d+$)"))) << lines[0];
  // Printed before the NEW line of the input that reached it, as libFuzzer prints it.
  EXPECT_TRUE(std::regex_search(ours.err, std::regex("\tNEW_FUNC\\[1/1\\]: [^\n]*\n#\\d+\tNEW    "))) << ours.err;
  std::string libfuzzer = target("new_functions_libfuzzer");
  if (fs::exists(libfuzzer)) {
    CommandResult theirs = fuzz_new_functions("new_functions_libfuzzer", {"-seed=1", "-runs=200000"});
    EXPECT_EQ(new_function_lines(theirs.err), lines) << theirs.err;
  }
  // Built without -fsanitize: clang still links its UBSan runtime into a coverage build, and
  // its symbolizer names the function too (as in a plain -fsanitize=fuzzer build).
  CommandResult plain = fuzz_new_functions("new_functions_plain", {"-seed=1", "-runs=200000"});
  EXPECT_EQ(new_function_lines(plain.err), lines) << plain.err;
  // -print_funcs=0: none.
  CommandResult none = fuzz_new_functions("new_functions_asan", {"-seed=1", "-runs=200000", "-print_funcs=0"});
  EXPECT_TRUE(new_function_lines(none.err).empty()) << none.err;
  EXPECT_NE(none.err.find("#200000\tDONE"), std::string::npos) << none.err;
}

TEST(LibFuzzerFrontEnd, ACrashFoundWithADictionaryWordNamesItOnTheCrashLine) {
  // The crash needs a word that only the dictionary holds, "MAGIC\nWD": the crash line says
  // which mutations and which word made the input ("MS: 1 ManualDict- DE: \"MAGIC\x0aWD\"-;
  // base unit: ..."), and the next line is the unit as libFuzzer prints it ("0x%x,": the
  // newline is 0xa).
  for (const std::string binary : {"new_functions_asan", "new_functions_libfuzzer"}) {
    if (!fs::exists(target(binary))) continue;
    SCOPED_TRACE(binary);
    CommandResult r = fuzz_new_functions(binary, {"-seed=1", "-dict=words.dict", "-max_total_time=120"});
    ASSERT_NE(r.exit_code, 0) << r.err;
    std::smatch m;
    ASSERT_TRUE(std::regex_search(
        r.err, m, std::regex(R"(\nMS: \d+ ([A-Za-z]+-)+ DE: ("[^\n]*"-)+; base unit: [0-9a-f]{40}\n([^\n]*)\n)")))
        << r.err;
    // cfuzz escapes as later libFuzzers do; clang 14's libFuzzer wrote octal.
    std::string word = binary == "new_functions_asan" ? R"("MAGIC\x0aWD"-)" : R"("MAGIC\012WD"-)";
    EXPECT_NE(m.str(0).find(word), std::string::npos) << m.str(0);
    EXPECT_TRUE(std::regex_match(m.str(3), std::regex(R"((0x([0-9a-f]|[1-9a-f][0-9a-f]),)+)"))) << m.str(3);
    EXPECT_NE(m.str(3).find("0x4d,0x41,0x47,0x49,0x43,0xa,0x57,0x44,"), std::string::npos) << m.str(3);
  }
}

TEST(LibFuzzerFrontEnd, TheRecommendedDictionaryIsReadBackByDict) {
  // ClusterFuzz keeps the recommended dictionary and passes it back with -dict. Its words
  // here are binary (the hash's and the input's integer comparisons): escaped \xNN, which
  // -dict reads, where octal \NNN (clang 14's libFuzzer) is refused.
  CommandResult first = fuzz_new_functions("new_functions_asan", {"-seed=1", "-runs=200000"});
  std::istringstream in(first.err);
  std::string dict;
  int words = 0;
  bool escaped = false;
  for (std::string line; std::getline(in, line);) {
    if (!std::regex_match(line, std::regex(R"(^".*" # Uses: \d+$)"))) continue;
    dict += line.substr(0, line.rfind(" # Uses:")) + "\n";
    ++words;
    escaped = escaped || line.find("\\x") != std::string::npos;
  }
  ASSERT_GT(words, 0) << first.err;
  EXPECT_TRUE(escaped) << dict;
  TempDir dir;
  write_file(dir / "recommended.dict", dict);
  CommandResult again = run({target("new_functions_asan"), "-runs=10", "-dict=" + (dir / "recommended.dict").string()});
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_NE(again.err.find("Dictionary: " + std::to_string(words) + " entries"), std::string::npos) << again.err;
}

TEST(LibFuzzerFrontEnd, AMemorySanitizerBuildFuzzesAndFindsAnUninitializedRead) {
  // From the seed "Mx", fuzzing must get to "M0", "M1" or "M3" (a read of uninitialized
  // heap memory): MemorySanitizer reports it, not the runtime's own reads of the input.
  TempDir dir;
  fs::create_directories(dir / "corpus");
  write_file(dir / "corpus" / "seed", "Mx");
  CommandResult r =
      run({target("crash_depths_msan"), "-seed=1", "-max_total_time=60", "corpus"}, CommandOptions{.cwd = dir.str()});
  EXPECT_NE(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("WARNING: MemorySanitizer: use-of-uninitialized-value"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("crash_depths.cc"), std::string::npos) << r.err;  // in the harness, not the runtime
  EXPECT_NE(r.err.find("#2\tINITED"), std::string::npos) << r.err;       // the seed ran first
  std::string path = testcase_path(r.err);
  ASSERT_FALSE(path.empty()) << r.err;
  std::string unit = read_file(dir / path);
  ASSERT_GE(unit.size(), 2u);
  EXPECT_EQ(unit[0], 'M');
  EXPECT_TRUE(unit[1] == '0' || unit[1] == '1' || unit[1] == '3') << unit;
}

}  // namespace
}  // namespace cfuzz::test
