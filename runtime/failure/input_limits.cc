#include "runtime/failure/input_limits.h"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

#include "core/failure_record.h"
#include "core/go_duration.h"
#include "core/run_queue_wait.h"
#include "core/shm_layout.h"
#include "runtime/failure/crash_handler.h"
#include "runtime/failure/memory_sanitizer.h"

namespace fuzzer::cfuzz {

namespace {

using Clock = std::chrono::steady_clock;

std::atomic<std::uint64_t> g_last_rss_mb{0};
std::atomic<bool> g_watchdog_running{false};

// Resident set size in MB, from /proc/self/statm as the coordinator reads a worker's.
// Opened afresh each time: a descriptor kept open could be one the seed run swaps for a
// decoy while an input runs (fds 3 and 4, rpc_guard.h).
std::uint64_t resident_mb() {
  int fd = ::open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  char buf[128];
  ssize_t n = ::read(fd, buf, sizeof buf - 1);
  ::close(fd);
  if (n <= 0) return 0;
  buf[n] = '\0';
  unsigned long long size = 0, resident = 0;
  if (std::sscanf(buf, "%llu %llu", &size, &resident) != 2) return 0;
  static const long page = sysconf(_SC_PAGESIZE);
  return resident * static_cast<std::uint64_t>(page) / (1024 * 1024);
}

// `input_thread` runs the inputs: its run-queue wait is not counted against the timeout
// (core/run_queue_wait.h), so a machine busier than its cores stretches the deadline.
void watch(InputLimits limits, pid_t input_thread) {
  msan_disable_interceptor_checks();  // the runtime's own thread (memory_sanitizer.h)
  g_watchdog_running.store(true);
  g_watchdog_running.notify_one();
  // A tenth of the timeout, so that a hang is caught within 10% of it; memory every 10 ms
  // (a reading of /proc costs microseconds, and memory can grow by gigabytes a second).
  auto tick = std::chrono::milliseconds(limits.rss_limit_mb > 0 ? 10 : 100);
  if (limits.timeout.count() > 0) {
    tick = std::min(tick, std::max(std::chrono::milliseconds(1),
                                   std::chrono::duration_cast<std::chrono::milliseconds>(limits.timeout / 10)));
  }
  const ExecutionState& st = execution_state();
  std::uint64_t seen = 0;  // the execution being timed, from the first tick that sees it
  core::RunnableDeadline running(::getpid(), input_thread, Clock::now());
  for (;;) {
    std::this_thread::sleep_for(tick);
    if (st.phase->load(std::memory_order_relaxed) != static_cast<std::uint32_t>(core::Phase::Executing)) {
      seen = 0;
      continue;
    }
    std::uint64_t current = st.started.load(std::memory_order_relaxed);
    if (current != seen) {
      // Timed from the first tick that sees it: at most one tick late.
      seen = current;
      running.restart(Clock::now());
    }
    if (limits.timeout.count() > 0 && running.exceeded(limits.timeout, Clock::now())) {
      fail_running_input(core::FailureKind::Timeout, "timeout",
                         "an input ran for more than " + core::format_duration(limits.timeout) + " (--timeout)");
    }
    if (limits.rss_limit_mb > 0) {
      std::uint64_t rss = resident_mb();
      g_last_rss_mb.store(rss, std::memory_order_relaxed);
      if (rss > limits.rss_limit_mb) {
        fail_running_input(core::FailureKind::OutOfMemory, "out-of-memory",
                           "the target used " + std::to_string(rss) + " MB of memory, over the " +
                               std::to_string(limits.rss_limit_mb) + " MB limit (--rss-limit-mb)");
      }
    }
  }
}

}  // namespace

void start_input_watchdog(const InputLimits& limits) {
  static bool started = false;
  if (started || !limits.any()) return;
  started = true;
  // Waited for: a thread's start-up frees memory, which would be counted against the first
  // input's allocations and hide a leak from the check after it (leak_check.h).
  std::thread(watch, limits, static_cast<pid_t>(::gettid())).detach();
  g_watchdog_running.wait(false);
}

std::uint64_t watchdog_last_rss_mb() { return g_last_rss_mb.load(std::memory_order_relaxed); }

}  // namespace fuzzer::cfuzz
