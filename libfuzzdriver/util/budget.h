// A budget for fuzzing or minimizing: a duration ("30s", "10m", "1h30m", "1.5s", Go's
// syntax) or a number of executions ("1000x"), as go test's -fuzztime and
// -fuzzminimizetime take them.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/go_duration.h"

namespace cfuzz::driver {

struct Budget {
  std::optional<std::chrono::nanoseconds> time;  // neither set: no limit
  std::optional<std::uint64_t> count;

  bool unlimited() const { return !time && !count; }
  bool is_zero() const { return (time && time->count() == 0) || (count && *count == 0); }

  // Throws std::runtime_error naming `flag` and the text when it is not a duration or a
  // count. A zero budget is refused unless `allow_zero`.
  static Budget parse(std::string_view text, std::string_view flag, bool allow_zero);

  std::string describe() const;
};

using core::format_elapsed;
using core::parse_go_duration;

}  // namespace cfuzz::driver
