#include "libfuzzdriver/run/worker_pool.h"

#include <algorithm>

namespace cfuzz::driver {

namespace {

sigset_t stop_and_wake(int wake) {
  sigset_t s;
  sigemptyset(&s);
  sigaddset(&s, SIGINT);
  sigaddset(&s, SIGTERM);
  sigaddset(&s, wake);
  return s;
}

}  // namespace

WorkerPool::WorkerPool() : supervisor_(pthread_self()) {
  // Put back as it was afterwards: a run of several tests (multi_run.h) keeps SIGINT and
  // SIGTERM blocked between its slices, so that one arriving then stops the next slice.
  sigset_t blocked = stop_and_wake(kWakeSignal);
  pthread_sigmask(SIG_BLOCK, &blocked, &previous_mask_);
}

WorkerPool::~WorkerPool() {
  join();
  // A wake-up nobody waited for is still pending: taken here, or unblocking it would end
  // the process.
  sigset_t wake;
  sigemptyset(&wake);
  sigaddset(&wake, kWakeSignal);
  timespec now{0, 0};
  while (sigtimedwait(&wake, nullptr, &now) == kWakeSignal) {
  }
  pthread_sigmask(SIG_SETMASK, &previous_mask_, nullptr);
}

void WorkerPool::start(int n, const WorkerConfig& config, const std::function<void(Worker&)>& body) {
  auto count = static_cast<std::size_t>(n);
  in_call_ = std::make_unique<std::atomic<bool>[]>(count);
  for (std::size_t i = 0; i < count; ++i) {
    workers_.push_back(std::make_unique<Worker>(static_cast<int>(i), config));
    in_call_[i] = false;
  }
  running_ = n;
  for (std::size_t i = 0; i < count; ++i) {
    threads_.emplace_back([this, i, body] {
      Worker& w = *workers_[i];
      body(w);
      w.stop();
      if (--running_ == 0) pthread_kill(supervisor_, kWakeSignal);
    });
  }
}

int WorkerPool::wait(std::chrono::milliseconds tick) {
  sigset_t signals = stop_and_wake(kWakeSignal);
  timespec t{static_cast<time_t>(tick.count() / 1000), static_cast<long>(tick.count() % 1000) * 1000000L};
  int sig = sigtimedwait(&signals, nullptr, &t);
  return sig == SIGINT || sig == SIGTERM ? sig : 0;
}

void WorkerPool::kill_all() {
  for (auto& w : workers_) w->kill();
}

void WorkerPool::join() {
  for (auto& t : threads_) {
    if (t.joinable()) t.join();
  }
  threads_.clear();
}

std::uint64_t WorkerPool::executions_in_flight(std::uint64_t plausible) const {
  std::uint64_t n = 0;
  for (std::size_t i = 0; i < workers_.size(); ++i) {
    if (in_call_[i].load()) {
      n += std::min(plausible, workers_[i]->shm().header().exec_count.load(std::memory_order_relaxed));
    }
  }
  return n;
}

}  // namespace cfuzz::driver
