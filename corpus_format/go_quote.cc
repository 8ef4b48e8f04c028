// strconv.Quote, QuoteRune, Unquote and UnquoteChar, as Go 1.19 defines them.
#include "corpus_format/go_quote.h"

#include "corpus_format/go_utf8.h"

namespace cfuzz::corpus {

namespace {

constexpr char kLowerHex[] = "0123456789abcdef";

void append_hex(std::string& out, std::uint32_t v, int digits) {
  for (int shift = 4 * (digits - 1); shift >= 0; shift -= 4) {
    out.push_back(kLowerHex[(v >> shift) & 0xF]);
  }
}

// One rune inside a literal delimited by `quote`: printable runes raw, the rest escaped
// with the shortest escape Go uses.
void append_escaped_rune(std::string& out, char32_t r, char quote) {
  if (r == static_cast<char32_t>(quote) || r == '\\') {
    out.push_back('\\');
    out.push_back(static_cast<char>(r));
    return;
  }
  if (go_is_print(r)) {
    append_rune(out, r);
    return;
  }
  switch (r) {
    case '\a': out += "\\a"; return;
    case '\b': out += "\\b"; return;
    case '\f': out += "\\f"; return;
    case '\n': out += "\\n"; return;
    case '\r': out += "\\r"; return;
    case '\t': out += "\\t"; return;
    case '\v': out += "\\v"; return;
    default: break;
  }
  if (r < ' ' || r == 0x7F) {
    out += "\\x";
    append_hex(out, r, 2);
    return;
  }
  if (!valid_rune(r)) r = kRuneError;
  if (r < 0x10000) {
    out += "\\u";
    append_hex(out, r, 4);
  } else {
    out += "\\U";
    append_hex(out, r, 8);
  }
}

std::optional<std::uint32_t> hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return std::nullopt;
}

}  // namespace

namespace {

// Appends the quoted form of the first rune of `bytes` (or of its first byte, when that
// does not start valid UTF-8) and returns how many bytes that consumed.
std::size_t append_quoted_prefix(std::string& out, std::string_view bytes) {
  const DecodedRune d = decode_rune(bytes);
  if (d.rune == kRuneError && d.width == 1) {
    out += "\\x";
    append_hex(out, static_cast<unsigned char>(bytes[0]), 2);
  } else {
    append_escaped_rune(out, d.rune, '"');
  }
  return d.width;
}

}  // namespace

std::string go_quote(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size() + 2);
  out.push_back('"');
  while (!bytes.empty()) bytes.remove_prefix(append_quoted_prefix(out, bytes));
  out.push_back('"');
  return out;
}

std::string go_quote_short(std::string_view bytes, std::size_t max_chars) {
  const std::size_t size = bytes.size();
  std::string out = "\"";
  std::string piece;
  while (!bytes.empty()) {
    piece.clear();
    const std::size_t width = append_quoted_prefix(piece, bytes);
    if (out.size() - 1 + piece.size() > max_chars) {
      return out + "\"... (" + std::to_string(size) + " bytes)";
    }
    out += piece;
    bytes.remove_prefix(width);
  }
  return out + "\"";
}

std::string go_quote_rune(char32_t r) {
  std::string out = "'";
  append_escaped_rune(out, valid_rune(r) ? r : kRuneError, '\'');
  out.push_back('\'');
  return out;
}

