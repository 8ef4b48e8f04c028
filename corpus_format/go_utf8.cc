#include "corpus_format/go_utf8.h"

namespace cfuzz::corpus {

namespace {

bool is_continuation(unsigned char b) { return (b & 0xC0) == 0x80; }

}  // namespace

DecodedRune decode_rune(std::string_view s) {
  if (s.empty()) return {kRuneError, 0};
  const auto b0 = static_cast<unsigned char>(s[0]);
  if (b0 < 0x80) return {b0, 1};

  // The lead byte fixes the length and, for 3- and 4-byte forms, the range the second
  // byte must fall in: that one check rules out overlong encodings, surrogates and code
  // points past U+10FFFF, as Go's acceptance table does.
  std::size_t width;
  unsigned char lo = 0x80, hi = 0xBF;
  char32_t r;
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    width = 2;
    r = b0 & 0x1F;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    width = 3;
    r = b0 & 0x0F;
    if (b0 == 0xE0) lo = 0xA0;
    if (b0 == 0xED) hi = 0x9F;
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    width = 4;
    r = b0 & 0x07;
    if (b0 == 0xF0) lo = 0x90;
    if (b0 == 0xF4) hi = 0x8F;
  } else {
    return {kRuneError, 1};
  }
  if (s.size() < width) return {kRuneError, 1};
  const auto b1 = static_cast<unsigned char>(s[1]);
  if (b1 < lo || b1 > hi) return {kRuneError, 1};
  r = (r << 6) | (b1 & 0x3F);
  for (std::size_t i = 2; i < width; ++i) {
    const auto b = static_cast<unsigned char>(s[i]);
    if (!is_continuation(b)) return {kRuneError, 1};
    r = (r << 6) | (b & 0x3F);
  }
  return {r, width};
}

DecodedRune decode_last_rune(std::string_view s) {
  if (s.empty()) return {kRuneError, 0};
  const std::size_t end = s.size();
  if (static_cast<unsigned char>(s[end - 1]) < 0x80) {
    return {static_cast<unsigned char>(s[end - 1]), 1};
  }
  // Step back over at most three continuation bytes to the byte that could start the
  // rune, then require that the rune decoded from there ends exactly at the end.
  const std::size_t limit = end >= 4 ? end - 4 : 0;
  std::size_t start = end - 1;
  while (start > limit && is_continuation(static_cast<unsigned char>(s[start]))) --start;
  const DecodedRune d = decode_rune(s.substr(start));
  if (start + d.width != end) return {kRuneError, 1};
  return d;
}

bool valid_rune(char32_t r) { return r <= kMaxRune && !(r >= 0xD800 && r <= 0xDFFF); }

void append_rune(std::string& out, char32_t r) {
  if (!valid_rune(r)) r = kRuneError;
  if (r < 0x80) {
    out.push_back(static_cast<char>(r));
  } else if (r < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (r >> 6)));
    out.push_back(static_cast<char>(0x80 | (r & 0x3F)));
  } else if (r < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (r >> 12)));
    out.push_back(static_cast<char>(0x80 | ((r >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (r & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (r >> 18)));
    out.push_back(static_cast<char>(0x80 | ((r >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((r >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (r & 0x3F)));
  }
}

bool go_is_space(char32_t r) {
  switch (r) {
    case '\t':
    case '\n':
    case '\v':
    case '\f':
    case '\r':
    case ' ':
    case 0x0085:
    case 0x00A0:
    case 0x1680:
    case 0x2028:
    case 0x2029:
    case 0x202F:
    case 0x205F:
    case 0x3000: return true;
    default: return r >= 0x2000 && r <= 0x200A;
  }
}

std::string_view go_trim_space(std::string_view s) {
  // An invalid byte decodes as U+FFFD, which is not space, so trimming stops there just
  // as it does in Go.
  while (!s.empty()) {
    const DecodedRune d = decode_rune(s);
    if (!go_is_space(d.rune)) break;
    s.remove_prefix(d.width);
  }
  while (!s.empty()) {
    const DecodedRune d = decode_last_rune(s);
    if (!go_is_space(d.rune)) break;
    s.remove_suffix(d.width);
  }
  return s;
}

}  // namespace cfuzz::corpus
