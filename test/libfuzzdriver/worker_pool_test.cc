// The worker threads as the main thread supervises them: each runs its body on its own
// worker; the main thread's wait ends as soon as the last thread ends (not a tick later)
// and on SIGTERM, which the worker threads never take; the executions of calls in flight
// count only while a call is marked; and the signal mask is put back afterwards.
#include "libfuzzdriver/run/worker_pool.h"

#include <atomic>
#include <set>

#include <gtest/gtest.h>

namespace cfuzz::driver {
namespace {

using std::chrono::milliseconds;

WorkerConfig small_config() {
  WorkerConfig c;
  c.types = {corpus::Type::Bytes};
  c.slot_capacity = 64;
  c.counters = 16;
  return c;
}

bool blocked(int sig) {
  sigset_t now;
  pthread_sigmask(SIG_BLOCK, nullptr, &now);
  return sigismember(&now, sig) == 1;
}

TEST(WorkerPool, EachThreadRunsItsWorkerAndTheLastOneWakesTheWait) {
  std::mutex mu;
  std::set<int> seen;
  std::atomic<bool> go{false};
  {
    WorkerPool pool;
    pool.start(3, small_config(), [&](Worker& w) {
      while (!go) std::this_thread::yield();
      std::lock_guard<std::mutex> lock(mu);
      seen.insert(w.index());
    });
    EXPECT_EQ(pool.size(), 3u);
    EXPECT_TRUE(pool.running());
    EXPECT_EQ(pool.wait(milliseconds(10)), 0);  // nothing yet: the tick passes
    go = true;
    auto t0 = std::chrono::steady_clock::now();
    while (pool.running()) EXPECT_EQ(pool.wait(milliseconds(5000)), 0);
    EXPECT_LT(std::chrono::steady_clock::now() - t0, milliseconds(4000));  // woken, not timed out
  }
  EXPECT_EQ(seen, (std::set<int>{0, 1, 2}));
}

TEST(WorkerPool, TheMainThreadTakesSigtermAndTheMaskIsPutBack) {
  ASSERT_FALSE(blocked(SIGTERM));
  {
    WorkerPool pool;
    EXPECT_TRUE(blocked(SIGTERM));
    std::atomic<bool> go{false};
    std::atomic<bool> thread_blocks{false};
    pool.start(1, small_config(), [&](Worker&) {
      thread_blocks = blocked(SIGTERM) && blocked(SIGINT);  // inherited: never taken here
      while (!go) std::this_thread::yield();
    });
    kill(getpid(), SIGTERM);
    EXPECT_EQ(pool.wait(milliseconds(5000)), SIGTERM);
    go = true;
    pool.join();
    EXPECT_TRUE(thread_blocks);
  }
  EXPECT_FALSE(blocked(SIGTERM));
}

TEST(WorkerPool, OnlyCallsInFlightAddTheirExecutions) {
  WorkerPool pool;
  std::atomic<int> step{0};
  pool.start(2, small_config(), [&](Worker& w) {
    w.shm().header().exec_count.store(500, std::memory_order_relaxed);
    if (w.index() != 0) return;
    WorkerPool::InCall in_call(pool, 0);
    step = 1;
    while (step != 2) std::this_thread::yield();
  });
  while (step != 1) std::this_thread::yield();
  EXPECT_EQ(pool.executions_in_flight(1000), 500u);  // worker 0's only
  EXPECT_EQ(pool.executions_in_flight(100), 100u);   // no more than is plausible
  step = 2;
  pool.join();
  EXPECT_EQ(pool.executions_in_flight(1000), 0u);
}

}  // namespace
}  // namespace cfuzz::driver
