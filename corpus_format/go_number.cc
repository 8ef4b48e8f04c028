#include "corpus_format/go_number.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>

namespace cfuzz::corpus {

namespace {

// ASCII letters to lower case; every other byte maps outside 'a'..'z'.
char lower(char c) { return static_cast<char>(c | 0x20); }
bool is_decimal(char c) { return c >= '0' && c <= '9'; }
bool is_hex_letter(char c) { return lower(c) >= 'a' && lower(c) <= 'f'; }

}  // namespace

bool go_underscores_ok(std::string_view s) {
  // `prev` classifies the previous character: '^' start, '0' digit (a base prefix
  // counts as one), '_' separator, '!' anything else.
  char prev = '^';
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) s.remove_prefix(1);
  bool hex = false;
  std::size_t i = 0;
  if (s.size() >= 2 && s[0] == '0' && (lower(s[1]) == 'b' || lower(s[1]) == 'o' || lower(s[1]) == 'x')) {
    i = 2;
    prev = '0';
    hex = lower(s[1]) == 'x';
  }
  for (; i < s.size(); ++i) {
    const char c = s[i];
    if (is_decimal(c) || (hex && is_hex_letter(c))) {
      prev = '0';
    } else if (c == '_') {
      if (prev != '0') return false;
      prev = '_';
    } else {
      if (prev == '_') return false;
      prev = '!';
    }
  }
  return prev != '_';
}

Parsed<std::uint64_t> go_parse_uint(std::string_view s, int bit_size) {
  if (s.empty()) return {0, NumStatus::Syntax};
  const std::string_view whole = s;
  unsigned base = 10;
  if (s[0] == '0') {
    if (s.size() >= 3 && lower(s[1]) == 'b') {
      base = 2;
      s.remove_prefix(2);
    } else if (s.size() >= 3 && lower(s[1]) == 'o') {
      base = 8;
      s.remove_prefix(2);
    } else if (s.size() >= 3 && lower(s[1]) == 'x') {
      base = 16;
      s.remove_prefix(2);
    } else {
      base = 8;
      s.remove_prefix(1);
    }
  }
  const std::uint64_t max_value =
      bit_size >= 64 ? std::numeric_limits<std::uint64_t>::max() : (std::uint64_t{1} << bit_size) - 1;
  // The smallest n for which n * base no longer fits in 64 bits.
  const std::uint64_t cutoff = std::numeric_limits<std::uint64_t>::max() / base + 1;

  bool underscores = false;
  std::uint64_t n = 0;
  for (const char c : s) {
    unsigned d;
    if (c == '_') {
      underscores = true;
      continue;
    } else if (is_decimal(c)) {
      d = static_cast<unsigned>(c - '0');
    } else if (lower(c) >= 'a' && lower(c) <= 'z') {
      d = static_cast<unsigned>(lower(c) - 'a') + 10;
    } else {
      return {0, NumStatus::Syntax};
    }
    if (d >= base) return {0, NumStatus::Syntax};
    // Like Go, report overflow as soon as it happens, before looking at the rest.
    if (n >= cutoff) return {max_value, NumStatus::Range};
    n *= base;
    const std::uint64_t next = n + d;
    if (next < n || next > max_value) return {max_value, NumStatus::Range};
    n = next;
  }
  if (underscores && !go_underscores_ok(whole)) return {0, NumStatus::Syntax};
  return {n, NumStatus::Ok};
}

