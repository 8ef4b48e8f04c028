// What a worker thread of `cfuzz run` does next: the baseline (every corpus entry the last
// run of this binary did not measure runs once, in batches), entries other runs wrote to
// the shared cache, then fuzz calls; the execution budget of `--fuzztime Nx`, kept exact
// by reserving every execution before it is asked for and settling it after; and how much
// of the run goes to shrinking new inputs and to the input-to-state stage.
//
// A plain state machine: it takes no lock and knows no worker. The coordinator holds it
// under its mutex, with the corpus it plans calls over, so that a test can drive it alone.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/corpus.h"
#include "core/fuzz_call_plan.h"
#include "core/length_control.h"
#include "core/pcg.h"
#include "libfuzzdriver/cache_dir.h"

namespace cfuzz::driver {

// One unit of work for a worker thread.
struct Job {
  enum class Kind { Stop, Baseline, Fuzz, Sync } kind = Kind::Stop;
  std::uint64_t limit = 0;  // executions reserved for this job
  // Fuzz: the call's plan (core/fuzz_call_plan.h) and the length control's limit.
  std::size_t entry = 0;
  std::size_t splice = 0;
  std::uint64_t seed = 0;
  std::uint64_t deadline_ms = 0;
  std::uint64_t input_to_state = 0;       // candidates to try first
  std::uint64_t input_to_state_from = 0;  // from this one
  std::uint64_t max_len = 0;
  std::shared_ptr<const std::vector<std::string>> dictionary;  // hex words, set by the coordinator
  std::shared_ptr<const CachedEntry> synced;                   // Sync: an entry another run wrote
  std::vector<std::size_t> batch;                              // Baseline: the entries to run
};

class Scheduler {
 public:
  struct Settings {
    int workers = 1;
    std::optional<std::uint64_t> exec_budget;  // --fuzztime Nx; none: unlimited
    bool seeded = false;                       // a fixed --seed (with exec_budget: count-bounded calls)
    std::uint64_t master_seed = 0;
    core::LengthControl length{0, 0, 0};
  };
  explicit Scheduler(Settings s);

  // The baseline covers `total` entries, of which those in `queue` still have to run (the
  // others were measured by an earlier run of this binary).
  void plan_baseline(std::size_t total, std::vector<std::size_t> queue);

  // What to do next. `Wait`: nothing for now (other workers hold the rest of the baseline,
  // or the budget is reserved by calls still running): ask again after a wait.
  // `BeginFuzzing`: the baseline just ended, once per run; the caller makes sure the
  // corpus is not empty and asks again.
  enum class Step { Job, Wait, BeginFuzzing };
  Step next(core::Corpus& corpus, Job* job);

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

  // Executions the next shrink of an input with new coverage may use (0: keep it as found),
  // and what one used.
  std::uint64_t shrink_grant() const { return shrink_budget_.grant(execs_done_); }
  void shrink_spent(std::uint64_t execs) { shrink_budget_.spent(execs); }
  // Executions a fuzz call's input-to-state stage made, out of its share of the run.
  void input_to_state_spent(std::uint64_t execs) { input_to_state_budget_.spent(execs); }
  std::uint64_t input_to_state_execs() const { return input_to_state_budget_.used(); }

  // The corpus grew: the length control's current limit still pays.
  void corpus_grew() { length_.corpus_grew(execs_done_); }

  void stop() { stop_ = true; }
  bool stopped() const { return stop_; }
  bool fuzzing() const { return fuzzing_; }
  std::size_t baseline_total() const { return baseline_total_; }
  std::size_t baseline_done() const { return baseline_done_; }
  std::uint64_t execs_done() const { return execs_done_; }
  std::uint64_t len_limit() const { return length_.current(); }

 private:
  // Executions not yet done or reserved under a counted budget; unlimited: UINT64_MAX.
  std::uint64_t budget_left() const;
  bool baseline_queued() const { return !retry_.empty() || queue_next_ < queue_.size(); }
  bool repeatable() const { return core::repeatable_calls(settings_.seeded, settings_.exec_budget.has_value()); }
  Job baseline_batch(std::uint64_t budget);

  Settings settings_;
  core::LengthControl length_;
  core::InterestingMinimizeBudget shrink_budget_;
  core::InputToStateBudget input_to_state_budget_;
  core::Pcg rng_;
  std::uint64_t calls_ = 0;
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
