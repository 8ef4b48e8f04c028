// Go's quoting, unquoting, float formatting and IsPrint table.
#include "corpus_format/go_quote.h"

#include <bit>
#include <cstdint>
#include <limits>

#include <gtest/gtest.h>

namespace cfuzz::corpus {
namespace {

TEST(GoQuote, PrintableRunesStayRawOthersAreEscaped) {
  EXPECT_EQ(go_quote(""), "\"\"");
  EXPECT_EQ(go_quote("hello, world"), "\"hello, world\"");
  EXPECT_EQ(go_quote("\a\b\f\n\r\t\v\\\"'"), "\"\\a\\b\\f\\n\\r\\t\\v\\\\\\\"'\"");
  EXPECT_EQ(go_quote(std::string_view("\0\x1f\x7f", 3)), "\"\\x00\\x1f\\x7f\"");
  EXPECT_EQ(go_quote("é⌘😀"), "\"é⌘😀\"");
  // Only U+0020 counts as printable space; format characters and separators are escaped.
  EXPECT_EQ(go_quote("\u00a0\u00ad\u2028\u3000\ufeff"), "\"\\u00a0\\u00ad\\u2028\\u3000\\ufeff\"");
  EXPECT_EQ(go_quote("\u0080\u009f"), "\"\\u0080\\u009f\"");
  EXPECT_EQ(go_quote("\U000E0001\U0010FFFF"), "\"\\U000e0001\\U0010ffff\"");
  EXPECT_EQ(go_quote("\xef\xbf\xbd"), "\"\xef\xbf\xbd\"");  // a real U+FFFD is printable
}

TEST(GoQuote, InvalidUtf8BytesBecomeHexEscapes) {
  EXPECT_EQ(go_quote("hello\xbd\xb2=\xbc ⌘"), "\"hello\\xbd\\xb2=\\xbc ⌘\"");
  EXPECT_EQ(go_quote("\xed\xa0\x80"), "\"\\xed\\xa0\\x80\"");           // encoded surrogate
  EXPECT_EQ(go_quote("\xc0\x80"), "\"\\xc0\\x80\"");                    // overlong
  EXPECT_EQ(go_quote("\xf4\x90\x80\x80"), "\"\\xf4\\x90\\x80\\x80\"");  // past U+10FFFF
  EXPECT_EQ(go_quote("\xe2\x8c"), "\"\\xe2\\x8c\"");                    // truncated
  EXPECT_EQ(go_quote("\xff"), "\"\\xff\"");
}

TEST(GoQuoteShort, CutsBetweenRunesByQuotedLengthAndGivesTheSize) {
  EXPECT_EQ(go_quote_short("abc", 10), "\"abc\"");
  EXPECT_EQ(go_quote_short("abcdef", 4), "\"abcd\"... (6 bytes)");
  // Escapes count at their quoted width, so control characters cannot stretch the result.
  EXPECT_EQ(go_quote_short(std::string(100, '\x11'), 10), "\"\\x11\\x11\"... (100 bytes)");
  EXPECT_EQ(go_quote_short("☃☃", 4), "\"☃\"... (6 bytes)");
}

TEST(GoQuoteRune, QuotesLikePercentQ) {
  EXPECT_EQ(go_quote_rune('a'), "'a'");
  EXPECT_EQ(go_quote_rune('\''), "'\\''");
  EXPECT_EQ(go_quote_rune('"'), "'\"'");
  EXPECT_EQ(go_quote_rune(0), "'\\x00'");
  EXPECT_EQ(go_quote_rune(0xff), "'ÿ'");
  EXPECT_EQ(go_quote_rune(0xad), "'\\u00ad'");
  EXPECT_EQ(go_quote_rune(0x10ffff), "'\\U0010ffff'");
  EXPECT_EQ(go_quote_rune(0xfffd), "'�'");
  EXPECT_EQ(go_quote_rune(0xd800), "'�'");  // invalid runes print as U+FFFD, as in Go
}

TEST(GoUnquote, AcceptsEveryGoStringForm) {
  EXPECT_EQ(go_unquote("\"a\\x00\\377\\u00e9\\U0001F600\\n\""), std::string("a\0\xff"
                                                                            "é😀\n",
                                                                            10));
  EXPECT_EQ(go_unquote("`a\\n\r`"), "a\\n");
  EXPECT_EQ(go_unquote("'a'"), "a");
  EXPECT_EQ(go_unquote("'\\''"), "'");
  EXPECT_EQ(go_unquote("\"\\\"\""), "\"");
  EXPECT_EQ(go_unquote("\"\""), "");
  EXPECT_EQ(go_unquote("''"), "");  // strconv accepts an empty rune literal here, oddly
}

TEST(GoUnquote, RejectsWhatStrconvRejects) {
  for (const char* bad : {"", "\"", "\"abc", "abc", "\"a\"b", "\"\\'\"", "'\\\"'", "\"\\ud800\"", "\"\\U00110000\"",
                          "\"\\400\"", "\"\\x1\"", "\"\\q\"", "'ab'", "\"a\nb\""}) {
    EXPECT_FALSE(go_unquote(bad).has_value()) << bad;
  }
}

TEST(GoUnquote, InvalidUtf8NextToAnEscapeBecomesReplacementCharacters) {
  // strconv.Unquote quirk: without escapes invalid UTF-8 is rejected, with one it is read
  // as U+FFFD. (The corpus decoder never sees either: Go's scanner rejects such lines.)
  EXPECT_EQ(go_unquote("\"\xff\""), "\xef\xbf\xbd");
  EXPECT_EQ(go_unquote("\"\xff\\n\""), "\xef\xbf\xbd\n");
}

TEST(GoUnquoteChar, DecodesOneCharacterAndReportsTheRest) {
  auto c = go_unquote_char("\\x41rest", '"');
  ASSERT_TRUE(c);
  EXPECT_EQ(c->value, U'A');
  EXPECT_FALSE(c->multibyte);
  EXPECT_EQ(c->tail, "rest");
  c = go_unquote_char("\\u00e9", '\'');
  ASSERT_TRUE(c);
  EXPECT_EQ(c->value, U'é');
  EXPECT_TRUE(c->multibyte);
  EXPECT_FALSE(go_unquote_char("'", '\''));
  EXPECT_FALSE(go_unquote_char("\\", '\''));
}

TEST(GoFormatFloat, ShortestDigitsInGosGStyle) {
  struct Case {
    double v;
    const char* want;
  } cases[] = {
      {0.0, "0"},
      {-0.0, "-0"},
      {1.0, "1"},
      {-12.5, "-12.5"},
      {123456.0, "123456"},
      {1e6, "1e+06"},
      {1234567.0, "1.234567e+06"},
      {123456789.0, "1.23456789e+08"},
      {0.0001, "0.0001"},
      {0.00001, "1e-05"},
      {0.000123, "0.000123"},
      {0.1, "0.1"},
      {1.0 / 3, "0.3333333333333333"},
      {1e21, "1e+21"},
      {1e100, "1e+100"},
      {5e-324, "5e-324"},
      {2.2250738585072014e-308, "2.2250738585072014e-308"},
      {1.7976931348623157e308, "1.7976931348623157e+308"},
      {std::numeric_limits<double>::infinity(), "+Inf"},
      {-std::numeric_limits<double>::infinity(), "-Inf"},
      {std::numeric_limits<double>::quiet_NaN(), "NaN"},
  };
  for (const auto& c : cases) EXPECT_EQ(go_format_float64(c.v), c.want) << c.want;
  EXPECT_EQ(go_format_float32(0.1f), "0.1");
  EXPECT_EQ(go_format_float32(1e6f), "1e+06");
  EXPECT_EQ(go_format_float32(3.4028235e38f), "3.4028235e+38");
  EXPECT_EQ(go_format_float32(std::numeric_limits<float>::denorm_min()), "1e-45");
  EXPECT_EQ(go_format_float32(16777216.0f), "1.6777216e+07");
  EXPECT_EQ(go_format_float32(-0.0f), "-0");
}

TEST(GoIsPrint, MatchesGoAtTheEdgesOfTheTable) {
  // Expectations from Go 1.19's unicode.IsPrint.
  struct Case {
    char32_t r;
    bool want;
  } cases[] = {
      {0x00, false},       {0x1f, false},    {0x20, true},    {0x7e, true},     {0x7f, false},     {0x9f, false},
      {0xa0, false},       {0xa1, true},     {0xac, true},    {0xad, false},    {0xae, true},      {0x378, false},
      {0x37a, true},       {0x2027, true},   {0x2028, false}, {0x2029, false},  {0x202f, false},   {0x3000, false},
      {0x3001, true},      {0xd7ff, false},  {0xd800, false}, {0xdfff, false},  {0xe000, false},   {0xf8ff, false},
      {0xf900, true},      {0xfeff, false},  {0xfffc, true},  {0xfffd, true},   {0xfffe, false},   {0x1f600, true},
      {0x1f6d7, true},     {0x1f6d8, false}, {0x2a6dd, true}, {0x2a6de, false}, {0x3134a, true},   {0x3134b, false},
      {0xe0001, false},    {0xe0100, true},  {0xe01ef, true}, {0xe01f0, false}, {0x10ffff, false}, {0x110000, false},
      {0xffffffff, false},
  };
  for (const auto& c : cases) EXPECT_EQ(go_is_print(c.r), c.want) << std::hex << static_cast<std::uint32_t>(c.r);
}

}  // namespace
}  // namespace cfuzz::corpus
