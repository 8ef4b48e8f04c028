// The files `cfuzz run` writes at its end for CI (--junit, --sarif), from what each fuzz test
// it ran came to: one test for a plain run, every test of every target for a run of several
// (multi_run.h).
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "libfuzzdriver/report/reporter.h"
#include "libfuzzdriver/run/run_options.h"

namespace cfuzz::driver {

// One fuzz test's part of the run, over all its slices.
struct FuzzTestResult {
  std::string target;  // as given on the command line
  std::string test;    // the fuzz test; for a target that could not be described, the pattern or "fuzz"
  std::vector<FailureReport> failures;
  std::string error;  // it could not be run (exit 2): why
  std::chrono::nanoseconds time{};
  bool finished = false;  // some slice ran to its end and counted what it did
  std::uint64_t execs = 0, new_interesting = 0, corpus = 0;
  // Under --since (change_focus.h).
  struct ChangeReach {
    bool reaches_function = false;  // its corpus reached a changed function after its seeds
    bool skipped = false;           // so it was not fuzzed: it reaches none, and others do
    std::size_t lines = 0;          // changed lines with code in its target
    std::size_t lines_reached = 0;  // of those, reached by its corpus at the end
  };
  std::optional<ChangeReach> change;

  bool failed() const { return !failures.empty(); }
};

// Writes the files the options ask for. False if one could not be written (said on stderr);
// the caller decides what that does to the exit code.
bool write_reports(const RunOptions& options, const std::vector<FuzzTestResult>& results);

}  // namespace cfuzz::driver
