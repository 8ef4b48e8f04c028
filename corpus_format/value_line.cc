#include "corpus_format/value_line.h"

#include <bit>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <type_traits>
#include <vector>

#include "corpus_format/go_number.h"
#include "corpus_format/go_quote.h"
#include "corpus_format/go_utf8.h"
#include "corpus_format/literal_scanner.h"

namespace cfuzz::corpus {

namespace {

// Bit patterns of Go's math.NaN() and of float32(math.NaN()): the NaNs the encoder writes
// as NaN. Any other NaN is written as its bit pattern so that it survives the round trip.
constexpr std::uint64_t kCanonicalNaN64 = 0x7ff8000000000001;
constexpr std::uint32_t kCanonicalNaN32 = 0x7fc00000;

constexpr std::string_view kTypeList =
    "[]byte, string, bool, byte, rune, int, int8, int16, int32, int64, uint, uint8, uint16, "
    "uint32, uint64, float32 or float64";

// Text from the line for an error message: shown as is when it is short and printable,
// otherwise Go-quoted and cut short, so a message stays one modest printable line
// whatever the file holds.
std::string show(std::string_view text) {
  constexpr std::size_t kMax = 60;
  bool plain = text.size() <= kMax && !text.empty();
  for (std::string_view rest = text; plain && !rest.empty();) {
    const DecodedRune d = decode_rune(rest);
    plain = !(d.rune == kRuneError && d.width == 1) && go_is_print(d.rune);
    rest.remove_prefix(d.width);
  }
  if (plain) return std::string(text);
  return go_quote_short(text, kMax);
}

// An identifier as messages show it: it may be as long as the line, so it is cut short
// (at a character boundary).
std::string shown_name(std::string_view name) {
  constexpr std::size_t kMaxShownName = 40;
  if (name.size() <= kMaxShownName) return std::string(name);
  std::size_t cut = kMaxShownName;
  while (cut > 0 && (static_cast<unsigned char>(name[cut]) & 0xC0) == 0x80) --cut;
  return std::string(name.substr(0, cut)) + "...";
}

std::string describe(const Token* t) {
  if (t == nullptr) return "end of line";
  switch (t->kind) {
    case TokenKind::Ident:
    case TokenKind::Int:
    case TokenKind::Float:
    case TokenKind::Imag:
    case TokenKind::Char:
    case TokenKind::String: return std::string(describe_token_kind(t->kind)) + " " + show(t->text);
    case TokenKind::Other: return "'" + std::string(t->text) + "'";
    default: return std::string(describe_token_kind(t->kind));
  }
}

bool is_literal(TokenKind k) {
  return k == TokenKind::Int || k == TokenKind::Float || k == TokenKind::Imag || k == TokenKind::Char ||
         k == TokenKind::String;
}

bool is_prefix_operator(TokenKind k) {
  return k == TokenKind::Add || k == TokenKind::Sub || k == TokenKind::Not || k == TokenKind::Xor ||
         k == TokenKind::And || k == TokenKind::Tilde || k == TokenKind::Arrow;
}

// The shape Go's checker accepts: FUN(ARG) where FUN is an identifier, math.NAME or
// []NAME, and ARG is a literal or identifier, optionally after one prefix operator.
// go/parser also allows a trailing "..." and a trailing comma in a call, so Go reads
// int(5,) and int(5 ...) as int(5); so do we.
struct Call {
  enum class Fun { Ident, Selector, Slice } fun;
  std::string_view name;      // the identifier; math for a selector; the element type
  std::string_view selector;  // for math.NAME
  std::string spelled;        // FUN without the spaces or comments, for messages
  const Token* op = nullptr;  // prefix operator, if any
  const Token* operand = nullptr;
};

class LineParser {
 public:
  explicit LineParser(std::string_view line) : line_(line) {}

