// The deadline that subtracts the time a thread waited for a CPU: a thread kept off its CPU
// by busy neighbours gets more wall-clock time, a sleeping thread gets none.
#include "core/run_queue_wait.h"

#include <sched.h>
#include <unistd.h>

#include <atomic>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace cfuzz::core {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

pid_t this_thread() { return static_cast<pid_t>(::gettid()); }

TEST(RunQueueWait, IsKeptForThisThreadAndAbsentForAThreadThatDoesNotExist) {
  EXPECT_TRUE(run_queue_wait(::getpid(), this_thread()).has_value());
  EXPECT_FALSE(run_queue_wait(::getpid(), 0x7ffffff0).has_value());
}

TEST(RunnableDeadline, ASleepingThreadRunsOutOnTheWallClock) {
  RunnableDeadline deadline(::getpid(), this_thread(), Clock::now());
  std::this_thread::sleep_for(5ms);
  EXPECT_FALSE(deadline.exceeded(300ms, Clock::now()));
  std::this_thread::sleep_for(400ms);
  EXPECT_TRUE(deadline.exceeded(300ms, Clock::now()));
}

TEST(RunnableDeadline, AThreadKeptOffItsCpuGetsTheTimeItWaited) {
  cpu_set_t before, one;
  ASSERT_EQ(sched_getaffinity(0, sizeof before, &before), 0);
  CPU_ZERO(&one);
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (CPU_ISSET(cpu, &before)) {
      CPU_SET(cpu, &one);
      break;
    }
  }
  // This thread and three busy ones on one CPU: this one runs about a quarter of the time.
  ASSERT_EQ(sched_setaffinity(0, sizeof one, &one), 0);
  std::atomic<bool> stop{false};
  std::vector<std::thread> busy;
  for (int i = 0; i < 3; ++i) {
    busy.emplace_back([&stop] {
      while (!stop.load(std::memory_order_relaxed)) {
      }
    });
  }
  auto start = Clock::now();
  RunnableDeadline deadline(::getpid(), this_thread(), start);
  EXPECT_FALSE(deadline.exceeded(300ms, start + 1ms));  // the first check after the start reads the wait
  while (Clock::now() - start < 600ms) {
  }
  bool exceeded = deadline.exceeded(300ms, Clock::now());
  stop = true;
  for (auto& t : busy) t.join();
  sched_setaffinity(0, sizeof before, &before);
  EXPECT_FALSE(exceeded) << "600 ms by the clock, about 150 ms of it on the CPU";
}

}  // namespace
}  // namespace cfuzz::core
