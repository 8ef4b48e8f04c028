#include "libfuzzdriver/worker/worker_growth.h"

#include <algorithm>

namespace cfuzz::driver {

void WorkerGrowth::started(Clock::time_point now, Clock::duration cost) {
  started_ = now;
  base_mb_ = 0;
  min_age_ = std::max<Clock::duration>(kMinAge, cost * kAgePerStartCost);
}

bool WorkerGrowth::outgrown(std::uint64_t rss_mb, Clock::time_point now) {
  if (base_mb_ == 0 && rss_mb > 0) {
    base_mb_ = rss_mb;
    return false;
  }
  if (age(now) < min_age_) return false;
  if (max_age_.count() > 0 && age(now) >= max_age_) return true;
  return limit_mb_ > 0 && base_mb_ > 0 && rss_mb > base_mb_ + limit_mb_;
}

}  // namespace cfuzz::driver
