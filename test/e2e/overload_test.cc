// A machine with more busy processes than cores: inputs that take 250 ms of CPU each, on
// one core shared with busy loops and a second coordinator, take seconds by the clock. The
// per-input timeout must not call them hangs (the coordinator subtracts the time a worker
// waited for a CPU), and a real hang on the same busy core must still be reported.
#include <sched.h>
#include <signal.h>

#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "test/support/test_support.h"

namespace cfuzz::test {
namespace {

// This test process, and so every process it starts, on one CPU while the object lives.
class PinnedToOneCpu {
 public:
  PinnedToOneCpu() {
    CPU_ZERO(&before_);
    sched_getaffinity(0, sizeof before_, &before_);
    cpu_set_t one;
    CPU_ZERO(&one);
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
      if (CPU_ISSET(cpu, &before_)) {
        CPU_SET(cpu, &one);
        break;
      }
    }
    sched_setaffinity(0, sizeof one, &one);
  }
  ~PinnedToOneCpu() { sched_setaffinity(0, sizeof before_, &before_); }

 private:
  cpu_set_t before_;
};

// Busy loops for as long as the object lives.
class BusyLoops {
 public:
  explicit BusyLoops(int count) {
    for (int i = 0; i < count; ++i) {
      loops_.push_back(std::make_unique<Background>(std::vector<std::string>{"/bin/sh", "-c", "while :; do :; done"}));
    }
  }
  ~BusyLoops() {
    for (auto& loop : loops_) {
      loop->signal(SIGKILL);
      loop->wait();
    }
  }

 private:
  std::vector<std::unique_ptr<Background>> loops_;
};

std::vector<std::string> fuzz_command(const TempDir& dir, const std::string& fuzztime) {
  return {cfuzz(),     "run", target("slow_inputs"), "--cachedir", (dir / "cache").string(), "--parallel", "2",
          "--timeout", "1s",  "--fuzztime",          fuzztime,     "--fuzzminimizetime",     "3s"};
}

TEST(Overload, SlowInputsOnABusyCoreAreNotReportedAsTimeouts) {
  PinnedToOneCpu pinned;
  BusyLoops busy(4);
  TempDir a, b;
  // Two coordinators of two workers each, four busy loops: a worker gets about an eighth of
  // the core, so each 250 ms input takes about 2 s by the clock, twice the timeout.
  std::vector<std::string> env{"CFUZZ_TEST_INPUT_MS=250"};
  Background second(fuzz_command(b, "15s"), {.cwd = b.str(), .env = env});
  auto first = run(fuzz_command(a, "15s"), {.cwd = a.str(), .env = env, .timeout = std::chrono::seconds(240)});
  auto other = second.wait(std::chrono::seconds(240));
  for (const auto* r : {&first, &other}) {
    EXPECT_EQ(r->exit_code, 0) << r->all();
    EXPECT_NE(r->out.find("PASS"), std::string::npos) << r->all();
    EXPECT_EQ(r->all().find("--timeout"), std::string::npos) << r->all();
    EXPECT_EQ(r->all().find("FAIL"), std::string::npos) << r->all();
    EXPECT_EQ(r->all().find("stopped answering"), std::string::npos) << r->all();
  }
}

TEST(Overload, TheTargetsOwnTimeoutOnABusyCoreIsNotFooled) {
  PinnedToOneCpu pinned;
  BusyLoops busy(6);
  TempDir dir;
  // The seed run and the libFuzzer front end time inputs inside the target.
  std::vector<std::string> env{"CFUZZ_TEST_INPUT_MS=250"};
  auto seeds = run({target("slow_inputs"), "--timeout", "1s"}, {.cwd = dir.str(), .env = env});
  EXPECT_EQ(seeds.exit_code, 0) << seeds.all();
  auto front_end = run({target("slow_inputs"), "-timeout=1", "-runs=6"}, {.cwd = dir.str(), .env = env});
  EXPECT_EQ(front_end.exit_code, 0) << front_end.all();
  EXPECT_NE(front_end.all().find("Done 6 runs"), std::string::npos) << front_end.all();
}

TEST(Overload, AnInputBlockedOnABusyCoreIsStillATimeout) {
  PinnedToOneCpu pinned;
  BusyLoops busy(4);
  TempDir dir;
  auto r = run(fuzz_command(dir, "60s"),
               {.cwd = dir.str(), .env = {"CFUZZ_TEST_INPUT_MS=block"}, .timeout = std::chrono::seconds(240)});
  EXPECT_EQ(r.exit_code, 1) << r.all();
  EXPECT_NE(r.out.find("an input ran for more than 1s (--timeout)"), std::string::npos) << r.all();
}

}  // namespace
}  // namespace cfuzz::test
