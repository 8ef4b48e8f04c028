#include "corpus_format/literal_scanner.h"

#include <cstdio>

#include "corpus_format/go_utf8.h"

namespace cfuzz::corpus {

namespace {

constexpr int kEnd = -1;
constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";

char lower(int c) { return static_cast<char>(c | 0x20); }
bool is_decimal(int c) { return c >= '0' && c <= '9'; }
bool is_hex(int c) { return is_decimal(c) || (lower(c) >= 'a' && lower(c) <= 'f'); }
bool is_ascii_letter(int c) { return (lower(c) >= 'a' && lower(c) <= 'z') || c == '_'; }

std::string describe_rune(char32_t r) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "U+%04X", static_cast<unsigned>(r));
  return buf;
}

// A character for a message: itself when printable ASCII, else its code point.
std::string describe_char(int c) {
  if (c > ' ' && c < 0x7F) return "'" + std::string(1, static_cast<char>(c)) + "'";
  return describe_rune(static_cast<char32_t>(c));
}

class Scanner {
 public:
  explicit Scanner(std::string_view src) : src_(src) {}

  ScanResult run() {
    ScanResult result;
    if (src_.substr(0, kByteOrderMark.size()) == kByteOrderMark) pos_ = kByteOrderMark.size();
    if (!check_characters()) {
      result.error = std::move(error_);
      return result;
    }
    while (!error_) {
      skip_white_space();
      if (cur() == kEnd) break;
      scan_token(result.tokens);
    }
    result.error = std::move(error_);
    return result;
  }

 private:
  int cur() const { return pos_ < src_.size() ? static_cast<unsigned char>(src_[pos_]) : kEnd; }
  int peek() const { return pos_ + 1 < src_.size() ? static_cast<unsigned char>(src_[pos_ + 1]) : kEnd; }

  void fail(std::size_t offset, std::string message) {
    if (!error_) error_ = ScanError{offset, std::move(message)};
  }

  // Go's scanner checks every character it reads, inside literals and comments too, and
  // a line is only accepted after it has been read to the end; so these are errors
  // wherever they are.
  bool check_characters() {
    for (std::size_t i = pos_; i < src_.size();) {
      const DecodedRune d = decode_rune(src_.substr(i));
      if (d.rune == 0) {
        fail(i, "NUL character");
        return false;
      }
      if (d.rune == kRuneError && d.width == 1) {
        fail(i, "invalid UTF-8 encoding");
        return false;
      }
      if (d.rune == 0xFEFF) {
        fail(i, "byte order mark (U+FEFF) is only allowed at the start");
        return false;
      }
      i += d.width;
    }
    return true;
  }

  void skip_white_space() {
    while (cur() == ' ' || cur() == '\t' || cur() == '\r' || cur() == '\n') ++pos_;
  }