  ValueLineResult run() {
    ScanResult scanned = scan_line(line_);
    if (scanned.error) {
      return fail(scanned.error->message + " at column " + std::to_string(scanned.error->offset + 1));
    }
    tokens_ = std::move(scanned.tokens);
    Call call;
    if (!parse_call(&call)) return {std::nullopt, error_};
    return build(call);
  }

 private:
  // A line that is not a well-formed value: the message leads with the line itself.
  ValueLineResult fail(std::string reason) {
    error_ = show(line_) + ": " + std::move(reason);
    return {std::nullopt, error_};
  }
  // A well-formed line whose value does not fit its type: the message names the value.
  ValueLineResult fail_value(std::string reason) {
    error_ = std::move(reason);
    return {std::nullopt, error_};
  }
  bool fail_parse(std::string reason) {
    fail(std::move(reason));
    return false;
  }

  const Token* at(std::size_t i) const { return i < tokens_.size() ? &tokens_[i] : nullptr; }
  bool is(std::size_t i, TokenKind k) const { return i < tokens_.size() && tokens_[i].kind == k; }

  bool parse_call(Call* call) {
    if (tokens_.empty()) {
      return fail_parse(
          "expected a value such as int(5) or []byte(\"...\"), found only comments or a byte "
          "order mark");
    }
    std::size_t i = 0;
    if (is(0, TokenKind::LBrack)) {
      if (!is(1, TokenKind::RBrack)) {
        return fail_parse("expected []byte; array types such as [4]byte are not supported");
      }
      if (!is(2, TokenKind::Ident)) {
        return fail_parse("expected []byte, found [] followed by " + describe(at(2)));
      }
      call->fun = Call::Fun::Slice;
      call->name = tokens_[2].text;
      i = 3;
    } else if (is(0, TokenKind::Ident) && is(1, TokenKind::Period)) {
      if (!is(2, TokenKind::Ident)) {
        return fail_parse("expected a function name after '" + shown_name(tokens_[0].text) + ".', found " +
                          describe(at(2)));
      }
      call->fun = Call::Fun::Selector;
      call->name = tokens_[0].text;
      call->selector = tokens_[2].text;
      i = 3;
    } else if (is(0, TokenKind::Ident)) {
      call->fun = Call::Fun::Ident;
      call->name = tokens_[0].text;
      i = 1;
    } else {
      return fail_parse("expected a type such as int or []byte at the start of the line, found " + describe(at(0)));
    }
    for (std::size_t k = 0; k < i; ++k) call->spelled += tokens_[k].text;
    call->spelled = shown_name(call->spelled);
    const std::string& fun = call->spelled;

    if (!is(i, TokenKind::LParen)) {
      return fail_parse("expected '(' after " + fun + ", found " + describe(at(i)));
    }
    ++i;
    if (is(i, TokenKind::RParen)) {
      return fail_parse(fun + "() needs exactly one value between the parentheses");
    }
    if (at(i) != nullptr && is_prefix_operator(tokens_[i].kind)) call->op = &tokens_[i++];
    const Token* operand = at(i);
    if (operand == nullptr || !(is_literal(operand->kind) || operand->kind == TokenKind::Ident)) {
      if (call->op != nullptr) {
        return fail_parse("expected a number after '" + std::string(call->op->text) + "' inside " + fun +
                          "(...), found " + describe(operand));
      }
      return fail_parse("expected a literal value inside " + fun + "(...), found " + describe(operand));
    }
    call->operand = operand;
    ++i;
    const bool ellipsis = is(i, TokenKind::Ellipsis);
    if (ellipsis) ++i;
    const bool comma = is(i, TokenKind::Comma);
    if (comma) ++i;
    if (!is(i, TokenKind::RParen)) {
      if (at(i) == nullptr) return fail_parse("missing ')' at the end of the line");
      if (comma && !ellipsis) {
        return fail_parse(fun + "(...) takes exactly one value, found a second one: " + describe(at(i)));
      }
      return fail_parse("expected ')' after the value inside " + fun + "(...), found " + describe(at(i)) +
                        " (values must be single literals, not expressions)");
    }
    ++i;
    if (i < tokens_.size()) {
      return fail_parse("unexpected " + describe(at(i)) + " after the value; each line holds exactly one value");
    }
    return true;
  }

