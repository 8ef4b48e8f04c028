// Integers written in decimal inside byte inputs (JSON, configs, command lines, HTTP
// headers): finding them, reading them, and writing a replacement. The mutator changes
// them as numbers (ascii_number), and input-to-state uses them when a comparison's operand
// was parsed from text: `strtol(p) > 4000` shows up as the integer comparison (5, 4000)
// while the input holds "5", so the "5" is what to replace, with "4001".
#pragma once

#include <cstddef>
#include <cstdint>

namespace cfuzz::core {

// A run of decimal digits, with the '-' before it if there is one: data[begin, end).
struct DecimalRun {
  std::size_t begin = 0, end = 0;
  bool negative = false;
  std::uint64_t magnitude = 0;  // of at most 18 digits
};

// The digit run that starts at or after `from` (scanning to the end of data, not
// wrapping); false when there is none. A run is cut after 18 digits, so that its value
// fits a signed 64-bit integer.
bool next_decimal_run(const std::uint8_t* data, std::size_t len, std::size_t from, DecimalRun* out);

// Whether the run spells `value`, an operand of a comparison of `width` bytes, and how:
// as the signed reading of its low `width` bytes, or only as the unsigned one.
enum class DecimalMatch { None, Signed, Unsigned };
DecimalMatch decimal_run_matches(const DecimalRun& run, std::uint64_t value, int width);

// `value` (an operand of `width` bytes) as decimal text in out[0, 24), read the way a
// matched run read its counterpart. Returns the length.
std::size_t format_decimal(std::uint64_t value, int width, DecimalMatch reading, char* out);

}  // namespace cfuzz::core
