// The coordinator of `cfuzz run` (Go's internal/fuzz/fuzz.go): loads the corpus, starts
// the workers, measures the baseline coverage of every seed, then hands out inputs to
// fuzz until the budget runs out, an interrupt, or a failure. Interesting inputs found by
// workers are checked against the global coverage mask, minimized and kept; failures are
// minimized, written to testdata/fuzz/<Name>/ and reported.
//
// One thread per worker runs that worker's calls synchronously (like Go's goroutine per
// worker); they share the corpus and the mask under one mutex. The main thread prints
// progress every 3 seconds and turns SIGINT/SIGTERM into a clean stop.
#pragma once

#include <pthread.h>
#include <signal.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "core/corpus.h"
#include "core/dictionary.h"
#include "core/fuzz_call_plan.h"
#include "core/length_control.h"
#include "core/pcg.h"
#include "libfuzzdriver/baseline_cache.h"
#include "libfuzzdriver/cache_sync.h"
#include "libfuzzdriver/reporter.h"
#include "libfuzzdriver/run_options.h"
#include "libfuzzdriver/target_info.h"
#include "libfuzzdriver/worker.h"

namespace cfuzz::driver {

// Runs `cfuzz run`. Returns 0 (no failure) or 1 (a failure, or a failing seed); throws
// std::runtime_error for usage and setup errors (exit code 2).
int run_fuzzing(const RunOptions& options);

class Coordinator {
 public:
  explicit Coordinator(RunOptions options);
  ~Coordinator();
  int run();

 private:
  struct Job {
    enum class Kind { Stop, Baseline, Fuzz, Sync } kind = Kind::Stop;
    std::size_t entry = 0;
    std::size_t splice = 0;
    std::uint64_t seed = 0;
    std::uint64_t limit = 0;  // executions reserved for this call
    std::uint64_t deadline_ms = 0;
    std::shared_ptr<const std::vector<std::string>> dictionary;  // hex words
    std::uint64_t input_to_state = 0;                            // candidates to try first
    std::uint64_t max_len = 0;                                   // the length control's limit for this call
    std::shared_ptr<const CachedEntry> synced;                   // Sync: an entry another run wrote
    std::vector<std::size_t> batch;                              // Baseline: the entries to run
  };

  // Setup (coordinator.cc).
  void load_corpus();
  WorkerConfig worker_config() const;

  // The main thread.
  void supervise();
  // Queues the entries other runs wrote to the cache since the last look.
  void sync_from_cache();
  Progress progress_now(std::chrono::nanoseconds elapsed);
  // Appends the run's figures to the stats file beside the cache (stats_log.h).
  void record_stats(const Progress& p);
  // Entry i's coverage, for its schedule and for the next run's baseline (under mu_).
  void note_features(std::size_t i, const std::vector<std::uint32_t>& features);
  // Takes what an earlier run of this binary measured of the corpus; returns how many
  // entries it knew.
  std::size_t use_baseline_cache();
  void save_baseline_cache();

  // Worker threads.
  void worker_main(std::size_t index);
  Job next_job();
  // The baseline (baseline_run.cc): every corpus entry that the last run of this binary did
  // not measure runs once, in batches, and its coverage goes into the mask. Under mu_: the
  // next batch, smaller as the queue empties so that no worker waits on another's last one.
  Job take_baseline_batch(std::uint64_t budget);
  void run_baseline(Worker& w, const Job& job);
  // An entry too big for the batch area, on its own.
  void run_baseline_alone(Worker& w, const Job& job, std::size_t index, const core::CorpusEntry& entry);
  // Under mu_: a baseline entry ran and passed with these features.
  void baseline_passed(std::size_t index, const std::vector<std::uint32_t>& features);
  void run_fuzz(Worker& w, const Job& job);
  // Runs an entry another run wrote to the shared cache once; keeps it if it adds coverage.
  void run_sync(Worker& w, const Job& job);
  // One execution of `values` (a baseline or a synced entry). A failure is handled here;
  // Passed leaves the coverage in the worker's snapshot; Lost: the worker died of something
  // else (killed from outside) and was restarted.
  enum class OnceResult { Passed, Failed, Lost, OutOfDomain };
  OnceResult run_once(Worker& w, const Job& job, const corpus::Entry& values, const core::CorpusEntry* as_seed);
  // A failure an exec or exec_batch call reported (the worker lives): handled, with what
  // the sanitizer printed; false when it was an input out of the domains, skipped.
  bool handle_reported_failure(Worker& w, core::FailureRecord rec, const corpus::Entry& values,
                               const core::CorpusEntry* as_seed);
  bool start_worker(Worker& w);
  void request_stop();