  ValueLineResult build(const Call& call) {
    const std::string& fun = call.spelled;
    const Token& operand = *call.operand;

    if (call.fun == Call::Fun::Slice) {
      if (call.name != "byte") {
        return fail("expected []byte, found " + fun + " (the only slice type is []byte)");
      }
      if (call.op != nullptr || operand.kind != TokenKind::String) {
        return fail("expected a string literal inside []byte(...), found " + argument_text(call));
      }
      auto s = go_unquote(operand.text);
      if (!s) return fail("invalid string literal " + show(operand.text));
      return ok(Bytes(s->begin(), s->end()));
    }

    std::string_view type = call.name;
    if (call.fun == Call::Fun::Selector) {
      if (call.name != "math" || (call.selector != "Float64frombits" && call.selector != "Float32frombits")) {
        return fail("unknown function " + fun +
                    "; the only functions allowed are math.Float32frombits and "
                    "math.Float64frombits");
      }
      type = call.selector;
    } else if (!is_type_name(type)) {
      return fail("unknown type " + show(type) + "; expected " + std::string(kTypeList));
    }

    if (type == "bool") {
      if (call.op == nullptr && operand.kind == TokenKind::Ident &&
          (operand.text == "true" || operand.text == "false")) {
        return ok(operand.text == "true");
      }
      return fail("expected true or false inside bool(...), found " + argument_text(call));
    }

    // The argument as Go's decoder sees it: literal text, with a '-' glued on, or the
    // words NaN, +Inf and -Inf (any prefix operator other than '-' before Inf reads as +Inf
    // in Go, a quirk we keep).
    std::string val;
    TokenKind kind = operand.kind;
    if (operand.kind == TokenKind::Ident) {
      if (call.op != nullptr) {
        if (operand.text != "Inf") {
          return fail("expected a number after '" + std::string(call.op->text) + "' inside " + fun + "(...), found " +
                      describe(&operand));
        }
        val = call.op->kind == TokenKind::Sub ? "-Inf" : "+Inf";
      } else {
        if (operand.text != "NaN") {
          return fail("expected a literal value inside " + fun + "(...), found " + describe(&operand));
        }
        val = "NaN";
      }
      kind = TokenKind::Float;
    } else if (call.op != nullptr) {
      if (call.op->kind != TokenKind::Sub) {
        return fail("only '-' may come before a number, found '" + std::string(call.op->text) + "' inside " + fun +
                    "(...)");
      }
      val = "-" + std::string(operand.text);
    } else {
      val = std::string(operand.text);
    }

    if (type == "string") {
      if (kind != TokenKind::String || call.op != nullptr) {
        return fail("expected a string literal inside string(...), found " + argument_text(call));
      }
      auto s = go_unquote(val);
      if (!s) return fail("invalid string literal " + show(val));
      return ok(std::move(*s));
    }
    if (type == "byte" || type == "rune") return build_char(type, val, kind, call);
    if (type == "Float32frombits" || type == "Float64frombits") return build_bits(type, val, kind, call);
    if (type == "float32" || type == "float64") {
      if (kind != TokenKind::Float && kind != TokenKind::Int) {
        return fail("expected a number inside " + fun + "(...), found " + argument_text(call));
      }
      if (type == "float32") {
        const Parsed<float> f = go_parse_float32(val);
        if (!f.ok()) return number_error(type, val, f.status, true);
        return ok(f.value);
      }
      const Parsed<double> f = go_parse_float64(val);
      if (!f.ok()) return number_error(type, val, f.status, true);
      return ok(f.value);
    }
    // The integer types.
    if (kind != TokenKind::Int) {
      return fail("expected an integer literal inside " + fun + "(...), found " + argument_text(call));
    }
    if (type[0] == 'u') {
      const int bits = type == "uint" ? 64 : std::stoi(std::string(type.substr(4)));
      const Parsed<std::uint64_t> u = go_parse_uint(val, bits);
      if (!u.ok()) return number_error(type, val, u.status, false);
      switch (bits) {
        case 8: return ok(static_cast<std::uint8_t>(u.value));
        case 16: return ok(static_cast<std::uint16_t>(u.value));
        case 32: return ok(static_cast<std::uint32_t>(u.value));
        default: return type == "uint" ? ok(static_cast<GoUint>(u.value)) : ok(u.value);
      }
    }
    const int bits = type == "int" ? 64 : std::stoi(std::string(type.substr(3)));
    const Parsed<std::int64_t> n = go_parse_int(val, bits);
    if (!n.ok()) return number_error(type, val, n.status, false);
    switch (bits) {
      case 8: return ok(static_cast<std::int8_t>(n.value));
      case 16: return ok(static_cast<std::int16_t>(n.value));
      case 32: return ok(static_cast<std::int32_t>(n.value));
      default: return type == "int" ? ok(static_cast<GoInt>(n.value)) : ok(n.value);
    }
  }

