// Per-input limits inside the target: in a seed run (`./target --timeout 10s --rss-limit-mb
// 2048`), so that the re-run command cfuzz prints for a hang or a memory blow-up fails the
// same way instead of hanging or eating the machine, and in the libFuzzer-style front end
// (-timeout, -rss_limit_mb). Under `cfuzz run` the coordinator enforces them from outside;
// here a watchdog thread does it from inside.
#pragma once

#include <chrono>
#include <cstdint>

#include "runtime/engine/engine_namespace.h"

namespace fuzzer::cfuzz {

struct InputLimits {
  std::chrono::nanoseconds timeout{0};  // 0: none
  std::uint64_t rss_limit_mb = 0;       // 0: none
  bool any() const { return timeout.count() > 0 || rss_limit_mb > 0; }
};

// Starts the watchdog (once, if any limit is set). It watches the executions that
// begin_execution() counts (crash_handler.h): when one runs past a limit, the process
// reports that input as failed ("timeout" or "out-of-memory") and exits.
void start_input_watchdog(const InputLimits& limits);

// The resident set size the watchdog read last, in MB (for the out-of-memory report).
std::uint64_t watchdog_last_rss_mb();

}  // namespace fuzzer::cfuzz
