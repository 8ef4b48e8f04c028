// What a worker thread of `cfuzz run` does next: the baseline (every corpus entry the last
// run of this binary did not measure runs once, in batches), entries other runs wrote to
// the shared cache, then fuzz calls; the execution budget of `--fuzztime Nx`, kept exact
// by reserving every execution before it is asked for and settling it after; and how much
// of the run goes to shrinking new inputs and to the input-to-state stage (the search
// itself, what each fuzz call does, is the fuzz session's: core/fuzz_session.h).
//
// A plain state machine: it takes no lock and knows no worker. The coordinator holds it
// under its mutex, with the session it plans calls from, so that a test can drive it alone.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/fuzz_call_plan.h"
#include "core/fuzz_session.h"
#include "libfuzzdriver/corpus/cache_dir.h"

namespace cfuzz::driver {

// One unit of work for a worker thread.
struct Job {
  enum class Kind { Stop, Baseline, Fuzz, Sync } kind = Kind::Stop;
  std::uint64_t limit = 0;                    // executions reserved for this job
  core::FuzzCall call;                        // Fuzz: from the session, its limit `limit`
  std::shared_ptr<const CachedEntry> synced;  // Sync: an entry another run wrote
  std::vector<std::size_t> batch;             // Baseline: the entries to run
};

class Scheduler {
 public:
  struct Settings {
    int workers = 1;
    std::optional<std::uint64_t> exec_budget;  // --fuzztime Nx; none: unlimited
    bool seeded = false;                       // a fixed --seed (with exec_budget: count-bounded calls)
  };
  explicit Scheduler(Settings s);

  // The baseline covers `total` entries, of which those in `queue` still have to run (the
  // others were measured by an earlier run of this binary).
  void plan_baseline(std::size_t total, std::vector<std::size_t> queue);

  // What to do next. `Wait`: nothing for now (other workers hold the rest of the baseline,
  // or the budget is reserved by calls still running): ask again after a wait.
  // `BeginFuzzing`: the baseline just ended, once per run; the caller makes sure the
  // session's corpus is not empty and asks again.
  enum class Step { Job, Wait, BeginFuzzing };
  Step next(core::FuzzSession& session, Job* job);

  // The budget: executions granted out of `wanted` (fewer near the end of a counted run).
  std::uint64_t reserve(std::uint64_t wanted);
  // `used` of the `reserved` executions ran; a counted run stops when they are all used.
  void settle(std::uint64_t reserved, std::uint64_t used);

  // Baseline results: entries that passed or failed (done), and entries to run again.
  void baseline_ran(std::size_t entries) { baseline_done_ += entries; }
  void run_again(const std::size_t* first, const std::size_t* last) { retry_.insert(retry_.end(), first, last); }

  // Entries other runs wrote: taken only once fuzzing began, and only when the last lot ran.
  bool takes_synced_entries() const { return fuzzing_ && !stop_ && pending_sync_.empty(); }
  void add_synced(std::shared_ptr<const CachedEntry> e) { pending_sync_.push_back(std::move(e)); }

  void stop() { stop_ = true; }
  bool stopped() const { return stop_; }
  bool fuzzing() const { return fuzzing_; }
  std::size_t baseline_total() const { return baseline_total_; }
  std::size_t baseline_done() const { return baseline_done_; }
  std::uint64_t execs_done() const { return execs_done_; }

 private:
  // Executions not yet done or reserved under a counted budget; unlimited: UINT64_MAX.
  std::uint64_t budget_left() const;
  bool baseline_queued() const { return !retry_.empty() || queue_next_ < queue_.size(); }
  bool repeatable() const { return core::repeatable_calls(settings_.seeded, settings_.exec_budget.has_value()); }
  Job baseline_batch(std::uint64_t budget);

  Settings settings_;
  std::size_t baseline_total_ = 0, baseline_done_ = 0;
  std::vector<std::size_t> queue_;  // the entries the baseline runs, in order
  std::size_t queue_next_ = 0;
  std::vector<std::size_t> retry_;  // entries to run again (a lost worker, a failure in a batch)
  bool fuzzing_ = false;
  std::uint64_t execs_done_ = 0, execs_reserved_ = 0;
  std::vector<std::shared_ptr<const CachedEntry>> pending_sync_;  // found in the cache, not yet run
  bool stop_ = false;                                             // no new jobs
};

}  // namespace cfuzz::driver
