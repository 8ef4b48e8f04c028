// The coordinator of `cfuzz run` (Go's internal/fuzz/fuzz.go): loads the corpus, starts
// the workers, measures the baseline coverage of every seed, then hands out inputs to
// fuzz until the budget runs out, an interrupt, or a failure. Interesting inputs found by
// workers are checked against the global coverage mask, minimized and kept; failures are
// minimized, written to testdata/fuzz/<Name>/ and reported.
//
// One thread per worker runs that worker's calls synchronously (like Go's goroutine per
// worker); they share the scheduler (scheduler.h), the corpus and the mask under one
// mutex, whose guarded members the compiler checks (thread_safety.h). The main thread prints
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

#include "core/fuzz_session.h"
#include "libfuzzdriver/corpus/baseline_cache.h"
#include "libfuzzdriver/corpus/cache_sync.h"
#include "libfuzzdriver/corpus/cache_writes.h"
#include "libfuzzdriver/report/reporter.h"
#include "libfuzzdriver/run/failure_log.h"
#include "libfuzzdriver/run/run_options.h"
#include "libfuzzdriver/run/scheduler.h"
#include "libfuzzdriver/run/worker_pool.h"
#include "libfuzzdriver/util/thread_safety.h"
#include "libfuzzdriver/worker/target_info.h"
#include "libfuzzdriver/worker/worker.h"

namespace cfuzz::driver {

// Runs `cfuzz run`. Returns 0 (no failure) or 1 (a failure, or a failing seed); throws
// std::runtime_error for usage and setup errors (exit code 2).
int run_fuzzing(const RunOptions& options);

class Coordinator {
 public:
  explicit Coordinator(RunOptions options);
  ~Coordinator();
  int run();

  // After run(), or after it threw: what the run reported, and the fuzz test it ran (empty
  // if it never got as far as choosing one).
  Reporter::Record record() const { return reporter_.record(); }
  const std::string& test_name() const { return setup_.test.name; }
  // Whether SIGINT or SIGTERM stopped the run.
  bool interrupted() const { return interrupted_.load(); }
  // After run(): one flag per counter, reached by the corpus (what the mask holds).
  std::vector<bool> reached_counters() CFUZZ_EXCLUDES(mu_);

 private:
  // Setup (coordinator.cc): the seeds, testdata and cache entries.
  core::Corpus load_corpus();
  WorkerConfig worker_config() const;

  // The main thread.
  void supervise() CFUZZ_EXCLUDES(mu_);
  // Queues the entries other runs wrote to the cache since the last look.
  void sync_from_cache() CFUZZ_EXCLUDES(mu_);
  Progress progress_now(std::chrono::nanoseconds elapsed) CFUZZ_EXCLUDES(mu_);
  // Appends the run's figures to the stats file beside the cache (stats_log.h).
  void record_stats(const Progress& p);
  // Entry i's coverage, kept for the next run's baseline.
  void cache_features(std::size_t i, const std::vector<std::uint32_t>& features) CFUZZ_REQUIRES(mu_);
  // Takes what an earlier run of this binary measured of the corpus, and plans the
  // baseline of the rest; returns how many entries it knew.
  std::size_t use_baseline_cache() CFUZZ_REQUIRES(mu_);
  void save_baseline_cache() CFUZZ_EXCLUDES(mu_);

  // Worker threads.
  void worker_main(Worker& w) CFUZZ_EXCLUDES(mu_);
  // The scheduler's next job, with the dictionary's words for a fuzz call; waits while
  // there is none yet.
  Job next_job() CFUZZ_EXCLUDES(mu_);
  // The baseline (baseline_run.cc): every corpus entry that the last run of this binary did
  // not measure runs once, in batches, and its coverage goes into the mask.
  void run_baseline(Worker& w, const Job& job) CFUZZ_EXCLUDES(mu_);
  // An entry too big for the batch area, on its own.
  void run_baseline_alone(Worker& w, const Job& job, std::size_t index, const core::CorpusEntry& entry)
      CFUZZ_EXCLUDES(mu_);
  // A baseline entry ran and passed with these features.
  void baseline_passed(std::size_t index, const std::vector<std::uint32_t>& features) CFUZZ_REQUIRES(mu_);
  void run_fuzz(Worker& w, const Job& job) CFUZZ_EXCLUDES(mu_);
  // Runs an entry another run wrote to the shared cache once; keeps it if it adds coverage.
  void run_sync(Worker& w, const Job& job) CFUZZ_EXCLUDES(mu_);
  // One execution of `values` (a baseline or a synced entry). A failure is handled here;
  // Passed leaves the coverage in the worker's snapshot; Lost: the worker died of something
  // else (killed from outside) and was restarted.
  enum class OnceResult { Passed, Failed, Lost, OutOfDomain };
  OnceResult run_once(Worker& w, const Job& job, const corpus::Entry& values, const core::CorpusEntry* as_seed)
      CFUZZ_EXCLUDES(mu_);
  // A failure of a corpus entry or a synced entry (an exec or exec_batch call): handled;
  // false when it was an input out of the fuzz function's domains, skipped.
  bool handle_input_failure(Worker& w, const core::FailureRecord& rec, const corpus::Entry& values,
                            const core::CorpusEntry* as_seed) CFUZZ_EXCLUDES(mu_);
  bool start_worker(Worker& w) CFUZZ_EXCLUDES(mu_);
  // Between jobs: a worker grown past --worker-growth-mb (worker_growth.h) stopped and
  // started afresh.
  void replace_outgrown(Worker& w) CFUZZ_EXCLUDES(mu_);
  // A worker that died or broke down for a reason that is no input's fault: said, and the
  // worker restarted. While no input has run yet, the workers are failing to start (a
  // target that dies in its own start-up, a runtime that cannot run under the target's
  // sanitizer): after a few such deaths the run stops with an error instead of going on
  // restarting them (and ending in PASS, as if fuzzed), as Go's fuzzer does.
  void lost_worker(Worker& w, const std::string& why) CFUZZ_EXCLUDES(mu_);
  // An error about the target's workers: the target's path, `why`, and the line of the
  // worker's output that says most (a sanitizer's SUMMARY, else its last line).
  std::string worker_error(const Worker& w, const std::string& why) const;
  void request_stop() CFUZZ_EXCLUDES(mu_);
  // A bug or an I/O error: the run stops, saying why.
  void stop_with_error(const std::string& why) CFUZZ_EXCLUDES(mu_);

