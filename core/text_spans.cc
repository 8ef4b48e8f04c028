#include "core/text_spans.h"

namespace cfuzz::core {
namespace {

std::uint8_t closer_of(std::uint8_t c) {
  switch (c) {
    case '"': return '"';
    case '(': return ')';
    case '[': return ']';
    case '{': return '}';
    case '<': return '>';
    default: return 0;
  }
}

// The index of the quote that closes the string opened at d[i] (a backslash escapes the
// byte after it), or n when none does.
std::uint64_t closing_quote(const std::uint8_t* d, std::uint64_t n, std::uint64_t i) {
  for (++i; i < n; ++i) {
    if (d[i] == '\\') {
      ++i;
    } else if (d[i] == '"') {
      return i;
    }
  }
  return n;
}

}  // namespace

std::uint64_t count_text_spans(const std::uint8_t* d, std::uint64_t n) {
  std::uint64_t count = 0;
  for (std::uint64_t i = 0; i < n;) {
    if (closer_of(d[i]) != 0) ++count;
    i = d[i] == '"' ? closing_quote(d, n, i) + 1 : i + 1;
  }
  return count;
}

bool text_span(const std::uint8_t* d, std::uint64_t n, std::uint64_t k, std::uint64_t* begin, std::uint64_t* end) {
  std::uint64_t i = 0;
  for (std::uint64_t seen = 0; i < n;) {
    if (closer_of(d[i]) != 0 && seen++ == k) break;
    i = d[i] == '"' ? closing_quote(d, n, i) + 1 : i + 1;
  }
  if (i >= n) return false;
  *begin = i;
  if (d[i] == '"') {
    std::uint64_t q = closing_quote(d, n, i);
    *end = q + 1;
    return q < n;
  }
  // A group ends where its own kind of bracket closes it, quoted brackets aside.
  const std::uint8_t open = d[i], close = closer_of(open);
  std::uint64_t depth = 0;
  while (i < n) {
    if (d[i] == '"') {
      i = closing_quote(d, n, i) + 1;
      continue;
    }
    if (d[i] == open) {
      ++depth;
    } else if (d[i] == close && --depth == 0) {
      *end = i + 1;
      return true;
    }
    ++i;
  }
  return false;
}

}  // namespace cfuzz::core