Parsed<std::int64_t> go_parse_int(std::string_view s, int bit_size) {
  if (s.empty()) return {0, NumStatus::Syntax};
  bool negative = false;
  if (s[0] == '+') {
    s.remove_prefix(1);
  } else if (s[0] == '-') {
    negative = true;
    s.remove_prefix(1);
  }
  const Parsed<std::uint64_t> u = go_parse_uint(s, bit_size);
  if (u.status == NumStatus::Syntax) return {0, NumStatus::Syntax};
  const std::uint64_t cutoff = std::uint64_t{1} << (bit_size - 1);
  const auto max_value = static_cast<std::int64_t>(cutoff - 1);
  if (!negative && u.value >= cutoff) return {max_value, NumStatus::Range};
  if (negative && u.value > cutoff) return {-max_value - 1, NumStatus::Range};
  if (!negative) return {static_cast<std::int64_t>(u.value), NumStatus::Ok};
  // -cutoff itself does not fit in the positive range; negate in unsigned arithmetic.
  return {static_cast<std::int64_t>(~u.value + 1), NumStatus::Ok};
}

namespace {

enum class Special { None, PosInf, NegInf, NaN };

// strconv's special(): the words Go accepts instead of digits. Returns how many bytes
// were recognised; ParseFloat then insists on the whole string.
Special parse_special(std::string_view s, std::size_t* consumed) {
  if (s.empty()) return Special::None;
  auto common_prefix = [](std::string_view text, std::string_view word) {
    std::size_t n = 0;
    while (n < text.size() && n < word.size() && lower(text[n]) == word[n]) ++n;
    return n;
  };
  std::size_t sign_len = 0;
  bool negative = false;
  if (s[0] == '+' || s[0] == '-') {
    negative = s[0] == '-';
    sign_len = 1;
  } else if (lower(s[0]) == 'n') {
    if (common_prefix(s, "nan") == 3) {
      *consumed = 3;
      return Special::NaN;
    }
    return Special::None;
  } else if (lower(s[0]) != 'i') {
    return Special::None;
  }
  std::size_t n = common_prefix(s.substr(sign_len), "infinity");
  // "inf" and "infinity" are words; anything in between only counts as "inf".
  if (n > 3 && n < 8) n = 3;
  if (n != 3 && n != 8) return Special::None;
  *consumed = sign_len + n;
  return negative ? Special::NegInf : Special::PosInf;
}

// The parts of a float literal, read as strconv's readFloat reads them: the value is
// digits × base^(point - digits.size()) × 2^binary_exponent (binary exponent for hex only;
// for decimal it is folded into point).
struct FloatParts {
  bool negative = false;
  bool hex = false;
  std::string digits;      // significant digits, leading zeros dropped, maybe truncated
  bool truncated = false;  // nonzero digits were dropped past the kept ones
  long long point = 0;     // position of the radix point relative to the first digit
  long long exponent = 0;  // the e/p exponent as Go computes it (see below)
};

// Decimal digits kept: more than the 767 significant digits that can decide how a
// decimal rounds to binary64, so a truncated tail only ever acts as a sticky bit. Hex
// digits kept: 16 (64 bits) for the same reason. Go keeps 800 and 16.
constexpr std::size_t kMaxDecimalDigits = 800;
constexpr std::size_t kMaxHexDigits = 16;

bool read_float(std::string_view s, FloatParts* parts) {
  std::size_t i = 0;
  if (s.empty()) return false;
  if (s[i] == '+') {
    ++i;
  } else if (s[i] == '-') {
    parts->negative = true;
    ++i;
  }
  char exponent_char = 'e';
  std::size_t max_digits = kMaxDecimalDigits;
  if (i + 2 < s.size() && s[i] == '0' && lower(s[i + 1]) == 'x') {
    parts->hex = true;
    exponent_char = 'p';
    max_digits = kMaxHexDigits;
    i += 2;
  }
  bool underscores = false;
  bool saw_dot = false;
  bool saw_digits = false;
  long long nd = 0;  // significant digits seen
  long long point = 0;
  for (; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '_') {
      underscores = true;
      continue;
    }
    if (c == '.') {
      if (saw_dot) break;
      saw_dot = true;
      point = nd;
      continue;
    }
    if (is_decimal(c) || (parts->hex && is_hex_letter(c))) {
      saw_digits = true;
      if (c == '0' && nd == 0) {  // a leading zero only moves the point
        --point;
        continue;
      }
      ++nd;
      if (parts->digits.size() < max_digits) {
        parts->digits.push_back(c);
      } else if (c != '0') {
        parts->truncated = true;
      }
      continue;
    }
    break;
  }
  if (!saw_digits) return false;
  if (!saw_dot) point = nd;