  // The scheduler's execution budget, for work outside its jobs (minimization);
  // `shrinking`: the executions went to shrinking a new input, and count against its share.
  std::uint64_t reserve(std::uint64_t wanted) CFUZZ_EXCLUDES(mu_);
  void settle(std::uint64_t reserved, std::uint64_t used, bool shrinking = false) CFUZZ_EXCLUDES(mu_);

  // What workers find (findings.cc).
  void handle_interesting(Worker& w, std::size_t parent) CFUZZ_EXCLUDES(mu_);
  void handle_failure(Worker& w, const core::FailureRecord& failure, const corpus::Entry& input, std::string output,
                      const core::CorpusEntry* seed) CFUZZ_EXCLUDES(mu_);
  corpus::Entry minimize_for_report(Worker& w, const corpus::Entry& input, const core::FailureRecord& failure,
                                    FailureReport* r) CFUZZ_EXCLUDES(mu_);
  void replay_damaged_call(Worker& w, const Job& job, const corpus::Entry& base, const corpus::Entry& splice,
                           const CallOutcome& first) CFUZZ_EXCLUDES(mu_);
  // The results of a fuzz call, checked as they are read (coordinator.cc); throws
  // core::CorruptInput when they do not hold together.
  void handle_fuzz_outcome(Worker& w, const Job& job, const corpus::Entry& base, const corpus::Entry& splice,
                           const Reply<core::rpc::FuzzResult>& r) CFUZZ_EXCLUDES(mu_);
  // Writes a fuzz call's inputs into the worker's input areas; returns its parameters.
  static core::rpc::FuzzParams prepare_fuzz_call(Worker& w, const Job& job, const corpus::Entry& base,
                                                 const corpus::Entry& splice);
  static CallOutcome damaged_call(const CallOutcome& r, const std::string& why);
  // The command that runs the file `name` of SRCDIR/testdata/fuzz/<test>/ alone.
  std::string rerun_command(const std::string& name, const std::string& srcdir) const;
  // Writes the input under SRCDIR/testdata/fuzz/<test>/; returns the path to show. With
  // `confine_below` (the cache root, for the fallback tree), no symbolic link below it is
  // followed.
  std::string write_failing_input(const corpus::Entry& input, const std::string& srcdir, std::string* rerun,
                                  const std::string& confine_below = {});
  // Saves the failing input of report `r` under testdata/, or in the fallback tree with
  // the input printed in the report, and sets its re-run command (findings.cc).
  void save_failing_input(const corpus::Entry& input, FailureReport* r);
  void add_failure_report(const FailureReport& r) CFUZZ_EXCLUDES(mu_);

  // What the run found out before the worker threads start, read-only after.
  struct Setup {
    TargetInfo target;
    TestInfo test;
    std::string cache_dir;
    std::string binary_identity;  // names the binary in the baseline file
    std::uint64_t max_len = 0;
    std::uint64_t slot_capacity = 0;
    int parallel = 1;
    std::chrono::steady_clock::time_point start;
    std::chrono::system_clock::time_point wall_start;  // for claims shared with other runs
  };
  RunOptions opts_;
  Setup setup_;
  // Safe from any thread.
  Reporter reporter_;
  std::unique_ptr<CacheWatcher> watcher_;      // the cache, as other runs write to it
  std::unique_ptr<CacheWrites> cache_writes_;  // every write to the cache
  std::atomic<bool> interrupted_{false};       // SIGINT or SIGTERM: minimizations stop early too
  FailureLog failures_{opts_.keep_fuzzing};    // what the workers found, and who handles it
  // The main thread's.
  std::string run_id_;  // names this run's records in the stats file

  // Shared by the worker threads and the main thread.
  Mutex mu_;
  std::condition_variable cv_;  // a job may be ready: the scheduler changed
  Scheduler scheduler_ CFUZZ_GUARDED_BY(mu_){Scheduler::Settings{}};
  // The search: corpus, mask, dictionary, the calls' plans (core/fuzz_session.h).
  core::FuzzSession session_ CFUZZ_GUARDED_BY(mu_){core::FuzzSession::Settings{}};
  BaselineCache baseline_cache_ CFUZZ_GUARDED_BY(mu_);  // the features of every entry, as this binary measured them
  std::string fatal_error_ CFUZZ_GUARDED_BY(mu_);
  std::uint64_t lost_before_any_input_ CFUZZ_GUARDED_BY(mu_) = 0;  // lost_worker's count
  std::atomic<bool> ran_an_input_{false};                          // an execution finished

  // The workers, one thread each (worker_pool.h), while run() runs.
  std::unique_ptr<WorkerPool> pool_;
};

}  // namespace cfuzz::driver
