// Reading a failure's stack (crash_stack.h): the frames of a sanitizer's report and of a
// symbolized site, which of them are the user's code, and the names fingerprints use.
#include "libfuzzdriver/report/crash_stack.h"

#include <gtest/gtest.h>

#include "libfuzzdriver/report/sarif_report.h"

namespace cfuzz::driver {
namespace {

FailureReport asan_report(const std::string& stack) {
  FailureReport r;
  core::failure_clear(r.failure);
  r.failure.kind = static_cast<std::uint32_t>(core::FailureKind::Sanitizer);
  core::failure_set(r.failure.detail, "AddressSanitizer: heap-buffer-overflow");
  r.output =
      "==1==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x6020 at pc 0x55\n"
      "READ of size 1 at 0x6020 thread T0\n" +
      stack +
      "\n0x6020 is located 0 bytes to the right of 1-byte region\n"
      "allocated by thread T0 here:\n"
      "    #0 0x55 in malloc (/b/t+0xb6c7e) (BuildId: 004f)\n"
      "    #1 0x56 in other_place() /src/other.cc:1:1\n";
  return r;
}

const std::string kStack =
    "    #0 0x5601 in (anonymous namespace)::parse(std::span<unsigned char const, 18446744073709551615ul>) "
    "/src/proj/parse.cc:176:23\n"
    "    #1 0x5602 in cfuzz_test_body_FuzzX(cfuzz::F&)::$_3::operator()(cfuzz::T&) const /src/proj/fuzz.cc:20:7\n"
    "    #2 0x5603 in auto cfuzz::detail::Invoker<X>::call(void*) /build/include/cfuzz/cfuzz.h:399:7\n"
    "    #3 0x5604 in fuzzer::cfuzz::call_fuzz_function(cfuzz::T&) (/b/t+0x18033d) (BuildId: 004f)\n"
    "    #4 0x5605 in fuzzer::cfuzz::(anonymous namespace)::WorkerServer::serve() worker_server.cc.o\n"
    "    #5 0x7f01 in __libc_start_call_main csu/../sysdeps/nptl/libc_start_call_main.h:58:16\n"
    "    #6 0x5606 in _start (/b/t+0x33e30) (BuildId: 004f)\n";

TEST(CrashStack, ASanitizersFirstStackIsReadWithItsPlacesAndTheUsersFramesMarked) {
  auto frames = failure_stack(asan_report(kStack));
  ASSERT_EQ(frames.size(), 7u) << "only the error's stack, not the allocation's";
  EXPECT_EQ(frames[0].file, "/src/proj/parse.cc");
  EXPECT_EQ(frames[0].line, 176);
  EXPECT_EQ(frames[0].column, 23);
  EXPECT_EQ(frames[0].function, "(anonymous namespace)::parse(std::span<unsigned char const, 18446744073709551615ul>)");
  EXPECT_TRUE(frames[0].user);
  EXPECT_TRUE(frames[1].user);
  EXPECT_FALSE(frames[2].user) << "cfuzz's header";
  EXPECT_EQ(frames[3].module, "t+0x18033d");
  EXPECT_EQ(frames[3].file, "");
  EXPECT_FALSE(frames[3].user);
  EXPECT_EQ(frames[4].module, "worker_server.cc.o");
  EXPECT_FALSE(frames[5].user) << "libc";
  EXPECT_EQ(frames[6].function, "_start");
}

TEST(CrashStack, ASymbolizedSiteIsReadWhenThereIsNoSanitizerReport) {
  FailureReport r;
  core::failure_clear(r.failure);
  r.failure.kind = static_cast<std::uint32_t>(core::FailureKind::Signal);
  r.stack = {"(anonymous namespace)::crash /src/p.cc:12:5", "target+0x1234"};
  auto frames = failure_stack(r);
  ASSERT_EQ(frames.size(), 2u);
  EXPECT_EQ(frames[0].function, "(anonymous namespace)::crash");
  EXPECT_EQ(frames[0].file, "/src/p.cc");
  EXPECT_EQ(frames[0].line, 12);
  EXPECT_TRUE(frames[0].user);
  EXPECT_EQ(frames[1].module, "target+0x1234");
  EXPECT_FALSE(frames[1].user);
}

TEST(CrashStack, ShortFunctionNamesDropScopeAndParameters) {
  EXPECT_EQ(short_function_name("(anonymous namespace)::parse(std::span<unsigned char const, 1ul>)"), "parse");
  EXPECT_EQ(short_function_name("cfuzz_test_body_FuzzX(cfuzz::F&)::$_3::operator()(cfuzz::T&) const"), "operator()");
  EXPECT_EQ(short_function_name("ns::Parser<std::map<int, int>>::run"), "run");
  EXPECT_EQ(short_function_name("LLVMFuzzerTestOneInput"), "LLVMFuzzerTestOneInput");
}

TEST(CrashStack, FingerprintsIgnoreAddressesAndLinesButNotTheFunctions) {
  std::string moved = kStack;
  // The same bug after an edit above it and in another process: other lines, other addresses.
  for (auto [from, to] : {std::pair{"176:23", "180:23"}, {"0x5601", "0x7701"}, {"20:7", "24:7"}}) {
    moved.replace(moved.find(from), std::string(from).size(), to);
  }
  EXPECT_EQ(failure_fingerprint(asan_report(kStack)), failure_fingerprint(asan_report(moved)));
  std::string other = kStack;
  other.replace(other.find("parse("), 5, "parse_body");
  EXPECT_NE(failure_fingerprint(asan_report(kStack)), failure_fingerprint(asan_report(other)));
  EXPECT_EQ(failure_rule_id(asan_report(kStack)), "heap-buffer-overflow");
}

}  // namespace
}  // namespace cfuzz::driver
