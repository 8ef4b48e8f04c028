// `cfuzz run` over several fuzz tests: several targets, --all, or a --fuzz matching several.
// One --fuzztime is shared by all; each test's seeds run first; one summary, one exit code,
// one JUnit file and one SARIF log for the whole run, both checked against their schemas.
#include <signal.h>

#include <chrono>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "test/support/report_files.h"
#include "test/support/test_support.h"

namespace cfuzz::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// The summary's "result" event of each test, by test name.
std::map<std::string, json> results_by_test(const std::vector<json>& events) {
  std::map<std::string, json> results;
  for (const auto& e : events) {
    if (e.value("event", "") == "result") results[e["test"]] = e;
  }
  return results;
}

// The <testcase> elements of a JUnit document, by name, and the <testsuite> each is in.
std::map<std::string, json> test_cases(const json& doc, std::map<std::string, std::string>* suite_of = nullptr) {
  std::map<std::string, json> cases;
  for (const auto& suite : doc["children"]) {
    for (const auto& tc : suite["children"]) {
      cases[tc["attrib"]["name"]] = tc;
      if (suite_of != nullptr) (*suite_of)[tc["attrib"]["name"]] = suite["attrib"]["name"];
    }
  }
  return cases;
}

TEST(MultiRun, EveryFuzzTestOfTwoTargetsIsFuzzedAndAPlantedBugIsInJUnitAndSarifWithItsReproducer) {
  // two_bugs_asan: one test with a shallow overflow; typed_domains: three tests that pass.
  // (The figure is a 60 s budget; 20 s shows the same, docs/cli.md has the long run.)
  TempDir dir;
  fs::path junit = dir / "reports/cfuzz.xml", sarif = dir / "reports/cfuzz.sarif";
  fs::create_directories(junit.parent_path());
  auto r =
      run({cfuzz(), "run", target("two_bugs_asan"), target("typed_domains"), "--fuzztime", "20s", "--parallel", "2",
           "--cachedir", (dir / "cache").string(), "--json", "--junit", junit.string(), "--sarif", sarif.string()},
          {.cwd = dir.str()});
  ASSERT_EQ(r.exit_code, 1) << r.all();

  // The summary: every test, the bug's failing, the others fuzzed and passing.
  std::vector<json> events = json_lines(r.out);
  auto results = results_by_test(events);
  ASSERT_EQ(results.size(), 4u) << r.out;
  EXPECT_EQ(results["FuzzTwoBugs"]["result"], "fail") << r.out;
  for (const std::string test : {"FuzzDomains", "FuzzRegexp", "FuzzMappedDomain"}) {
    EXPECT_EQ(results[test]["result"], "pass") << test << "\n" << r.all();
    EXPECT_EQ(results[test]["target"], target("typed_domains"));
    EXPECT_GT(results[test]["execs"].get<std::uint64_t>(), 0u) << test << " was not fuzzed\n" << r.out;
  }
  json done = events.back();
  EXPECT_EQ(done["event"], "done");
  EXPECT_EQ(done["tests"], 4);
  EXPECT_EQ(done["failed"], 1);
  EXPECT_LT(done["elapsed"].get<double>(), 60.0) << "20 s is the whole run's budget, not each test's";
  // The events of each slice name their test.
  json failure = last_event(r.out, "failure");
  EXPECT_EQ(failure["test"], "FuzzTwoBugs");
  EXPECT_EQ(failure["target"], target("two_bugs_asan"));
  auto saved = files_in(dir / "testdata/fuzz/FuzzTwoBugs");
  ASSERT_EQ(saved.size(), 1u);
  std::string rerun = failure["rerun"];

  // JUnit: a suite per target, a case per test, the failure with its reproducer.
  EXPECT_EQ(junit_schema_violations(junit), "");
  json doc = read_xml(junit);
  EXPECT_EQ(doc["attrib"]["tests"], "4");
  EXPECT_EQ(doc["attrib"]["failures"], "1");
  EXPECT_EQ(doc["children"].size(), 2u) << doc.dump(2);
  std::map<std::string, std::string> suite_of;
  auto cases = test_cases(doc, &suite_of);
  ASSERT_EQ(cases.size(), 4u) << doc.dump(2);
  EXPECT_EQ(suite_of["FuzzRegexp"], target("typed_domains"));
  auto failures = children_named(cases["FuzzTwoBugs"], "failure");
  ASSERT_EQ(failures.size(), 1u) << doc.dump(2);
  std::string body = failures[0]["text"];
  EXPECT_NE(body.find(saved[0].filename().string()), std::string::npos) << body;
  EXPECT_NE(body.find(rerun), std::string::npos) << body;
  for (const std::string test : {"FuzzDomains", "FuzzRegexp", "FuzzMappedDomain"}) {
    EXPECT_TRUE(children_named(cases[test], "failure").empty()) << doc.dump(2);
    EXPECT_EQ(children_named(cases[test], "system-out").size(), 1u) << doc.dump(2);
  }

  // SARIF: one log, the bug one result with the reproducer attached.
  EXPECT_EQ(sarif_schema_violations(sarif), "");
  json log = json::parse(read_file(sarif));
  ASSERT_EQ(log["runs"].size(), 1u);
  const json& sarif_results = log["runs"][0]["results"];
  ASSERT_EQ(sarif_results.size(), 1u) << log.dump(2);
  EXPECT_EQ(sarif_results[0]["ruleId"], "heap-buffer-overflow");
  EXPECT_EQ(sarif_results[0]["properties"]["fuzzTest"], "FuzzTwoBugs");
  EXPECT_EQ(sarif_results[0]["properties"]["rerunCommand"], rerun);
  EXPECT_NE(sarif_results[0]["attachments"][0]["artifactLocation"]["uri"].get<std::string>().find(
                saved[0].filename().string()),
            std::string::npos)
      << log.dump(2);
  EXPECT_EQ(log["runs"][0]["invocations"][0]["executionSuccessful"], true);
}

