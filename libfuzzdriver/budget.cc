#include "libfuzzdriver/budget.h"

#include <cmath>
#include <stdexcept>

namespace cfuzz::driver {

std::optional<std::chrono::nanoseconds> parse_go_duration(std::string_view s) {
  if (s == "0") return std::chrono::nanoseconds(0);
  if (s.empty()) return std::nullopt;
  long double total = 0;
  while (!s.empty()) {
    std::size_t i = 0;
    long double value = 0;
    bool digits = false;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
      value = value * 10 + (s[i] - '0');
      ++i;
      digits = true;
    }
    if (i < s.size() && s[i] == '.') {
      ++i;
      long double scale = 0.1L;
      while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
        value += (s[i] - '0') * scale;
        scale /= 10;
        ++i;
        digits = true;
      }
    }
    if (!digits) return std::nullopt;
    std::size_t u = i;
    while (u < s.size() && !(s[u] >= '0' && s[u] <= '9') && s[u] != '.') ++u;
    std::string_view unit = s.substr(i, u - i);
    long double ns;
    if (unit == "ns") ns = 1;
    else if (unit == "us" || unit == "\xc2\xb5s" || unit == "\xce\xbcs") ns = 1e3L;
    else if (unit == "ms") ns = 1e6L;
    else if (unit == "s") ns = 1e9L;
    else if (unit == "m") ns = 60e9L;
    else if (unit == "h") ns = 3600e9L;
    else return std::nullopt;
    total += value * ns;
    s.remove_prefix(u);
  }
  if (total > 9.2e18L) return std::nullopt;
  return std::chrono::nanoseconds(static_cast<std::int64_t>(std::llround(static_cast<double>(total))));
}

Budget Budget::parse(std::string_view text, std::string_view flag, bool allow_zero) {
  Budget b;
  auto bad = [&](const std::string& why) {
    return std::runtime_error(std::string(flag) + " " + std::string(text) + ": " + why);
  };
  if (!text.empty() && text.back() == 'x') {
    std::string_view digits = text.substr(0, text.size() - 1);
    if (digits.empty() || digits.find_first_not_of("0123456789") != std::string_view::npos ||
        digits.size() > 19) {
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

std::string format_elapsed(std::chrono::nanoseconds d) {
  if (d < std::chrono::seconds(1) && d.count() > 0) {
    return std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(d).count()) + "ms";
  }
  auto total = std::chrono::duration_cast<std::chrono::seconds>(d + std::chrono::milliseconds(500)).count();
  long h = total / 3600, m = (total % 3600) / 60, s = total % 60;
  std::string out;
  if (h > 0) out += std::to_string(h) + "h";
  if (h > 0 || m > 0) out += std::to_string(m) + "m";
  out += std::to_string(s) + "s";
  return out;
}

}  // namespace cfuzz::driver
