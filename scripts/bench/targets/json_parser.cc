// A realistic target: a small JSON parser (objects, arrays, strings with escapes and \u
// sequences, numbers with fractions and exponents, literals, a depth limit), a writer,
// and a round-trip check. It has a planted bug a few parser states deep: a "frob..." member
// of the top-level object whose value is a negative number with a fraction reaches an
// out-of-bounds write.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace {

struct Value {
  enum Kind { Null, Bool, Number, String, Array, Object } kind = Null;
  bool b = false;
  double number = 0;
  bool negative = false;
  bool has_fraction = false;
  std::string str;
  std::vector<Value> items;       // array elements, or object member values
  std::vector<std::string> keys;  // object member names
};

class Parser {
 public:
  explicit Parser(std::string_view text) : s_(text) {}

  bool parse(Value* out) {
    skip_space();
    if (!value(out, 0)) return false;
    skip_space();
    return pos_ == s_.size();
  }

 private:
  static constexpr int kMaxDepth = 64;

  void skip_space() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n' || s_[pos_] == '\r')) ++pos_;
  }

  bool literal(std::string_view word) {
    if (s_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }

  bool value(Value* v, int depth) {
    if (depth > kMaxDepth || pos_ >= s_.size()) return false;
    switch (s_[pos_]) {
      case '{': return object(v, depth + 1);
      case '[': return array(v, depth + 1);
      case '"': v->kind = Value::String; return string(&v->str);
      case 't':
        v->kind = Value::Bool;
        v->b = true;
        return literal("true");
      case 'f': v->kind = Value::Bool; return literal("false");
      case 'n': v->kind = Value::Null; return literal("null");
      default: return number(v);
    }
  }

  bool object(Value* v, int depth) {
    v->kind = Value::Object;
    ++pos_;  // {
    skip_space();
    if (pos_ < s_.size() && s_[pos_] == '}') {
      ++pos_;
      return true;
    }
    for (;;) {
      skip_space();
      std::string key;
      if (pos_ >= s_.size() || s_[pos_] != '"' || !string(&key)) return false;
      skip_space();
      if (pos_ >= s_.size() || s_[pos_] != ':') return false;
      ++pos_;
      skip_space();
      Value member;
      if (!value(&member, depth)) return false;
      v->keys.push_back(std::move(key));
      v->items.push_back(std::move(member));
      skip_space();
      if (pos_ >= s_.size()) return false;
      if (s_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (s_[pos_] == '}') {
        ++pos_;
        return true;
      }
      return false;
    }
  }

  bool array(Value* v, int depth) {
    v->kind = Value::Array;
    ++pos_;  // [
    skip_space();
    if (pos_ < s_.size() && s_[pos_] == ']') {
      ++pos_;
      return true;
    }
    for (;;) {
      skip_space();
      Value item;
      if (!value(&item, depth)) return false;
      v->items.push_back(std::move(item));
      skip_space();
      if (pos_ >= s_.size()) return false;
      if (s_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (s_[pos_] == ']') {
        ++pos_;
        return true;
      }
      return false;
    }
  }

  static int hex(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  }

  static void put_utf8(std::string* out, unsigned cp) {
    if (cp < 0x80) {
      *out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      *out += static_cast<char>(0xc0 | (cp >> 6));
      *out += static_cast<char>(0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
      *out += static_cast<char>(0xe0 | (cp >> 12));
      *out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
      *out += static_cast<char>(0x80 | (cp & 0x3f));
    } else {
      *out += static_cast<char>(0xf0 | (cp >> 18));
      *out += static_cast<char>(0x80 | ((cp >> 12) & 0x3f));
      *out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
      *out += static_cast<char>(0x80 | (cp & 0x3f));
    }
  }

  bool unicode_escape(unsigned* cp) {
    if (pos_ + 4 > s_.size()) return false;
    unsigned v = 0;
    for (int i = 0; i < 4; ++i) {
      int h = hex(s_[pos_ + static_cast<std::size_t>(i)]);
      if (h < 0) return false;
      v = v * 16 + static_cast<unsigned>(h);
    }
    pos_ += 4;
    *cp = v;
    return true;
  }

  bool string(std::string* out) {
    ++pos_;  // "
    while (pos_ < s_.size()) {
      char c = s_[pos_++];
      if (c == '"') return true;
      if (static_cast<unsigned char>(c) < 0x20) return false;
      if (c != '\\') {
        *out += c;
        continue;
      }
      if (pos_ >= s_.size()) return false;
      char e = s_[pos_++];
      switch (e) {
        case '"': *out += '"'; break;
        case '\\': *out += '\\'; break;
        case '/': *out += '/'; break;
        case 'b': *out += '\b'; break;
        case 'f': *out += '\f'; break;
        case 'n': *out += '\n'; break;
        case 'r': *out += '\r'; break;
        case 't': *out += '\t'; break;
        case 'u': {
          unsigned cp;
          if (!unicode_escape(&cp)) return false;
          if (cp >= 0xd800 && cp < 0xdc00) {  // a surrogate pair
            unsigned low;
            if (!literal("\\u") || !unicode_escape(&low) || low < 0xdc00 || low > 0xdfff) return false;
            cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
          } else if (cp >= 0xdc00 && cp < 0xe000) {
            return false;
          }
          put_utf8(out, cp);
          break;
        }
        default: return false;
      }
    }
    return false;
  }

  bool number(Value* v) {
    v->kind = Value::Number;
    std::size_t start = pos_;
    if (pos_ < s_.size() && s_[pos_] == '-') {
      v->negative = true;
      ++pos_;
    }
    if (pos_ >= s_.size() || s_[pos_] < '0' || s_[pos_] > '9') return false;
    if (s_[pos_] == '0') {
      ++pos_;
    } else {
      while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') ++pos_;
    }
    if (pos_ < s_.size() && s_[pos_] == '.') {
      ++pos_;
      v->has_fraction = true;
      if (pos_ >= s_.size() || s_[pos_] < '0' || s_[pos_] > '9') return false;
      while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') ++pos_;
    }
    if (pos_ < s_.size() && (s_[pos_] == 'e' || s_[pos_] == 'E')) {
      ++pos_;
      if (pos_ < s_.size() && (s_[pos_] == '+' || s_[pos_] == '-')) ++pos_;
      if (pos_ >= s_.size() || s_[pos_] < '0' || s_[pos_] > '9') return false;
      while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') ++pos_;
    }
    v->number = std::strtod(std::string(s_.substr(start, pos_ - start)).c_str(), nullptr);
    return true;
  }

  std::string_view s_;
  std::size_t pos_ = 0;
};

void write_string(const std::string& s, std::string* out) {
  *out += '"';
  for (char c : s) {
    if (c == '"' || c == '\\') {
      *out += '\\';
      *out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned char>(c));
      *out += buf;
    } else {
      *out += c;
    }
  }
  *out += '"';
}

void write(const Value& v, std::string* out) {
  switch (v.kind) {
    case Value::Null: *out += "null"; break;
    case Value::Bool: *out += v.b ? "true" : "false"; break;
    case Value::Number: {
      if (!std::isfinite(v.number)) {  // 1e999 parses as infinity, which JSON cannot say
        *out += "null";
        break;
      }
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.17g", v.number);
      *out += buf;
      break;
    }
    case Value::String: write_string(v.str, out); break;
    case Value::Array:
      *out += '[';
      for (std::size_t i = 0; i < v.items.size(); ++i) {
        if (i != 0) *out += ',';
        write(v.items[i], out);
      }
      *out += ']';
      break;
    case Value::Object:
      *out += '{';
      for (std::size_t i = 0; i < v.keys.size(); ++i) {
        if (i != 0) *out += ',';
        write_string(v.keys[i], out);
        *out += ':';
        write(v.items[i], out);
      }
      *out += '}';
      break;
  }
}

// The planted bug: a fixed-size table written at an index the input controls.
[[maybe_unused]] void frobnicate(const Value& v) {
  if (v.kind != Value::Number || !v.negative || !v.has_fraction) return;
  volatile int* table = new int[4];      // volatile: the store must happen
  table[v.number < -1e300 ? 0 : 4] = 1;  // index 4: one past the end
  delete[] const_cast<int*>(table);
}

// The deep planted bug (built with -DBENCH_DEEP_BUG, as the json_deep target): no magic
// word, only structure and exact lengths. A member of an object nested at least two
// levels deep (inside an array or object) whose name and string value are both exactly six characters long overflows a
// buffer sized for the name without its terminator.
[[maybe_unused]] void index_names(const Value& v, int depth) {
  if (v.kind != Value::Object && v.kind != Value::Array) return;
  for (std::size_t i = 0; i < v.items.size(); ++i) {
    const Value& item = v.items[i];
    if (v.kind == Value::Object && depth >= 2 && v.keys[i].size() == 6 && item.kind == Value::String &&
        item.str.size() == 6) {
      volatile char* name = new char[6];  // volatile: the stores must happen
      for (std::size_t k = 0; k < 6; ++k) name[k] = item.str[k];
      name[6] = 0;  // one past the end
      delete[] const_cast<char*>(name);
    }
    index_names(item, depth + 1);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Value root;
  Parser p(std::string_view(reinterpret_cast<const char*>(data), size));
  if (!p.parse(&root)) return 0;
  if (root.kind == Value::Object) {
    for (std::size_t i = 0; i < root.keys.size(); ++i) {
#ifndef BENCH_NO_BUG  // coverage runs leave the bug out, so that every fuzzer runs the full time
      if (root.keys[i].compare(0, 4, "frob") == 0) frobnicate(root.items[i]);  // "frob..." keys
#endif
    }
  }
#ifdef BENCH_DEEP_BUG
  index_names(root, 1);
#endif
  std::string once, twice;
  write(root, &once);
  Value again;
  Parser p2(once);
  if (!p2.parse(&again)) abort();  // the writer must produce valid JSON
  write(again, &twice);
  if (once != twice) abort();  // and writing is stable
  return 0;
}
