// A budget for fuzzing or minimizing: a duration ("30s", "10m", "1h30m", "1.5s", Go's
// syntax) or a number of executions ("1000x"), as go test's -fuzztime and
// -fuzzminimizetime take them.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

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

// Go's time.ParseDuration; nullopt if malformed.
std::optional<std::chrono::nanoseconds> parse_go_duration(std::string_view text);

// "1m3s" style, whole seconds, as the progress lines print elapsed time.
std::string format_elapsed(std::chrono::nanoseconds d);

}  // namespace cfuzz::driver
