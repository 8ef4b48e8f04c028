// strconv.ParseInt / ParseUint / ParseFloat equivalents.
#include "corpus_format/go_number.h"

#include <bit>
#include <cstdint>
#include <limits>
#include <string>

#include <gtest/gtest.h>

namespace cfuzz::corpus {
namespace {

TEST(GoParseInt, BasePrefixesSignsAndSeparators) {
  EXPECT_EQ(go_parse_int("0", 64).value, 0);
  EXPECT_EQ(go_parse_int("-0x10", 64).value, -16);
  EXPECT_EQ(go_parse_int("+0o17", 64).value, 15);
  EXPECT_EQ(go_parse_int("017", 64).value, 15);
  EXPECT_EQ(go_parse_int("0b_1010", 64).value, 10);
  EXPECT_EQ(go_parse_int("1_000", 64).value, 1000);
  EXPECT_EQ(go_parse_int("-9223372036854775808", 64).value, std::numeric_limits<std::int64_t>::min());
  EXPECT_EQ(go_parse_int("-128", 8).value, -128);
}

TEST(GoParseInt, SyntaxAndRangeErrorsAreDistinguished) {
  EXPECT_EQ(go_parse_int("", 64).status, NumStatus::Syntax);
  EXPECT_EQ(go_parse_int("-", 64).status, NumStatus::Syntax);
  EXPECT_EQ(go_parse_int("08", 64).status, NumStatus::Syntax);
  EXPECT_EQ(go_parse_int("1__0", 64).status, NumStatus::Syntax);
  EXPECT_EQ(go_parse_int("_1", 64).status, NumStatus::Syntax);
  EXPECT_EQ(go_parse_int("1_", 64).status, NumStatus::Syntax);
  EXPECT_EQ(go_parse_int("0x", 64).status, NumStatus::Syntax);
  EXPECT_EQ(go_parse_int("1.0", 64).status, NumStatus::Syntax);
  EXPECT_EQ(go_parse_int("128", 8).status, NumStatus::Range);
  EXPECT_EQ(go_parse_int("-129", 8).status, NumStatus::Range);
  EXPECT_EQ(go_parse_int("9223372036854775808", 64).status, NumStatus::Range);
  EXPECT_EQ(go_parse_int("99999999999999999999999", 64).status, NumStatus::Range);
}

TEST(GoParseUint, NoSignsAndFullRange) {
  EXPECT_EQ(go_parse_uint("18446744073709551615", 64).value, std::numeric_limits<std::uint64_t>::max());
  EXPECT_EQ(go_parse_uint("0xffffffff", 32).value, 0xffffffffu);
  EXPECT_EQ(go_parse_uint("0x100000000", 32).status, NumStatus::Range);
  EXPECT_EQ(go_parse_uint("18446744073709551616", 64).status, NumStatus::Range);
  EXPECT_EQ(go_parse_uint("-1", 64).status, NumStatus::Syntax);
  EXPECT_EQ(go_parse_uint("+1", 64).status, NumStatus::Syntax);
  EXPECT_EQ(go_parse_uint("256", 8).status, NumStatus::Range);
}

std::uint64_t bits(double d) { return std::bit_cast<std::uint64_t>(d); }

TEST(GoParseFloat, DecimalAndHexadecimalForms) {
  EXPECT_EQ(go_parse_float64("1.5").value, 1.5);
  EXPECT_EQ(go_parse_float64("-.5e1").value, -5.0);
  EXPECT_EQ(go_parse_float64("1_0.2_5").value, 10.25);
  EXPECT_EQ(go_parse_float64("0x1.8p1").value, 3.0);
  EXPECT_EQ(go_parse_float64("0X_1P-2").value, 0.25);
  EXPECT_EQ(go_parse_float64("017").value, 17.0);
  EXPECT_EQ(bits(go_parse_float64("-0").value), bits(-0.0));
  EXPECT_EQ(go_parse_float64("0x1p-1074").value, std::numeric_limits<double>::denorm_min());
  EXPECT_EQ(go_parse_float64("0x1p-1075").value, 0.0);  // exactly half: ties to even (zero)
  EXPECT_EQ(go_parse_float64("0x1.0000000000001p-1075").value, std::numeric_limits<double>::denorm_min());
}

TEST(GoParseFloat, RoundsCorrectlyFromLongInputs) {
  // Exactly 2^-1075, halfway between zero and the smallest subnormal (ties to even: zero),
  // then the same plus a 1 far past the 800th digit: the cut Go makes at 800 digits must
  // act as a sticky bit, never as rounding.
  const std::string half =
      "2.470328229206232720882843964341106861825299013071623822127928412503377536351043759326"
      "49918180817996189898282347722858865463328355177969898199387398005390939063150356595155"
      "70226392290858392449105184435931802849936536152500319370457678249219365623669863658480"
      "75700158576926990370631192827955855133292783433840935197801553124659726357957462276646"
      "52728272200563740064854999770965994704540208281662262378573934507363390079677619305775"
      "06740176324673600968951340535537458516661134223766678604162159680461914467291840300530"
      "05753084904876539171138659164623952491262365388187963623937328042389101867234849766823"
      "50898633885879256283027559956575244555072551893136908362547791869486679949683240497058"
      "21028513185451396213837722826145437693412532098591327667236328125e-324";
  EXPECT_EQ(go_parse_float64(half).value, 0.0);
  EXPECT_EQ(go_parse_float64(half.substr(0, half.size() - 5) + std::string(300, '0') + "1e-324").value,
            std::numeric_limits<double>::denorm_min());
}

TEST(GoParseFloat, OverflowIsARangeErrorUnderflowIsNot) {
  EXPECT_EQ(go_parse_float64("1e309").status, NumStatus::Range);
  EXPECT_EQ(go_parse_float64("-1e309").value, -std::numeric_limits<double>::infinity());
  EXPECT_EQ(go_parse_float64("1.7976931348623158e308").status, NumStatus::Ok);  // rounds down
  EXPECT_EQ(go_parse_float64("1.7976931348623159e308").status, NumStatus::Range);
  EXPECT_EQ(go_parse_float64("1e-400").status, NumStatus::Ok);
  EXPECT_EQ(go_parse_float32("1e39").status, NumStatus::Range);
  EXPECT_EQ(go_parse_float32("3.4028235e38").status, NumStatus::Ok);
  EXPECT_EQ(go_parse_float32("1e-50").value, 0.0f);
  EXPECT_EQ(go_parse_float32("0x1.ffffffp127").status, NumStatus::Range);
}

TEST(GoParseFloat, CapsHugeExponentsTheWayGoDoes) {
  // Go stops reading exponent digits once the exponent reaches 10000, so this tiny-looking
  // literal with a huge exponent is 1e-90000 to it, that is zero, not an overflow.
  const std::string s = "0." + std::string(100000, '0') + "1e100005";
  EXPECT_EQ(go_parse_float64(s).status, NumStatus::Ok);
  EXPECT_EQ(go_parse_float64(s).value, 0.0);
}

TEST(GoParseFloat, WordsAndTheirBitPatterns) {
  EXPECT_EQ(bits(go_parse_float64("NaN").value), 0x7ff8000000000001u);
  EXPECT_EQ(bits(go_parse_float64("nan").value), 0x7ff8000000000001u);
  EXPECT_EQ(std::bit_cast<std::uint32_t>(go_parse_float32("NaN").value), 0x7fc00000u);
  EXPECT_EQ(go_parse_float64("+Inf").value, std::numeric_limits<double>::infinity());
  EXPECT_EQ(go_parse_float64("-infinity").value, -std::numeric_limits<double>::infinity());
  EXPECT_EQ(go_parse_float64("infin").status, NumStatus::Syntax);
  EXPECT_EQ(go_parse_float64("+nan").status, NumStatus::Syntax);
}

TEST(GoParseFloat, RejectsWhatParseFloatRejects) {
  for (const char* bad : {"", "-", ".", "e5", "1e", "1e+", "0x10", "0x1.8", "0o17", "0b1", "1__0", "1_.5", "1._5",
                          "1e_5", "0x_p1", "1.5.5", "1f", "0x1p1.5"}) {
    EXPECT_EQ(go_parse_float64(bad).status, NumStatus::Syntax) << bad;
  }
}

}  // namespace
}  // namespace cfuzz::corpus
