// Quoted strings and bracketed groups in a value ("...", (...), [...], {...}, <...>): the
// pieces of a structured text that can stand in for one another (a JSON value, a group of
// a regular expression, an XML tag). A scan skips what is inside quotes; nothing is
// allocated, so the mutator can use it between executions.
#pragma once

#include <cstdint>

namespace cfuzz::core {

// How many spans start in d[0, n) (closed or not).
std::uint64_t count_text_spans(const std::uint8_t* d, std::uint64_t n);

// The k-th span to start (k < count_text_spans), as [*begin, *end) with its delimiters.
// False when it is not closed before the end.
bool text_span(const std::uint8_t* d, std::uint64_t n, std::uint64_t k, std::uint64_t* begin, std::uint64_t* end);

}  // namespace cfuzz::core
