// --fuzztime / --minimizetime budgets: Go's durations and counts, and errors that name
// the flag.
#include "libfuzzdriver/util/budget.h"

#include <chrono>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

namespace cfuzz::driver {
namespace {

using std::chrono::hours;
using std::chrono::milliseconds;
using std::chrono::minutes;
using std::chrono::nanoseconds;
using std::chrono::seconds;

nanoseconds time_of(const char* text) {
  const Budget b = Budget::parse(text, "--fuzztime", /*allow_zero=*/true);
  EXPECT_FALSE(b.count.has_value()) << text;
  EXPECT_TRUE(b.time.has_value()) << text;
  return b.time.value_or(nanoseconds(-1));
}

TEST(Budget, ParsesGoDurations) {
  EXPECT_EQ(time_of("30s"), seconds(30));
  EXPECT_EQ(time_of("10m"), minutes(10));
  EXPECT_EQ(time_of("1h30m"), minutes(90));
  EXPECT_EQ(time_of("1.5s"), milliseconds(1500));
  EXPECT_EQ(time_of("500ms"), milliseconds(500));
  EXPECT_EQ(time_of("0"), nanoseconds(0));
  EXPECT_EQ(time_of("0s"), nanoseconds(0));
  EXPECT_EQ(time_of("2h45m30.5s"), hours(2) + minutes(45) + milliseconds(30500));
  EXPECT_EQ(time_of("1ns"), nanoseconds(1));
  EXPECT_EQ(time_of("7us"), nanoseconds(7000));
  EXPECT_EQ(time_of("7\xc2\xb5s"), nanoseconds(7000));  // µs, as Go accepts
  EXPECT_EQ(time_of(".5s"), milliseconds(500));
  EXPECT_EQ(time_of("1.s"), seconds(1));
  EXPECT_EQ(time_of("0.1s"), milliseconds(100));
}

TEST(Budget, ParsesExecutionCounts) {
  const Budget b = Budget::parse("1000x", "--fuzztime", false);
  EXPECT_EQ(b.count, std::optional<std::uint64_t>(1000));
  EXPECT_FALSE(b.time.has_value());
  EXPECT_FALSE(b.unlimited());
  EXPECT_FALSE(b.is_zero());
  EXPECT_EQ(b.describe(), "1000x");
  EXPECT_EQ(Budget::parse("1000000000000x", "--fuzztime", false).count, std::optional<std::uint64_t>(1000000000000ULL));
}

TEST(Budget, ZeroIsRefusedUnlessAllowed) {
  EXPECT_TRUE(Budget::parse("0x", "--minimizetime", true).is_zero());
  EXPECT_TRUE(Budget::parse("0s", "--minimizetime", true).is_zero());
  EXPECT_THROW(Budget::parse("0x", "--fuzztime", false), std::runtime_error);
  EXPECT_THROW(Budget::parse("0", "--fuzztime", false), std::runtime_error);
  EXPECT_THROW(Budget::parse("0ms", "--fuzztime", false), std::runtime_error);
}

std::string error_of(const char* text, bool allow_zero = false) {
  try {
    Budget::parse(text, "--fuzztime", allow_zero);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

TEST(Budget, RejectsMalformedBudgetsNamingTheFlagAndTheText) {
  const char* bad[] = {"",     "x",     "10",        "-5s", "1e3s", "5 s", "s",
                       "5sec", "1h30",  "5s ",       "+x",  "12ax", "-1x", "99999999999999999999x",
                       ".s",   "1..5s", "100000000h"};
  for (const char* text : bad) {
    const std::string message = error_of(text);
    ASSERT_FALSE(message.empty()) << "accepted \"" << text << "\"";
    EXPECT_EQ(message.rfind("--fuzztime " + std::string(text) + ":", 0), 0u) << message;
  }
  EXPECT_NE(error_of("10").find("expected a duration such as 30s"), std::string::npos);
  EXPECT_NE(error_of("12ax").find("invalid count"), std::string::npos);
  EXPECT_NE(error_of("0x").find("must be more than zero"), std::string::npos);
}

TEST(Budget, AnUnsetBudgetIsUnlimited) {
  const Budget b;
  EXPECT_TRUE(b.unlimited());
  EXPECT_FALSE(b.is_zero());
  EXPECT_EQ(b.describe(), "unlimited");
}

TEST(Budget, FormatsElapsedTimeAsGoTestDoes) {
  EXPECT_EQ(format_elapsed(nanoseconds(0)), "0s");
  EXPECT_EQ(format_elapsed(milliseconds(250)), "250ms");
  EXPECT_EQ(format_elapsed(seconds(9)), "9s");
  EXPECT_EQ(format_elapsed(milliseconds(9400)), "9s");
  EXPECT_EQ(format_elapsed(milliseconds(9500)), "10s");  // rounded to the second
  EXPECT_EQ(format_elapsed(seconds(59) + milliseconds(600)), "1m0s");
  EXPECT_EQ(format_elapsed(seconds(63)), "1m3s");
  EXPECT_EQ(format_elapsed(hours(1)), "1h0m0s");
  EXPECT_EQ(format_elapsed(hours(2) + seconds(5)), "2h0m5s");
  EXPECT_EQ(format_elapsed(hours(100) + minutes(1) + seconds(1)), "100h1m1s");
  EXPECT_EQ(Budget::parse("1h30m", "--fuzztime", false).describe(), "1h30m0s");
}

TEST(Budget, FormatsADurationExactlySoThatItParsesBack) {
  EXPECT_EQ(core::format_duration(seconds(10)), "10s");
  EXPECT_EQ(core::format_duration(milliseconds(1500)), "1.5s");
  EXPECT_EQ(core::format_duration(milliseconds(250)), "250ms");
  EXPECT_EQ(core::format_duration(minutes(1) + milliseconds(250)), "1m0.25s");
  EXPECT_EQ(core::format_duration(hours(2)), "2h0m0s");
  EXPECT_EQ(core::format_duration(nanoseconds(1500)), "1500ns");
  for (auto d : {milliseconds(1), milliseconds(999), milliseconds(1001), milliseconds(61500), milliseconds(7322001)}) {
    EXPECT_EQ(parse_go_duration(core::format_duration(d)), nanoseconds(d)) << core::format_duration(d);
  }
}

}  // namespace
}  // namespace cfuzz::driver
