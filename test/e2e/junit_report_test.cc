// `cfuzz run --junit FILE`: the run's result as JUnit XML that a CI system can show. The file
// is read back with Python's XML parser (test/e2e/xml_to_json.py), so a document that is not
// well-formed fails the test, and checked against a JUnit schema (test/e2e/schemas/junit.schema.json).
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "test/support/report_files.h"
#include "test/support/test_support.h"

namespace cfuzz::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// The report, after checking it against the JUnit schema (test/e2e/schemas/junit.schema.json).
json read_junit(const fs::path& file) {
  EXPECT_EQ(junit_schema_violations(file), "");
  return read_xml(file);
}

// The only <testcase> of a one-test report.
json the_test_case(const json& doc) {
  EXPECT_EQ(doc.value("tag", ""), "testsuites");
  if (doc["children"].size() != 1 || doc["children"][0]["children"].size() != 1) {
    ADD_FAILURE() << doc.dump(2);
    return json::object();
  }
  EXPECT_EQ(doc["children"][0]["tag"], "testsuite");
  return doc["children"][0]["children"][0];
}

TEST(JUnitReport, AFailureCarriesItsMessageReproducerAndRerunCommand) {
  TempDir dir;
  fs::path report = dir / "reports/junit.xml";
  fs::create_directories(report.parent_path());
  auto r = run({cfuzz(), "run", target("failure_kinds_asan"), "--cachedir", (dir / "cache").string(), "--parallel", "1",
                "--fuzztime", "120s", "--junit", report.string()},
               {.cwd = dir.str(), .env = {"CFUZZ_TEST_FAILURE=asan"}});
  ASSERT_EQ(r.exit_code, 1) << r.all();
  json doc = read_junit(report);
  EXPECT_EQ(doc["attrib"]["tests"], "1");
  EXPECT_EQ(doc["attrib"]["failures"], "1");
  EXPECT_EQ(doc["attrib"]["errors"], "0");
  json tc = the_test_case(doc);
  EXPECT_EQ(tc["attrib"]["name"], "FuzzFailure");
  EXPECT_EQ(tc["attrib"]["classname"], target("failure_kinds_asan"));
  auto failures = children_named(tc, "failure");
  ASSERT_EQ(failures.size(), 1u) << doc.dump(2);
  const json& f = failures[0];
  EXPECT_EQ(f["attrib"]["type"], "sanitizer") << f.dump(2);
  EXPECT_NE(f["attrib"]["message"].get<std::string>().find("AddressSanitizer: heap-buffer-overflow"), std::string::npos)
      << f.dump(2);
  // The reproducer the run wrote, and the command that re-runs it, as the log prints them.
  auto saved = files_in(dir / "testdata/fuzz/FuzzFailure");
  ASSERT_EQ(saved.size(), 1u);
  std::string body = f["text"];
  EXPECT_NE(body.find(saved[0].filename().string()), std::string::npos) << body;
  std::string rerun = line_after(r.out, "To re-run:\n");
  ASSERT_FALSE(rerun.empty()) << r.out;
  while (!rerun.empty() && rerun.front() == ' ') rerun.erase(0, 1);
  EXPECT_NE(body.find(rerun), std::string::npos) << body;
  EXPECT_NE(body.find("SUMMARY: AddressSanitizer"), std::string::npos) << body;
}

TEST(JUnitReport, APassingRunIsOnePassedTestCase) {
  TempDir dir;
  fs::path report = dir / "junit.xml";
  auto r = run({cfuzz(), "run", target("exec_counter"), "--cachedir", (dir / "cache").string(), "--parallel", "1",
                "--fuzztime", "2000x", "--junit", report.string()},
               {.cwd = dir.str()});
  ASSERT_EQ(r.exit_code, 0) << r.all();
  json doc = read_junit(report);
  EXPECT_EQ(doc["attrib"]["failures"], "0");
  json tc = the_test_case(doc);
  EXPECT_EQ(tc["attrib"]["name"], "FuzzCount");
  EXPECT_TRUE(children_named(tc, "failure").empty()) << doc.dump(2);
  EXPECT_TRUE(children_named(tc, "error").empty()) << doc.dump(2);
  auto out = children_named(tc, "system-out");
  ASSERT_EQ(out.size(), 1u) << doc.dump(2);
  EXPECT_NE(out[0]["text"].get<std::string>().find("execs: "), std::string::npos);
}

TEST(JUnitReport, ARunThatCannotStartIsAnError) {
  TempDir dir;
  fs::path report = dir / "junit.xml";
  auto r = run({cfuzz(), "run", (dir / "no-such-target").string(), "--junit", report.string()}, {.cwd = dir.str()});
  EXPECT_EQ(r.exit_code, 2) << r.all();
  json doc = read_junit(report);
  EXPECT_EQ(doc["attrib"]["errors"], "1");
  json tc = the_test_case(doc);
  auto errors = children_named(tc, "error");
  ASSERT_EQ(errors.size(), 1u) << doc.dump(2);
  EXPECT_NE(errors[0]["attrib"]["message"].get<std::string>().find("no-such-target"), std::string::npos) << doc.dump(2);
}

TEST(JUnitReport, TheSchemaRejectsWhatACiSystemCouldNotRead) {
  // The check the other tests rely on, shown failing: each document breaks one rule.
  TempDir dir;
  auto violations = [&](const std::string& testcase) {
    fs::path file = dir / "broken.xml";
    write_file(file,
               "<?xml version=\"1.0\"?>\n<testsuites tests=\"1\" failures=\"0\" errors=\"0\">"
               "<testsuite name=\"./t\" tests=\"1\" failures=\"0\" errors=\"0\">" +
                   testcase + "</testsuite></testsuites>\n");
    return junit_schema_violations(file);
  };
  EXPECT_EQ(violations("<testcase classname=\"./t\" name=\"FuzzX\" time=\"1.5\"/>"), "");
  EXPECT_NE(violations("<testcase name=\"FuzzX\"/>"), "");
  EXPECT_NE(violations("<testcase classname=\"./t\" name=\"FuzzX\" time=\"1s\"/>"), "");
  EXPECT_NE(violations("<testcase classname=\"./t\" name=\"FuzzX\"><failure type=\"x\"/></testcase>"), "");
  EXPECT_NE(violations("<testcase classname=\"./t\" name=\"FuzzX\"><crash/></testcase>"), "");
  EXPECT_NE(violations("<testcase classname=\"./t\" name=\"FuzzX\">"), "") << "not well-formed";
}

}  // namespace
}  // namespace cfuzz::test
