// What a run does with what its workers find (Go's coordinator, on a worker's result):
//
// - an input with new coverage is checked against the mask again (another worker may have
//   found the same meanwhile), shrunk within its share of the budget while it keeps the new
//   coverage (as Go minimizes before it keeps), admitted to the corpus, written to the
//   cache once and announced;
// - a failure is claimed (failure_log.h: the first ends the run, or each distinct one once
//   under --keepfuzzing), minimized within --fuzzminimizetime, run once more in a fresh
//   worker for a report of its own output, saved (reproducer_files.h) and reported.
//
// It asks the worker through WorkerCalls (worker_calls.h) and keeps the run's state in
// RunState (run_state.h): a unit test drives it with a fake worker and a plain session.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/corpus.h"
#include "core/failure_record.h"
#include "corpus_format/value.h"
#include "libfuzzdriver/corpus/cache_writes.h"
#include "libfuzzdriver/report/reporter.h"
#include "libfuzzdriver/run/failure_log.h"
#include "libfuzzdriver/run/reproducer_files.h"
#include "libfuzzdriver/run/run_state.h"
#include "libfuzzdriver/run/worker_calls.h"
#include "libfuzzdriver/util/budget.h"

namespace cfuzz::driver {

class FindingHandler {
 public:
  struct Settings {
    std::string test;                             // the fuzz test's name
    std::vector<std::string> shapes;              // its values' shapes, for the reports' summaries
    std::string target_path;                      // the target's absolute path, to symbolize crash sites
    std::size_t counters = 0;                     // the target's coverage counters
    std::string cache_dir;                        // where new entries are written
    Budget minimize_time;                         // --fuzzminimizetime; zero: nothing is minimized
    bool minimize_time_given = false;             // else failures are minimized within a restart budget too
    bool keep_fuzzing = false;                    // --keepfuzzing
    bool counted = false;                         // --fuzztime Nx: minimizing a failure spends the budget
    std::chrono::steady_clock::time_point start;  // the run's, for the reports' elapsed times
  };
  // Everything it writes and tells: the shared state, the reports, the cache, the
  // reproducers. `interrupted`: set by SIGINT or SIGTERM, which cut minimization short.
  // `note_known`: a new entry's name, before it is in the cache (the watcher's, so that it
  // does not take the entry for another run's).
  struct Parts {
    RunState& state;
    Reporter& reporter;
    CacheWrites& cache_writes;
    const ReproducerFiles& reproducers;
    const std::atomic<bool>& interrupted;
    std::function<void(std::string_view name)> note_known;
  };
  FindingHandler(Settings s, Parts parts) : s_(std::move(s)), p_(std::move(parts)), failures_(s_.keep_fuzzing) {}

  // The worker's last call ended with new coverage: the input in its current area, its
  // counters in its coverage; `parent`: the corpus entry that was fuzzed.
  void new_coverage(WorkerCalls& w, std::size_t parent) CFUZZ_EXCLUDES(p_.state.mu);

  // `input` failed as `failure` says, with `output`; `seed`: the corpus entry it is, when a
  // seed or testdata entry failed (reported by name, nothing written).
  void failure(WorkerCalls& w, const core::FailureRecord& failure, const corpus::Entry& input, std::string output,
               const core::CorpusEntry* seed) CFUZZ_EXCLUDES(p_.state.mu);

  // A failure of one execution of a corpus entry or a synced one: handled as above, unless
  // it is an input out of the fuzz function's domains that is no seed (the cache, after the
  // domains changed): then skipped with a warning, and false.
  bool input_failed(WorkerCalls& w, const core::FailureRecord& rec, const corpus::Entry& values,
                    const core::CorpusEntry* seed) CFUZZ_EXCLUDES(p_.state.mu);

  const FailureLog& failures() const { return failures_; }

 private:
  // Shrinks a new input while it keeps `keep`; returns false when the shrink found a
  // failure instead (handled). Otherwise `best` and `snapshot` are what joins the corpus.
  bool shrink_new_input(WorkerCalls& w, const corpus::Entry& values, const std::vector<std::uint8_t>& keep,
                        std::uint64_t budget, corpus::Entry* best, std::vector<std::uint8_t>* snapshot)
      CFUZZ_EXCLUDES(p_.state.mu);
  // Minimizes a failing input within --fuzzminimizetime, showing its progress, and says in
  // `r` how it went; returns the smallest input that still failed as `failure` did.
  corpus::Entry minimize_for_report(WorkerCalls& w, const corpus::Entry& input, const core::FailureRecord& failure,
                                    FailureReport* r) CFUZZ_EXCLUDES(p_.state.mu);
  // Runs the final input once more in a fresh worker: the report then shows its output
  // alone; returns what is saved (the original, when the minimized input did not fail again).
  corpus::Entry reproduce_for_report(WorkerCalls& w, const corpus::Entry& input, corpus::Entry best, FailureReport* r);
  void add_report(const FailureReport& r);

  Settings s_;
  Parts p_;
  FailureLog failures_;
};

}  // namespace cfuzz::driver
