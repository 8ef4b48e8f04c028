// `cfuzz run` over several fuzz tests: every test of several targets (`cfuzz run T1 T2`),
// every test of one (`--all`), or every test a `--fuzz` pattern matches. One --fuzztime is the
// whole run's budget (fuzz_rounds.h says how it is shared).
//
// It composes the one-test run rather than extending it: each test's seed corpus runs first,
// as a regression test, in a Coordinator that stops when its baseline is done; then each slice
// of each round is a Coordinator run of its own (fresh workers, the test's cache and testdata
// as a plain run has them), and what the slices report is added up per test for the summary,
// --junit and --sarif. Workers are not reused across tests of a target: a worker serves the
// one fuzz test it was started for, the test's global state would carry into another's
// executions (making a failure that the re-run command of one test cannot repeat), and a
// start costs milliseconds against slices of seconds.
#pragma once

#include "libfuzzdriver/run/run_options.h"

namespace cfuzz::driver {

// Whether the options ask for more than one fuzz test: several targets, --all, or a --fuzz
// pattern matching several tests of the one target. (One target without --fuzz or --all
// stays a one-test run, which lists the tests and exits 2 when there are several.)
bool wants_several_tests(const RunOptions& options);

// Runs `cfuzz run`: run_fuzzing (coordinator.h) for one fuzz test, the rounds for several.
// Returns 0 (every test passed), 1 (a test failed) or 2 (a test or target could not run);
// throws std::runtime_error for usage errors (exit 2).
int run_fuzz_tests(const RunOptions& options);

}  // namespace cfuzz::driver