  ValueLineResult build_char(std::string_view type, const std::string& val, TokenKind kind, const Call& call) {
    if (kind == TokenKind::Int) {
      if (type == "rune") {
        const Parsed<std::int64_t> n = go_parse_int(val, 32);
        if (!n.ok()) return number_error(type, val, n.status, false);
        return ok(static_cast<std::int32_t>(n.value));
      }
      const Parsed<std::uint64_t> u = go_parse_uint(val, 8);
      if (!u.ok()) return number_error(type, val, u.status, false);
      return ok(static_cast<std::uint8_t>(u.value));
    }
    if (kind != TokenKind::Char) {
      return fail("expected a rune literal such as 'a' or an integer inside " + std::string(type) + "(...), found " +
                  argument_text(call));
    }
    // Go decodes the first character between the quotes; the scanner has already made
    // sure there is exactly one, and a '-' in front leaves a quote there, which fails.
    const auto c = go_unquote_char(std::string_view(val).substr(1, val.size() - 2), '\'');
    if (!c) return fail("invalid rune literal " + show(val));
    if (type == "rune") return ok(static_cast<std::int32_t>(c->value));
    if (c->value >= 256) {
      char code[16];
      std::snprintf(code, sizeof code, "U+%04X", static_cast<unsigned>(c->value));
      return fail_value("expected byte value, got " + show(val) + " (" + code + " does not fit in a byte)");
    }
    return ok(static_cast<std::uint8_t>(c->value));
  }

  ValueLineResult build_bits(std::string_view function, const std::string& val, TokenKind kind, const Call& call) {
    const bool is64 = function == "Float64frombits";
    // Go lets a float literal through to the bit parser for Float64frombits (where it
    // then fails) but not for Float32frombits; either way only integers succeed.
    if (kind != TokenKind::Int) {
      return fail("expected an integer bit pattern inside math." + std::string(function) + "(...), found " +
                  argument_text(call));
    }
    const Parsed<std::uint64_t> u = go_parse_uint(val, is64 ? 64 : 32);
    if (!u.ok()) {
      return number_error(is64 ? "uint64 bit pattern" : "uint32 bit pattern", val, u.status, false);
    }
    if (is64) return ok(std::bit_cast<double>(u.value));
    return ok(std::bit_cast<float>(static_cast<std::uint32_t>(u.value)));
  }

  ValueLineResult number_error(std::string_view what, const std::string& val, NumStatus status, bool is_float) {
    std::string why;
    if (status == NumStatus::Range) {
      why = "out of range";
    } else if (!val.empty() && val[0] == '-' && !is_float) {
      why = "unsigned values cannot be negative";
    } else if (is_float) {
      const std::string_view digits = std::string_view(val).substr(val[0] == '-' ? 1 : 0);
      const char p = digits.size() > 1 && digits[0] == '0' ? static_cast<char>(digits[1] | 0x20) : 0;
      if (p == 'x') {
        why = "a hexadecimal float needs a 'p' exponent, as in 0x1p-2";
      } else if (p == 'o' || p == 'b') {
        why = "octal and binary literals are not accepted for floats";
      } else {
        why = "invalid syntax";
      }
    } else {
      why = "invalid syntax";
    }
    return fail_value("expected " + std::string(what) + " value, got " + show(val) + " (" + why + ")");
  }

