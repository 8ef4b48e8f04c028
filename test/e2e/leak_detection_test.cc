// A leak that libFuzzer finds, cfuzz finds too, wherever the last copy of the leaked block's
// address was (a local, a register, a global; test/targets/leak_places.cc): while `cfuzz run`
// fuzzes, in its baseline (a seed, a cache entry), in a plain seed run, and in the libFuzzer
// front end, fuzzing and running the unit it wrote. The leak is reported once; `cfuzz run`
// minimizes and saves it, and its re-run command fails with "(leaked memory)".
#include <gtest/gtest.h>

#include "test/support/test_support.h"

namespace cfuzz::test {
namespace {

namespace fs = std::filesystem;

const std::string kTest = "LLVMFuzzerTestOneInput";
const std::string kLeakReport = "ERROR: LeakSanitizer: detected memory leaks";

std::size_t count_of(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
  return n;
}

class LeakIsFound : public ::testing::TestWithParam<std::string> {
 protected:
  CommandOptions in(const TempDir& dir) const { return {.cwd = dir.str(), .env = {"LEAK_PLACE=" + GetParam()}}; }

  CommandResult cfuzz_run(const TempDir& dir) const {
    return run({cfuzz(), "run", target("leak_places"), "--cachedir", (dir / "cache").string(), "--parallel", "1",
                "--fuzztime", "60s"},
               in(dir));
  }

  // One failure, reported once, whose input was minimized to "BUG" and saved, and whose
  // re-run command fails on it as a leak.
  void expect_saved_minimized_and_rerun_fails(const TempDir& dir, const CommandResult& r) const {
    EXPECT_EQ(r.exit_code, 1) << r.all();
    EXPECT_EQ(count_of(r.out, "--- FAIL: "), 1u) << r.all();
    EXPECT_NE(r.out.find("LeakSanitizer: detected memory leaks\n        at leak_places.cc:"), std::string::npos)
        << r.all();
    EXPECT_EQ(count_of(r.out, kLeakReport), 1u) << r.all();
    auto saved = files_in(dir / "testdata/fuzz" / kTest);
    ASSERT_EQ(saved.size(), 1u) << r.all();
    EXPECT_EQ(read_file(saved[0]), "go test fuzz v1\n[]byte(\"BUG\")\n");
    std::string name = saved[0].filename().string();
    EXPECT_NE(line_after(r.out, "Failing input written to ").find(name), std::string::npos) << r.out;

    auto rerun = run({"/bin/bash", "-c", "exec " + line_after(r.out, "To re-run:\n")}, in(dir));
    EXPECT_EQ(rerun.exit_code, 1) << rerun.all();
    EXPECT_NE(rerun.all().find("--- FAIL: " + kTest + "/" + name + " (leaked memory)"), std::string::npos)
        << rerun.all();
    EXPECT_EQ(count_of(rerun.err, kLeakReport), 1u) << rerun.all();
  }
};

TEST_P(LeakIsFound, WhileFuzzingAndIsMinimizedSavedAndReproduced) {
  TempDir dir;
  expect_saved_minimized_and_rerun_fails(dir, cfuzz_run(dir));
}

TEST_P(LeakIsFound, InACacheEntryByTheBaselineAndIsMinimizedSavedAndReproduced) {
  TempDir dir;
  write_file(dir / "cache" / kTest / "leaky", "go test fuzz v1\n[]byte(\"BUG, and more\")\n");
  auto r = cfuzz_run(dir);
  EXPECT_NE(r.out.find("minimizing a failing input of 13 bytes"), std::string::npos) << r.all();
  expect_saved_minimized_and_rerun_fails(dir, r);
}

TEST_P(LeakIsFound, InASeedByTheBaselineAndByThePlainSeedRun) {
  TempDir dir;
  write_file(dir / "testdata/fuzz" / kTest / "bug", "go test fuzz v1\n[]byte(\"BUG\")\n");
  auto r = cfuzz_run(dir);
  EXPECT_EQ(r.exit_code, 1) << r.all();
  EXPECT_EQ(count_of(r.out, "--- FAIL: "), 1u) << r.all();
  EXPECT_NE(r.out.find("failure while testing seed corpus entry: " + kTest + "/bug"), std::string::npos) << r.all();
  EXPECT_NE(r.out.find("LeakSanitizer: detected memory leaks at leak_places.cc:"), std::string::npos) << r.all();
  EXPECT_EQ(count_of(r.out, kLeakReport), 1u) << r.all();

  auto seeds = run({target("leak_places")}, in(dir));
  EXPECT_EQ(seeds.exit_code, 1) << seeds.all();
  EXPECT_NE(seeds.all().find("--- FAIL: " + kTest + "/bug (leaked memory)"), std::string::npos) << seeds.all();
  EXPECT_EQ(count_of(seeds.err, kLeakReport), 1u) << seeds.all();
}

TEST_P(LeakIsFound, ByTheLibFuzzerFrontEndFuzzingAndRunningTheUnitItWrote) {
  TempDir dir;
  fs::create_directories(dir / "corpus");
  // As libFuzzer: the leak's own report, a leak- unit, and -error_exitcode.
  auto r = run(
      {target("leak_places"), "-max_total_time=60", "-artifact_prefix=" + dir.str() + "/", (dir / "corpus").string()},
      in(dir));
  EXPECT_EQ(r.exit_code, 77) << r.err;
  EXPECT_EQ(count_of(r.err, kLeakReport), 1u) << r.err;
  std::string unit = line_after(r.err, "Test unit written to ");
  ASSERT_TRUE(fs::path(unit).filename().string().starts_with("leak-")) << r.err;
  EXPECT_EQ(read_file(unit).substr(0, 3), "BUG");

  // Run again as ClusterFuzz reproduces a unit: found as that input's leak, not at exit.
  auto again = run({target("leak_places"), "-runs=100", unit}, in(dir));
  EXPECT_EQ(again.exit_code, 77) << again.err;
  EXPECT_NE(again.err.find("Running: " + unit), std::string::npos) << again.err;
  EXPECT_EQ(count_of(again.err, kLeakReport), 1u) << again.err;
  EXPECT_NE(again.err.find("INFO: to ignore leaks on libFuzzer side use -detect_leaks=0."), std::string::npos)
      << again.err;
}

INSTANTIATE_TEST_SUITE_P(LastCopyIn, LeakIsFound, ::testing::Values("local", "register", "global"),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
}  // namespace cfuzz::test