TEST(MultiRun, EverySeedCorpusRunsBeforeFuzzingAndAFailingSeedIsATestCaseOfItsOwn) {
  // two_bugs' testdata seed overflows: its test fails before anything is fuzzed, and the
  // other target's test still gets the budget.
  TempDir dir;
  write_file(dir / "testdata/fuzz/FuzzTwoBugs/planted", "go test fuzz v1\n[]byte(\"Hxyz\")\n");
  fs::path junit = dir / "cfuzz.xml";
  auto r = run({cfuzz(), "run", target("exec_counter"), target("two_bugs_asan"), "--fuzztime", "4s", "--parallel", "1",
                "--cachedir", (dir / "cache").string(), "--json", "--junit", junit.string()},
               {.cwd = dir.str()});
  ASSERT_EQ(r.exit_code, 1) << r.all();
  std::vector<json> events = json_lines(r.out);
  // The seed failure comes before the first fuzzing slice, though its target is the second.
  std::size_t seed_failure = events.size(), first_fuzz_slice = events.size();
  for (std::size_t i = 0; i < events.size(); ++i) {
    if (events[i]["event"] == "failure" && seed_failure == events.size()) seed_failure = i;
    if (events[i]["event"] == "slice" && events[i]["round"] != 0 && first_fuzz_slice == events.size())
      first_fuzz_slice = i;
  }
  ASSERT_LT(seed_failure, events.size()) << r.out;
  EXPECT_EQ(events[seed_failure]["seed"], "planted");
  EXPECT_LT(seed_failure, first_fuzz_slice) << r.out;
  auto results = results_by_test(events);
  EXPECT_EQ(results["FuzzTwoBugs"]["result"], "fail");
  EXPECT_EQ(results["FuzzCount"]["result"], "pass");
  EXPECT_GT(results["FuzzCount"]["execs"].get<std::uint64_t>(), 0u) << r.out;

  EXPECT_EQ(junit_schema_violations(junit), "");
  auto cases = test_cases(read_xml(junit));
  ASSERT_EQ(cases.count("FuzzTwoBugs/planted"), 1u) << read_file(junit);
  auto failures = children_named(cases["FuzzTwoBugs/planted"], "failure");
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_NE(failures[0]["attrib"]["message"].get<std::string>().find("seed corpus entry planted"), std::string::npos);
  EXPECT_EQ(children_named(cases["FuzzTwoBugs"], "failure").size(), 1u);
  EXPECT_TRUE(children_named(cases["FuzzCount"], "failure").empty());
}

// --seeds-only: the corpus as regression tests, in workers, with the CI's reports, and no
// fuzzing; for one test or several, with no --fuzztime.
TEST(MultiRun, SeedsOnlyRunsTheCorpusOnceAndReportsAFailingSeedWithoutFuzzing) {
  TempDir dir;
  write_file(dir / "testdata/fuzz/FuzzTwoBugs/planted", "go test fuzz v1\n[]byte(\"Hxyz\")\n");
  fs::path junit = dir / "cfuzz.xml", sarif = dir / "cfuzz.sarif";
  auto one = run({cfuzz(), "run", target("two_bugs_asan"), "--seeds-only", "--cachedir", (dir / "cache").string(),
                  "--junit", junit.string(), "--sarif", sarif.string()},
                 {.cwd = dir.str()});
  ASSERT_EQ(one.exit_code, 1) << one.all();
  EXPECT_EQ(one.out.find("now fuzzing"), std::string::npos) << one.out;
  EXPECT_EQ(junit_schema_violations(junit), "");
  EXPECT_EQ(sarif_schema_violations(sarif), "");
  auto cases = test_cases(read_xml(junit));
  ASSERT_EQ(cases.count("FuzzTwoBugs/planted"), 1u) << read_file(junit);
  EXPECT_EQ(children_named(cases["FuzzTwoBugs/planted"], "failure").size(), 1u);
  json log = json::parse(read_file(sarif));
  EXPECT_EQ(log["runs"][0]["results"].size(), 1u) << log.dump(1);

  // Two targets, four tests, no budget: every seed corpus runs once and all pass.
  fs::remove_all(dir / "testdata");
  auto several = run({cfuzz(), "run", target("exec_counter"), target("typed_domains"), "--seeds-only", "--json",
                      "--cachedir", (dir / "cache2").string(), "--junit", junit.string()},
                     {.cwd = dir.str()});
  ASSERT_EQ(several.exit_code, 0) << several.all();
  std::vector<json> events = json_lines(several.out);
  for (const auto& e : events) EXPECT_NE(e.value("event", ""), "fuzzing") << e.dump();
  auto results = results_by_test(events);
  EXPECT_EQ(results.size(), 4u) << several.out;
  for (const auto& [name, result] : results) EXPECT_EQ(result["result"], "pass") << name;
  EXPECT_EQ(test_cases(read_xml(junit)).size(), 4u) << read_file(junit);
}

