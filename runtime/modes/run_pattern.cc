#include "runtime/modes/run_pattern.h"

namespace fuzzer::cfuzz {

RunPattern::RunPattern(std::string_view pattern) {
  std::vector<std::string> parts(1);
  int depth = 0;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    char c = pattern[i];
    if (c == '\\' && i + 1 < pattern.size()) {
      parts.back() += c;
      parts.back() += pattern[++i];
      continue;
    }
    if (c == '[' || c == '(') ++depth;
    if ((c == ']' || c == ')') && depth > 0) --depth;
    if (c == '/' && depth == 0) {
      parts.emplace_back();
      continue;
    }
    parts.back() += c;
  }
  for (const auto& p : parts) {
    levels_.emplace_back(p, std::regex::ECMAScript);
    empty_.push_back(p.empty());
  }
}

bool RunPattern::matches(std::size_t level, std::string_view name) const {
  if (level >= levels_.size() || empty_[level]) return true;
  return std::regex_search(name.begin(), name.end(), levels_[level]);
}

}  // namespace fuzzer::cfuzz
