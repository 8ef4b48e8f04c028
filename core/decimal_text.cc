#include "core/decimal_text.h"

#include <cstdio>

namespace cfuzz::core {

namespace {

constexpr std::size_t kMaxDigits = 18;

bool is_digit(std::uint8_t c) { return c >= '0' && c <= '9'; }

// The operand's low `width` bytes read as signed: sign-extended to 64 bits.
std::int64_t signed_value(std::uint64_t value, int width) {
  if (width >= 8) return static_cast<std::int64_t>(value);
  int shift = 64 - 8 * width;
  return static_cast<std::int64_t>(value << shift) >> shift;
}

std::uint64_t low_bytes(std::uint64_t value, int width) {
  return width >= 8 ? value : value & ((std::uint64_t{1} << (8 * width)) - 1);
}

}  // namespace

bool next_decimal_run(const std::uint8_t* data, std::size_t len, std::size_t from, DecimalRun* out) {
  std::size_t i = from;
  while (i < len && !(is_digit(data[i]) && (i == 0 || !is_digit(data[i - 1])))) ++i;
  if (i >= len) return false;
  DecimalRun run;
  run.begin = i;
  run.negative = i > 0 && data[i - 1] == '-';
  if (run.negative) run.begin = i - 1;
  std::size_t end = i;
  while (end < len && is_digit(data[end]) && end - i < kMaxDigits) {
    run.magnitude = run.magnitude * 10 + (data[end] - '0');
    ++end;
  }
  run.end = end;
  *out = run;
  return true;
}

DecimalMatch decimal_run_matches(const DecimalRun& run, std::uint64_t value, int width) {
  std::int64_t s = signed_value(value, width);
  if (run.negative) {
    return s < 0 && static_cast<std::uint64_t>(-(s + 1)) + 1 == run.magnitude ? DecimalMatch::Signed
                                                                              : DecimalMatch::None;
  }
  if (s >= 0 && static_cast<std::uint64_t>(s) == run.magnitude) return DecimalMatch::Signed;
  return run.magnitude == low_bytes(value, width) ? DecimalMatch::Unsigned : DecimalMatch::None;
}

std::size_t format_decimal(std::uint64_t value, int width, DecimalMatch reading, char* out) {
  std::int64_t s = signed_value(value, width);
  int n = reading == DecimalMatch::Signed && s < 0
              ? std::snprintf(out, 24, "%lld", static_cast<long long>(s))
              : std::snprintf(out, 24, "%llu", static_cast<unsigned long long>(low_bytes(value, width)));
  return static_cast<std::size_t>(n);
}

}  // namespace cfuzz::core
