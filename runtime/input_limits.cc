#include "runtime/input_limits.h"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

#include "core/failure_record.h"
#include "core/go_duration.h"
#include "runtime/crash_handler.h"

namespace cfuzz::runtime {

namespace {

using Clock = std::chrono::steady_clock;

// When the running input started (steady-clock nanoseconds), 0 between inputs.
std::atomic<std::int64_t> g_input_started_ns{0};

std::int64_t now_ns() { return Clock::now().time_since_epoch().count(); }

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

void watch(InputLimits limits) {
  // A tenth of the timeout, so that a hang is caught within 10% of it; memory every 10 ms
  // (a reading of /proc costs microseconds, and memory can grow by gigabytes a second).
  auto tick = std::chrono::milliseconds(limits.rss_limit_mb > 0 ? 10 : 100);
  if (limits.timeout.count() > 0) {
    tick = std::min(tick, std::max(std::chrono::milliseconds(1),
                                   std::chrono::duration_cast<std::chrono::milliseconds>(limits.timeout / 10)));
  }
  for (;;) {
    std::this_thread::sleep_for(tick);
    std::int64_t started = g_input_started_ns.load(std::memory_order_relaxed);
    if (started == 0) continue;
    if (limits.timeout.count() > 0 && now_ns() - started > limits.timeout.count()) {
      fail_running_input(core::FailureKind::Timeout, "timeout",
                         "an input ran for more than " + core::format_duration(limits.timeout) + " (--timeout)");
    }
    if (limits.rss_limit_mb > 0) {
      std::uint64_t rss = resident_mb();
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
  std::thread(watch, limits).detach();
}

void watchdog_input_started() { g_input_started_ns.store(now_ns(), std::memory_order_relaxed); }
void watchdog_input_finished() { g_input_started_ns.store(0, std::memory_order_relaxed); }

}  // namespace cfuzz::runtime
