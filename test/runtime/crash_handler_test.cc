// What the crash handler (runtime/failure/crash_handler.h) records when the running input kills
// its process: the kind, the signal and its name, where it happened, and the line that
// names the input, for a seed run (exit status 1) and for a worker (dies of the signal, so
// that the coordinator sees it). Each input runs in a forked child; the failure record is
// in shared memory, as a worker's is.
#include "runtime/failure/crash_handler.h"

#include <errno.h>
#include <link.h>
#include <pthread.h>
#include <signal.h>

#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "test/runtime/forked_input.h"

namespace fuzzer::cfuzz {
namespace {

using ::fuzzer::cfuzz::testing::ChildOptions;
using ::fuzzer::cfuzz::testing::ChildOutcome;
using ::fuzzer::cfuzz::testing::describe;
using ::fuzzer::cfuzz::testing::run_in_child;

// The crash site names the test executable's code as the target's: "crash_handler_test+0x...".
std::string own_module_prefix() { return std::string(program_invocation_short_name) + "+0x"; }

// The load address of the executable, to turn a function's address into the offset that
// the site names.
std::uintptr_t executable_base() {
  std::uintptr_t base = 0;
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* data) {
        *static_cast<std::uintptr_t*>(data) = info->dlpi_addr;
        return 1;  // the first entry is the executable
      },
      &base);
  return base;
}

// The offset of the first frame of a site ("name+0x1a2b other+0x..."), or 0.
std::uintptr_t first_site_offset(const char* site) {
  std::string s(site);
  auto plus = s.find("+0x");
  if (plus == std::string::npos) return 0;
  return std::strtoull(s.c_str() + plus + 3, nullptr, 16);
}

[[gnu::noinline]] void write_through_null() {
  int* volatile p = nullptr;
  *p = 1;
}

[[gnu::noinline]] void divide_by_zero() {
  volatile int zero = 0;
  volatile int one = 1;
  volatile int quotient = one / zero;
  (void)quotient;
}

[[gnu::noinline]] void call_abort() { std::abort(); }

[[gnu::noinline]] void execute_trap() { __builtin_trap(); }

// Each frame holds a buffer it writes to, and uses the result of the call after it: no
// tail call, no loop, so each level takes stack until it runs out.
[[gnu::noinline]] int recurse(int depth) {
  volatile char frame[512];
  frame[0] = static_cast<char>(depth);
  if (depth < 0) return 0;  // never: the depth only grows
  int below = recurse(depth + 1);
  return below + frame[0];
}

// Whether the first frame of the site lies in `fn` (compiled to far fewer than 256 bytes).
void expect_site_in(const ChildOutcome& out, void (*fn)()) {
  std::uintptr_t fn_offset = reinterpret_cast<std::uintptr_t>(fn) - executable_base();
  std::uintptr_t offset = first_site_offset(out.record.site);
  EXPECT_GE(offset, fn_offset) << describe(out);
  EXPECT_LT(offset, fn_offset + 256) << describe(out);
}

TEST(CrashHandler, SeedRunRecordsSigsegvAndExitsOne) {
  ChildOutcome out = run_in_child(ChildOptions{}, [] { write_through_null(); });
  EXPECT_TRUE(out.exited_with(1)) << describe(out);
  EXPECT_EQ(out.kind(), core::FailureKind::Signal) << describe(out);
  EXPECT_EQ(out.record.signal, SIGSEGV);
  EXPECT_STREQ(out.record.detail, "SIGSEGV");
  EXPECT_TRUE(std::string(out.record.site).starts_with(own_module_prefix())) << describe(out);
  expect_site_in(out, write_through_null);
  // The dying words name the seed and the signal.
  EXPECT_EQ(out.stderr_, std::string("--- FAIL: FuzzX/seed#1 (crashed)\n    deadly signal SIGSEGV at ") +
                             out.record.site + "\nFAIL\n");
}

TEST(CrashHandler, SeedRunRecordsSigfpe) {
  ChildOutcome out = run_in_child(ChildOptions{}, [] { divide_by_zero(); });
  EXPECT_TRUE(out.exited_with(1)) << describe(out);
  EXPECT_EQ(out.kind(), core::FailureKind::Signal) << describe(out);
  EXPECT_EQ(out.record.signal, SIGFPE);
  EXPECT_STREQ(out.record.detail, "SIGFPE");
  expect_site_in(out, divide_by_zero);
  EXPECT_NE(out.stderr_.find("--- FAIL: FuzzX/seed#1 (crashed)\n    deadly signal SIGFPE at "), std::string::npos)
      << describe(out);
}

