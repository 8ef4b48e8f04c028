// The lines a run of several fuzz tests (multi_run.h) prints of its own, around the lines of
// each slice's coordinator: which test a slice fuzzes, and one summary at the end. Text or
// JSON lines (--json), as reporter.h prints the rest.
//
//   === FUZZ  FuzzParse (./fuzz_config): round 1, 6.6s
//   --- summary: 3 fuzz tests, 20s
//   PASS  FuzzParse (./fuzz_config): execs: 120433, corpus: 31, new interesting: 12, 6.9s
//   FAIL  FuzzLoad (./fuzz_config): execs: 8012, corpus: 5, new interesting: 1, 3s
//   ERROR FuzzOther (./fuzz_other): <why it could not run>
//   FAIL
//
// Under --since, a line on the change follows the first, and each test's line says how
// many of its target's changed lines its corpus reached (or that it was not fuzzed):
//
//   --- changed since HEAD~1: 6 lines, 4 with code (in parse_header), 3 reached
//   PASS  FuzzParse (./fuzz_config): execs: 120433, ..., 6.9s, changed lines reached: 3/4
//   PASS  FuzzLoad (./fuzz_config): not fuzzed: reaches no changed function, 0.4s
#pragma once

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "libfuzzdriver/run/run_reports.h"
#include "libfuzzdriver/util/budget.h"

namespace cfuzz::driver {

// What --since changed, over all the run's targets (change_focus.h).
struct ChangeSummary {
  std::string since;                   // the flag's value
  std::size_t lines = 0;               // changed lines in the diff
  std::size_t with_code = 0;           // of those, lines where a coverage counter's block begins
  std::size_t reached = 0;             // of those, reached by some test's corpus at the end
  std::vector<std::string> functions;  // the changed functions
};

// A slice begins: `round` 0 is the seed corpus's run, before any fuzzing.
void print_slice_start(std::FILE* out, bool json, const FuzzTestResult& test, int round, const Budget& budget);

// The end of the run: a line per test and the verdict (PASS or FAIL).
// `change`: under --since, what changed and how much of it the run reached.
void print_summary(std::FILE* out, bool json, const std::vector<FuzzTestResult>& results,
                   std::chrono::nanoseconds elapsed, const ChangeSummary* change = nullptr);

}  // namespace cfuzz::driver
