// Go's lexical rules for a line: token boundaries and lexical errors.
#include "corpus_format/literal_scanner.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace cfuzz::corpus {
namespace {

std::vector<std::string> texts(std::string_view line) {
  const ScanResult r = scan_line(line);
  EXPECT_FALSE(r.error) << line << ": " << r.error->message;
  std::vector<std::string> out;
  for (const Token& t : r.tokens) out.emplace_back(t.text);
  return out;
}

std::vector<TokenKind> kinds(std::string_view line) {
  std::vector<TokenKind> out;
  for (const Token& t : scan_line(line).tokens) out.push_back(t.kind);
  return out;
}

using V = std::vector<std::string>;

TEST(LiteralScanner, SplitsLikeGo) {
  EXPECT_EQ(texts("int(5)"), (V{"int", "(", "5", ")"}));
  EXPECT_EQ(texts("[]byte(\"a\\\"b\")"), (V{"[", "]", "byte", "(", "\"a\\\"b\"", ")"}));
  EXPECT_EQ(texts("math.Float64frombits(0x1)"), (V{"math", ".", "Float64frombits", "(", "0x1", ")"}));
  // "5..." is the float "5." and two periods; "5 ..." is an integer and an ellipsis.
  EXPECT_EQ(texts("5..."), (V{"5.", ".", "."}));
  EXPECT_EQ(texts("5 ..."), (V{"5", "..."}));
  EXPECT_EQ(texts("1.5..."), (V{"1.5", "..."}));
  EXPECT_EQ(texts("--5"), (V{"--", "5"}));
  EXPECT_EQ(texts("<-x &^y &&z"), (V{"<-", "x", "&^", "y", "&&", "z"}));
  EXPECT_EQ(texts("a /* c */ b // d"), (V{"a", "b"}));
  EXPECT_EQ(texts("\xEF\xBB\xBFx"), (V{"x"}));
}

TEST(LiteralScanner, ClassifiesLiterals) {
  EXPECT_EQ(kinds("1 1.5 .5 1e3 0x1p3 1i 'a' \"s\" `r` x"),
            (std::vector<TokenKind>{TokenKind::Int, TokenKind::Float, TokenKind::Float, TokenKind::Float,
                                    TokenKind::Float, TokenKind::Imag, TokenKind::Char, TokenKind::String,
                                    TokenKind::String, TokenKind::Ident}));
  EXPECT_EQ(kinds("09.5"), (std::vector<TokenKind>{TokenKind::Float}));
  EXPECT_EQ(kinds("- + ! ^ & ~ <-"),
            (std::vector<TokenKind>{TokenKind::Sub, TokenKind::Add, TokenKind::Not, TokenKind::Xor, TokenKind::And,
                                    TokenKind::Tilde, TokenKind::Arrow}));
}

TEST(LiteralScanner, ReportsTheFirstLexicalErrorWithItsOffset) {
  struct Case {
    const char* line;
    std::size_t offset;
    const char* message;
  } cases[] = {
      {"x(09)", 3, "invalid digit '9' in octal literal"},
      {"x(1_)", 3, "'_' must separate successive digits"},
      {"\"a\\z\"", 2, "unknown escape sequence \\z"},
      {"'\\400'", 1, "escape sequence is invalid Unicode code point"},
      {"x /* y", 2, "comment not terminated"},
      {"a\xEF\xBB\xBF", 1, "byte order mark (U+FEFF) is only allowed at the start"},
      {"\"\xC3\"", 1, "invalid UTF-8 encoding"},
  };
  for (const auto& c : cases) {
    const ScanResult r = scan_line(c.line);
    ASSERT_TRUE(r.error) << c.line;
    EXPECT_EQ(r.error->offset, c.offset) << c.line;
    EXPECT_EQ(r.error->message, c.message) << c.line;
  }
}

}  // namespace
}  // namespace cfuzz::corpus
