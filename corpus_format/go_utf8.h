// UTF-8 and white space exactly as Go's unicode/utf8, unicode.IsSpace and bytes.TrimSpace
// see them. The codec needs Go's answers, not the platform's: which byte sequences are one
// rune, which are "invalid" (and so quoted as \xNN), and which runes a line may be trimmed of.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace cfuzz::corpus {

inline constexpr char32_t kRuneError = 0xFFFD;
inline constexpr char32_t kMaxRune = 0x10FFFF;

struct DecodedRune {
  char32_t rune;
  std::size_t width;  // bytes consumed; 0 only for empty input
};

// utf8.DecodeRune: the first rune of `s`. Invalid encodings (overlong forms, surrogates,
// code points above U+10FFFF, truncated sequences, stray continuation bytes) decode as
// {kRuneError, 1}; a genuine encoded U+FFFD decodes as {kRuneError, 3}.
DecodedRune decode_rune(std::string_view s);

// utf8.DecodeLastRune: the last rune of `s`, with the same conventions.
DecodedRune decode_last_rune(std::string_view s);

// utf8.ValidRune: 0..U+10FFFF except the surrogate halves U+D800..U+DFFF.
bool valid_rune(char32_t r);

// utf8.EncodeRune appended to `out`; invalid runes are written as U+FFFD.
void append_rune(std::string& out, char32_t r);

// unicode.IsSpace: the Unicode White_Space property (\t \n \v \f \r, space, U+0085, U+00A0,
// U+1680, U+2000..U+200A, U+2028, U+2029, U+202F, U+205F, U+3000).
bool go_is_space(char32_t r);

// bytes.TrimSpace: `s` without leading and trailing runes for which go_is_space is true.
std::string_view go_trim_space(std::string_view s);

}  // namespace cfuzz::corpus
