#include "runtime/libfuzzer/stop_conditions.h"

#include <algorithm>

#include "runtime/failure/input_limits.h"
#include "runtime/failure/malloc_limit.h"

namespace fuzzer::cfuzz {

std::uint64_t StopConditions::elapsed_seconds() const {
  return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::seconds>(Clock::now() - start_).count());
}

bool StopConditions::out_of_time() const {
  return max_total_time_ > 0 && Clock::now() - start_ >= std::chrono::seconds(max_total_time_);
}

bool StopConditions::minimize_step_done(std::uint64_t execs) const {
  return out_of_time() || (runs_ > 0 && execs >= static_cast<std::uint64_t>(runs_));
}

std::uint64_t StopConditions::call_limit(std::uint64_t limit, std::uint64_t execs) const {
  if (runs_ < 0) return limit;
  std::uint64_t left = static_cast<std::uint64_t>(runs_) - execs;
  return limit != 0 ? std::min(limit, left) : left;
}

std::uint64_t StopConditions::shrink_budget(std::uint64_t budget, std::uint64_t execs) const {
  if (runs_ < 0) return budget;
  std::uint64_t runs = static_cast<std::uint64_t>(runs_);
  std::uint64_t left = runs - std::min(execs, runs);
  return std::min(budget, left > 0 ? left - 1 : 0);
}

void enforce_input_limits(const LibFuzzerOptions& o) {
  InputLimits limits;
  if (o.timeout > 0) limits.timeout = std::chrono::seconds(o.timeout);
  if (o.rss_limit_mb > 0) limits.rss_limit_mb = static_cast<std::uint64_t>(o.rss_limit_mb);
  start_input_watchdog(limits);
  enable_malloc_limit(static_cast<std::uint64_t>(o.malloc_limit_mb > 0 ? o.malloc_limit_mb
                                                                       : std::max<std::int64_t>(o.rss_limit_mb, 0)));
}

}  // namespace fuzzer::cfuzz
