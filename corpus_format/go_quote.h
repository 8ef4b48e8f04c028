// Go's literal syntax for strings, runes and numbers, as strconv and fmt write and read it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace cfuzz::corpus {

// unicode.IsPrint from Go 1.19 (Unicode 13.0.0): letters, marks, numbers, punctuation,
// symbols and U+0020. The table is generated from Go itself (scripts/gen_isprint.go).
bool go_is_print(char32_t r);

// strconv.Quote: double-quoted, printable runes raw, invalid UTF-8 as \xNN.
std::string go_quote(std::string_view bytes);
// go_quote for showing input in messages: stops (between runes) before the quoted text
// passes `max_chars` characters and then notes the full size, as in "abc"... (1000 bytes).
std::string go_quote_short(std::string_view bytes, std::size_t max_chars);

// strconv.QuoteRune for a valid rune (fmt's %q of a rune or byte).
std::string go_quote_rune(char32_t r);

// strconv.Unquote for a double-quoted, back-quoted or single-quoted literal; nullopt when
// the literal is not valid Go syntax.
std::optional<std::string> go_unquote(std::string_view literal);

// strconv.UnquoteChar: the first character or escape sequence of `s`, the inside of a
// literal delimited by `quote` ('"' or '\''). `multibyte` is false for ASCII and for \x and
// octal escapes, which stand for single bytes; nullopt for an invalid escape.
struct UnquotedChar {
  char32_t value;
  bool multibyte;
  std::string_view tail;  // what follows the character in `s`
};
std::optional<UnquotedChar> go_unquote_char(std::string_view s, char quote);

// fmt's %v of a float64 / float32: the shortest digits that round-trip, in strconv's 'g'
// style (exponent form when the decimal exponent is < -4 or >= 6, as in 1e+06), and
// "+Inf", "-Inf", "NaN", "-0".
std::string go_format_float64(double v);
std::string go_format_float32(float v);

}  // namespace cfuzz::corpus
