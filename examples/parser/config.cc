#include "config.h"

#include <cstdint>

namespace config {
namespace {

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

bool is_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_blank(s.back())) s.remove_suffix(1);
  return s;
}

bool is_name(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!is_name_char(c)) return false;
  }
  return true;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

void append_utf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// What a one-character escape (\n and the like) stands for, or 0 if `c` is not one.
char simple_escape(char c) {
  switch (c) {
    case '"': return '"';
    case '\\': return '\\';
    case 'n': return '\n';
    case 't': return '\t';
    case 'r': return '\r';
    default: return 0;
  }
}

std::optional<std::string_view> malformed(std::string& why, const char* what) {
  why = what;
  return std::nullopt;
}

// Reads the quoted string that starts at s[0] == '"'. Returns what follows the closing
// quote, or nullopt (with `why` set) if the string is malformed.
std::optional<std::string_view> read_quoted(std::string_view s, std::string& out, std::string& why) {
  std::size_t i = 1;
  while (i < s.size() && s[i] != '"') {
    if (s[i] != '\\') {
      out += s[i++];
      continue;
    }
    if (i + 1 == s.size()) break;  // a backslash at the end of the line: unterminated
    char e = s[i + 1];
    if (char c = simple_escape(e)) {
      out += c;
      i += 2;
    } else if (e == 'x') {  // \xHH: one byte
      if (i + 3 >= s.size()) break;
      int hi = hex_value(s[i + 2]), lo = hex_value(s[i + 3]);
      if (hi < 0 || lo < 0) return malformed(why, "\\x needs two hex digits");
      out += static_cast<char>(hi * 16 + lo);
      i += 4;
    } else if (e == 'u') {  // \uHHHH: a code point, written as UTF-8
      if (i + 3 >= s.size()) break;
      std::uint32_t cp = 0;
      for (std::size_t k = i + 2; k < i + 6; ++k) {
        int d = hex_value(s[k]);
        if (d < 0) return malformed(why, "\\u needs four hex digits");
        cp = cp * 16 + static_cast<std::uint32_t>(d);
      }
      append_utf8(out, cp);
      i += 6;
    } else {
      return malformed(why, "unknown escape");
    }
  }
  if (i < s.size() && s[i] == '"') return s.substr(i + 1);
  return malformed(why, "unterminated quoted value");
}

// Parses the value part of `key = value`.
std::optional<std::string> parse_value(std::string_view s, std::string& why) {
  s = trim(s);
  if (s.empty() || s.front() != '"') {
    std::string_view v = s.substr(0, s.find('#'));
    if (v.find('"') != std::string_view::npos) {
      why = "quote inside an unquoted value";
      return std::nullopt;
    }
    return std::string(trim(v));
  }
  std::string value;
  auto rest = read_quoted(s, value, why);
  if (!rest) return std::nullopt;
  std::string_view after = trim(*rest);
  if (!after.empty() && after.front() != '#') {
    why = "text after the closing quote";
    return std::nullopt;
  }
  return value;
}

}  // namespace

const std::string* Config::get(std::string_view section, std::string_view key) const {
  for (auto it = entries.rbegin(); it != entries.rend(); ++it) {
    if (it->section == section && it->key == key) return &it->value;
  }
  return nullptr;
}

std::optional<Config> parse(std::string_view text, ParseError* error) {
  Config cfg;
  std::string section;
  int line_no = 0;
  auto fail = [&](std::string message) -> std::optional<Config> {
    if (error != nullptr) *error = ParseError{line_no, std::move(message)};
    return std::nullopt;
  };

  while (!text.empty()) {
    ++line_no;
    std::size_t end = text.find('\n');
    std::string_view line = trim(text.substr(0, end));
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);

    if (line.empty() || line.front() == '#' || line.front() == ';') continue;
    if (line.front() == '[') {
      std::size_t close = line.find(']');
      if (close == std::string_view::npos) return fail("missing ] after section name");
      std::string_view name = trim(line.substr(1, close - 1));
      if (!is_name(name)) return fail("bad section name");
      std::string_view after = trim(line.substr(close + 1));
      if (!after.empty() && after.front() != '#' && after.front() != ';') {
        return fail("text after ]");
      }
      section = name;
      continue;
    }
    std::size_t eq = line.find('=');
    if (eq == std::string_view::npos) return fail("expected key = value");
    std::string_view key = trim(line.substr(0, eq));
    if (!is_name(key)) return fail("bad key name");
    std::string why;
    auto value = parse_value(line.substr(eq + 1), why);
    if (!value) return fail(why);
    cfg.entries.push_back(Entry{section, std::string(key), std::move(*value)});
  }
  return cfg;
}

std::string serialize(const Config& cfg) {
  static const char kHex[] = "0123456789abcdef";
  std::string out;
  const std::string* section = nullptr;
  for (const Entry& e : cfg.entries) {
    if (section == nullptr ? !e.section.empty() : *section != e.section) {
      out += "[" + e.section + "]\n";
    }
    section = &e.section;
    out += e.key + " = \"";
    for (unsigned char c : e.value) {
      switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\t': out += "\\t"; break;
        case '\r': out += "\\r"; break;
        default:
          if (c < 0x20 || c >= 0x7f) {
            out += "\\x";
            out += kHex[c >> 4];
            out += kHex[c & 0xF];
          } else {
            out += static_cast<char>(c);
          }
      }
    }
    out += "\"\n";
  }
  return out;
}

}  // namespace config
