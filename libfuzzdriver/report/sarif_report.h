// A fuzzing run's failures as a SARIF 2.1.0 log (`cfuzz run --sarif FILE`), the findings
// format of GitHub code scanning, GitLab and SARIF viewers: one result per distinct
// failure, its rule the failure's kind, its location the innermost frame of the user's own
// code, the stack as a code flow and a stack, the saved reproducer as an attachment and a
// related location, and a fingerprint that stays the same from run to run for one bug.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "libfuzzdriver/report/reporter.h"

namespace cfuzz::driver {

// One fuzz test's part of the run.
struct SarifTest {
  std::string target;  // the target binary, as given on the command line
  std::string test;    // the fuzz test
  std::vector<FailureReport> failures;
  std::string error;  // it could not be fuzzed (exit 2): why
};

// One log for the whole `cfuzz run`, however many fuzz tests it ran.
struct SarifRun {
  std::vector<SarifTest> tests;
  // SRCROOT: files below it are named relative to it (the current directory: the project's
  // root when CI runs cfuzz from the checkout).
  std::filesystem::path root;
  std::string version;  // cfuzz's
};

// The whole log, as JSON text: one SARIF run, one result per distinct failure of any test
// (a bug that two tests reach, with one fingerprint, is one result: one alert).
std::string sarif_log(const SarifRun& run);

// The rule a failure is filed under: the sanitizer's error type ("heap-buffer-overflow",
// "leak", "data-race"), the signal ("sigsegv"), or cfuzz's kind ("timeout",
// "out-of-memory", "returned-error", "uncaught-exception", ...).
std::string failure_rule_id(const FailureReport& r);

// What tells one bug from another across runs: the rule and the names of the innermost
// three functions of the user's code (not addresses, line numbers or the input), hashed.
std::string failure_fingerprint(const FailureReport& r);

}  // namespace cfuzz::driver
