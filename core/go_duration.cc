#include "core/go_duration.h"

#include <cmath>

namespace cfuzz::core {

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

std::string format_duration(std::chrono::nanoseconds d) {
  std::int64_t ns = d.count();
  if (ns <= 0) return "0s";
  // Below a second: the largest unit that keeps it whole.
  if (ns < 1000000000) {
    if (ns % 1000000 == 0) return std::to_string(ns / 1000000) + "ms";
    if (ns % 1000 == 0) return std::to_string(ns / 1000) + "us";
    return std::to_string(ns) + "ns";
  }
  std::int64_t h = ns / 3600000000000, m = ns / 60000000000 % 60;
  std::int64_t s = ns / 1000000000 % 60, frac = ns % 1000000000;
  std::string out;
  if (h > 0) out += std::to_string(h) + "h";
  if (h > 0 || m > 0) out += std::to_string(m) + "m";
  out += std::to_string(s);
  if (frac != 0) {
    std::string digits = std::to_string(frac);
    digits.insert(0, 9 - digits.size(), '0');
    while (digits.back() == '0') digits.pop_back();
    out += "." + digits;
  }
  return out + "s";
}

}  // namespace cfuzz::core