  void scan_token(std::vector<Token>& tokens) {
    const std::size_t start = pos_;
    const int c = cur();
    TokenKind kind = TokenKind::Other;
    if (is_ascii_letter(c)) {
      while (is_ascii_letter(cur()) || is_decimal(cur())) ++pos_;
      kind = TokenKind::Ident;
    } else if (is_decimal(c) || (c == '.' && is_decimal(peek()))) {
      kind = scan_number();
    } else if (c >= 0x80) {
      fail(start,
           "unexpected character " + describe_rune(decode_rune(src_.substr(pos_)).rune) + " outside a quoted literal");
      return;
    } else {
      ++pos_;
      switch (c) {
        case '"':
          scan_string();
          kind = TokenKind::String;
          break;
        case '`':
          scan_raw_string();
          kind = TokenKind::String;
          break;
        case '\'':
          scan_rune();
          kind = TokenKind::Char;
          break;
        case '/':
          if (cur() == '/' || cur() == '*') {
            skip_comment(start);
            return;
          }
          if (cur() == '=') ++pos_;
          break;
        case '(': kind = TokenKind::LParen; break;
        case ')': kind = TokenKind::RParen; break;
        case '[': kind = TokenKind::LBrack; break;
        case ']': kind = TokenKind::RBrack; break;
        case ',': kind = TokenKind::Comma; break;
        case '.':
          if (cur() == '.' && peek() == '.') {
            pos_ += 2;
            kind = TokenKind::Ellipsis;
          } else {
            kind = TokenKind::Period;
          }
          break;
        case '+':
          // "++" and "+=" are single tokens, not two prefix operators.
          if (cur() == '+' || cur() == '=') {
            ++pos_;
          } else {
            kind = TokenKind::Add;
          }
          break;
        case '-':
          if (cur() == '-' || cur() == '=') {
            ++pos_;
          } else {
            kind = TokenKind::Sub;
          }
          break;
        case '!':
          if (cur() == '=') {
            ++pos_;
          } else {
            kind = TokenKind::Not;
          }
          break;
        case '^':
          if (cur() == '=') {
            ++pos_;
          } else {
            kind = TokenKind::Xor;
          }
          break;
        case '&':
          if (cur() == '^') {  // &^ and &^=
            ++pos_;
            if (cur() == '=') ++pos_;
          } else if (cur() == '&' || cur() == '=') {
            ++pos_;
          } else {
            kind = TokenKind::And;
          }
          break;
        case '~': kind = TokenKind::Tilde; break;
        case '<':
          if (cur() == '-') {
            ++pos_;
            kind = TokenKind::Arrow;
          } else if (cur() == '<') {  // << and <<=
            ++pos_;
            if (cur() == '=') ++pos_;
          } else if (cur() == '=') {
            ++pos_;
          }
          break;
        case '>':
          if (cur() == '>') ++pos_;
          if (cur() == '=') ++pos_;
          break;
        case '*':
        case '%':
        case '=':
        case ':':
          if (cur() == '=') ++pos_;
          break;
        case '|':
          if (cur() == '|' || cur() == '=') ++pos_;
          break;
        case ';':
        case '{':
        case '}': break;
        default: fail(start, "unexpected character " + describe_char(c)); return;
      }
    }
    if (error_) return;
    tokens.push_back(Token{kind, start, src_.substr(start, pos_ - start)});
  }

  // Accepts { digit | '_' }; for base <= 10 any decimal digit is read, and the first one
  // too large for the base is remembered (Go reports it only if the literal stays an
  // integer: 09 is an error, 09.5 is a float). Returns bit 0 for digits, bit 1 for '_'.
  int digits(int base, std::size_t* invalid) {
    int seen = 0;
    if (base <= 10) {
      while (is_decimal(cur()) || cur() == '_') {
        if (cur() == '_') {
          seen |= 2;
        } else {
          seen |= 1;
          if (cur() >= '0' + base && invalid && *invalid == std::string_view::npos) {
            *invalid = pos_;
          }
        }
        ++pos_;
      }
    } else {
      while (is_hex(cur()) || cur() == '_') {
        seen |= cur() == '_' ? 2 : 1;
        ++pos_;
      }
    }
    return seen;
  }

  static std::string_view literal_name(char prefix) {
    switch (prefix) {
      case 'x': return "hexadecimal literal";
      case 'o':
      case '0': return "octal literal";
      case 'b': return "binary literal";
      default: return "decimal literal";
    }
  }

