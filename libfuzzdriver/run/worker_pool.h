// The worker processes of one `cfuzz run` and a thread for each (Go's goroutine per worker),
// as the main thread supervises them: started together, each thread running the
// coordinator's loop on its worker; the main thread waits for an interrupt or the last
// thread's end in one call, and reads the executions of the fuzz calls in flight.
//
// SIGINT and SIGTERM are taken by the main thread alone: the pool blocks them (and its own
// wake signal) in the thread that creates it, before any worker thread starts, so the
// threads and the worker processes never see them; its destructor puts the mask back.
#pragma once

#include <pthread.h>
#include <signal.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

#include "libfuzzdriver/worker/worker.h"

namespace cfuzz::driver {

class WorkerPool {
 public:
  WorkerPool();
  ~WorkerPool();  // joins the threads
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  // Starts `n` workers' threads, each running `body` on its worker and stopping the worker
  // after it returns.
  void start(int n, const WorkerConfig& config, const std::function<void(Worker&)>& body);
  // Waits up to `tick` for SIGINT, SIGTERM or the end of the last thread; returns SIGINT or
  // SIGTERM when one came, else 0.
  int wait(std::chrono::milliseconds tick);
  bool running() const { return running_.load() > 0; }
  void kill_all();
  void join();

  std::size_t size() const { return workers_.size(); }

  // Marks worker i's fuzz call in flight for the scope's life, so that its executions
  // count in the progress line before it returns.
  class InCall {
   public:
    InCall(WorkerPool& pool, std::size_t i) : flag_(pool.in_call_[i]) { flag_ = true; }
    ~InCall() { flag_ = false; }
    InCall(const InCall&) = delete;
    InCall& operator=(const InCall&) = delete;

   private:
    std::atomic<bool>& flag_;
  };
  // Executions of the calls in flight, read from shared memory, each at most `plausible`
  // (a count the target wrote over is no count).
  std::uint64_t executions_in_flight(std::uint64_t plausible) const;

 private:
  static constexpr int kWakeSignal = SIGUSR1;

  std::vector<std::unique_ptr<Worker>> workers_;
  std::vector<std::thread> threads_;
  std::unique_ptr<std::atomic<bool>[]> in_call_;
  std::atomic<int> running_{0};
  pthread_t supervisor_{};  // the thread that waits, woken when the last worker thread ends
  sigset_t previous_mask_{};
};

}  // namespace cfuzz::driver
