// How long a thread has waited for a CPU while it was ready to run, from the kernel's
// scheduler statistics. The deadlines that time an input or a worker by the wall clock
// subtract this wait, so that an overloaded machine (more runnable processes than cores)
// stretches them instead of turning slow-but-healthy inputs into false timeouts. Time a
// thread spends blocked (sleeping, waiting on a lock or a pipe) is not subtracted: a
// deadlocked input still times out on the wall clock.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <optional>

namespace cfuzz::core {

// The run-queue wait of thread `tid` of process `pid` (the second field of
// /proc/<pid>/task/<tid>/schedstat), or nullopt where the kernel does not keep it. Makes no
// allocation: the runtime's watchdog calls it while an input runs.
std::optional<std::chrono::nanoseconds> run_queue_wait(pid_t pid, pid_t tid);

// A deadline on a thread's runnable time: wall-clock time minus the run-queue wait over the
// same span. Cheap to restart: the wait is first read at the first check made after the
// restart at a later time (so a watchdog whose inputs finish within one tick reads nothing);
// the wait before that reading, at most one tick, counts as run time. Where the kernel keeps
// no statistics it is a plain wall-clock deadline.
class RunnableDeadline {
 public:
  using Clock = std::chrono::steady_clock;
  RunnableDeadline(pid_t pid, pid_t tid, Clock::time_point now) : pid_(pid), tid_(tid), started_(now) {}
  void restart(Clock::time_point now);
  // Whether more than `limit` of runnable time has passed since the restart.
  bool exceeded(std::chrono::nanoseconds limit, Clock::time_point now);

 private:
  pid_t pid_, tid_;
  Clock::time_point started_;
  bool sampled_ = false;
  std::optional<std::chrono::nanoseconds> wait_at_sample_;
};

}  // namespace cfuzz::core