  TokenKind scan_number() {
    const std::size_t start = pos_;
    TokenKind kind = TokenKind::Int;
    int base = 10;
    char prefix = 0;  // 0 decimal, '0' legacy octal, or 'x', 'o', 'b'
    int seen = 0;
    std::size_t invalid = std::string_view::npos;

    if (cur() != '.') {
      if (cur() == '0') {
        ++pos_;
        switch (lower(cur())) {
          case 'x':
            ++pos_;
            base = 16;
            prefix = 'x';
            break;
          case 'o':
            ++pos_;
            base = 8;
            prefix = 'o';
            break;
          case 'b':
            ++pos_;
            base = 2;
            prefix = 'b';
            break;
          default:
            base = 8;
            prefix = '0';
            seen = 1;  // the leading 0 is a digit
        }
      }
      seen |= digits(base, &invalid);
    }
    if (cur() == '.') {
      kind = TokenKind::Float;
      if (prefix == 'o' || prefix == 'b') {
        fail(pos_, "invalid radix point in " + std::string(literal_name(prefix)));
        return kind;
      }
      ++pos_;
      seen |= digits(base, &invalid);
    }
    if ((seen & 1) == 0) {
      fail(pos_, std::string(literal_name(prefix)) + " has no digits");
      return kind;
    }
    const char e = lower(cur());
    if (e == 'e' || e == 'p') {
      if (e == 'e' && prefix != 0 && prefix != '0') {
        fail(pos_, "'e' exponent requires decimal mantissa");
        return kind;
      }
      if (e == 'p' && prefix != 'x') {
        fail(pos_, "'p' exponent requires hexadecimal mantissa");
        return kind;
      }
      ++pos_;
      kind = TokenKind::Float;
      if (cur() == '+' || cur() == '-') ++pos_;
      const int exponent_seen = digits(10, nullptr);
      seen |= exponent_seen;
      if ((exponent_seen & 1) == 0) {
        fail(pos_, "exponent has no digits");
        return kind;
      }
    } else if (prefix == 'x' && kind == TokenKind::Float) {
      fail(pos_, "hexadecimal mantissa requires a 'p' exponent");
      return kind;
    }
    if (cur() == 'i') {
      ++pos_;
      kind = TokenKind::Imag;
    }
    if (kind == TokenKind::Int && invalid != std::string_view::npos) {
      fail(invalid, std::string("invalid digit '") + src_[invalid] + "' in " + std::string(literal_name(prefix)));
      return kind;
    }
    if (seen & 2) {
      const std::size_t bad = invalid_separator(src_.substr(start, pos_ - start));
      if (bad != std::string_view::npos) fail(start + bad, "'_' must separate successive digits");
    }
    return kind;
  }

  // The offset of the first '_' in a number literal that does not sit between two
  // digits (a base prefix counts as a digit), or npos.
  static std::size_t invalid_separator(std::string_view x) {
    bool hex = false;
    char prev_class = '.';  // '0' digit, '_' separator, '.' anything else
    std::size_t i = 0;
    if (x.size() >= 2 && x[0] == '0') {
      const char p = lower(x[1]);
      if (p == 'x' || p == 'o' || p == 'b') {
        hex = p == 'x';
        prev_class = '0';
        i = 2;
      }
    }
    for (; i < x.size(); ++i) {
      const char prev = prev_class;
      const char c = x[i];
      if (c == '_') {
        if (prev != '0') return i;
        prev_class = '_';
      } else if (is_decimal(c) || (hex && is_hex(c))) {
        prev_class = '0';
      } else {
        if (prev == '_') return i - 1;
        prev_class = '.';
      }
    }
    if (prev_class == '_') return x.size() - 1;
    return std::string_view::npos;
  }

