// What a fuzzing run prints: go test's lines for people, or the same events as JSON lines
// (`--json`) for CI. One place decides the wording of both.
//
//   fuzz: elapsed: 0s, gathering baseline coverage: 0/12 completed
//   fuzz: elapsed: 1s, gathering baseline coverage: 12/12 completed, now fuzzing with 2 workers
//   fuzz: elapsed: 3s, execs: 123456 (41152/sec), new interesting: 3 (total: 15)
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/failure_record.h"

namespace cfuzz::driver {

struct Progress {
  std::chrono::nanoseconds elapsed{};
  std::uint64_t execs = 0;
  double rate = 0;  // executions per second since the last line
  std::uint64_t new_interesting = 0;
  std::uint64_t total = 0;
  std::uint64_t coverage_bits = 0;
  std::uint64_t covered_counters = 0;
  std::uint64_t len_limit = 0;             // the length control's limit on byte values
  std::uint64_t synced = 0;                // entries other runs wrote to the shared cache, kept here
  std::uint64_t input_to_state_execs = 0;  // of `execs`, the finished calls' input-to-state stages
  // Looking for them (the final line only): directory checks, listings, time spent.
  std::uint64_t sync_scans = 0, sync_listings = 0;
  double sync_seconds = 0;
};

// A failing input being minimized, for the progress line that replaces the fuzzing one.
struct MinimizeProgress {
  std::chrono::nanoseconds elapsed{};
  std::uint64_t bytes_before = 0, bytes_now = 0;
  std::uint64_t execs = 0, restarts = 0;
};

struct FailureReport {
  std::string test;
  std::chrono::nanoseconds elapsed{};
  core::FailureRecord failure{};
  std::vector<std::string> stack;  // the crash site, symbolized, innermost first
  std::string output;              // what the target printed while failing
  std::string input_summary;       // e.g. "[]byte(...) (5 bytes)"
  bool seed = false;               // a seed failed: nothing is written
  std::string seed_name;
  std::string written_to;  // path of the saved failing input
  std::string rerun;       // command that runs just that input
  std::string minimized;   // e.g. "minimized from 5000 to 4 bytes in 812 executions"
  // When the input could not be saved under testdata/: why, and the input itself (v1 text
  // and base64), so that it survives in the log; written_to is then the fallback, if any.
  std::string write_error;
  std::string input_v1;
  std::string input_base64;
  // The target's custom mutator failed while mutating the input (input_v1, input_base64),
  // not the fuzz target while running it: nothing is minimized or written.
  bool in_custom_mutator = false;
  // Another run sharing the cache found the same failure first: written_to is its file.
  bool written_by_other_run = false;
};

class Reporter {
 public:
  Reporter(bool json, std::FILE* out) : json_(json), out_(out) {}

  // The run is one slice of a run of several fuzz tests (multi_run.h): JSON events name the
  // target and the test, and the end is "slice_done" in JSON and no PASS/FAIL line in text.
  void tag(std::string target, std::string test);

  void baseline(std::chrono::nanoseconds elapsed, std::uint64_t done, std::uint64_t total);
  void fuzzing_started(std::chrono::nanoseconds elapsed, std::uint64_t total, int workers);
  void progress(const Progress& p);
  void minimizing(std::chrono::nanoseconds elapsed, std::uint64_t bytes);
  void minimize_progress(const MinimizeProgress& m);
  void warning(const std::string& text);
  void failure(const FailureReport& r);
  // An input with new coverage joined the corpus, after `execs` executions in all.
  void new_entry(const std::string& name, std::uint64_t bits, std::uint64_t execs);
  void done(const Progress& p, int failures);
  // libFuzzer's end-of-run block: automatic dictionary words that found coverage.
  void recommended_dictionary(const std::vector<std::pair<std::string, std::uint64_t>>& words);

  // What was reported, for the files written at the end of the run (--junit).
  struct Record {
    std::vector<FailureReport> failures;
    std::optional<Progress> done;
  };
  Record record() const;

 private:
  void emit(const std::string& text);
  void emit_json(nlohmann::json event);
  bool json_;
  std::FILE* out_;
  mutable std::mutex mu_;
  Record record_;                      // guarded by mu_
  std::string tag_target_, tag_test_;  // guarded by mu_; empty: not a slice
};

}  // namespace cfuzz::driver