std::optional<UnquotedChar> go_unquote_char(std::string_view s, char quote) {
  if (s.empty()) return std::nullopt;
  const char c = s[0];
  if (c == quote && (quote == '\'' || quote == '"')) return std::nullopt;
  if (static_cast<unsigned char>(c) >= 0x80) {
    // Invalid UTF-8 is not an error here: it reads as U+FFFD, as in Go.
    const DecodedRune d = decode_rune(s);
    return UnquotedChar{d.rune, true, s.substr(d.width)};
  }
  if (c != '\\') return UnquotedChar{static_cast<char32_t>(c), false, s.substr(1)};

  if (s.size() <= 1) return std::nullopt;
  const char e = s[1];
  s.remove_prefix(2);
  auto simple = [&](char32_t v) { return UnquotedChar{v, false, s}; };
  switch (e) {
    case 'a': return simple('\a');
    case 'b': return simple('\b');
    case 'f': return simple('\f');
    case 'n': return simple('\n');
    case 'r': return simple('\r');
    case 't': return simple('\t');
    case 'v': return simple('\v');
    case '\\': return simple('\\');
    case '\'':
    case '"':
      // Each quote may only be escaped inside literals it delimits.
      if (e != quote) return std::nullopt;
      return simple(static_cast<char32_t>(e));
    case 'x':
    case 'u':
    case 'U': {
      const std::size_t n = e == 'x' ? 2 : e == 'u' ? 4 : 8;
      if (s.size() < n) return std::nullopt;
      std::uint32_t v = 0;
      for (std::size_t j = 0; j < n; ++j) {
        const auto h = hex_value(s[j]);
        if (!h) return std::nullopt;
        v = (v << 4) | *h;
      }
      s.remove_prefix(n);
      // \x names a byte, not a rune: it may make the string invalid UTF-8 on purpose.
      if (e == 'x') return UnquotedChar{v, false, s};
      if (!valid_rune(v)) return std::nullopt;
      return UnquotedChar{v, true, s};
    }
    case '0':
    case '1':
    case '2':
    case '3':
    case '4':
    case '5':
    case '6':
    case '7': {
      std::uint32_t v = static_cast<std::uint32_t>(e - '0');
      if (s.size() < 2) return std::nullopt;
      for (std::size_t j = 0; j < 2; ++j) {
        if (s[j] < '0' || s[j] > '7') return std::nullopt;
        v = (v << 3) | static_cast<std::uint32_t>(s[j] - '0');
      }
      s.remove_prefix(2);
      if (v > 255) return std::nullopt;
      return UnquotedChar{v, false, s};
    }
    default: return std::nullopt;
  }
}

std::optional<std::string> go_unquote(std::string_view in) {
  if (in.size() < 2) return std::nullopt;
  const char quote = in[0];
  std::size_t end = in.find(quote, 1);
  if (end == std::string_view::npos) return std::nullopt;
  ++end;  // one past the first closing quote; escapes may move the real end further

  if (quote == '`') {
    if (end != in.size()) return std::nullopt;
    // Carriage returns inside raw strings are discarded from the value.
    std::string out;
    for (const char c : in.substr(1, end - 2)) {
      if (c != '\r') out.push_back(c);
    }
    return out;
  }
  if (quote != '"' && quote != '\'') return std::nullopt;

  const std::string_view body = in.substr(1, end - 2);
  if (body.find('\\') == std::string_view::npos && body.find('\n') == std::string_view::npos) {
    bool valid;
    if (quote == '"') {
      valid = true;
      for (std::string_view rest = body; !rest.empty();) {
        const DecodedRune d = decode_rune(rest);
        if (d.rune == kRuneError && d.width == 1) {
          valid = false;
          break;
        }
        rest.remove_prefix(d.width);
      }
    } else {
      const DecodedRune d = decode_rune(body);
      valid = d.width == body.size() && !(d.rune == kRuneError && d.width == 1);
    }
    if (valid) {
      if (end != in.size()) return std::nullopt;
      return std::string(body);
    }
  }

  std::string out;
  std::string_view rest = in.substr(1);
  while (!rest.empty() && rest[0] != quote) {
    if (rest[0] == '\n') return std::nullopt;
    const auto c = go_unquote_char(rest, quote);
    if (!c) return std::nullopt;
    rest = c->tail;
    if (c->value < 0x80 || !c->multibyte) {
      out.push_back(static_cast<char>(c->value));
    } else {
      append_rune(out, c->value);
    }
    if (quote == '\'') break;  // a rune literal holds exactly one character
  }
  if (rest.empty() || rest[0] != quote) return std::nullopt;
  rest.remove_prefix(1);
  if (!rest.empty()) return std::nullopt;
  return out;
}

}  // namespace cfuzz::corpus
