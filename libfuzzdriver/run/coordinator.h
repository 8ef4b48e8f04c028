// The coordinator of `cfuzz run` (Go's internal/fuzz/fuzz.go): loads the corpus, starts
// the workers, measures the baseline coverage of every seed, then hands out inputs to
// fuzz until the budget runs out, an interrupt, or a failure. What the workers find is the
// finding handler's (finding_handler.h: new coverage kept, failures minimized, saved and
// reported), and the baseline's runs the baseline runner's (baseline_runner.h).
//
// One thread per worker runs that worker's calls synchronously (like Go's goroutine per
// worker); they share the scheduler (scheduler.h), the corpus and the mask under one
// mutex (run_state.h), whose guarded members the compiler checks (thread_safety.h). The
// main thread prints progress every 3 seconds and turns SIGINT/SIGTERM into a clean stop.
#pragma once

#include <pthread.h>
#include <signal.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "core/fuzz_session.h"
#include "libfuzzdriver/corpus/cache_sync.h"
#include "libfuzzdriver/corpus/cache_writes.h"
#include "libfuzzdriver/report/reporter.h"
#include "libfuzzdriver/run/baseline_runner.h"
#include "libfuzzdriver/run/finding_handler.h"
#include "libfuzzdriver/run/reproducer_files.h"
#include "libfuzzdriver/run/run_options.h"
#include "libfuzzdriver/run/run_state.h"
#include "libfuzzdriver/run/scheduler.h"
#include "libfuzzdriver/run/worker_calls.h"
#include "libfuzzdriver/run/worker_pool.h"
#include "libfuzzdriver/util/thread_safety.h"
#include "libfuzzdriver/worker/target_info.h"
#include "libfuzzdriver/worker/worker.h"

namespace cfuzz::driver {

// Runs `cfuzz run` for one fuzz test, called by run_fuzz_tests (multi_run.h), which has set
// the environment every process of the target inherits. Returns 0 (no failure) or 1 (a
// failure, or a failing seed); throws std::runtime_error for usage and setup errors (exit
// code 2).
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
  std::vector<bool> reached_counters() CFUZZ_EXCLUDES(state_.mu);

 private:
  // Setup (coordinator.cc): the seeds, testdata and cache entries.
  core::Corpus load_corpus();
  WorkerConfig worker_config() const;
  // The parts the worker threads hand their results to, once the setup is known.
  void make_parts();

  // The main thread.
  void supervise() CFUZZ_EXCLUDES(state_.mu);
  // Queues the entries other runs wrote to the cache since the last look.
  void sync_from_cache() CFUZZ_EXCLUDES(state_.mu);
  Progress progress_now(std::chrono::nanoseconds elapsed) CFUZZ_EXCLUDES(state_.mu);
  // Appends the run's figures to the stats file beside the cache (stats_log.h).
  void record_stats(const Progress& p);
  // Takes what an earlier run of this binary measured of the corpus, and plans the
  // baseline of the rest; returns how many entries it knew.
  std::size_t use_baseline_cache() CFUZZ_REQUIRES(state_.mu);
  void save_baseline_cache() CFUZZ_EXCLUDES(state_.mu);

  // Worker threads.
  void worker_main(Worker& w) CFUZZ_EXCLUDES(state_.mu);
  // The scheduler's next job, with the dictionary's words for a fuzz call; waits while
  // there is none yet.
  Job next_job() CFUZZ_EXCLUDES(state_.mu);
  void run_fuzz(Worker& w, const Job& job) CFUZZ_EXCLUDES(state_.mu);
  bool start_worker(Worker& w) CFUZZ_EXCLUDES(state_.mu);
  // Between jobs: a worker grown past --worker-growth-mb (worker_growth.h) stopped and
  // started afresh.
  void replace_outgrown(Worker& w) CFUZZ_EXCLUDES(state_.mu);
  // A worker that died or broke down for a reason that is no input's fault: said, and the
  // worker restarted. While no input has run yet, the workers are failing to start (a
  // target that dies in its own start-up, a runtime that cannot run under the target's
  // sanitizer): after a few such deaths the run stops with an error instead of going on
  // restarting them (and ending in PASS, as if fuzzed), as Go's fuzzer does.
  void lost_worker(WorkerCalls& w, const std::string& why) CFUZZ_EXCLUDES(state_.mu);
  // An error about the target's workers: the target's path, `why`, and the line of the
  // worker's `output` that says most (a sanitizer's SUMMARY, else its last line).
  std::string worker_error(const std::string& output, const std::string& why) const;
  // The worker as the parts that handle findings and run the baseline ask it.
  ProcessWorker calls(Worker& w) const { return ProcessWorker(w, opts_.timeout); }

  // The target broke the RPC channel during a call of many executions: the call runs again
  // in a fresh worker, checking the channel after every execution, to find the input.
  void replay_damaged_call(Worker& w, const Job& job, const corpus::Entry& base, const corpus::Entry& splice,
                           const CallOutcome& first) CFUZZ_EXCLUDES(state_.mu);
  // The results of a fuzz call, checked as they are read (coordinator.cc); throws
  // core::CorruptInput when they do not hold together.
  void handle_fuzz_outcome(Worker& w, const Job& job, const corpus::Entry& base, const corpus::Entry& splice,
                           const Reply<core::rpc::FuzzResult>& r) CFUZZ_EXCLUDES(state_.mu);
  // Writes a fuzz call's inputs into the worker's input areas; returns its parameters.
  static core::rpc::FuzzParams prepare_fuzz_call(Worker& w, const Job& job, const corpus::Entry& base,
                                                 const corpus::Entry& splice);
  static CallOutcome damaged_call(const CallOutcome& r, const std::string& why);

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
  // The main thread's.
  std::string run_id_;  // names this run's records in the stats file

  // Shared by the worker threads and the main thread: the scheduler and the search
  // (corpus, mask, dictionary, the calls' plans: core/fuzz_session.h) under one mutex.
  RunState state_;
  std::uint64_t lost_before_any_input_ CFUZZ_GUARDED_BY(state_.mu) = 0;  // lost_worker's count

  // What the workers find and the entries they run once (finding_handler.h,
  // baseline_runner.h), from the start of the workers.
  std::unique_ptr<ReproducerFiles> reproducers_;
  std::unique_ptr<FindingHandler> findings_;
  std::unique_ptr<BaselineRunner> baseline_;
  // The workers, one thread each (worker_pool.h), while run() runs.
  std::unique_ptr<WorkerPool> pool_;
};

}  // namespace cfuzz::driver
