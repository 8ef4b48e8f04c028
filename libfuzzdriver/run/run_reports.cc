#include "libfuzzdriver/run/run_reports.h"

#include <cstdio>
#include <filesystem>
#include <stdexcept>

#include "libfuzzdriver/report/junit_report.h"
#include "libfuzzdriver/report/sarif_report.h"
#include "libfuzzdriver/util/file_io.h"

namespace cfuzz::driver {

namespace {

// A test case per fuzz test, and one more per failing seed (named Test/seed, as go test names
// the subtest), so that a CI page lists the broken seed as a failed test of its own.
std::vector<JUnitTestCase> junit_cases(const std::vector<FuzzTestResult>& results) {
  std::vector<JUnitTestCase> cases;
  for (const auto& r : results) {
    JUnitTestCase tc;
    tc.classname = r.target;
    tc.name = r.test;
    tc.time = r.time;
    tc.failures = r.failures;
    tc.error = r.error;
    if (r.finished) {
      tc.system_out = "execs: " + std::to_string(r.execs) + ", new interesting: " + std::to_string(r.new_interesting) +
                      " (total: " + std::to_string(r.corpus) + ")\n";
    }
    cases.push_back(std::move(tc));
    for (const auto& f : r.failures) {
      if (!f.seed) continue;
      JUnitTestCase seed;
      seed.classname = r.target;
      seed.name = r.test + "/" + f.seed_name;
      seed.failures = {f};
      cases.push_back(std::move(seed));
    }
  }
  return cases;
}

// Files are named relative to the current directory (the checkout, when CI runs cfuzz there).
SarifRun sarif_run(const std::vector<FuzzTestResult>& results) {
  SarifRun run;
  for (const auto& r : results) run.tests.push_back(SarifTest{r.target, r.test, r.failures, r.error});
  std::error_code ec;
  run.root = std::filesystem::current_path(ec);
  run.version = CFUZZ_VERSION;
  return run;
}

bool write_report(const std::string& flag, const std::string& path, const std::string& text) {
  try {
    write_file_atomic(path, text);
    return true;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cfuzz: %s %s: the report could not be written: %s\n", flag.c_str(), path.c_str(), e.what());
    return false;
  }
}

}  // namespace

bool write_reports(const RunOptions& options, const std::vector<FuzzTestResult>& results) {
  bool written = true;
  if (!options.junit.empty()) written = write_report("--junit", options.junit, junit_xml(junit_cases(results)));
  if (!options.sarif.empty()) {
    written = write_report("--sarif", options.sarif, sarif_log(sarif_run(results))) && written;
  }
  return written;
}

}  // namespace cfuzz::driver
