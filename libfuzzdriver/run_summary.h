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
#pragma once

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "libfuzzdriver/budget.h"
#include "libfuzzdriver/run_reports.h"

namespace cfuzz::driver {

// A slice begins: `round` 0 is the seed corpus's run, before any fuzzing.
void print_slice_start(std::FILE* out, bool json, const FuzzTestResult& test, int round, const Budget& budget);

// The end of the run: a line per test and the verdict (PASS or FAIL).
void print_summary(std::FILE* out, bool json, const std::vector<FuzzTestResult>& results,
                   std::chrono::nanoseconds elapsed);

}  // namespace cfuzz::driver
