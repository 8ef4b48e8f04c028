// A worker that grows about 10 MiB a second, whatever its speed, and keeps every byte
// reachable (no leak to report): what ASan's allocator does to a long-lived worker, sped
// up. The growth restarts with each new process.
#include <cfuzz/cfuzz.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <vector>

CFUZZ_TEST(FuzzGrowing, f) {
  f.add(std::vector<std::uint8_t>{'a'});
  f.fuzz([](cfuzz::T&, std::span<const std::uint8_t>) {
    using Clock = std::chrono::steady_clock;
    static const Clock::time_point started = Clock::now();
    static std::vector<std::unique_ptr<char[]>> kept;
    constexpr std::size_t kMiB = 1 << 20;
    auto due = static_cast<std::size_t>((Clock::now() - started) / std::chrono::milliseconds(100));
    while (kept.size() < due) {
      kept.emplace_back(new char[kMiB]);
      std::memset(kept.back().get(), 1, kMiB);
    }
  });
}
