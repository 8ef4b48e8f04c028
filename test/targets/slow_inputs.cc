// Inputs that take a while: each execution spins for $CFUZZ_TEST_INPUT_MS milliseconds of
// its own CPU time (so on a machine busier than its cores it takes longer by the clock),
// or, with CFUZZ_TEST_INPUT_MS=block, blocks for good in pause(): a real hang that uses no CPU.
#include <cfuzz/cfuzz.h>
#include <time.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <span>
#include <vector>

namespace {

double thread_cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

}  // namespace

CFUZZ_TEST(FuzzSlow, f) {
  f.add(std::vector<std::uint8_t>{'a'});
  f.fuzz([](cfuzz::T&, std::span<const std::uint8_t> input) {
    static const char* setting = std::getenv("CFUZZ_TEST_INPUT_MS");
    if (setting != nullptr && std::strcmp(setting, "block") == 0) {
      for (;;) pause();
    }
    static const double ms = setting != nullptr ? std::atof(setting) : 50;
    double until = thread_cpu_ms() + ms;
    volatile std::uint64_t sink = 0;
    while (thread_cpu_ms() < until) {
      for (std::uint8_t b : input) sink = sink + b;
    }
  });
}
