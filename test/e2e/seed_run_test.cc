// A target run by itself runs its seeds, like `go test`: real targets built with
// cfuzz-clang++, with and without AddressSanitizer.
#include <gtest/gtest.h>

#include "test/support/test_support.h"

namespace cfuzz::test {
namespace {

// Both builds of typed_args.cc: by the compiler wrapper, and by the CMake helper (which
// bakes in its source directory, so these tests point it at theirs with --srcdir).
class SeedRun : public ::testing::TestWithParam<std::string> {
 protected:
  std::vector<std::string> cmd(const TempDir& dir, std::vector<std::string> args) {
    std::vector<std::string> argv{target(GetParam())};
    if (GetParam().starts_with("helper_")) argv.push_back("--srcdir=" + dir.str());
    argv.insert(argv.end(), args.begin(), args.end());
    return argv;
  }
};

TEST_P(SeedRun, PassingSeedsExitZero) {
  TempDir dir;  // no testdata here: only the f.add seeds run
  auto r = run(cmd(dir, {"--run", "FuzzTypedPasses"}), {.cwd = dir.str()});
  EXPECT_EQ(r.exit_code, 0) << r.all();
  EXPECT_NE(r.out.find("PASS"), std::string::npos) << r.out;
}

TEST_P(SeedRun, FailingSeedFileExitsOneWithItsNameAndMessage) {
  TempDir dir;
  write_file(dir / "testdata/fuzz/FuzzTyped/bad_combination",
             "go test fuzz v1\nstring(\"abcd\")\nint64(500)\nbool(false)\nfloat64(-1.5)\nbyte('\\t')\n");
  auto r = run(cmd(dir, {"--run", "FuzzTyped"}), {.cwd = dir.str()});
  EXPECT_EQ(r.exit_code, 1) << r.all();
  EXPECT_NE(r.out.find("--- FAIL: FuzzTyped/bad_combination"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("typed_args.cc:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("planted bug: abcd 500"), std::string::npos) << r.out;
  // The seeds from f.add passed, and are not reported.
  EXPECT_EQ(r.out.find("seed#0"), std::string::npos) << r.out;
}

TEST_P(SeedRun, RunSelectsOneTestAndOneSeed) {
  TempDir dir;
  write_file(dir / "testdata/fuzz/FuzzTyped/bad_combination",
             "go test fuzz v1\nstring(\"abcd\")\nint64(500)\nbool(false)\nfloat64(-1.5)\nbyte('\\t')\n");
  auto only_seed = run(cmd(dir, {"--run", "FuzzTyped$/seed#0", "-v"}), {.cwd = dir.str()});
  EXPECT_EQ(only_seed.exit_code, 0) << only_seed.all();
  EXPECT_NE(only_seed.out.find("=== RUN   FuzzTyped/seed#0"), std::string::npos) << only_seed.out;
  EXPECT_EQ(only_seed.out.find("bad_combination"), std::string::npos) << only_seed.out;
  EXPECT_EQ(only_seed.out.find("FuzzTypedPasses"), std::string::npos) << only_seed.out;

  auto only_file = run(cmd(dir, {"--run", "FuzzTyped/bad_combination"}), {.cwd = dir.str()});
  EXPECT_EQ(only_file.exit_code, 1) << only_file.all();

  auto other_test = run(cmd(dir, {"--run", "FuzzTypedPasses$"}), {.cwd = dir.str()});
  EXPECT_EQ(other_test.exit_code, 0) << other_test.all();
}

TEST_P(SeedRun, MalformedSeedFileExitsTwoNamingFileAndLine) {
  TempDir dir;
  write_file(dir / "testdata/fuzz/FuzzTyped/broken",
             "go test fuzz v1\nstring(\"abcd\")\nint64(500)\nbool(maybe)\nfloat64(1)\nbyte('a')\n");
  auto r = run(cmd(dir, {}), {.cwd = dir.str()});
  EXPECT_EQ(r.exit_code, 2) << r.all();
  EXPECT_NE(r.err.find("broken"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("line 4"), std::string::npos) << r.err;
}

TEST_P(SeedRun, SeedFileOfTheWrongTypesExitsTwo) {
  TempDir dir;
  write_file(dir / "testdata/fuzz/FuzzTypedPasses/wrong", "go test fuzz v1\nstring(\"x\")\n");
  auto r = run(cmd(dir, {}), {.cwd = dir.str()});
  EXPECT_EQ(r.exit_code, 2) << r.all();
  EXPECT_NE(r.err.find("wrong"), std::string::npos) << r.err;
}

TEST_P(SeedRun, ListPrintsTheFuzzTests) {
  auto r = run({target(GetParam()), "--list"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, "FuzzTyped\nFuzzTypedPasses\n");
}

TEST_P(SeedRun, SrcdirFlagPointsAtAnotherTestdata) {
  TempDir dir, elsewhere;
  write_file(elsewhere / "testdata/fuzz/FuzzTyped/bad",
             "go test fuzz v1\nstring(\"wxyz\")\nint64(101)\nbool(false)\nfloat64(-2)\nbyte('\\t')\n");
  auto r = run({target(GetParam()), "--srcdir", elsewhere.str()}, {.cwd = dir.str()});
  EXPECT_EQ(r.exit_code, 1) << r.all();
  EXPECT_NE(r.out.find("FuzzTyped/bad"), std::string::npos) << r.out;
}

TEST_P(SeedRun, UnknownFlagIsAUsageError) {
  auto r = run({target(GetParam()), "--frobnicate"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--frobnicate"), std::string::npos) << r.err;
}

INSTANTIATE_TEST_SUITE_P(Builds, SeedRun, ::testing::Values("typed_args", "helper_typed_args"));

TEST(CMakeHelperBuild, FindsTestdataInItsSourceDirectoryFromAnywhere) {
  TempDir elsewhere;
  auto r = run({target("helper_typed_args"), "-v", "--run", "FuzzTyped/known_good"}, {.cwd = elsewhere.str()});
  EXPECT_EQ(r.exit_code, 0) << r.all();
  EXPECT_NE(r.out.find("--- PASS: FuzzTyped/known_good"), std::string::npos) << r.out;
}

TEST(SeedRunCrash, CrashingSeedIsNamedBeforeTheProcessDies) {
  for (std::string t : {"failure_kinds", "failure_kinds_asan"}) {
    TempDir dir;
    write_file(dir / "testdata/fuzz/FuzzFailure/crasher", "go test fuzz v1\n[]byte(\"Xsegv\")\n");
    auto r = run({target(t)}, {.cwd = dir.str(), .env = {"CFUZZ_TEST_FAILURE=segv"}});
    EXPECT_NE(r.exit_code, 0) << t;
    EXPECT_NE(r.err.find("--- FAIL: FuzzFailure/crasher (crashed)"), std::string::npos) << t << r.all();
  }
}

TEST(SeedRunCrash, ExitFromTheTargetFailsTheSeed) {
  TempDir dir;
  write_file(dir / "testdata/fuzz/FuzzFailure/exits", "go test fuzz v1\n[]byte(\"X\")\n");
  auto r = run({target("failure_kinds")}, {.cwd = dir.str(), .env = {"CFUZZ_TEST_FAILURE=exit"}});
  EXPECT_EQ(r.exit_code, 1) << r.all();
  EXPECT_NE(r.err.find("exit(3)"), std::string::npos) << r.all();
}

TEST(SeedRunLimits, AHangingSeedFailsAtTheTimeoutAndNamesItself) {
  TempDir dir;
  write_file(dir / "testdata/fuzz/FuzzFailure/hangs", "go test fuzz v1\n[]byte(\"X\")\n");
  // (libFuzzer's spelling, -timeout=1, makes the target a libFuzzer binary instead:
  // libfuzzer_front_end_test.cc.)
  auto r = run({target("failure_kinds"), "--timeout=300ms"},
               {.cwd = dir.str(), .env = {"CFUZZ_TEST_FAILURE=hang"}, .timeout = std::chrono::seconds(30)});
  EXPECT_FALSE(r.timed_out);
  EXPECT_EQ(r.exit_code, 1) << r.all();
  EXPECT_NE(r.err.find("--- FAIL: FuzzFailure/hangs (timed out)"), std::string::npos) << r.all();
}

TEST(SeedRunLimits, MalformedLimitsAreUsageErrors) {
  for (auto flags :
       std::vector<std::vector<std::string>>{{"--timeout", "5x"}, {"--rss-limit-mb", "-5"}, {"-rss_limit_mb=lots"}}) {
    std::vector<std::string> argv{target("typed_args")};
    argv.insert(argv.end(), flags.begin(), flags.end());
    auto r = run(argv);
    EXPECT_EQ(r.exit_code, 2) << flags[0] << r.all();
    EXPECT_NE(r.err.find(flags[0]), std::string::npos) << r.err;
  }
}

TEST(LibFuzzerHarness, RunsRawFilesAsInputs) {
  TempDir dir;
  write_file(dir / "fine", "LEN:ok");
  write_file(dir / "crash", "LEN:Z!0123456789abcdef");
  auto fine = run({target("libfuzzer_harness"), (dir / "fine").string()}, CommandOptions{.cwd = dir.str()});
  EXPECT_EQ(fine.exit_code, 0) << fine.all();
  EXPECT_NE(fine.err.find("Executed " + (dir / "fine").string() + " in "), std::string::npos) << fine.err;
  auto crash = run({target("libfuzzer_harness"), (dir / "fine").string(), (dir / "crash").string()},
                   CommandOptions{.cwd = dir.str()});
  EXPECT_NE(crash.exit_code, 0);
  EXPECT_NE(crash.err.find("stack-buffer-overflow"), std::string::npos) << crash.err;
  EXPECT_NE(crash.err.find("Running: " + (dir / "crash").string()), std::string::npos) << crash.err;
  // As libFuzzer, an input given as a file is not written again as an artifact.
  EXPECT_EQ(crash.err.find("Test unit written to"), std::string::npos) << crash.err;
  EXPECT_EQ(files_in(dir.path()).size(), 2u);
}

TEST(LibFuzzerHarness, HonoursLibFuzzerFlagsOnInputFiles) {
  TempDir dir;
  write_file(dir / "fine", "LEN:ok");
  auto r = run({target("libfuzzer_harness"), "-runs=10", (dir / "fine").string()});
  EXPECT_EQ(r.exit_code, 0) << r.all();
  EXPECT_NE(r.err.find("Running 1 inputs 10 time(s) each."), std::string::npos) << r.err;
}

}  // namespace
}  // namespace cfuzz::test