  // After a backslash inside a literal delimited by `quote`.
  bool scan_escape(char quote) {
    const std::size_t start = pos_;
    int n;
    std::uint32_t base;
    std::uint32_t max;
    const int c = cur();
    if (c == 'a' || c == 'b' || c == 'f' || c == 'n' || c == 'r' || c == 't' || c == 'v' || c == '\\' || c == quote) {
      ++pos_;
      return true;
    }
    if (c >= '0' && c <= '7') {
      n = 3, base = 8, max = 255;
    } else if (c == 'x') {
      ++pos_;
      n = 2, base = 16, max = 255;
    } else if (c == 'u') {
      ++pos_;
      n = 4, base = 16, max = kMaxRune;
    } else if (c == 'U') {
      ++pos_;
      n = 8, base = 16, max = kMaxRune;
    } else {
      std::string what = "unknown escape sequence";
      if (c > ' ' && c < 0x7F) what += std::string(" \\") + static_cast<char>(c);
      if (c == '\'' || c == '"') what += " (only the enclosing quote may be escaped)";
      fail(start - 1, c == kEnd ? "escape sequence not terminated" : what);
      return false;
    }
    std::uint32_t x = 0;
    for (; n > 0; --n) {
      const int d = cur();
      std::uint32_t v = 16;
      if (is_decimal(d)) {
        v = static_cast<std::uint32_t>(d - '0');
      } else if (is_hex(d)) {
        v = static_cast<std::uint32_t>(lower(d) - 'a' + 10);
      }
      if (v >= base) {
        fail(pos_, d == kEnd ? "escape sequence not terminated" : "illegal character in escape sequence");
        return false;
      }
      x = x * base + v;
      ++pos_;
    }
    if (x > max || (x >= 0xD800 && x < 0xE000)) {
      fail(start - 1, "escape sequence is invalid Unicode code point");
      return false;
    }
    return true;
  }

  void scan_string() {
    const std::size_t start = pos_ - 1;
    for (;;) {
      const int c = cur();
      if (c == kEnd || c == '\n') {
        fail(start, "string literal not terminated");
        return;
      }
      ++pos_;
      if (c == '"') return;
      if (c == '\\' && !scan_escape('"')) return;
    }
  }

  void scan_raw_string() {
    const std::size_t start = pos_ - 1;
    const std::size_t end = src_.find('`', pos_);
    if (end == std::string_view::npos) {
      pos_ = src_.size();
      fail(start, "raw string literal not terminated");
      return;
    }
    pos_ = end + 1;
  }

  void scan_rune() {
    const std::size_t start = pos_ - 1;
    int n = 0;
    for (;;) {
      const int c = cur();
      if (c == kEnd || c == '\n') {
        fail(start, "rune literal not terminated");
        return;
      }
      if (c == '\'') {
        ++pos_;
        break;
      }
      ++n;
      if (c == '\\') {
        ++pos_;
        if (!scan_escape('\'')) return;
      } else {
        pos_ += decode_rune(src_.substr(pos_)).width;
      }
    }
    if (n != 1) fail(start, n == 0 ? "empty rune literal" : "more than one character in rune literal");
  }

  void skip_comment(std::size_t start) {
    if (cur() == '/') {
      pos_ = src_.size();
      return;
    }
    const std::size_t end = src_.find("*/", pos_ + 1);
    if (end == std::string_view::npos) {
      pos_ = src_.size();
      fail(start, "comment not terminated");
      return;
    }
    pos_ = end + 2;
  }

  std::string_view src_;
  std::size_t pos_ = 0;
  std::optional<ScanError> error_;
};

}  // namespace

ScanResult scan_line(std::string_view line) { return Scanner(line).run(); }

std::string_view describe_token_kind(TokenKind kind) {
  switch (kind) {
    case TokenKind::Ident: return "identifier";
    case TokenKind::Int: return "integer literal";
    case TokenKind::Float: return "floating-point literal";
    case TokenKind::Imag: return "imaginary literal";
    case TokenKind::Char: return "rune literal";
    case TokenKind::String: return "string literal";
    case TokenKind::LParen: return "'('";
    case TokenKind::RParen: return "')'";
    case TokenKind::LBrack: return "'['";
    case TokenKind::RBrack: return "']'";
    case TokenKind::Comma: return "','";
    case TokenKind::Period: return "'.'";
    case TokenKind::Ellipsis: return "'...'";
    case TokenKind::Add: return "'+'";
    case TokenKind::Sub: return "'-'";
    case TokenKind::Not: return "'!'";
    case TokenKind::Xor: return "'^'";
    case TokenKind::And: return "'&'";
    case TokenKind::Tilde: return "'~'";
    case TokenKind::Arrow: return "'<-'";
    case TokenKind::Other: return "operator";
  }
  return "token";
}

}  // namespace cfuzz::corpus