TEST(CrashHandler, SeedRunRecordsSigabrtAtTheCallerOfAbort) {
  ChildOutcome out = run_in_child(ChildOptions{}, [] { call_abort(); });
  EXPECT_TRUE(out.exited_with(1)) << describe(out);
  EXPECT_EQ(out.kind(), core::FailureKind::Signal) << describe(out);
  EXPECT_EQ(out.record.signal, SIGABRT);
  EXPECT_STREQ(out.record.detail, "SIGABRT");
  // libc's abort and raise are skipped: the site is the target's call of abort.
  EXPECT_TRUE(std::string(out.record.site).starts_with(own_module_prefix())) << describe(out);
  expect_site_in(out, call_abort);
  EXPECT_NE(out.stderr_.find("deadly signal SIGABRT at "), std::string::npos) << describe(out);
}

TEST(CrashHandler, SeedRunRecordsSigill) {
  ChildOutcome out = run_in_child(ChildOptions{}, [] { execute_trap(); });
  EXPECT_TRUE(out.exited_with(1)) << describe(out);
  EXPECT_EQ(out.kind(), core::FailureKind::Signal) << describe(out);
  EXPECT_EQ(out.record.signal, SIGILL);
  EXPECT_STREQ(out.record.detail, "SIGILL");
  expect_site_in(out, execute_trap);
}

TEST(CrashHandler, WorkerDiesOfTheSameSignal) {
  ChildOptions worker;
  worker.worker = true;
  struct Case {
    void (*fn)();
    int sig;
    const char* name;
  };
  for (Case c : {Case{write_through_null, SIGSEGV, "SIGSEGV"}, Case{divide_by_zero, SIGFPE, "SIGFPE"},
                 Case{call_abort, SIGABRT, "SIGABRT"}}) {
    SCOPED_TRACE(c.name);
    ChildOutcome out = run_in_child(worker, c.fn);
    EXPECT_TRUE(out.killed_by(c.sig)) << describe(out);
    EXPECT_EQ(out.kind(), core::FailureKind::Signal) << describe(out);
    EXPECT_EQ(out.record.signal, c.sig);
    EXPECT_STREQ(out.record.detail, c.name);
    expect_site_in(out, c.fn);
    // A worker does not name a seed: the coordinator reads the record.
    EXPECT_EQ(out.stderr_.find("--- FAIL"), std::string::npos) << describe(out);
    EXPECT_NE(out.stderr_.find(std::string("cfuzz: deadly signal ") + c.name + " at "), std::string::npos)
        << describe(out);
  }
}

// Runs `recurse` on a thread with a small stack, which installs the handlers (and with them
// the alternate signal stack, which is per thread) before the input begins.
ChildOutcome overflow_the_stack(bool worker) {
  ChildOptions options;
  options.worker = worker;
  options.begin_execution = false;
  return run_in_child(options, [] {
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 256 * 1024);
    pthread_t thread;
    auto overflow = [](void*) -> void* {
      install_crash_handlers();
      begin_execution();
      recurse(0);
      return nullptr;
    };
    if (pthread_create(&thread, &attr, overflow, nullptr) != 0) ::syscall(SYS_exit_group, 99);
    pthread_join(thread, nullptr);
  });
}

TEST(CrashHandler, StackOverflowIsNamedStackOverflow) {
  ChildOutcome out = overflow_the_stack(false);
  EXPECT_TRUE(out.exited_with(1)) << describe(out);
  EXPECT_EQ(out.kind(), core::FailureKind::Signal) << describe(out);
  EXPECT_EQ(out.record.signal, SIGSEGV);
  EXPECT_STREQ(out.record.detail, "stack-overflow");
  EXPECT_TRUE(std::string(out.record.site).starts_with(own_module_prefix())) << describe(out);
  expect_site_in(out, reinterpret_cast<void (*)()>(&recurse));
  EXPECT_NE(out.stderr_.find("--- FAIL: FuzzX/seed#1 (crashed)\n    deadly signal stack-overflow at "),
            std::string::npos)
      << describe(out);
}

TEST(CrashHandler, WorkerDiesOfSigsegvOnStackOverflow) {
  ChildOutcome out = overflow_the_stack(true);
  EXPECT_TRUE(out.killed_by(SIGSEGV)) << describe(out);
  EXPECT_STREQ(out.record.detail, "stack-overflow");
}

TEST(CrashHandler, SignalAfterTheInputIsStillRecorded) {
  // A signal between inputs (the handler does not look at the phase) is recorded too.
  ChildOptions options;
  options.begin_execution = false;
  ChildOutcome out = run_in_child(options, [] { write_through_null(); });
  EXPECT_TRUE(out.exited_with(1)) << describe(out);
  EXPECT_STREQ(out.record.detail, "SIGSEGV");
}

