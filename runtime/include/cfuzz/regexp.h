// Strings matching a regular expression (cfuzz::in_regexp, domains.h). Included by cfuzz.h.
//
// The pattern is an ECMAScript regular expression as std::regex reads it, which decides
// membership. To make strings that match, the pattern is also read here, in a subset that
// covers what input formats are described with: literals and escapes (\d \w \s \D \W \S
// \. \n \t ...), `.`, classes ([a-z0-9_], [^"]), groups ((...), (?:...)), alternation, and
// the quantifiers * + ? {m} {m,} {m,n}; ^ and $ at the ends are accepted and mean nothing
// more (the whole string must match). Anything else is an error when the test registers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <regex>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace cfuzz::detail::regexp {

struct Node {
  enum Kind { Chars, Concat, Alt, Repeat } kind = Concat;
  std::string chars;  // Chars: the bytes it may be
  std::vector<Node> kids;
  int min = 0, max = 0;  // Repeat: max < 0 is unbounded
};

// The bytes `.` and negated classes draw from: printable ASCII and tab.
inline std::string printable() {
  std::string s = "\t";
  for (int c = 0x20; c < 0x7f; ++c) s += static_cast<char>(c);
  return s;
}

class Parser {
 public:
  explicit Parser(std::string_view p) : p_(p) {}
  Node parse() {
    if (at('^')) ++pos_;
    Node n = alternation();
    if (at('$')) ++pos_;
    if (pos_ != p_.size()) fail("unexpected '" + std::string(1, p_[pos_]) + "'");
    return n;
  }

 private:
  bool at(char c) const { return pos_ < p_.size() && p_[pos_] == c; }
  [[noreturn]] void fail(const std::string& what) const {
    throw std::invalid_argument("cfuzz::in_regexp(\"" + std::string(p_) + "\"): " + what + " at offset " +
                                std::to_string(pos_) +
                                " (supported: literals, escapes, ., classes, groups, |, "
                                "* + ? {m,n})");
  }
  Node alternation() {
    Node alt{Node::Alt, {}, {}, 0, 0};
    alt.kids.push_back(concatenation());
    while (at('|')) {
      ++pos_;
      alt.kids.push_back(concatenation());
    }
    return alt.kids.size() == 1 ? alt.kids[0] : alt;
  }
  Node concatenation() {
    Node cat{Node::Concat, {}, {}, 0, 0};
    while (pos_ < p_.size() && !at('|') && !at(')') && !(at('$') && pos_ + 1 == p_.size())) {
      cat.kids.push_back(repetition());
    }
    return cat;
  }
  int number() {
    if (pos_ >= p_.size() || p_[pos_] < '0' || p_[pos_] > '9') fail("expected a number");
    int n = 0;
    while (pos_ < p_.size() && p_[pos_] >= '0' && p_[pos_] <= '9' && n < 100000) n = n * 10 + (p_[pos_++] - '0');
    return n;
  }
  Node repetition() {
    Node atom_node = atom();
    for (;;) {
      int min, max;
      if (at('*')) {
        min = 0, max = -1, ++pos_;
      } else if (at('+')) {
        min = 1, max = -1, ++pos_;
      } else if (at('?')) {
        min = 0, max = 1, ++pos_;
      } else if (at('{')) {
        ++pos_;
        min = max = number();
        if (at(',')) {
          ++pos_;
          max = at('}') ? -1 : number();
        }
        if (!at('}') || (max >= 0 && max < min)) fail("bad {m,n}");
        ++pos_;
      } else {
        return atom_node;
      }
      if (at('?')) ++pos_;  // lazy: the same strings
      Node rep{Node::Repeat, {}, {std::move(atom_node)}, min, max};
      atom_node = std::move(rep);
    }
  }
  std::string escape_class(char c) {
    std::string digits = "0123456789", word = digits + "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_";
    std::string space = " \t\n\r\f\v";
    auto complement = [](const std::string& of) {
      std::string out;
      for (char x : printable()) {
        if (of.find(x) == std::string::npos) out += x;
      }
      return out;
    };
    switch (c) {
      case 'd': return digits;
      case 'w': return word;
      case 's': return space;
      case 'D': return complement(digits);
      case 'W': return complement(word);
      case 'S': return complement(space);
      case 'n': return "\n";
      case 't': return "\t";
      case 'r': return "\r";
      case 'f': return "\f";
      case 'v': return "\v";
      default:
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) {
          fail(std::string("unsupported escape \\") + c);
        }
        return std::string(1, c);  // \. \\ \( ...
    }
  }
  Node atom() {
    if (pos_ >= p_.size()) fail("expected an atom");
    char c = p_[pos_++];
    switch (c) {
      case '(': {
        if (p_.substr(pos_, 2) == "?:") pos_ += 2;
        if (at('?')) fail("unsupported group");
        Node inner = alternation();
        if (!at(')')) fail("expected ')'");
        ++pos_;
        return inner;
      }
      case '[': return Node{Node::Chars, char_class(), {}, 0, 0};
      case '.': return Node{Node::Chars, printable(), {}, 0, 0};
      case '\\':
        if (pos_ >= p_.size()) fail("trailing \\");
        return Node{Node::Chars, escape_class(p_[pos_++]), {}, 0, 0};
      case '*':
      case '+':
      case '?':
      case '{':
      case ')':
      case '|': --pos_; fail("unexpected '" + std::string(1, c) + "'");
      default: return Node{Node::Chars, std::string(1, c), {}, 0, 0};
    }
  }
  std::string char_class() {
    bool negate = at('^');
    if (negate) ++pos_;
    std::string set;
    bool first = true;
    while (pos_ < p_.size() && (first || !at(']'))) {
      first = false;
      char c = p_[pos_++];
      std::string item;
      if (c == '\\') {
        if (pos_ >= p_.size()) fail("trailing \\");
        item = escape_class(p_[pos_++]);
      } else {
        item = std::string(1, c);
      }
      if (item.size() == 1 && at('-') && pos_ + 1 < p_.size() && p_[pos_ + 1] != ']') {
        ++pos_;
        char hi = p_[pos_++];
        if (hi == '\\') fail("escaped range end");
        if (static_cast<unsigned char>(hi) < static_cast<unsigned char>(item[0])) fail("bad range");
        for (int x = static_cast<unsigned char>(item[0]); x <= static_cast<unsigned char>(hi); ++x) {
          set += static_cast<char>(x);
        }
      } else {
        set += item;
      }
    }
    if (!at(']')) fail("expected ']'");
    ++pos_;
    if (!negate) return set;
    std::string out;
    for (char x : printable()) {
      if (set.find(x) == std::string::npos) out += x;
    }
    if (out.empty()) fail("a class that matches nothing");
    return out;
  }

  std::string_view p_;
  std::size_t pos_ = 0;
};

// A string the node matches, appended to `out`; `next` gives random numbers.
template <class Rng>
void generate(const Node& n, Rng& next, std::string& out) {
  switch (n.kind) {
    case Node::Chars: out += n.chars[next() % n.chars.size()]; break;
    case Node::Concat:
      for (const Node& k : n.kids) generate(k, next, out);
      break;
    case Node::Alt: generate(n.kids[next() % n.kids.size()], next, out); break;
    case Node::Repeat: {
      // Unbounded repetitions stay short, most of the time.
      int span = n.max < 0 ? 8 : n.max - n.min;
      int count = n.min + static_cast<int>(next() % static_cast<unsigned>(span + 1));
      for (int i = 0; i < count; ++i) generate(n.kids[0], next, out);
      break;
    }
  }
}

}  // namespace cfuzz::detail::regexp
