// refine_from_sanitizer_report: what the printed report adds to the record the dying worker
// wrote. The reports are shaped as clang 14's sanitizers print them.
#include "libfuzzdriver/worker/sanitizer_report.h"

#include <cstring>
#include <string>

#include <gtest/gtest.h>

namespace cfuzz::driver {
namespace {

core::FailureRecord sanitizer_record(const char* detail, const char* site) {
  core::FailureRecord r;
  core::failure_clear(r);
  r.kind = static_cast<std::uint32_t>(core::FailureKind::Sanitizer);
  core::failure_set(r.detail, detail);
  core::failure_set(r.site, site);
  return r;
}

TEST(SanitizerReport, AnOverflowInsideAnInterceptorIsPlacedAtTheTargetsOwnFrame) {
  auto r = sanitizer_record("heap-buffer-overflow", "target+0x4d1a2");
  refine_from_sanitizer_report(r,
                               "INFO: something before\n"
                               "=================================================================\n"
                               "==42==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x602000000011 at pc "
                               "0x4d1a2 bp 0x7ffd sp 0x7ffd\n"
                               "WRITE of size 6 at 0x602000000011 thread T0\n"
                               "    #0 0x4d1a2 in __asan_memcpy (/t/target+0x4d1a2)\n"
                               "    #1 0x55c0 in parse_header /src/lib/header.c:88:5\n"
                               "    #2 0x5600 in LLVMFuzzerTestOneInput /src/fuzz.c:12:3\n"
                               "\n"
                               "0x602000000011 is located 0 bytes to the right of 1-byte region\n"
                               "allocated by thread T0 here:\n"
                               "    #0 0x4c000 in malloc (/t/target+0x4c000)\n"
                               "    #1 0x5590 in other_place /src/lib/other.c:3:9\n");
  EXPECT_STREQ(r.detail, "heap-buffer-overflow");  // the worker's own word is kept
  EXPECT_STREQ(r.site, "header.c:88:5");           // the first stack, not the allocation's
}

TEST(SanitizerReport, WithoutSymbolsTheFrameIsTheModuleAndOffset) {
  auto r = sanitizer_record("sanitizer", "");
  refine_from_sanitizer_report(r,
                               "==7==ERROR: AddressSanitizer: stack-buffer-overflow on address 0x1 at pc 0x2\n"
                               "    #0 0x4d1a2 in __interceptor_strcpy (/opt/t/target+0x4d1a2)\n"
                               "    #1 0x55c0 in copy_name (/opt/t/target+0x55c0)\n");
  EXPECT_STREQ(r.detail, "AddressSanitizer: stack-buffer-overflow");
  EXPECT_STREQ(r.site, "target+0x55c0");
}

TEST(SanitizerReport, ALeakIsPlacedPastTheAllocator) {
  auto r = sanitizer_record("sanitizer", "");
  refine_from_sanitizer_report(r,
                               "=================================================================\n"
                               "==9==ERROR: LeakSanitizer: detected memory leaks\n"
                               "\n"
                               "Direct leak of 1234 byte(s) in 1 object(s) allocated from:\n"
                               "    #0 0x4c000 in malloc /llvm/compiler-rt/lib/asan/asan_malloc_linux.cpp:69:3\n"
                               "    #1 0x4c100 in operator new[](unsigned long) (/t/target+0x4c100)\n"
                               "    #2 0x55c0 in leaky /src/leak.cc:7:13\n");
  EXPECT_STREQ(r.detail, "LeakSanitizer: detected memory leaks");
  EXPECT_STREQ(r.site, "leak.cc:7:13");
}

TEST(SanitizerReport, AThreadSanitizerWarningNamesItsErrorTypeAndItsFrameWithoutAPc) {
  // As clang 14's ThreadSanitizer prints it: no pc, the module after the line.
  auto r = sanitizer_record("sanitizer", "");
  refine_from_sanitizer_report(
      r,
      "==================\n"
      "WARNING: ThreadSanitizer: data race (pid=22894)\n"
      "  Write of size 4 at 0x55dae5c886a8 by main thread:\n"
      "    #0 bump() /tmp/race.cc:3:16 (race+0xd4438) (BuildId: c1af75a48add7f02b5fc8cd90992109fedc59f91)\n"
      "    #1 main /tmp/race.cc:4:35 (race+0xd4438)\n");
  EXPECT_STREQ(r.detail, "ThreadSanitizer: data race");
  EXPECT_STREQ(r.site, "race.cc:3:16");
}

TEST(SanitizerReport, ABuildIdAfterTheModuleIsNotTakenForTheSite) {
  auto r = sanitizer_record("sanitizer", "");
  refine_from_sanitizer_report(r,
                               "==7==ERROR: AddressSanitizer: global-buffer-overflow on address 0x1 at pc 0x2\n"
                               "    #0 0x55c0 in read_table (/opt/t/target+0x55c0) (BuildId: 0123abcd)\n");
  EXPECT_STREQ(r.site, "target+0x55c0");
}

TEST(SanitizerReport, UndefinedBehaviourKeepsTheSiteTheWorkerRecorded) {
  auto r = sanitizer_record("signed-integer-overflow", "math.cc:3");
  refine_from_sanitizer_report(r,
                               "math.cc:3:12: runtime error: signed integer overflow\n"
                               "==1==ERROR: UndefinedBehaviorSanitizer: signed-integer-overflow on unknown address\n"
                               "    #0 0x55c0 in add /src/elsewhere.cc:40:1\n");
  EXPECT_STREQ(r.detail, "signed-integer-overflow");
  EXPECT_STREQ(r.site, "math.cc:3");
}

TEST(SanitizerReport, ARecordOfAnotherKindOrOutputWithoutAReportIsLeftAlone) {
  auto r = sanitizer_record("sanitizer", "target+0x10");
  refine_from_sanitizer_report(r, "just some output of the target\nERROR: not a sanitizer line\n");
  EXPECT_STREQ(r.detail, "sanitizer");
  EXPECT_STREQ(r.site, "target+0x10");

  core::FailureRecord sig;
  core::failure_clear(sig);
  sig.kind = static_cast<std::uint32_t>(core::FailureKind::Signal);
  core::failure_set(sig.detail, "SIGSEGV");
  refine_from_sanitizer_report(sig,
                               "==1==ERROR: AddressSanitizer: SEGV on unknown address\n"
                               "    #0 0x55c0 in f /src/f.cc:1:1\n");
  EXPECT_STREQ(sig.detail, "SIGSEGV");
  EXPECT_STREQ(sig.site, "");
}

TEST(SanitizerReport, AStackOfOnlySanitizerFramesLeavesTheSiteAsItWas) {
  auto r = sanitizer_record("sanitizer", "target+0x10");
  refine_from_sanitizer_report(r,
                               "==1==ERROR: AddressSanitizer: heap-use-after-free on address 0x1\n"
                               "    #0 0x4d1a2 in __asan_memcpy (/t/target+0x4d1a2)\n"
                               "    #1 0x4d1b0 in __sanitizer_print_stack_trace (/t/target+0x4d1b0)\n"
                               "\n"
                               "    #0 0x55c0 in later /src/later.cc:9:1\n");
  EXPECT_STREQ(r.detail, "AddressSanitizer: heap-use-after-free");
  EXPECT_STREQ(r.site, "target+0x10");
}

}  // namespace
}  // namespace cfuzz::driver
