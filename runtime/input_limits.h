// Per-input limits in a seed run (`./target --timeout 10s --rss-limit-mb 2048`), so that the
// re-run command cfuzz prints for a hang or a memory blow-up fails the same way instead of
// hanging or eating the machine. While fuzzing, the coordinator enforces these limits from
// outside; a seed run has no coordinator, so a watchdog thread does it from inside.
#pragma once

#include <chrono>
#include <cstdint>

namespace cfuzz::runtime {

struct InputLimits {
  std::chrono::nanoseconds timeout{0};  // 0: none
  std::uint64_t rss_limit_mb = 0;       // 0: none
  bool any() const { return timeout.count() > 0 || rss_limit_mb > 0; }
};

// Starts the watchdog (once, if any limit is set). When the running input passes a limit,
// the process reports that input as failed ("timeout" or "out-of-memory") and exits 1.
void start_input_watchdog(const InputLimits& limits);

// The seed run brackets each input with these.
void watchdog_input_started();
void watchdog_input_finished();

}  // namespace cfuzz::runtime
