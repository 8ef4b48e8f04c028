// fn(i) for every i in [0, n), spread over threads: a loop whose iterations are independent
// and mostly wait on the file system (reading and writing corpus files).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace cfuzz::driver {

// Runs on up to `threads` threads (0: one per CPU; never more than n / 64 + 1, so that small
// loops stay on this thread). If iterations throw, the one of the lowest index is rethrown
// once all threads have finished, as the plain loop would have thrown it (other iterations,
// later ones included, may have run).
template <class Fn>
void parallel_for(std::size_t n, Fn fn, unsigned threads = 0) {
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  threads = static_cast<unsigned>(std::min<std::size_t>(threads, n / 64 + 1));
  std::atomic<std::size_t> next{0};
  std::mutex mu;
  std::size_t failed_at = n;
  std::exception_ptr failure;
  auto work = [&] {
    for (std::size_t i = next++; i < n; i = next++) {
      try {
        fn(i);
      } catch (...) {
        std::lock_guard<std::mutex> lock(mu);
        if (i < failed_at) {
          failed_at = i;
          failure = std::current_exception();
        }
      }
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace cfuzz::driver
