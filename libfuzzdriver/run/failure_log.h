// The failures of one `cfuzz run`: which worker handles a failure it found (the first one
// ends the run; with --keepfuzzing, each distinct failure is handled once and the run goes
// on), the reports, and the failing inputs being minimized now, for the progress line.
// Safe from any thread; worker threads claim and add, the main thread reads.
#pragma once

#include <cstddef>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "core/failure_record.h"
#include "libfuzzdriver/report/reporter.h"
#include "libfuzzdriver/util/thread_safety.h"

namespace cfuzz::driver {

class FailureLog {
 public:
  explicit FailureLog(bool keep_fuzzing) : keep_fuzzing_(keep_fuzzing) {}

  // A worker found `failure` (`seed`: in a seed or testdata entry). Whether this worker
  // handles it: false when another worker's failure already ends the run, or, with
  // --keepfuzzing, when a failure of the same signature was handled. A failing seed always
  // ends the run, as in Go.
  struct Claim {
    bool handle = false;
    bool ends_run = false;  // the run stops: no new jobs
  };
  Claim claim(const core::FailureRecord& failure, bool seed) CFUZZ_EXCLUDES(mu_);

  void add(const FailureReport& r) CFUZZ_EXCLUDES(mu_);
  std::size_t size() const CFUZZ_EXCLUDES(mu_);

  // Worker `worker` is minimizing a failing input, this far; done() when it stopped.
  void minimizing(std::size_t worker, const MinimizeProgress& p) CFUZZ_EXCLUDES(mu_);
  void done_minimizing(std::size_t worker) CFUZZ_EXCLUDES(mu_);
  std::vector<MinimizeProgress> minimizing_now() const CFUZZ_EXCLUDES(mu_);

 private:
  const bool keep_fuzzing_;
  mutable Mutex mu_;
  bool run_ended_ CFUZZ_GUARDED_BY(mu_) = false;            // a worker handles the failure that ends the run
  std::set<std::string> signatures_ CFUZZ_GUARDED_BY(mu_);  // --keepfuzzing: those handled
  std::vector<FailureReport> reports_ CFUZZ_GUARDED_BY(mu_);
  std::map<std::size_t, MinimizeProgress> minimizing_ CFUZZ_GUARDED_BY(mu_);  // by worker index
};

}  // namespace cfuzz::driver
