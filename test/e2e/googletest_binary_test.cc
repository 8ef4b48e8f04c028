// A GoogleTest binary with ordinary TESTs and a CFUZZ_TEST (test/targets/gtest_fuzz_tests.cc,
// built with cfuzz_add_fuzz_test(... GTEST)): GoogleTest lists and runs both kinds, a failing
// seed fails its test, and cfuzz run fuzzes the same binary.
#include <gtest/gtest.h>

#include "test/support/test_support.h"

namespace cfuzz::test {
namespace {

TEST(GoogleTestBinary, ListsOrdinaryTestsAndTheFuzzTestsSeedRuns) {
  auto r = run({target("gtest_fuzz_tests"), "--gtest_list_tests"});
  EXPECT_EQ(r.exit_code, 0) << r.all();
  EXPECT_NE(r.out.find("Expand.\n  RepeatsEachByte\n  IgnoresAnOddLastByte\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("CfuzzSeeds.\n  FuzzExpand\n"), std::string::npos) << r.out;
}

TEST(GoogleTestBinary, RunsBothKindsAndAFailingSeedFailsItsTestOnly) {
  TempDir dir;
  auto pass = run({target("gtest_fuzz_tests")}, {.cwd = dir.str()});
  EXPECT_EQ(pass.exit_code, 0) << pass.all();
  EXPECT_NE(pass.out.find("[  PASSED  ] 3 tests."), std::string::npos) << pass.all();

  auto fail = run({target("gtest_fuzz_tests")},
                  {.cwd = dir.str(), .env = {"CFUZZ_TEST_FAILING_SEED=1", "CFUZZ_TEST_PLANTED=1"}});
  EXPECT_EQ(fail.exit_code, 1) << fail.all();
  EXPECT_NE(fail.out.find("[  PASSED  ] 2 tests."), std::string::npos) << fail.all();
  EXPECT_NE(fail.out.find("[  FAILED  ] CfuzzSeeds.FuzzExpand"), std::string::npos) << fail.all();
  EXPECT_NE(fail.out.find("planted bug: Q!!!"), std::string::npos) << fail.all();
}

TEST(GoogleTestBinary, CfuzzRunFuzzesItAndItsReproducerFailsAgain) {
  TempDir dir;
  auto r = run({cfuzz(), "run", target("gtest_fuzz_tests"), "--srcdir", dir.str(), "--cachedir",
                (dir / "cache").string(), "--parallel", "1", "--seed", "1", "--fuzztime", "120s"},
               {.cwd = dir.str(), .env = {"CFUZZ_TEST_PLANTED=1"}});
  ASSERT_EQ(r.exit_code, 1) << r.all();
  EXPECT_NE(r.out.find("planted bug"), std::string::npos) << r.all();
  auto saved = files_in(dir / "testdata/fuzz/FuzzExpand");
  ASSERT_EQ(saved.size(), 1u) << r.all();
  auto rerun =
      run({target("gtest_fuzz_tests"), "--srcdir", dir.str(), "--run", "FuzzExpand/" + saved[0].filename().string()},
          {.cwd = dir.str(), .env = {"CFUZZ_TEST_PLANTED=1"}});
  EXPECT_EQ(rerun.exit_code, 1) << rerun.all();
  EXPECT_NE(rerun.out.find("--- FAIL: FuzzExpand/" + saved[0].filename().string()), std::string::npos) << rerun.all();
  EXPECT_EQ(rerun.out.find("[=========="), std::string::npos) << "the re-run ran GoogleTest's tests too";
}

}  // namespace
}  // namespace cfuzz::test