  // How the argument was written, for messages.
  std::string argument_text(const Call& call) const {
    if (call.op == nullptr) return describe(call.operand);
    const std::size_t begin = call.op->offset;
    const std::size_t end = call.operand->offset + call.operand->text.size();
    return show(line_.substr(begin, end - begin));
  }

  static bool is_type_name(std::string_view name) {
    return name == "bool" || name == "string" || parse_type_name(name).has_value();
  }

  template <typename T>
  static ValueLineResult ok(T v) {
    return {Value(std::in_place_type<T>, std::move(v)), {}};
  }

  std::string_view line_;
  std::vector<Token> tokens_;
  std::string error_;
};

template <typename U>
std::string hex_bits(U bits) {
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, bits, 16);
  return "0x" + std::string(buf, r.ptr);
}

}  // namespace

ValueLineResult parse_value_line(std::string_view line) { return LineParser(line).run(); }

std::string format_value_line(const Value& v) {
  switch (type_of(v)) {
    case Type::Bytes: {
      const Bytes& b = std::get<Bytes>(v);
      return "[]byte(" + go_quote(std::string_view(reinterpret_cast<const char*>(b.data()), b.size())) + ")";
    }
    case Type::String: return "string(" + go_quote(std::get<std::string>(v)) + ")";
    case Type::Bool: return std::get<bool>(v) ? "bool(true)" : "bool(false)";
    case Type::Byte: return "byte(" + go_quote_rune(std::get<std::uint8_t>(v)) + ")";
    case Type::Rune: {
      // Go writes int32 values that are not valid runes (negative, surrogates, beyond
      // U+10FFFF) as numbers: %q would turn them into U+FFFD (go.dev/issue/51526).
      const std::int32_t r = std::get<std::int32_t>(v);
      if (r >= 0 && valid_rune(static_cast<char32_t>(r))) {
        return "rune(" + go_quote_rune(static_cast<char32_t>(r)) + ")";
      }
      return "int32(" + std::to_string(r) + ")";
    }
    case Type::Int: return "int(" + std::to_string(std::get<GoInt>(v)) + ")";
    case Type::Int8: return "int8(" + std::to_string(std::get<std::int8_t>(v)) + ")";
    case Type::Int16: return "int16(" + std::to_string(std::get<std::int16_t>(v)) + ")";
    case Type::Int64: return "int64(" + std::to_string(std::get<std::int64_t>(v)) + ")";
    case Type::Uint: return "uint(" + std::to_string(std::get<GoUint>(v)) + ")";
    case Type::Uint16: return "uint16(" + std::to_string(std::get<std::uint16_t>(v)) + ")";
    case Type::Uint32: return "uint32(" + std::to_string(std::get<std::uint32_t>(v)) + ")";
    case Type::Uint64: return "uint64(" + std::to_string(std::get<std::uint64_t>(v)) + ")";
    case Type::Float32: {
      const float f = std::get<float>(v);
      const auto bits = std::bit_cast<std::uint32_t>(f);
      if (f != f && bits != kCanonicalNaN32) return "math.Float32frombits(" + hex_bits(bits) + ")";
      return "float32(" + go_format_float32(f) + ")";
    }
    case Type::Float64: {
      const double f = std::get<double>(v);
      const auto bits = std::bit_cast<std::uint64_t>(f);
      if (f != f && bits != kCanonicalNaN64) return "math.Float64frombits(" + hex_bits(bits) + ")";
      return "float64(" + go_format_float64(f) + ")";
    }
  }
  return {};
}

}  // namespace cfuzz::corpus
