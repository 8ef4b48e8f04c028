#include "core/run_queue_wait.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

namespace cfuzz::core {

std::optional<std::chrono::nanoseconds> run_queue_wait(pid_t pid, pid_t tid) {
  char path[64];
  std::snprintf(path, sizeof path, "/proc/%d/task/%d/schedstat", static_cast<int>(pid), static_cast<int>(tid));
  // Opened afresh each time (a few microseconds): the process may have exited, and the
  // runtime's descriptors 3 and 4 can be swapped while an input runs (runtime/worker/rpc_guard.h).
  int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  char buf[128];
  ssize_t n = ::read(fd, buf, sizeof buf - 1);
  ::close(fd);
  if (n <= 0) return std::nullopt;
  buf[n] = '\0';
  // "<ns on a CPU> <ns waiting on a run queue> <time slices>"
  char* end = nullptr;
  std::strtoull(buf, &end, 10);
  if (end == buf) return std::nullopt;
  char* wait_start = end;
  unsigned long long wait = std::strtoull(wait_start, &end, 10);
  if (end == wait_start) return std::nullopt;
  return std::chrono::nanoseconds(static_cast<std::int64_t>(wait));
}

void RunnableDeadline::restart(Clock::time_point now) {
  started_ = now;
  sampled_ = false;
  wait_at_sample_.reset();
}

bool RunnableDeadline::exceeded(std::chrono::nanoseconds limit, Clock::time_point now) {
  if (!sampled_ && now > started_) {
    sampled_ = true;
    wait_at_sample_ = run_queue_wait(pid_, tid_);
  }
  std::chrono::nanoseconds wall = now - started_;
  if (wall <= limit) return false;
  if (!wait_at_sample_) return true;
  auto wait_now = run_queue_wait(pid_, tid_);
  if (!wait_now || *wait_now < *wait_at_sample_) return true;
  return wall - (*wait_now - *wait_at_sample_) > limit;
}

}  // namespace cfuzz::core
