#include "libfuzzdriver/worker_growth.h"

namespace cfuzz::driver {

void WorkerGrowth::started(Clock::time_point now) {
  started_ = now;
  base_mb_ = 0;
}

bool WorkerGrowth::outgrown(std::uint64_t rss_mb, Clock::time_point now) {
  if (limit_mb_ == 0 || rss_mb == 0) return false;
  if (base_mb_ == 0) {
    base_mb_ = rss_mb;
    return false;
  }
  return now - started_ >= kMinAge && rss_mb > base_mb_ + limit_mb_;
}

}  // namespace cfuzz::driver