TEST(CrashHandler, KeepsTheFirstFailureRecorded) {
  // A failure already described (a sanitizer report, the watchdog) is not overwritten by the
  // signal that follows it.
  ChildOutcome out = run_in_child(ChildOptions{}, [] {
    core::FailureRecord* r = execution_state().record;
    r->kind = static_cast<std::uint32_t>(core::FailureKind::Sanitizer);
    core::failure_set(r->detail, "AddressSanitizer: heap-use-after-free");
    call_abort();
  });
  EXPECT_TRUE(out.exited_with(1)) << describe(out);
  EXPECT_EQ(out.kind(), core::FailureKind::Sanitizer) << describe(out);
  EXPECT_STREQ(out.record.detail, "AddressSanitizer: heap-use-after-free");
  EXPECT_EQ(out.record.signal, 0);
}

TEST(CrashHandler, FrontEndReportsInPlaceOfTheDyingWords) {
  // The libFuzzer-style front end prints its own report and chooses the exit status.
  ChildOutcome out = run_in_child(
      ChildOptions{},
      [] {
        execution_state().report_failure = [](const core::FailureRecord& r) {
          const char line[] = "front end report\n";
          if (r.kind == static_cast<std::uint32_t>(core::FailureKind::Signal)) {
            (void)!::write(2, line, sizeof line - 1);
          }
          return 77;
        };
      },
      [] { write_through_null(); });
  EXPECT_TRUE(out.exited_with(77)) << describe(out);
  EXPECT_STREQ(out.record.detail, "SIGSEGV");
  EXPECT_EQ(out.stderr_, "front end report\n");
}

TEST(CrashHandler, UncaughtExceptionIsRecordedWithItsTypeAndMessage) {
  ChildOutcome out = run_in_child(ChildOptions{}, [] { throw std::runtime_error("bad input"); });
  // std::terminate dies of SIGABRT, whose handler leaves the record as the exception's.
  EXPECT_TRUE(out.killed_by(SIGABRT)) << describe(out);
  EXPECT_EQ(out.kind(), core::FailureKind::Exception) << describe(out);
  EXPECT_STREQ(out.record.detail, "std::runtime_error");
  EXPECT_STREQ(out.record.message, "bad input");
  EXPECT_NE(out.stderr_.find("--- FAIL: FuzzX/seed#1 (crashed)\n    std::runtime_error: bad input"), std::string::npos)
      << describe(out);
}

TEST(CrashHandler, ExitDuringAnInputFailsItEvenWithStatusZero) {
  ChildOutcome out = run_in_child(ChildOptions{}, [] { std::exit(0); });
  EXPECT_TRUE(out.exited_with(1)) << describe(out);
  EXPECT_EQ(out.kind(), core::FailureKind::Exit) << describe(out);
  EXPECT_EQ(out.record.exit_code, 0);
  EXPECT_NE(out.stderr_.find("--- FAIL: FuzzX/seed#1 (crashed)\n    the target called exit(0)"), std::string::npos)
      << describe(out);
}

TEST(CrashHandler, UnderscoreExitDuringAnInputIsRecordedWithItsCode) {
  ChildOutcome out = run_in_child(ChildOptions{}, [] { _exit(3); });
  EXPECT_TRUE(out.exited_with(1)) << describe(out);
  EXPECT_EQ(out.kind(), core::FailureKind::Exit) << describe(out);
  EXPECT_EQ(out.record.exit_code, 3);
  EXPECT_NE(out.stderr_.find("the target called exit(3)"), std::string::npos) << describe(out);
}

TEST(CrashHandler, ExitBetweenInputsIsNoFailure) {
  ChildOptions options;
  options.begin_execution = false;
  ChildOutcome out = run_in_child(options, [] { std::exit(4); });
  EXPECT_TRUE(out.exited_with(4)) << describe(out);
  EXPECT_EQ(out.kind(), core::FailureKind::None) << describe(out);
  EXPECT_EQ(out.stderr_, "");
}

TEST(CrashHandler, InputThatReturnsLeavesTheRecordEmpty) {
  ChildOutcome out = run_in_child(ChildOptions{}, [] {});
  EXPECT_TRUE(out.exited_with(0)) << describe(out);
  EXPECT_EQ(out.kind(), core::FailureKind::None) << describe(out);
  EXPECT_EQ(out.stderr_, "");
}

}  // namespace
}  // namespace fuzzer::cfuzz
