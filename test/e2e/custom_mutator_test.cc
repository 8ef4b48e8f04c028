// libFuzzer's structure-aware contract end to end: a harness with LLVMFuzzerCustomMutator,
// LLVMFuzzerCustomCrossOver and calls to LLVMFuzzerMutate (test/targets/custom_mutator.cc),
// built with cfuzz-clang++ and fuzzed by the real cfuzz.
#include <gtest/gtest.h>

#include "test/support/test_support.h"

namespace cfuzz::test {
namespace {

namespace fs = std::filesystem;

CommandResult fuzz(const TempDir& dir, const std::string& mode, std::vector<std::string> args) {
  std::vector<std::string> argv{cfuzz(),      "run", target("custom_mutator"), "--cachedir", (dir / "cache").string(),
                                "--parallel", "1"};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<std::string> env;
  if (!mode.empty()) env.push_back("CFUZZ_TEST_MUTATOR=" + mode);
  return run(argv, {.cwd = dir.str(), .env = env});
}

TEST(CustomMutator, IsCalled) {
  // The target aborts once its custom mutator has run in the worker: cfuzz used to ignore it.
  TempDir dir;
  auto r = fuzz(dir, "called", {"--fuzztime", "20000x"});
  EXPECT_EQ(r.exit_code, 1) << r.all();
  EXPECT_NE(r.out.find("deadly signal SIGABRT"), std::string::npos) << r.all();
}

TEST(CustomMutator, CrossOverIsCalled) {
  TempDir dir;
  auto r = fuzz(dir, "crossover", {"--fuzztime", "200000x"});
  EXPECT_EQ(r.exit_code, 1) << r.all();
  EXPECT_NE(r.out.find("deadly signal SIGABRT"), std::string::npos) << r.all();
}

TEST(CustomMutator, WhatTheMutatorItselfCoversIsNotTheInputsCoverage) {
  // The harness's mutator is instrumented and branches on its seed; the target ignores its
  // input. Counted as the inputs' coverage, its branches made 14 corpus entries; now only
  // the first non-empty input is new.
  TempDir dir;
  auto r = fuzz(dir, "noisy", {"--fuzztime", "20000x", "--seed", "1"});
  EXPECT_EQ(r.exit_code, 0) << r.all();
  std::string last = r.out.substr(r.out.rfind("new interesting: ") + 17);
  EXPECT_LE(std::stoi(last), 1) << r.out;
}

TEST(CustomMutator, ASizeOverMaxSizeStopsTheRunWithAClearError) {
  TempDir dir;
  auto r = fuzz(dir, "too_long", {"--fuzztime", "20000x", "--max-len", "100", "--len-control", "0"});
  EXPECT_EQ(r.exit_code, 2) << r.all();
  EXPECT_NE(r.err.find("LLVMFuzzerCustomMutator returned 101 bytes, more than the max_size of 100 it was given"),
            std::string::npos)
      << r.all();
}

TEST(CustomMutator, ACrashInTheMutatorIsReportedAsTheMutatorsWithTheInputItWasGiven) {
  // libFuzzer writes the last executed input as the crash; that input passes the target.
  TempDir dir;
  auto r = fuzz(dir, "crashes", {"--fuzztime", "20000x"});
  EXPECT_EQ(r.exit_code, 1) << r.all();
  EXPECT_NE(r.out.find("deadly signal SIGSEGV, in the custom mutator (not in the fuzz target)"), std::string::npos)
      << r.all();
  EXPECT_NE(r.out.find("at LLVMFuzzerCustomMutator"), std::string::npos) << r.all();
  EXPECT_NE(r.out.find("The custom mutator was mutating: []byte("), std::string::npos) << r.all();
  EXPECT_NE(r.out.find("go test fuzz v1"), std::string::npos) << r.all();
  EXPECT_FALSE(fs::exists(dir / "testdata")) << "a passing input was saved as a failure";
}

TEST(CustomMutator, GetsTheRunsWholeLengthNotLengthControlsFirstLimit) {
  // The harness's mutator aborts if max_size is under the default --max-len of 4096: with
  // length control's limit of 4, a compressing mutator failed every attempt for ~10 s. (The
  // run may well find the harness's planted bug; that is not the mutator's abort.)
  TempDir dir;
  auto r = fuzz(dir, "full_length", {"--fuzztime", "20000x", "--seed", "1"});
  EXPECT_EQ(r.all().find("in the custom mutator"), std::string::npos) << r.all();
}

TEST(CustomMutator, LLVMFuzzerMutateStaysWithinMaxSize) {
  // The harness traps (SIGILL) if LLVMFuzzerMutate ever returns more than it was allowed.
  TempDir dir;
  auto r = fuzz(dir, "", {"--fuzztime", "100000x", "--max-len", "12", "--seed", "2"});
  EXPECT_EQ(r.all().find("SIGILL"), std::string::npos) << r.all();
}

TEST(CustomMutator, FindsABugBehindAChecksumAndTheSavedInputReproduces) {
  // The bug needs "FUZZ!" inside a checksummed, scrambled record: raw byte mutations break
  // the checksum; decode, LLVMFuzzerMutate (with comparison guidance), encode does not.
  TempDir dir;
  auto r = fuzz(dir, "", {"--fuzztime", "120s", "--seed", "1"});
  ASSERT_EQ(r.exit_code, 1) << r.all();
  EXPECT_NE(r.out.find("deadly signal SIGABRT"), std::string::npos) << r.all();
  auto saved = files_in(dir / "testdata/fuzz/LLVMFuzzerTestOneInput");
  ASSERT_EQ(saved.size(), 1u) << r.all();
  auto rerun = run({target("custom_mutator"), "--run", "LLVMFuzzerTestOneInput/" + saved[0].filename().string()},
                   {.cwd = dir.str()});
  EXPECT_NE(rerun.exit_code, 0) << rerun.all();
  EXPECT_NE(rerun.all().find("SIGABRT"), std::string::npos) << rerun.all();
}

TEST(TypedCustomMutator, FindsABugBehindAChecksumInOneArgumentAndSavesV1) {
  TempDir dir;
  auto r = run({cfuzz(), "run", target("typed_custom_mutator"), "--cachedir", (dir / "cache").string(), "--parallel",
                "1", "--fuzztime", "120s", "--seed", "1"},
               {.cwd = dir.str()});
  ASSERT_EQ(r.exit_code, 1) << r.all();
  EXPECT_NE(r.out.find("planted bug"), std::string::npos) << r.all();
  auto saved = files_in(dir / "testdata/fuzz/FuzzRecord");
  ASSERT_EQ(saved.size(), 1u) << r.all();
  std::string text = read_file(saved[0]);
  EXPECT_EQ(text.rfind("go test fuzz v1\nstring(", 0), 0u) << text;
  EXPECT_NE(text.find("\nint64(7)\n"), std::string::npos) << text;
  auto rerun =
      run({target("typed_custom_mutator"), "--run", "FuzzRecord/" + saved[0].filename().string()}, {.cwd = dir.str()});
  EXPECT_EQ(rerun.exit_code, 1) << rerun.all();
  EXPECT_NE(rerun.out.find("planted bug"), std::string::npos) << rerun.all();
}

TEST(TypedCustomMutator, OnAnArgumentThatIsNotBytesIsAClearError) {
  TempDir dir;
  auto seeds = run({target("typed_custom_mutator")}, {.cwd = dir.str(), .env = {"CFUZZ_TEST_MUTATOR=wrong_arg"}});
  EXPECT_EQ(seeds.exit_code, 1) << seeds.all();
  EXPECT_NE(seeds.all().find("f.custom_mutator: argument 1 is int64; a custom mutator takes []byte or string"),
            std::string::npos)
      << seeds.all();
  auto r = run(
      {cfuzz(), "run", target("typed_custom_mutator"), "--cachedir", (dir / "cache").string(), "--fuzztime", "1000x"},
      {.cwd = dir.str(), .env = {"CFUZZ_TEST_MUTATOR=wrong_arg"}});
  // A failing test body fails the run, as in the seed run (and as go test -fuzz does).
  EXPECT_EQ(r.exit_code, 1) << r.all();
  EXPECT_NE(r.out.find("--- FAIL: FuzzRecord"), std::string::npos) << r.all();
  EXPECT_NE(r.all().find("argument 1 is int64"), std::string::npos) << r.all();
}

}  // namespace
}  // namespace cfuzz::test
