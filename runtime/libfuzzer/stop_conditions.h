// When the libFuzzer front end stops, as libFuzzer does: -runs counts every execution (the
// seeds', the shrinking of new units') and a fuzz call is cut to end on it, so that -runs=N
// is "Done N runs" exactly, which OSS-Fuzz's and ClusterFuzz's jobs rely on; -max_total_time
// is looked at between calls. And the limits on one input that end the process
// (-timeout, -rss_limit_mb, -malloc_limit_mb), which runtime/failure/ enforces.
#pragma once

#include <chrono>
#include <cstdint>

#include "runtime/engine/engine_namespace.h"
#include "runtime/libfuzzer/libfuzzer_options.h"

namespace fuzzer::cfuzz {

class StopConditions {
 public:
  using Clock = std::chrono::steady_clock;

  // `runs`: -runs (-1: no limit); `max_total_time`: seconds (0 or less: none).
  StopConditions(std::int64_t runs, std::int64_t max_total_time, Clock::time_point start)
      : runs_(runs), max_total_time_(max_total_time), start_(start) {}

  Clock::time_point start() const { return start_; }
  std::uint64_t elapsed_seconds() const;

  bool out_of_time() const;
  // -runs reached; -runs=0 stops before the first fuzz call.
  bool runs_done(std::uint64_t execs) const { return runs_ >= 0 && execs >= static_cast<std::uint64_t>(runs_); }
  bool done(std::uint64_t execs) const { return runs_done(execs) || out_of_time(); }
  // A -minimize_crash step's: there -runs=0 is no limit, as the outer process reads it.
  bool minimize_step_done(std::uint64_t execs) const;

  // A fuzz call's execution limit (0: none), cut so that the call ends at -runs at the
  // latest. `execs` is below -runs (the run is not done).
  std::uint64_t call_limit(std::uint64_t limit, std::uint64_t execs) const;
  // A shrink's budget of executions, cut to what is left of -runs less one: the shrunk
  // input's own run.
  std::uint64_t shrink_budget(std::uint64_t budget, std::uint64_t execs) const;

 private:
  std::int64_t runs_;
  std::int64_t max_total_time_;
  Clock::time_point start_;
};

// Starts the watchdog of -timeout and -rss_limit_mb and the malloc hook of -malloc_limit_mb
// (as libFuzzer, -rss_limit_mb when 0).
void enforce_input_limits(const LibFuzzerOptions& o);

}  // namespace fuzzer::cfuzz
