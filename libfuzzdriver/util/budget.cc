#include "libfuzzdriver/util/budget.h"

#include <stdexcept>

namespace cfuzz::driver {

Budget Budget::parse(std::string_view text, std::string_view flag, bool allow_zero) {
  Budget b;
  auto bad = [&](const std::string& why) {
    return std::runtime_error(std::string(flag) + " " + std::string(text) + ": " + why);
  };
  if (!text.empty() && text.back() == 'x') {
    std::string_view digits = text.substr(0, text.size() - 1);
    if (digits.empty() || digits.find_first_not_of("0123456789") != std::string_view::npos || digits.size() > 19) {
      throw bad("invalid count: expected a number of executions such as 1000x");
    }
    b.count = std::stoull(std::string(digits));
  } else {
    auto d = parse_go_duration(text);
    if (!d) throw bad("invalid duration: expected a duration such as 30s, 10m or 1h30m, or a count such as 1000x");
    b.time = *d;
  }
  if (b.is_zero() && !allow_zero) throw bad("must be more than zero");
  return b;
}

std::string Budget::describe() const {
  if (count) return std::to_string(*count) + "x";
  if (time) return format_elapsed(*time);
  return "unlimited";
}

}  // namespace cfuzz::driver
