// The coordinator's side of minimization (the steps themselves are core::Minimizer, run
// inside a worker): budgets, and failures that kill the worker.
//
// Go gives up on failures that kill the process. Here the worker publishes the
// minimizer's position and the candidate before running it, so when a candidate kills the
// worker the coordinator judges it (did it fail the same way?), starts a new worker and
// resumes the minimizer right after that candidate.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/failure_record.h"
#include "corpus_format/value.h"
#include "libfuzzdriver/worker/worker.h"

namespace cfuzz::driver {

struct MinimizeLimits {
  std::optional<std::chrono::steady_clock::time_point> deadline;
  std::optional<std::uint64_t> execs;
  // Workers started again after a candidate killed one: each costs a process start, so a
  // failure that kills the worker on most candidates is bounded by this, not only by time.
  std::optional<std::uint64_t> restarts;
  // Called about once a second (and after each restart) with the best input so far,
  // executions used and workers restarted.
  std::function<void(const corpus::Entry& best, std::uint64_t execs, std::uint64_t restarts)> on_progress;
  // Checked about once a second: stop early (an interrupt) and keep the best so far.
  std::function<bool()> cancelled;
  // Where warnings go (the run's one channel, which knows --json); unset: "warning: " lines
  // on stderr.
  std::function<void(const std::string&)> warn;
};

// The default restart budget of minimizing a failing input of `bytes` bytes: proportional
// to the input, since the minimizer's candidates are: a short input whose candidates all
// crash differently would otherwise spend the whole minimization on restarts.
std::uint64_t minimize_restart_budget(std::uint64_t bytes);

struct MinimizeOutcome {
  corpus::Entry best;
  std::uint64_t execs = 0;
  std::uint64_t restarts = 0;  // workers started again after a candidate killed one
  bool complete = false;       // every step ran
  bool out_of_budget = false;  // stopped by a limit of MinimizeLimits (time, executions, restarts)
  // While minimizing coverage: a candidate failed instead. `failure` and `failing_input`
  // describe it; `best` is still the smallest input with the coverage.
  bool found_failure = false;
  core::FailureRecord failure{};
  corpus::Entry failing_input;
};

// Shrinks `input` while it fails like `target`. The worker must be running; it is
// restarted as needed and left running (or stopped, if it could not be restarted).
MinimizeOutcome minimize_failure(Worker& worker, const corpus::Entry& input, const core::FailureRecord& target,
                                 const MinimizeLimits& limits);

// Shrinks `input` while it still reaches every bit of `keep` (a coverage mask of the
// target's counters).
MinimizeOutcome minimize_coverage(Worker& worker, const corpus::Entry& input, const std::vector<std::uint8_t>& keep,
                                  const MinimizeLimits& limits);

// Runs `input` once in `worker` (restarting it first if needed) and describes how it
// failed; kind None if it passed.
struct Reproduction {
  bool ran = false;               // false: the worker could not run it at all
  core::FailureRecord failure{};  // kind None: no failure
  std::string output;             // what the target printed
};
Reproduction reproduce(Worker& worker, const corpus::Entry& input);

}  // namespace cfuzz::driver
