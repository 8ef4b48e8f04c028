// What the worker threads and the main thread of one `cfuzz run` share, under one mutex:
// the scheduler (the jobs and the execution budget), the fuzz session (corpus, mask,
// dictionary: core/fuzz_session.h) and the features kept for the next run's baseline; and
// how the run stops, with or without an error. The parts that act on what workers find
// (finding_handler.h) and run the baseline (baseline_runner.h) take this rather than the
// coordinator, so that a unit test builds one around a plain session.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/fuzz_session.h"
#include "libfuzzdriver/corpus/baseline_cache.h"
#include "libfuzzdriver/run/scheduler.h"
#include "libfuzzdriver/util/thread_safety.h"

namespace cfuzz::driver {

class RunState {
 public:
  Mutex mu;
  std::condition_variable cv;  // a job may be ready: the scheduler changed
  Scheduler scheduler CFUZZ_GUARDED_BY(mu){Scheduler::Settings{}};
  core::FuzzSession session CFUZZ_GUARDED_BY(mu){core::FuzzSession::Settings{}};
  BaselineCache baseline_cache CFUZZ_GUARDED_BY(mu);  // the features of every entry, as this binary measured them

  // Entry i of the session's corpus ran with these features: kept for the next run.
  void cache_features(std::size_t i, const std::vector<std::uint32_t>& features) CFUZZ_REQUIRES(mu);

  // The scheduler's execution budget, for work outside its jobs (minimization): what is
  // granted of `wanted`, and what of it was used; `shrinking`: the executions went to
  // shrinking a new input, and count against its share.
  std::uint64_t reserve(std::uint64_t wanted) CFUZZ_EXCLUDES(mu);
  void settle(std::uint64_t reserved, std::uint64_t used, bool shrinking = false) CFUZZ_EXCLUDES(mu);
  // Whether any execution has finished (a settle with executions used).
  bool ran_an_input() const { return ran_an_input_.load(); }

  // No new jobs; with an error (a bug, an I/O error), the first one is what the run says.
  void stop() CFUZZ_EXCLUDES(mu);
  void stop_with_error(const std::string& why) CFUZZ_EXCLUDES(mu);
  const std::string& fatal_error() const CFUZZ_REQUIRES(mu) { return fatal_error_; }

 private:
  std::string fatal_error_ CFUZZ_GUARDED_BY(mu);
  std::atomic<bool> ran_an_input_{false};
};

}  // namespace cfuzz::driver
