// When to replace a worker that has grown or aged. A worker is one long-lived process, and under
// ASan it keeps growing however little the target keeps: ASan's allocator holds freed
// blocks per size class and their shadow, and its stack depot every allocation stack seen
// (docs/benchmarks.md, "A long run under ASan"). AFL++'s forked children start afresh at
// every input; a cfuzz worker is started afresh, between two calls, once its resident
// memory has grown past a limit over what it held after its first call (what the target
// and the sanitizer need to run at all), or once it has reached an age limit. The age
// limit is for the workers the growth rule misses: one whose first call already left it
// large lives on while ASan's allocator and stack depot age, and in an hour's run under
// ASan the samples with a worker a minute old or older ran at 0.80 of the first minute's
// execs/s, those with both workers young at 0.93 (docs/benchmarks.md, "A long run under
// ASan").
#pragma once

#include <chrono>
#include <cstdint>

namespace cfuzz::driver {

class WorkerGrowth {
 public:
  using Clock = std::chrono::steady_clock;
  // A worker younger than this is never replaced, so that one whose working set is
  // legitimately larger than its first call's is not restarted after every call...
  static constexpr std::chrono::seconds kMinAge{10};
  // ...nor younger than this many times what its start took, so that restarts cost at
  // most about 1% of a worker's time even for a target that starts slowly.
  static constexpr int kAgePerStartCost = 100;

  // `limit_mb`: the growth allowed, 0 for any; `max_age`: the age at which a worker is
  // replaced whatever its size, 0 for none (it is never less than the youngest age above).
  explicit WorkerGrowth(std::uint64_t limit_mb, Clock::duration max_age = {})
      : limit_mb_(limit_mb), max_age_(max_age) {}

  // A new process started at `now`; starting it took `cost` (spawn to first answer).
  void started(Clock::time_point now, Clock::duration cost = {});
  // A call of the process ended and it holds `rss_mb` (0: unknown): whether to replace it
  // now, grown or old. The first report after started() is the size the growth is
  // measured from.
  bool outgrown(std::uint64_t rss_mb, Clock::time_point now);

  Clock::duration age(Clock::time_point now) const { return now - started_; }

  std::uint64_t base_mb() const { return base_mb_; }

 private:
  std::uint64_t limit_mb_;
  Clock::duration max_age_;
  std::uint64_t base_mb_ = 0;  // 0: no call has ended since the start
  Clock::time_point started_{};
  Clock::duration min_age_ = kMinAge;
};

}  // namespace cfuzz::driver
