// Formatting and parsing amounts of money held as integer minor units (cents):
//   format(-123456, 2, "EUR") == "-1,234.56 EUR"     parse("-1,234.56 EUR", 2, "EUR") == -123456
// The separators come from a process-wide style, as C's setlocale works.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace money {

struct Style {
  char decimal_point;
  char group_separator;
};
inline constexpr Style kEnglish{'.', ','};  // 1,234.56
inline constexpr Style kGerman{',', '.'};   // 1.234,56

Style style();
void set_style(Style s);

// A currency code is three capital letters.
bool valid_currency(std::string_view code);

// `minor_units` with `decimals` digits after the decimal point (0 to 9), digits grouped by
// thousands, then a space and the currency code.
std::string format(std::int64_t minor_units, int decimals, std::string_view currency);

// The inverse of format(): nullopt if `text` is not an amount in that form.
std::optional<std::int64_t> parse(std::string_view text, int decimals, std::string_view currency);

// The nearest number of minor units to `amount` (half away from zero), or nullopt if
// `amount` is not finite or does not fit.
std::optional<std::int64_t> from_double(double amount, int decimals);

}  // namespace money
