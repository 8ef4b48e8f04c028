// Failure records: when two failures are the same bug, how a failure reads in one line,
// and the signal-safe setters.
#include "core/failure_record.h"

#include <cstring>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

namespace cfuzz::core {
namespace {

FailureRecord record(FailureKind kind, const char* detail, const char* site, const char* message = "",
                     int exit_code = 0, int signal = 0) {
  FailureRecord r;
  std::memset(&r, 0x7f, sizeof r);  // garbage that failure_clear must overwrite
  failure_clear(r);
  r.kind = static_cast<std::uint32_t>(kind);
  r.exit_code = exit_code;
  r.signal = signal;
  failure_set(r.detail, detail);
  failure_set(r.site, site);
  failure_set(r.message, message);
  return r;
}

TEST(FailureRecord, SameFailureNeedsTheSameKindAndDetail) {
  const auto a = record(FailureKind::Signal, "SIGSEGV", "t+0x10 t+0x20");
  EXPECT_TRUE(same_failure(a, a));
  EXPECT_FALSE(same_failure(a, record(FailureKind::Sanitizer, "SIGSEGV", "t+0x10")));
  EXPECT_FALSE(same_failure(a, record(FailureKind::Signal, "SIGBUS", "t+0x10")));
}

TEST(FailureRecord, SameFailureComparesOnlyTheInnermostFrameOfTheSite) {
  const auto a = record(FailureKind::Signal, "SIGSEGV", "t+0x10 t+0x20 t+0x30");
  EXPECT_TRUE(same_failure(a, record(FailureKind::Signal, "SIGSEGV", "t+0x10 other+0x99")));
  EXPECT_TRUE(same_failure(a, record(FailureKind::Signal, "SIGSEGV", "t+0x10")));
  EXPECT_FALSE(same_failure(a, record(FailureKind::Signal, "SIGSEGV", "t+0x11 t+0x20 t+0x30")));
  // "t+0x1" is a prefix of "t+0x10" but a different frame, whichever side it is on.
  const auto prefix = record(FailureKind::Signal, "SIGSEGV", "t+0x1 t+0x20");
  EXPECT_FALSE(same_failure(a, prefix));
  EXPECT_FALSE(same_failure(prefix, a));
  const auto returned = record(FailureKind::Returned, "", "parse.cc:12", "parse.cc:12: bad");
  EXPECT_TRUE(same_failure(returned, record(FailureKind::Returned, "", "parse.cc:12", "other text")));
  EXPECT_FALSE(same_failure(returned, record(FailureKind::Returned, "", "parse.cc:13", "")));
}

TEST(FailureRecord, AnUnknownSiteMatchesAnySite) {
  const auto known = record(FailureKind::Sanitizer, "heap-buffer-overflow", "t+0x10");
  const auto unknown = record(FailureKind::Sanitizer, "heap-buffer-overflow", "");
  EXPECT_TRUE(same_failure(known, unknown));
  EXPECT_TRUE(same_failure(unknown, known));
  EXPECT_TRUE(same_failure(unknown, unknown));
}

TEST(FailureRecord, AStackOverflowIsTheSameWhereverTheStackRanOut) {
  const auto a = record(FailureKind::Sanitizer, "stack-overflow", "t+0x10");
  const auto b = record(FailureKind::Sanitizer, "stack-overflow", "t+0x4444");
  EXPECT_TRUE(same_failure(a, b));
  EXPECT_TRUE(same_failure(b, a));
  // ...but only a stack overflow: the same sites with another detail differ.
  EXPECT_FALSE(same_failure(record(FailureKind::Sanitizer, "heap-use-after-free", "t+0x10"),
                            record(FailureKind::Sanitizer, "heap-use-after-free", "t+0x4444")));
}

// The key --keepfuzzing and the shared cache's claims go by follows the same rule: one
// stack overflow, wherever it struck, is saved once.
TEST(FailureRecord, TheSignatureFollowsTheSameRule) {
  auto key = [](const FailureRecord& r) { return failure_signature(r); };
  EXPECT_EQ(key(record(FailureKind::Sanitizer, "stack-overflow", "t+0x10")),
            key(record(FailureKind::Sanitizer, "stack-overflow", "t+0x4444 t+0x10")));
  EXPECT_NE(key(record(FailureKind::Sanitizer, "heap-use-after-free", "t+0x10")),
            key(record(FailureKind::Sanitizer, "heap-use-after-free", "t+0x4444")));
  EXPECT_EQ(key(record(FailureKind::Signal, "SIGSEGV", "t+0x10 t+0x20")),
            key(record(FailureKind::Signal, "SIGSEGV", "t+0x10 other+0x99")));
  EXPECT_NE(key(record(FailureKind::Signal, "SIGSEGV", "t+0x10")),
            key(record(FailureKind::Signal, "SIGBUS", "t+0x10")));
  EXPECT_NE(key(record(FailureKind::Exit, "exit", "", "", 3)), key(record(FailureKind::Exit, "exit", "", "", 4)));
  // An exit code says nothing of a signal's failure (the record keeps what the worker saw).
  EXPECT_EQ(key(record(FailureKind::Signal, "SIGABRT", "t+0x10", "", 0)),
            key(record(FailureKind::Signal, "SIGABRT", "t+0x10", "", 134)));
  // Wherever same_failure and the signature both judge, they agree.
  std::vector<FailureRecord> all = {
      record(FailureKind::Sanitizer, "stack-overflow", "t+0x10"),
      record(FailureKind::Sanitizer, "stack-overflow", "u+0x1"),
      record(FailureKind::Signal, "SIGSEGV", "t+0x10"),
      record(FailureKind::Signal, "SIGSEGV", "t+0x11"),
      record(FailureKind::Exit, "exit", "a+0x1", "", 3),
      record(FailureKind::Exit, "exit", "a+0x1", "", 5),
  };
  for (const auto& a : all) {
    for (const auto& b : all) EXPECT_EQ(same_failure(a, b), key(a) == key(b)) << key(a) << " / " << key(b);
  }
}

TEST(FailureRecord, ExitsAreTheSameOnlyWithTheSameExitCode) {
  const auto e3 = record(FailureKind::Exit, "exit", "", "", 3);
  EXPECT_TRUE(same_failure(e3, record(FailureKind::Exit, "exit", "", "", 3)));
  EXPECT_FALSE(same_failure(e3, record(FailureKind::Exit, "exit", "", "", 4)));
  // Other kinds ignore the exit code.
  EXPECT_TRUE(same_failure(record(FailureKind::Signal, "SIGABRT", "", "", 1),
                           record(FailureKind::Signal, "SIGABRT", "", "", 2)));
}

TEST(FailureRecord, SummaryReadsNaturallyForEachKind) {
  EXPECT_EQ(failure_summary(record(FailureKind::None, "", "")), "no failure");
  EXPECT_EQ(
      failure_summary(record(FailureKind::Returned, "", "parse.cc:12", "parse.cc:12: bad input\nparse.cc:13: more")),
      "parse.cc:12: bad input");
  EXPECT_EQ(failure_summary(record(FailureKind::Returned, "", "parse.cc:12", "")), "parse.cc:12");
  EXPECT_EQ(failure_summary(record(FailureKind::Exception, "std::out_of_range", "t+0x1", "vector::at\nsecond line")),
            "uncaught exception std::out_of_range: vector::at");
  EXPECT_EQ(failure_summary(record(FailureKind::Signal, "SIGSEGV", "t+0x1234 t+0x99")),
            "deadly signal SIGSEGV at t+0x1234");
  EXPECT_EQ(failure_summary(record(FailureKind::Signal, "SIGSEGV", "t+0x1234"), false), "deadly signal SIGSEGV");
  EXPECT_EQ(failure_summary(record(FailureKind::Signal, "SIGFPE", "")), "deadly signal SIGFPE");
  EXPECT_EQ(failure_summary(record(FailureKind::Sanitizer, "AddressSanitizer: heap-buffer-overflow", "t+0x10 t+0x20")),
            "AddressSanitizer: heap-buffer-overflow at t+0x10");
  EXPECT_EQ(failure_summary(record(FailureKind::Exit, "exit", "", "", 7)), "target called exit(7)");
  EXPECT_EQ(failure_summary(record(FailureKind::Timeout, "timeout", "", "input ran for 10s")), "input ran for 10s");
  EXPECT_EQ(failure_summary(record(FailureKind::OutOfMemory, "out-of-memory", "")), "out-of-memory");
  EXPECT_EQ(failure_summary(record(FailureKind::RpcCorrupted, "rpc-corrupted", "", "fd 3 closed")), "fd 3 closed");
}

// An exception not derived from std::exception has no message (runtime/engine/executor.cc's
// catch (...) records only the type): `throw 42;` reads "uncaught exception int".
TEST(FailureRecord, SummaryOfAnExceptionWithoutAMessageEndsWithItsType) {
  EXPECT_EQ(failure_summary(record(FailureKind::Exception, "int", "")), "uncaught exception int");
}

TEST(FailureRecord, KindNamesAreDistinct) {
  std::set<std::string_view> names;
  for (std::uint32_t k = 0; k <= static_cast<std::uint32_t>(FailureKind::StackLimit); ++k) {
    names.insert(failure_kind_name(static_cast<FailureKind>(k)));
  }
  EXPECT_EQ(names.size(), static_cast<std::size_t>(FailureKind::StackLimit) + 1);
  EXPECT_EQ(failure_kind_name(FailureKind::OutOfMemory), "out-of-memory");
  EXPECT_EQ(failure_kind_name(static_cast<FailureKind>(999)), "unknown");
}

TEST(FailureRecord, SettersTruncateAndTerminateWithinTheField) {
  char buf[8 + 4];
  std::memset(buf, '#', sizeof buf);
  failure_set_text(buf, 8, "0123456789abcdef");
  EXPECT_STREQ(buf, "0123456");
  EXPECT_EQ(std::string(buf + 8, 4), "####");  // nothing written past the field

  std::memset(buf, '#', sizeof buf);
  failure_set_text(buf, 8, "0123456");  // exactly fits with its terminator
  EXPECT_STREQ(buf, "0123456");
  failure_set_text(buf, 8, "");
  EXPECT_STREQ(buf, "");
  failure_set_text(buf, 1, "abc");
  EXPECT_STREQ(buf, "");

  FailureRecord r;
  failure_set(r.detail, std::string(1000, 'd'));
  EXPECT_EQ(std::strlen(r.detail), sizeof r.detail - 1);
  failure_set(r.message, std::string(10000, 'm'));
  EXPECT_EQ(std::strlen(r.message), sizeof r.message - 1);
  // Embedded NULs are copied as bytes; the text reads up to the first one.
  failure_set(r.site, std::string_view("ab\0cd", 5));
  EXPECT_STREQ(r.site, "ab");
}

// A record from shared memory may be anything a target wrote there.
TEST(FailureRecord, ARecordFromAWorkerIsMadeSafeToRead) {
  FailureRecord shared;
  std::memset(&shared, 'A', sizeof shared);  // no terminator anywhere
  shared.kind = 12345;
  FailureRecord r = failure_from_worker(shared);
  EXPECT_EQ(r.kind, static_cast<std::uint32_t>(FailureKind::RpcCorrupted));
  EXPECT_STREQ(r.detail, "shm-corrupted");
  shared.kind = static_cast<std::uint32_t>(FailureKind::Signal);
  shared.detail[3] = '\x1b';  // a terminal escape
  r = failure_from_worker(shared);
  EXPECT_EQ(std::strlen(r.detail), sizeof r.detail - 1);
  EXPECT_EQ(std::strlen(r.message), sizeof r.message - 1);
  EXPECT_EQ(r.detail[3], '?');
  EXPECT_FALSE(failure_summary(r).empty());
}

}  // namespace
}  // namespace cfuzz::core
