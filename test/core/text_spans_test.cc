// Quoted strings and bracketed groups, as the mutator finds them (core/text_spans.h).
#include "core/text_spans.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

namespace cfuzz::core {
namespace {

// Every span of `text`, as text; "?" for one that is not closed.
std::vector<std::string> spans_of(std::string_view text) {
  const auto* d = reinterpret_cast<const std::uint8_t*>(text.data());
  std::vector<std::string> out;
  for (std::uint64_t k = 0; k < count_text_spans(d, text.size()); ++k) {
    std::uint64_t begin = 0, end = 0;
    out.push_back(text_span(d, text.size(), k, &begin, &end) ? std::string(text.substr(begin, end - begin)) : "?");
  }
  return out;
}

TEST(TextSpans, FindsQuotedStringsAndNestedGroupsInOrderOfTheirStart) {
  EXPECT_EQ(spans_of(R"({"a":[1,"x"],"b":(2)})"),
            (std::vector<std::string>{R"({"a":[1,"x"],"b":(2)})", R"("a")", R"([1,"x"])", R"("x")", R"("b")", "(2)"}));
}

TEST(TextSpans, BracketsAndEscapedQuotesInsideAStringAreText) {
  EXPECT_EQ(spans_of(R"(["]\"", 1])"), (std::vector<std::string>{R"(["]\"", 1])", R"("]\"")"}));
}

TEST(TextSpans, AGroupClosesOnItsOwnKindOfBracket) {
  EXPECT_EQ(spans_of("<a(b>)>"), (std::vector<std::string>{"<a(b>", "(b>)"}));
}

TEST(TextSpans, OneThatIsNotClosedIsCountedButNotGiven) {
  EXPECT_EQ(spans_of(R"([1,"ab)"), (std::vector<std::string>{"?", "?"}));
  EXPECT_EQ(spans_of(""), (std::vector<std::string>{}));
  EXPECT_EQ(spans_of("plain text"), (std::vector<std::string>{}));
}

}  // namespace
}  // namespace cfuzz::core
