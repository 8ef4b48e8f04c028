// `cfuzz run --sarif FILE`: the run's failures as SARIF 2.1.0 for code scanning. Every log
// is checked against a schema written from the specification
// (test/e2e/schemas/sarif-2.1.0-subset.schema.json) with python3-jsonschema.
#include <functional>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "test/support/report_files.h"
#include "test/support/test_support.h"

namespace cfuzz::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// The log, after checking it against the schema.
json read_sarif(const fs::path& file) {
  EXPECT_EQ(sarif_schema_violations(file), "");
  return json::parse(read_file(file));
}

// The only run's results.
json results_of(const json& log) {
  EXPECT_EQ(log["version"], "2.1.0");
  EXPECT_EQ(log["runs"].size(), 1u);
  const json& run = log["runs"][0];
  EXPECT_EQ(run["tool"]["driver"]["name"], "cfuzz");
  return run["results"];
}

std::string fingerprint_of(const json& result) { return result["partialFingerprints"]["cfuzzStack/v1"]; }

TEST(SarifReport, AFailureIsAResultAtTheHarnessLineWithItsReproducerAndRerunCommand) {
  // From the repository's root, as CI runs it from a checkout: the harness is named
  // relative to SRCROOT. The failing input goes to a directory of the test's own.
  TempDir dir;
  fs::path report = dir / "reports/cfuzz.sarif";
  fs::create_directories(report.parent_path());
  auto r = run({cfuzz(), "run", target("failure_kinds_asan"), "--cachedir", (dir / "cache").string(), "--srcdir",
                dir.str(), "--parallel", "1", "--fuzztime", "120s", "--sarif", report.string()},
               {.cwd = source_dir(), .env = {"CFUZZ_TEST_FAILURE=asan"}});
  ASSERT_EQ(r.exit_code, 1) << r.all();
  json log = read_sarif(report);
  EXPECT_EQ(log["runs"][0]["originalUriBaseIds"]["SRCROOT"]["uri"], "file://" + source_dir() + "/");
  json results = results_of(log);
  ASSERT_EQ(results.size(), 1u) << log.dump(2);
  const json& result = results[0];
  EXPECT_EQ(result["ruleId"], "heap-buffer-overflow") << result.dump(2);
  EXPECT_EQ(result["level"], "error");
  EXPECT_EQ(log["runs"][0]["tool"]["driver"]["rules"][result["ruleIndex"].get<int>()]["id"], "heap-buffer-overflow");
  std::string message = result["message"]["text"];
  EXPECT_NE(message.find("SUMMARY: AddressSanitizer: heap-buffer-overflow"), std::string::npos) << message;

  // The location: the line of the harness that reads past the end, not cfuzz's or libc's.
  const json& where = result["locations"][0]["physicalLocation"];
  EXPECT_EQ(where["artifactLocation"]["uri"], "test/targets/failure_kinds.cc") << result.dump(2);
  EXPECT_EQ(where["artifactLocation"]["uriBaseId"], "SRCROOT");
  std::string harness = read_file(fs::path(source_dir()) / "test/targets/failure_kinds.cc");
  std::vector<std::string> lines;
  for (std::size_t at = 0; at <= harness.size();) {
    std::size_t nl = harness.find('\n', at);
    lines.push_back(harness.substr(at, nl == std::string::npos ? std::string::npos : nl - at));
    at = nl == std::string::npos ? harness.size() + 1 : nl + 1;
  }
  int line = where["region"]["startLine"];
  ASSERT_GE(line, 1);
  ASSERT_LE(line, static_cast<int>(lines.size()));
  EXPECT_NE(lines[line - 1].find("p[d.size()]"), std::string::npos) << "line " << line << ": " << lines[line - 1];

  // The stack: a code flow through the harness, and the whole stack.
  ASSERT_TRUE(result.contains("codeFlows")) << result.dump(2);
  const json& flow = result["codeFlows"][0]["threadFlows"][0]["locations"];
  ASSERT_FALSE(flow.empty());
  EXPECT_EQ(flow.back()["location"]["physicalLocation"], where) << "the flow ends where the failure is";
  ASSERT_TRUE(result.contains("stacks")) << result.dump(2);
  EXPECT_GT(result["stacks"][0]["frames"].size(), flow.size()) << "cfuzz's and libc's frames are in the stack";

  // The reproducer the run wrote, outside SRCROOT here, and the command that re-runs it.
  auto saved = files_in(dir / "testdata/fuzz/FuzzFailure");
  ASSERT_EQ(saved.size(), 1u);
  ASSERT_EQ(result["attachments"].size(), 1u) << result.dump(2);
  EXPECT_EQ(result["attachments"][0]["artifactLocation"]["uri"], "file://" + saved[0].string());
  EXPECT_EQ(result["relatedLocations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            "file://" + saved[0].string());
  std::string rerun = line_after(r.out, "To re-run:\n");
  ASSERT_FALSE(rerun.empty()) << r.out;
  while (!rerun.empty() && rerun.front() == ' ') rerun.erase(0, 1);
  EXPECT_EQ(result["properties"]["rerunCommand"], rerun);
  EXPECT_NE(message.find(rerun), std::string::npos) << message;
  EXPECT_FALSE(fingerprint_of(result).empty());
}

// One run of two_bugs_asan in a directory of its own, with `seed` (if any) as a testdata
// file: its only result.
json two_bugs_result(const fs::path& dir, const std::string& seed) {
  if (!seed.empty())
    write_file(dir / "testdata/fuzz/FuzzTwoBugs/planted", "go test fuzz v1\n[]byte(\"" + seed + "\")\n");
  fs::path report = dir / "cfuzz.sarif";
  auto r = run({cfuzz(), "run", target("two_bugs_asan"), "--cachedir", (dir / "cache").string(), "--parallel", "1",
                "--fuzztime", "120s", "--sarif", report.string()},
               {.cwd = dir.string()});
  EXPECT_EQ(r.exit_code, 1) << r.all();
  json results = results_of(read_sarif(report));
  if (results.size() != 1) {
    ADD_FAILURE() << results.dump(2) << r.all();
    return json::object();
  }
  return results[0];
}

TEST(SarifReport, TheSameBugHasTheSameFingerprintInEveryRunAndAnotherBugAnother) {
  // Each bug as a failing seed, and one of them again as a fuzzing run finds it (with an
  // input of its own, minimized, unlike the seeds' "xyz"): the fingerprint follows the bug,
  // not the input, the addresses or the run.
  TempDir header_dir, body_dir, fuzz_dir;
  json header = two_bugs_result(header_dir.path(), "Hxyz");
  json body = two_bugs_result(body_dir.path(), "Bxyz");
  json found = two_bugs_result(fuzz_dir.path(), "");
  EXPECT_EQ(header["ruleId"], "heap-buffer-overflow");
  EXPECT_EQ(body["ruleId"], "heap-buffer-overflow");
  EXPECT_NE(fingerprint_of(header), fingerprint_of(body)) << header.dump(2) << body.dump(2);

  auto saved = files_in(fuzz_dir / "testdata/fuzz/FuzzTwoBugs");
  ASSERT_EQ(saved.size(), 1u);
  std::string input = read_file(saved[0]);
  bool is_header = input.find("[]byte(\"H") != std::string::npos;
  ASSERT_TRUE(is_header || input.find("[]byte(\"B") != std::string::npos) << input;
  const json& same = is_header ? header : body;
  EXPECT_EQ(fingerprint_of(found), fingerprint_of(same)) << input << found.dump(2) << same.dump(2);
  // Where each bug is: its own function's line in the harness, outside SRCROOT here.
  std::string function = is_header ? "parse_header" : "read_past_end";
  EXPECT_NE(found["locations"][0]["message"]["text"].get<std::string>().find(function), std::string::npos)
      << found.dump(2);
  EXPECT_EQ(found["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            "file://" + source_dir() + "/test/targets/two_bugs.cc");
}

TEST(SarifReport, ACleanRunIsAValidLogWithNoResults) {
  TempDir dir;
  fs::path report = dir / "cfuzz.sarif";
  auto r = run({cfuzz(), "run", target("exec_counter"), "--cachedir", (dir / "cache").string(), "--parallel", "1",
                "--fuzztime", "2000x", "--sarif", report.string()},
               {.cwd = dir.str()});
  ASSERT_EQ(r.exit_code, 0) << r.all();
  json log = read_sarif(report);
  EXPECT_TRUE(results_of(log).empty()) << log.dump(2);
  EXPECT_EQ(log["runs"][0]["invocations"][0]["executionSuccessful"], true);
}

TEST(SarifReport, AnUnwritablePathIsAOneLineErrorAndExitCode2) {
  TempDir dir;
  fs::path report = dir / "no-such-dir/cfuzz.sarif";
  auto r = run({cfuzz(), "run", target("exec_counter"), "--cachedir", (dir / "cache").string(), "--parallel", "1",
                "--fuzztime", "200x", "--sarif", report.string()},
               {.cwd = dir.str()});
  EXPECT_EQ(r.exit_code, 2) << r.all();
  std::string error = line_after(r.err, "cfuzz: --sarif ");
  EXPECT_NE(error.find(report.string() + ": the report could not be written"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(report));
}

TEST(SarifReport, TheSchemaRejectsALogThatBreaksTheSpecification) {
  // The check above can fail: the same log with a level outside the specification's set, a
  // line 0 and a run without its tool's name does not pass.
  TempDir dir;
  fs::path report = dir / "cfuzz.sarif";
  auto r = run({cfuzz(), "run", target("failure_kinds_asan"), "--cachedir", (dir / "cache").string(), "--parallel", "1",
                "--fuzztime", "120s", "--sarif", report.string()},
               {.cwd = dir.str(), .env = {"CFUZZ_TEST_FAILURE=asan"}});
  ASSERT_EQ(r.exit_code, 1) << r.all();
  json log = read_sarif(report);
  ASSERT_EQ(results_of(log).size(), 1u);
  auto broken = [&](const std::function<void(json&)>& change) {
    json copy = log;
    change(copy);
    write_file(dir / "broken.sarif", copy.dump());
    return sarif_schema_violations(dir / "broken.sarif");
  };
  EXPECT_NE(broken([](json& l) { l["runs"][0]["results"][0]["level"] = "fatal"; }), "");
  EXPECT_NE(broken([](json& l) {
              l["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] = 0;
            }),
            "");
  EXPECT_NE(broken([](json& l) { l["runs"][0]["tool"]["driver"].erase("name"); }), "");
  EXPECT_NE(broken([](json& l) { l["version"] = "2.0.0"; }), "");
  EXPECT_NE(broken([](json& l) { l["runs"][0]["results"][0]["partialFingerprints"]["cfuzzStack/v1"] = 7; }), "");
  EXPECT_NE(broken([](json& l) { l["runs"][0]["results"][0]["codeFlows"][0]["threadFlows"] = json::array(); }), "");
}

}  // namespace
}  // namespace cfuzz::test
