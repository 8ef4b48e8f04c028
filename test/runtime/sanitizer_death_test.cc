// What the sanitizer death callback (runtime/failure/crash_handler.h) records when AddressSanitizer
// or UndefinedBehaviorSanitizer halts the process on the running input's bug: the kind
// Sanitizer, the report's error type, and where. This file is compiled with both
// sanitizers, as a target is; the runtime is not. Each input runs in a forked child.
#include <cstdint>
#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

#include "runtime/failure/crash_handler.h"
#include "test/runtime/forked_input.h"

namespace fuzzer::cfuzz {
namespace {

using ::fuzzer::cfuzz::testing::ChildOptions;
using ::fuzzer::cfuzz::testing::ChildOutcome;
using ::fuzzer::cfuzz::testing::describe;
using ::fuzzer::cfuzz::testing::run_in_child;

[[gnu::noinline]] void overflow_the_heap() {
  auto* p = static_cast<volatile char*>(std::malloc(16));
  volatile int index = 16;
  p[index] = 1;
  std::free(const_cast<char*>(p));
}

constexpr int kAddLine = __LINE__ + 1;
[[gnu::noinline]] int add(int a, int b) { return a + b; }

TEST(SanitizerDeathCallback, AddressSanitizerReportIsRecordedWithItsErrorTypeAndSite) {
  ChildOutcome out = run_in_child(ChildOptions{}, [] { overflow_the_heap(); });
  // AddressSanitizer ends the process itself, with its exit code (1).
  EXPECT_TRUE(out.exited_with(1)) << describe(out);
  EXPECT_EQ(out.kind(), core::FailureKind::Sanitizer) << describe(out);
  EXPECT_STREQ(out.record.detail, "AddressSanitizer: heap-buffer-overflow");
  // The site is the access, in the target's code.
  EXPECT_TRUE(std::string(out.record.site).starts_with(std::string(program_invocation_short_name) + "+0x"))
      << describe(out);
  // The sanitizer's report, then the line naming the seed.
  EXPECT_NE(out.stderr_.find("ERROR: AddressSanitizer: heap-buffer-overflow"), std::string::npos) << describe(out);
  EXPECT_NE(out.stderr_.find(std::string("--- FAIL: FuzzX/seed#1 (crashed)\n    AddressSanitizer: "
                                         "heap-buffer-overflow at ") +
                             out.record.site + "\nFAIL\n"),
            std::string::npos)
      << describe(out);
}

TEST(SanitizerDeathCallback, UndefinedBehaviorSanitizerReportIsRecordedWithItsKindAndLine) {
  ChildOutcome out = run_in_child(ChildOptions{}, [] {
    volatile int big = 0x7fffffff;
    volatile int sum = add(big, 1);
    (void)sum;
  });
  EXPECT_FALSE(out.exited_with(0)) << describe(out);
  EXPECT_EQ(out.kind(), core::FailureKind::Sanitizer) << describe(out);
  EXPECT_STREQ(out.record.detail, "UndefinedBehaviorSanitizer: signed-integer-overflow");
  // The site is the report's file and line: that of `a + b` in add().
  std::string site = out.record.site;
  EXPECT_EQ(site, "sanitizer_death_test.cc:" + std::to_string(kAddLine)) << describe(out);
  EXPECT_NE(out.stderr_.find("--- FAIL: FuzzX/seed#1 (crashed)\n    UndefinedBehaviorSanitizer: "
                             "signed-integer-overflow at sanitizer_death_test.cc:"),
            std::string::npos)
      << describe(out);
}

}  // namespace
}  // namespace fuzzer::cfuzz
