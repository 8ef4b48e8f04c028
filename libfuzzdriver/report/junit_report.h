// The result of a fuzzing run as JUnit XML (`cfuzz run --junit FILE`), the test-report
// format that GitLab, Jenkins, Azure Pipelines, CircleCI and GitHub's report actions display:
// one <testsuite> per target, a <testcase> per fuzz test (and per failing seed), a <failure>
// per failing input with the failure's message, the sanitizer's summary, the reproducer's
// path and the command that re-runs it.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "libfuzzdriver/report/reporter.h"

namespace cfuzz::driver {

struct JUnitTestCase {
  std::string classname;  // the target binary, as given on the command line
  std::string name;       // the fuzz test
  std::chrono::nanoseconds time{};
  std::vector<FailureReport> failures;  // empty: passed
  std::string error;                    // the run could not be carried out (exit 2): why
  std::string system_out;               // the run's summary line ("execs: ..., new interesting: ...")
};

// The whole document, XML 1.0 (consecutive cases of one classname share a <testsuite>): text is escaped, and the bytes
// XML cannot carry (control characters, as in a sanitizer's coloured output, and invalid UTF-8) are replaced.
std::string junit_xml(const std::vector<JUnitTestCase>& cases);

}  // namespace cfuzz::driver