  long long exponent = 0;
  if (i < s.size() && lower(s[i]) == exponent_char) {
    ++i;
    if (i >= s.size()) return false;
    int sign = 1;
    if (s[i] == '+') {
      ++i;
    } else if (s[i] == '-') {
      sign = -1;
      ++i;
    }
    if (i >= s.size() || !is_decimal(s[i])) return false;
    // Go stops accumulating once the exponent reaches 10000 (later digits are read and
    // ignored), so 1e123456 means 1e12345 to it; matching that keeps values identical
    // even for absurdly long literals.
    long long e = 0;
    for (; i < s.size() && (is_decimal(s[i]) || s[i] == '_'); ++i) {
      if (s[i] == '_') {
        underscores = true;
        continue;
      }
      if (e < 10000) e = e * 10 + (s[i] - '0');
    }
    exponent = sign * e;
  } else if (parts->hex) {
    return false;  // a hex mantissa needs a p exponent
  }
  if (underscores && !go_underscores_ok(s.substr(0, i))) return false;
  if (i != s.size()) return false;
  parts->point = point;
  parts->exponent = exponent;
  return true;
}

// The text strtod should read for `parts`: an integer mantissa and an exponent, with no
// radix point (so the C locale's decimal separator never matters). A truncated tail
// becomes one extra nonzero digit, which rounds exactly as the full tail would.
std::string c_literal(const FloatParts& parts) {
  std::string text = parts.negative ? "-" : "";
  if (parts.digits.empty()) return text + "0";
  std::string digits = parts.digits;
  if (parts.truncated) digits.push_back('1');
  const auto kept = static_cast<long long>(digits.size());
  long long exponent;
  if (parts.hex) {
    text += "0x";
    exponent = 4 * (parts.point - kept) + parts.exponent;
  } else {
    exponent = parts.point - kept + parts.exponent;
  }
  // Beyond these bounds the value is infinite or zero whatever the digits are; clamping
  // keeps the exponent within what every strtod reads reliably.
  exponent = std::clamp(exponent, -4'000'000LL, 4'000'000LL);
  text += digits;
  text += parts.hex ? 'p' : 'e';
  text += std::to_string(exponent);
  return text;
}

template <typename F>
Parsed<F> parse_float(std::string_view s) {
  std::size_t consumed = 0;
  const Special special = parse_special(s, &consumed);
  if (special != Special::None) {
    if (consumed != s.size()) return {0, NumStatus::Syntax};
    if (special == Special::NaN) {
      if constexpr (sizeof(F) == 8) {
        return {std::bit_cast<double>(std::uint64_t{0x7ff8000000000001}), NumStatus::Ok};
      } else {
        return {std::bit_cast<float>(std::uint32_t{0x7fc00000}), NumStatus::Ok};
      }
    }
    const F inf = std::numeric_limits<F>::infinity();
    return {special == Special::NegInf ? -inf : inf, NumStatus::Ok};
  }
  FloatParts parts;
  if (!read_float(s, &parts)) return {0, NumStatus::Syntax};
  const std::string text = c_literal(parts);
  F value;
  if constexpr (sizeof(F) == 8) {
    value = std::strtod(text.c_str(), nullptr);
  } else {
    value = std::strtof(text.c_str(), nullptr);
  }
  // strtod also flags underflow, but Go only treats overflow as an error.
  if (std::isinf(value)) return {value, NumStatus::Range};
  return {value, NumStatus::Ok};
}

}  // namespace

Parsed<double> go_parse_float64(std::string_view s) { return parse_float<double>(s); }
Parsed<float> go_parse_float32(std::string_view s) { return parse_float<float>(s); }

}  // namespace cfuzz::corpus
