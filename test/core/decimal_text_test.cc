// Decimal numbers inside byte inputs: found where they are, read as the comparison that
// used them would read them, and written back in the same reading.
#include "core/decimal_text.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

namespace cfuzz::core {
namespace {

std::vector<std::string> runs_of(std::string_view text) {
  auto* data = reinterpret_cast<const std::uint8_t*>(text.data());
  std::vector<std::string> out;
  DecimalRun run;
  for (std::size_t from = 0; next_decimal_run(data, text.size(), from, &run); from = run.end) {
    out.push_back(std::string(text.substr(run.begin, run.end - run.begin)) + "=" + (run.negative ? "-" : "") +
                  std::to_string(run.magnitude));
  }
  return out;
}

DecimalRun only_run(std::string_view text) {
  DecimalRun run;
  EXPECT_TRUE(next_decimal_run(reinterpret_cast<const std::uint8_t*>(text.data()), text.size(), 0, &run)) << text;
  return run;
}

std::string formatted(std::uint64_t value, int width, DecimalMatch reading) {
  char text[24];
  return std::string(text, format_decimal(value, width, reading, text));
}

TEST(DecimalText, FindsEveryRunWithItsSignAndNothingElse) {
  EXPECT_EQ(runs_of("w=12 h=-7 x-y 0"), (std::vector<std::string>{"12=12", "-7=-7", "0=0"}));
  EXPECT_EQ(runs_of("no digits"), std::vector<std::string>{});
  EXPECT_EQ(runs_of("9"), std::vector<std::string>{"9=9"});
  // A search that starts inside a run moves on to the next one.
  DecimalRun run;
  const std::string text = "1234 56";
  ASSERT_TRUE(next_decimal_run(reinterpret_cast<const std::uint8_t*>(text.data()), text.size(), 2, &run));
  EXPECT_EQ(run.begin, 5u);
}

TEST(DecimalText, CutsLongRunsSoThatTheyFitASignedInteger) {
  DecimalRun run = only_run("99999999999999999999999");
  EXPECT_EQ(run.end - run.begin, 18u);
  EXPECT_EQ(run.magnitude, 999999999999999999ULL);
}

TEST(DecimalText, MatchesAnOperandInItsSignedOrUnsignedReading) {
  EXPECT_EQ(decimal_run_matches(only_run("5"), 5, 8), DecimalMatch::Signed);
  EXPECT_EQ(decimal_run_matches(only_run("-1"), ~std::uint64_t{0}, 8), DecimalMatch::Signed);
  EXPECT_EQ(decimal_run_matches(only_run("-1"), 0xff, 1), DecimalMatch::Signed);
  EXPECT_EQ(decimal_run_matches(only_run("255"), 0xff, 1), DecimalMatch::Unsigned);
  EXPECT_EQ(decimal_run_matches(only_run("4294967295"), 0xffffffff, 4), DecimalMatch::Unsigned);
  EXPECT_EQ(decimal_run_matches(only_run("6"), 5, 8), DecimalMatch::None);
  EXPECT_EQ(decimal_run_matches(only_run("-5"), 5, 8), DecimalMatch::None);
  // Only the operand's width counts: a 32-bit comparison of -2 sees 0xfffffffe.
  EXPECT_EQ(decimal_run_matches(only_run("-2"), 0xfffffffe, 4), DecimalMatch::Signed);
}

TEST(DecimalText, WritesTheOtherOperandInTheReadingThatMatched) {
  EXPECT_EQ(formatted(4001, 8, DecimalMatch::Signed), "4001");
  EXPECT_EQ(formatted(static_cast<std::uint64_t>(-9000000001LL), 8, DecimalMatch::Signed), "-9000000001");
  EXPECT_EQ(formatted(0xfffffffe, 4, DecimalMatch::Signed), "-2");
  EXPECT_EQ(formatted(0xfffffffe, 4, DecimalMatch::Unsigned), "4294967294");
  EXPECT_EQ(formatted(~std::uint64_t{0}, 8, DecimalMatch::Unsigned), "18446744073709551615");
}

}  // namespace
}  // namespace cfuzz::core
