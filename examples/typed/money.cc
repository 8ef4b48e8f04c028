#include "money.h"

#include <cmath>

namespace money {
namespace {

Style current_style = kEnglish;

std::uint64_t pow10(int n) {
  std::uint64_t p = 1;
  while (n-- > 0) p *= 10;
  return p;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

Style style() { return current_style; }
void set_style(Style s) { current_style = s; }

bool valid_currency(std::string_view code) {
  if (code.size() != 3) return false;
  for (char c : code) {
    if (c < 'A' || c > 'Z') return false;
  }
  return true;
}

std::string format(std::int64_t minor_units, int decimals, std::string_view currency) {
  // The magnitude as unsigned, so that INT64_MIN has one too.
  std::uint64_t magnitude = static_cast<std::uint64_t>(minor_units);
  if (minor_units < 0) magnitude = 0 - magnitude;
  std::uint64_t scale = pow10(decimals);

  std::string whole = std::to_string(magnitude / scale);
  if (minor_units < 0) whole.insert(whole.begin(), '-');
  std::string out;
  for (std::size_t i = 0; i < whole.size(); ++i) {
    if (i > 0 && (whole.size() - i) % 3 == 0) out += current_style.group_separator;
    out += whole[i];
  }
  if (decimals > 0) {
    std::string fraction = std::to_string(magnitude % scale);
    out += current_style.decimal_point;
    out.append(decimals - fraction.size(), '0');
    out += fraction;
  }
  out += ' ';
  out += currency;
  return out;
}

std::optional<std::int64_t> parse(std::string_view text, int decimals, std::string_view currency) {
  std::string suffix = " " + std::string(currency);
  if (!text.ends_with(suffix)) return std::nullopt;
  text.remove_suffix(suffix.size());
  bool negative = text.starts_with('-');
  if (negative) text.remove_prefix(1);

  // Whole part: 1 to 3 digits, then groups of a separator and three digits.
  std::uint64_t magnitude = 0;
  std::size_t digits = 0;
  std::size_t i = 0;
  for (; i < text.size() && text[i] != current_style.decimal_point; ++i) {
    char c = text[i];
    if (c == current_style.group_separator) continue;  // where they may be: checked below
    if (!is_digit(c)) return std::nullopt;
    if (digits > 0 && magnitude == 0) return std::nullopt;  // a leading zero
    if (magnitude > (UINT64_MAX - 9) / 10) return std::nullopt;
    magnitude = magnitude * 10 + static_cast<std::uint64_t>(c - '0');
    ++digits;
  }
  if (digits == 0) return std::nullopt;
  // Separators must sit exactly every three digits from the decimal point.
  std::size_t whole_len = i;
  std::size_t expected_len = digits + (digits - 1) / 3;
  if (whole_len != expected_len) return std::nullopt;
  for (std::size_t k = 0; k < whole_len; ++k) {
    bool separator_here = (whole_len - k) % 4 == 0;
    if (separator_here != (text[k] == current_style.group_separator)) return std::nullopt;
  }

  // Fraction: exactly `decimals` digits.
  std::string_view fraction = text.substr(i);
  if (decimals == 0) {
    if (!fraction.empty()) return std::nullopt;
  } else {
    if (fraction.size() != static_cast<std::size_t>(decimals) + 1) return std::nullopt;
    for (char c : fraction.substr(1)) {
      if (!is_digit(c)) return std::nullopt;
      if (magnitude > (UINT64_MAX - 9) / 10) return std::nullopt;
      magnitude = magnitude * 10 + static_cast<std::uint64_t>(c - '0');
    }
  }

  constexpr std::uint64_t kMaxNegative = std::uint64_t{1} << 63;
  if (negative) {
    if (magnitude > kMaxNegative) return std::nullopt;
    return static_cast<std::int64_t>(0 - magnitude);
  }
  if (magnitude >= kMaxNegative) return std::nullopt;
  return static_cast<std::int64_t>(magnitude);
}

std::optional<std::int64_t> from_double(double amount, int decimals) {
  double minor = amount * static_cast<double>(pow10(decimals));
  // 2^63: the first double past the int64 range (and NaN fails the comparison too).
  if (!(std::fabs(minor) < 9223372036854775808.0)) return std::nullopt;
  return std::llround(minor);
}

}  // namespace money
