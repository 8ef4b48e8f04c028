// One line of a v1 file: a single Go conversion expression such as int64(-3) or
// []byte("\x00"), read the way Go 1.19's decoder reads it and written the way its
// encoder writes it. codec.cc deals with files (header, line splitting, line numbers).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "corpus_format/value.h"

namespace cfuzz::corpus {

struct ValueLineResult {
  std::optional<Value> value;
  std::string error;  // set when `value` is empty: what was wrong, in one line
};

// `line` is already trimmed of surrounding white space and not empty.
ValueLineResult parse_value_line(std::string_view line);

// The canonical line for `v`, without the newline: exactly what Go's marshalCorpusFile
// writes for the same value.
std::string format_value_line(const Value& v);

}  // namespace cfuzz::corpus
