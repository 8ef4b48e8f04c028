// Everything `cfuzz run` can be told, with its defaults: one struct, filled by the command
// line (cmd/run_command.cc) or by a test, and passed whole to the coordinator.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/length_control.h"
#include "core/value_profile_switch.h"
#include "libfuzzdriver/util/budget.h"

namespace cfuzz::driver {

struct RunOptions {
  std::string target;  // path of the target binary (the first of `targets`)
  // Every target on the command line. Several, or `all`, or a `fuzz` that matches several
  // tests: every matching test of every target is fuzzed (multi_run.h).
  std::vector<std::string> targets;
  bool all = false;  // --all: every fuzz test of the target, not only the one `fuzz` selects
  std::string fuzz;  // regexp selecting the fuzz test; empty: the only one
  Budget fuzztime;   // unlimited: until interrupted or a failure; with several tests, the whole run's
  // Minimizing a failing input: this budget, and unless `minimize_time_given`, also at most
  // minimize_restart_budget(bytes) worker restarts (finding_handler.cc).
  Budget minimize_time = Budget{std::chrono::seconds(60), std::nullopt};
  bool minimize_time_given = false;                      // --fuzzminimizetime was on the command line
  int parallel = 0;                                      // 0: the number of CPUs
  std::chrono::milliseconds timeout{10000};              // per input
  std::uint64_t rss_limit_mb = 2048;                     // 0: no limit
  std::uint64_t worker_growth_mb = 128;                  // replace a worker grown this much (worker_growth.h)
  std::chrono::milliseconds worker_max_age{60000};       // replace a worker this old (worker_growth.h); 0: never
  std::optional<std::uint64_t> stack_limit_kb;           // none: the target's default (128 KiB for CFUZZ_TESTs)
  std::uint64_t max_len = 0;                             // 0: max(4096, largest seed value), at most 1 MiB
  std::uint64_t len_control = core::kDefaultLenControl;  // core/length_control.h; 0: the limit is max_len at once
  std::optional<std::uint64_t> seed;                     // fixes the PRNG: same seed, corpus, 1 worker = same run
  std::string cachedir;                                  // empty: the default cache location
  bool shared_cache = false;                             // the cache root may be another user's (cache_dir.h)
  std::string srcdir;                                    // where testdata/ lives; empty: as the target decides
  bool keep_fuzzing = false;                             // go on after a failure, saving each distinct one
  bool detect_leaks = true;                              // a leak is a failure (targets with LeakSanitizer)
  core::ValueProfileMode value_profile = core::ValueProfileMode::Off;  // core/value_profile_switch.h
  bool json = false;                                                   // JSON lines instead of text
  std::string junit;  // --junit: the run's result as JUnit XML to this file
  std::string sarif;  // --sarif: the run's failures as SARIF 2.1.0 to this file
  bool verbose = false;
  // --seeds-only, and multi_run.h's first slice of each test: stop when the baseline has run
  // (the corpus as a regression test), before fuzzing.
  bool seeds_only = false;
  // Set by multi_run.h for its slices: the reporter names the test in JSON events and leaves
  // the verdict to the summary.
  bool slice = false;
  std::vector<std::string> dictionaries;  // --dict files
  // --since: a git revision, or "-" for a unified diff on stdin; every fuzz test is considered
  // (as with --all) and the time goes to those reaching the change (change_focus.h).
  std::string since;
  // Set by multi_run.h for each slice under --since: one flag per counter, in a changed
  // function; corpus entries reaching one are focused (core/corpus.h).
  std::shared_ptr<const std::vector<bool>> focus;
};

}  // namespace cfuzz::driver