  // Execution budget for `--fuzztime Nx`: every execution is reserved before it is asked
  // for and settled after, so that the total is exact.
  std::uint64_t reserve(std::uint64_t wanted);
  void settle(std::uint64_t reserved, std::uint64_t used);

  // What workers find (findings.cc).
  void handle_interesting(Worker& w, std::size_t parent);
  void handle_failure(Worker& w, const core::FailureRecord& failure, const corpus::Entry& input, std::string output,
                      const core::CorpusEntry* seed);
  void replay_damaged_call(Worker& w, const Job& job, const corpus::Entry& base, const corpus::Entry& splice,
                           const CallOutcome& first);
  // The results of a fuzz call, checked as they are read (coordinator.cc); throws
  // core::CorruptInput when they do not hold together.
  void handle_fuzz_outcome(Worker& w, const Job& job, const corpus::Entry& base, const corpus::Entry& splice,
                           const CallOutcome& r);
  static CallOutcome damaged_call(const CallOutcome& r, const std::string& why);
  // The command that runs the file `name` of SRCDIR/testdata/fuzz/<test>/ alone.
  std::string rerun_command(const std::string& name, const std::string& srcdir) const;
  // Writes the input under SRCDIR/testdata/fuzz/<test>/; returns the path to show.
  std::string write_failing_input(const corpus::Entry& input, const std::string& srcdir, std::string* rerun);
  // Saves the failing input of report `r` under testdata/, or in the fallback tree with
  // the input printed in the report, and sets its re-run command (findings.cc).
  void save_failing_input(const corpus::Entry& input, FailureReport* r);

  RunOptions opts_;
  TargetInfo target_;
  TestInfo test_;
  std::string cache_dir_;
  std::uint64_t max_len_ = 0;
  core::LengthControl length_control_{0, 0, 0};      // under mu_
  core::InterestingMinimizeBudget minimize_budget_;  // under mu_
  std::uint64_t slot_capacity_ = 0;
  int parallel_ = 1;
  Reporter reporter_;
  std::chrono::steady_clock::time_point start_;
  std::chrono::system_clock::time_point wall_start_;  // for claims shared with other runs
  std::unique_ptr<CacheWatcher> watcher_;             // the cache, as other runs write to it
  std::string run_id_;                                // names this run's records in the stats file
  bool stats_failed_ = false;                         // warned once that they cannot be written

  std::mutex mu_;
  std::condition_variable cv_;
  core::Corpus corpus_;
  core::Dictionary dictionary_;
  std::vector<std::uint8_t> mask_;
  core::Pcg rng_;
  std::uint64_t master_seed_ = 0;
  std::uint64_t calls_ = 0;
  std::size_t baseline_total_ = 0, baseline_next_ = 0, baseline_done_ = 0;
  std::vector<std::size_t> baseline_queue_;  // the entries the baseline runs: those not in baseline_cache_
  std::vector<std::size_t> baseline_retry_;
  BaselineCache baseline_cache_;  // the features of every entry, as this binary measured them
  std::string binary_identity_;
  bool baseline_finished_ = false;
  std::uint64_t execs_done_ = 0, execs_reserved_ = 0;
  std::uint64_t new_interesting_ = 0;
  std::vector<std::shared_ptr<const CachedEntry>> pending_sync_;  // found by the watcher, not yet run
  std::uint64_t synced_ = 0;                                      // entries from other runs that added coverage here
  bool stop_ = false;                                             // no new jobs; threads finish and exit
  bool failure_claimed_ = false;                                  // a worker is handling the failure that ends the run
  // Failing inputs being minimized now, by worker index: what the progress line shows.
  std::map<std::size_t, MinimizeProgress> minimizing_;
  std::set<std::string> failure_signatures_;
  std::vector<FailureReport> failures_;
  std::string fatal_error_;

  std::vector<std::unique_ptr<Worker>> workers_;
  std::vector<std::thread> threads_;
  std::unique_ptr<std::atomic<bool>[]> in_fuzz_call_;
  std::atomic<int> running_threads_{0};
  pthread_t supervisor_{};  // the thread in supervise(), woken when the last worker thread ends
  static constexpr int kWakeSignal = SIGUSR1;
  std::atomic<bool> interrupted_{false};  // SIGINT or SIGTERM: minimizations stop early too
};

}  // namespace cfuzz::driver
