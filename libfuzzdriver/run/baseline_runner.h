// The entries that run once rather than being fuzzed, and whose coverage goes into the
// mask. The baseline: before fuzzing, every corpus entry the last run of this binary did
// not measure, in batches (core/exec_batch.h), one call per batch, the scheduler saying
// which entries and how many at a time; an entry too big for the batch area runs alone.
// And the entries other runs wrote to the shared cache, each kept only for coverage this
// run lacks.
//
// What a worker says of a batch is checked before it is used (a target may write over
// shared memory or the pipe): what is not accounted for runs again, a failing entry is a
// finding (finding_handler.h; a failing seed or testdata entry ends the run with its name),
// and a worker lost to something else is the coordinator's to restart.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/corpus.h"
#include "corpus_format/value.h"
#include "libfuzzdriver/run/finding_handler.h"
#include "libfuzzdriver/run/run_state.h"
#include "libfuzzdriver/run/scheduler.h"
#include "libfuzzdriver/run/worker_calls.h"

namespace cfuzz::driver {

class BaselineRunner {
 public:
  // A worker that died or broke down for a reason that is no input's fault: `why`.
  using LostWorker = std::function<void(WorkerCalls& w, const std::string& why)>;
  // `counters`: the target's, past which no feature is believed.
  BaselineRunner(RunState& state, FindingHandler& findings, std::size_t counters, LostWorker lost)
      : state_(state), findings_(findings), counters_(counters), lost_(std::move(lost)) {}

  // A Baseline job: its entries run, in one batch if they fit.
  void run(WorkerCalls& w, const Job& job) CFUZZ_EXCLUDES(state_.mu);
  // A Sync job: another run's entry runs once, and is kept if it adds coverage. One that
  // fails here (a flaky failure, a target that changed under the same path) is a finding
  // of this run's as any other.
  void run_synced(WorkerCalls& w, const Job& job) CFUZZ_EXCLUDES(state_.mu);

 private:
  // One execution of `values`. Passed leaves the coverage in the worker's; Lost: the
  // worker died of something else and is being restarted.
  enum class OnceResult { Passed, Failed, Lost, OutOfDomain };
  OnceResult run_once(WorkerCalls& w, const Job& job, const corpus::Entry& values, const core::CorpusEntry* as_seed)
      CFUZZ_EXCLUDES(state_.mu);
  // An entry too big for the batch area, on its own.
  void run_alone(WorkerCalls& w, const Job& job, std::size_t index, const core::CorpusEntry& entry)
      CFUZZ_EXCLUDES(state_.mu);
  // A baseline entry ran and passed with these features.
  void passed(std::size_t index, const std::vector<std::uint32_t>& features) CFUZZ_REQUIRES(state_.mu);

  RunState& state_;
  FindingHandler& findings_;
  std::size_t counters_;
  LostWorker lost_;
};

}  // namespace cfuzz::driver
