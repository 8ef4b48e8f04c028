// The watchdog of a seed run (runtime/failure/input_limits.h): `./target --timeout 200ms` fails an
// input that runs past the timeout, and `--rss-limit-mb` one whose process grows past the
// limit, naming the input and exiting 1; an input within its limits, and the time between
// inputs, are not failures. Each run is a forked child (the watchdog starts once per
// process); the failure record is in shared memory.
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "runtime/failure/crash_handler.h"
#include "runtime/failure/input_limits.h"
#include "test/runtime/forked_input.h"

namespace fuzzer::cfuzz {
namespace {

using namespace std::chrono_literals;
using ::fuzzer::cfuzz::testing::ChildOptions;
using ::fuzzer::cfuzz::testing::ChildOutcome;
using ::fuzzer::cfuzz::testing::describe;
using ::fuzzer::cfuzz::testing::run_in_child;

[[noreturn]] void sleep_forever() {
  for (;;) ::pause();
}

[[noreturn]] void spin_forever() {
  volatile std::uint64_t n = 0;
  for (;;) n = n + 1;
}

template <class Body>
ChildOutcome run_with_limits(InputLimits limits, Body body) {
  return run_in_child(
      ChildOptions{}, [limits] { start_input_watchdog(limits); }, body);
}

InputLimits timeout(std::chrono::nanoseconds t) {
  InputLimits limits;
  limits.timeout = t;
  return limits;
}

InputLimits rss_limit_mb(std::uint64_t mb) {
  InputLimits limits;
  limits.rss_limit_mb = mb;
  return limits;
}

void expect_timeout(const ChildOutcome& out) {
  EXPECT_TRUE(out.exited_with(1)) << describe(out);
  EXPECT_EQ(out.kind(), core::FailureKind::Timeout) << describe(out);
  EXPECT_STREQ(out.record.detail, "timeout");
  EXPECT_STREQ(out.record.message, "an input ran for more than 200ms (--timeout)");
  EXPECT_EQ(out.stderr_,
            "--- FAIL: FuzzX/seed#1 (timed out)\n    timeout: an input ran for more than 200ms (--timeout)\nFAIL\n");
}

TEST(InputWatchdog, AnInputThatBlocksPastTheTimeoutIsATimeout) {
  // A deadlocked input: blocked time counts (the child dies of SIGALRM after 60 s if the
  // watchdog never fires).
  expect_timeout(run_with_limits(timeout(200ms), [] { sleep_forever(); }));
}

TEST(InputWatchdog, AnInputThatSpinsPastTheTimeoutIsATimeout) {
  // An endless loop: fails once it has run 200 ms, however long a loaded machine makes it
  // wait for a core.
  expect_timeout(run_with_limits(timeout(200ms), [] { spin_forever(); }));
}

TEST(InputWatchdog, FastInputsAndTheTimeBetweenThemAreNoTimeout) {
  // Inputs of a millisecond for more than twice the timeout in all, then twice the timeout
  // between two inputs: each input is timed alone, and only while it runs. (A timeout of
  // 500 ms: on a loaded machine, no millisecond input comes near it.)
  ChildOptions options;
  options.begin_execution = false;
  ChildOutcome out = run_in_child(
      options, [] { start_input_watchdog(timeout(500ms)); },
      [] {
        auto end = std::chrono::steady_clock::now() + 1100ms;
        while (std::chrono::steady_clock::now() < end) {
          begin_execution();
          std::this_thread::sleep_for(1ms);
          end_execution();
        }
        std::this_thread::sleep_for(1000ms);
        begin_execution();
        end_execution();
      });
  EXPECT_TRUE(out.exited_with(0)) << describe(out);
  EXPECT_EQ(out.kind(), core::FailureKind::None) << describe(out);
  EXPECT_EQ(out.stderr_, "");
}

TEST(InputWatchdog, AnInputOverTheMemoryLimitIsOutOfMemory) {
  ChildOutcome out = run_with_limits(rss_limit_mb(64), [] {
    // 256 MB, touched so that it is resident, and kept while the input runs on.
    constexpr std::size_t kSize = 256u << 20;
    auto* p = static_cast<char*>(std::malloc(kSize));
    if (p == nullptr) ::syscall(SYS_exit_group, 99);
    std::memset(p, 1, kSize);
    asm volatile("" : : "r"(p) : "memory");
    sleep_forever();
  });
  EXPECT_TRUE(out.exited_with(1)) << describe(out);
  EXPECT_EQ(out.kind(), core::FailureKind::OutOfMemory) << describe(out);
  EXPECT_STREQ(out.record.detail, "out-of-memory");
  std::string message = out.record.message;
  EXPECT_TRUE(message.starts_with("the target used ")) << message;
  EXPECT_TRUE(message.ends_with(" MB of memory, over the 64 MB limit (--rss-limit-mb)")) << message;
  // The reading it reports is over the limit.
  std::uint64_t used = std::strtoull(message.c_str() + std::strlen("the target used "), nullptr, 10);
  EXPECT_GT(used, 64u) << message;
  EXPECT_NE(out.stderr_.find("--- FAIL: FuzzX/seed#1 (out of memory)\n    out-of-memory: the target used "),
            std::string::npos)
      << describe(out);
}

TEST(InputWatchdog, AnInputUnderTheLimitsIsNoFailure) {
  // 16 MB for a second: well within both limits for the watchdog's many readings of it.
  InputLimits limits;
  limits.timeout = 10s;
  limits.rss_limit_mb = 512;
  ChildOutcome out = run_with_limits(limits, [] {
    constexpr std::size_t kSize = 16u << 20;
    auto* p = static_cast<char*>(std::malloc(kSize));
    if (p == nullptr) ::syscall(SYS_exit_group, 99);
    std::memset(p, 1, kSize);
    asm volatile("" : : "r"(p) : "memory");
    std::this_thread::sleep_for(1s);
    std::free(p);
    // The watchdog did read the memory while the input ran.
    if (watchdog_last_rss_mb() == 0) ::syscall(SYS_exit_group, 98);
  });
  EXPECT_TRUE(out.exited_with(0)) << describe(out);
  EXPECT_EQ(out.kind(), core::FailureKind::None) << describe(out);
  EXPECT_EQ(out.stderr_, "");
}

}  // namespace
}  // namespace fuzzer::cfuzz