TEST(MultiRun, OneTargetWithSeveralTestsNeedsAllOrAPatternMatchingThem) {
  TempDir dir;
  auto alone =
      run({cfuzz(), "run", target("typed_domains"), "--fuzztime", "2s", "--cachedir", (dir / "cache").string()},
          {.cwd = dir.str()});
  EXPECT_EQ(alone.exit_code, 2) << alone.all();
  EXPECT_NE(
      alone.err.find("[FuzzDomains FuzzRegexp FuzzMappedDomain]; choose one with --fuzz, or fuzz them all with --all"),
      std::string::npos)
      << alone.all();

  // "Domain" matches two of the three.
  auto matching = run({cfuzz(), "run", target("typed_domains"), "--fuzz", "Domain", "--fuzztime", "3s", "--parallel",
                       "1", "--cachedir", (dir / "cache").string()},
                      {.cwd = dir.str()});
  EXPECT_EQ(matching.exit_code, 0) << matching.all();
  EXPECT_NE(matching.out.find("--- summary: 2 fuzz tests"), std::string::npos) << matching.out;
  EXPECT_NE(matching.out.find("PASS  FuzzDomains (" + target("typed_domains") + "): execs: "), std::string::npos)
      << matching.out;
  EXPECT_NE(matching.out.find("PASS  FuzzMappedDomain ("), std::string::npos) << matching.out;
  EXPECT_EQ(matching.out.find("FuzzRegexp"), std::string::npos) << matching.out;
  EXPECT_TRUE(matching.out.ends_with("\nPASS\n")) << matching.out;

  auto all = run({cfuzz(), "run", target("typed_domains"), "--all", "--fuzztime", "3s", "--parallel", "1", "--cachedir",
                  (dir / "cache").string()},
                 {.cwd = dir.str()});
  EXPECT_EQ(all.exit_code, 0) << all.all();
  EXPECT_NE(all.out.find("--- summary: 3 fuzz tests"), std::string::npos) << all.out;
}

TEST(MultiRun, SeveralTestsNeedABudgetToShare) {
  TempDir dir;
  fs::path junit = dir / "cfuzz.xml";
  auto r = run({cfuzz(), "run", target("exec_counter"), target("two_bugs_asan"), "--junit", junit.string()},
               {.cwd = dir.str()});
  EXPECT_EQ(r.exit_code, 2) << r.all();
  EXPECT_NE(r.err.find("fuzzing several fuzz tests needs --fuzztime"), std::string::npos) << r.all();
  EXPECT_EQ(junit_schema_violations(junit), "") << "the error is in the report too";
}

TEST(MultiRun, ATargetThatCannotRunIsAnErrorAndTheOthersStillRun) {
  TempDir dir;
  auto r = run({cfuzz(), "run", (dir / "no-such-target").string(), target("exec_counter"), "--fuzztime", "2s",
                "--parallel", "1", "--cachedir", (dir / "cache").string()},
               {.cwd = dir.str()});
  EXPECT_EQ(r.exit_code, 2) << r.all();
  EXPECT_NE(r.out.find("ERROR fuzz (" + (dir / "no-such-target").string() + "): "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("PASS  FuzzCount (" + target("exec_counter") + "): execs: "), std::string::npos) << r.out;
  EXPECT_TRUE(r.out.ends_with("\nFAIL\n")) << r.out;
}

TEST(MultiRun, AnInterruptStopsTheWholeRunWithItsSummary) {
  TempDir dir;
  Background bg({cfuzz(), "run", target("exec_counter"), target("typed_domains"), "--fuzztime", "120s", "--parallel",
                 "1", "--cachedir", (dir / "cache").string()},
                {.cwd = dir.str()});
  ASSERT_TRUE(bg.wait_for_output("=== FUZZ  FuzzDomains", std::chrono::seconds(120))) << bg.out_so_far();
  bg.signal(SIGINT);
  auto r = bg.wait(std::chrono::seconds(60));
  EXPECT_EQ(r.exit_code, 0) << r.all();
  EXPECT_EQ(r.out.find("=== FUZZ  FuzzRegexp"), std::string::npos) << "no slice after the interrupt\n" << r.out;
  EXPECT_NE(r.out.find("--- summary: 4 fuzz tests"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("PASS  FuzzRegexp (" + target("typed_domains") + "): not fuzzed"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace cfuzz::test
