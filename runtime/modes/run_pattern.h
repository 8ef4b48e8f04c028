// Go's -run matching: "FuzzX/seed" is split at slashes (outside brackets and parentheses)
// and each part is an unanchored regular expression for one level of name: the fuzz test,
// then the input ("seed#0", or the corpus file's name). An empty part matches anything.
#pragma once

#include <regex>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/engine/engine_namespace.h"

namespace fuzzer::cfuzz {

class RunPattern {
 public:
  RunPattern() = default;
  // Throws std::regex_error for an invalid expression.
  explicit RunPattern(std::string_view pattern);

  bool matches_test(std::string_view name) const { return matches(0, name); }
  bool matches_input(std::string_view name) const { return matches(1, name); }

 private:
  bool matches(std::size_t level, std::string_view name) const;
  std::vector<std::regex> levels_;
  std::vector<bool> empty_;
};

}  // namespace fuzzer::cfuzz
