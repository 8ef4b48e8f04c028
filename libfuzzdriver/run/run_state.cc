#include "libfuzzdriver/run/run_state.h"

namespace cfuzz::driver {

void RunState::cache_features(std::size_t i, const std::vector<std::uint32_t>& features) {
  baseline_cache.put(session.corpus().at(i).key, features);
}

std::uint64_t RunState::reserve(std::uint64_t wanted) {
  MutexLock lock(mu);
  return scheduler.reserve(wanted);
}

void RunState::settle(std::uint64_t reserved, std::uint64_t used, bool shrinking) {
  if (used != 0) ran_an_input_ = true;
  {
    MutexLock lock(mu);
    scheduler.settle(reserved, used);
    if (shrinking) session.shrink_spent(used);
  }
  cv.notify_all();
}

void RunState::stop() {
  {
    MutexLock lock(mu);
    scheduler.stop();
  }
  cv.notify_all();
}

void RunState::stop_with_error(const std::string& why) {
  {
    MutexLock lock(mu);
    if (fatal_error_.empty()) fatal_error_ = why;
    scheduler.stop();
  }
  cv.notify_all();
}

}  // namespace cfuzz::driver
