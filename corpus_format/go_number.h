// Go's number syntax as strconv reads it: ParseInt(s, 0, bits), ParseUint(s, 0, bits) and
// ParseFloat(s, bits). Base 0 means the prefix picks the base (0x, 0o, 0b, or a leading 0
// for legacy octal) and '_' may separate digits, exactly where Go allows it.
#pragma once

#include <cstdint>
#include <string_view>

namespace cfuzz::corpus {

enum class NumStatus : std::uint8_t {
  Ok,
  Syntax,  // not a number in this syntax (strconv.ErrSyntax)
  Range,   // well formed but does not fit (strconv.ErrRange)
};

template <typename T>
struct Parsed {
  T value{};
  NumStatus status = NumStatus::Ok;
  bool ok() const { return status == NumStatus::Ok; }
};

// strconv.ParseInt(s, 0, bit_size): an optional sign, then digits with a base prefix.
Parsed<std::int64_t> go_parse_int(std::string_view s, int bit_size);

// strconv.ParseUint(s, 0, bit_size): like go_parse_int without a sign.
Parsed<std::uint64_t> go_parse_uint(std::string_view s, int bit_size);

// strconv.ParseFloat(s, 64) and ParseFloat(s, 32): decimal and hexadecimal (0x1.8p3) forms,
// '_' separators, and the words inf, infinity, nan in any case. The result is correctly
// rounded to the target format. Overflow is a Range error; underflow quietly gives a
// subnormal or zero, as in Go. "NaN" yields Go's math.NaN() (bits 0x7ff8000000000001 for
// float64, 0x7fc00000 for float32).
Parsed<double> go_parse_float64(std::string_view s);
Parsed<float> go_parse_float32(std::string_view s);

// strconv's underscoreOK: '_' only between digits or right after a base prefix.
bool go_underscores_ok(std::string_view s);

}  // namespace cfuzz::corpus
