// fmt's %v for float32 and float64, which is strconv.FormatFloat(v, 'g', -1, bits): the
// shortest decimal that reads back as the same value, written the way Go writes it.
#include <charconv>
#include <cmath>
#include <string>
#include <system_error>

#include "corpus_format/go_quote.h"

namespace cfuzz::corpus {

namespace {

template <typename F>
std::string format_float(F v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  const bool negative = std::signbit(v);
  std::string out = negative ? "-" : "";
  if (v == 0) return out + "0";

  // std::to_chars in scientific form without a precision gives the shortest digit string
  // that round-trips (the nearest one when several are equally short), which is also
  // what Go picks. Take the digits and the decimal exponent from it and lay them out again.
  char buf[64];
  const auto result = std::to_chars(buf, buf + sizeof buf, negative ? -v : v, std::chars_format::scientific);
  if (result.ec != std::errc()) return "NaN";  // cannot happen: 64 bytes always suffice
  const std::string_view text(buf, static_cast<std::size_t>(result.ptr - buf));
  const std::size_t e_pos = text.find('e');
  std::string digits;
  for (const char c : text.substr(0, e_pos)) {
    if (c != '.') digits.push_back(c);
  }
  int exponent = 0;  // the power of ten of the first digit
  std::from_chars(text.data() + e_pos + 2, text.data() + text.size(), exponent);
  if (text[e_pos + 1] == '-') exponent = -exponent;
  const int nd = static_cast<int>(digits.size());

  if (exponent < -4 || exponent >= 6) {
    // d.ddde±XX, at least two exponent digits.
    out.push_back(digits[0]);
    if (nd > 1) {
      out.push_back('.');
      out.append(digits, 1);
    }
    out.push_back('e');
    out.push_back(exponent < 0 ? '-' : '+');
    const int magnitude = exponent < 0 ? -exponent : exponent;
    if (magnitude < 10) out.push_back('0');
    out += std::to_string(magnitude);
    return out;
  }

  // Plain decimal: the integer part (padded with zeros), then any fraction digits.
  const int point = exponent + 1;  // digits before the decimal point
  if (point > 0) {
    for (int i = 0; i < point; ++i) out.push_back(i < nd ? digits[i] : '0');
  } else {
    out.push_back('0');
  }
  if (nd > point) {
    out.push_back('.');
    for (int j = point; j < nd; ++j) out.push_back(j < 0 ? '0' : digits[j]);
  }
  return out;
}

}  // namespace

std::string go_format_float64(double v) { return format_float(v); }
std::string go_format_float32(float v) { return format_float(v); }

}  // namespace cfuzz::corpus
