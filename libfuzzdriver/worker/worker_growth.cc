#include "libfuzzdriver/worker/worker_growth.h"

#include <algorithm>

namespace cfuzz::driver {

void WorkerGrowth::started(Clock::time_point now, Clock::duration cost) {
  started_ = now;
  base_mb_ = 0;
  min_age_ = std::max<Clock::duration>(kMinAge, cost * kAgePerStartCost);
}

bool WorkerGrowth::outgrown(std::uint64_t rss_mb, Clock::time_point now) {
  if (limit_mb_ == 0 || rss_mb == 0) return false;
  if (base_mb_ == 0) {
    base_mb_ = rss_mb;
    return false;
  }
  return now - started_ >= min_age_ && rss_mb > base_mb_ + limit_mb_;
}

}  // namespace cfuzz::driver
