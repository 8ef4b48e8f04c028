#include "core/value_shape.h"

#include <cstring>
#include <stdexcept>

#include "corpus_format/corpus_error.h"
#include "corpus_format/go_quote.h"

namespace cfuzz::core {

namespace {

struct Scalar {
  std::string_view name;
  ShapeKind kind;
  std::uint8_t width;
  bool is_signed;
};

// clang-format off
constexpr Scalar kScalars[] = {
  {"bool", ShapeKind::Bool, 1, false},
  {"int8", ShapeKind::Int, 1, true},     {"uint8", ShapeKind::Int, 1, false},
  {"int16", ShapeKind::Int, 2, true},    {"uint16", ShapeKind::Int, 2, false},
  {"int32", ShapeKind::Int, 4, true},    {"uint32", ShapeKind::Int, 4, false},
  {"int64", ShapeKind::Int, 8, true},    {"uint64", ShapeKind::Int, 8, false},
  {"float32", ShapeKind::Float, 4, false}, {"float64", ShapeKind::Float, 8, false},
  {"string", ShapeKind::Bytes, 0, false}, {"[]byte", ShapeKind::Bytes, 0, false},
};
// clang-format on

[[noreturn]] void malformed(std::string_view text, std::size_t pos, std::string_view what) {
  throw std::invalid_argument("malformed value shape \"" + std::string(text) + "\" at offset " + std::to_string(pos) +
                              ": " + std::string(what));
}

bool take(std::string_view text, std::size_t& pos, std::string_view token) {
  if (text.substr(pos, token.size()) != token) return false;
  pos += token.size();
  return true;
}

void expect(std::string_view text, std::size_t& pos, std::string_view token) {
  if (!take(text, pos, token)) malformed(text, pos, "expected \"" + std::string(token) + "\"");
}

// Reads as the header's ValueReader does: past the end, bytes are zeros. `missing` counts
// what was asked for beyond the end (bytes, or elements a count promised).
struct Reader {
  const std::uint8_t* p;
  const std::uint8_t* end;
  std::uint64_t missing = 0;
  std::size_t remaining() const { return static_cast<std::size_t>(end - p); }
  std::uint64_t read_le(std::size_t width) {
    std::uint64_t v = 0;
    std::size_t n = width < remaining() ? width : remaining();
    for (std::size_t i = 0; i < n; ++i) v |= std::uint64_t{p[i]} << (8 * i);
    p += n;
    missing += width - n;
    return v;
  }
  std::size_t read_count() {
    std::uint64_t n = read_le(4);
    if (n > remaining()) missing += n - remaining();
    return n < remaining() ? static_cast<std::size_t>(n) : remaining();
  }
};

void put_le(std::vector<std::uint8_t>& out, std::uint64_t v, std::size_t width) {
  for (std::size_t i = 0; i < width; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

struct Walk {
  const ValueShape& shape;
  Reader r;
  std::vector<std::uint8_t>& out;
  std::vector<ValuePart>& parts;

  void value(std::uint32_t id, std::int32_t parent) {
    const ShapeNode& n = shape.node(id);
    auto self = static_cast<std::int32_t>(parts.size());
    parts.push_back(ValuePart{id, static_cast<std::uint32_t>(out.size()), 0, parent});
    switch (n.kind) {
      case ShapeKind::Bool: put_le(out, r.read_le(1) & 1, 1); break;
      case ShapeKind::Int:
      case ShapeKind::Float: put_le(out, r.read_le(n.width), n.width); break;
      case ShapeKind::Bytes: {
        std::size_t count = r.read_count();
        put_le(out, count, 4);
        out.insert(out.end(), r.p, r.p + count);
        r.p += count;
        break;
      }
      case ShapeKind::Sequence: {
        std::size_t count = r.read_count();
        put_le(out, count, 4);
        for (std::size_t i = 0; i < count; ++i) value(n.children[0], self);
        break;
      }
      case ShapeKind::Array:
        for (std::uint32_t i = 0; i < n.count; ++i) value(n.children[0], self);
        break;
      case ShapeKind::Optional: {
        std::uint64_t present = r.read_le(1) & 1;
        put_le(out, present, 1);
        if (present != 0) value(n.children[0], self);
        break;
      }
      case ShapeKind::Variant: {
        std::size_t index = static_cast<std::size_t>(r.read_le(1)) % n.children.size();
        put_le(out, index, 1);
        value(n.children[index], self);
        break;
      }
      case ShapeKind::Struct:
        for (std::uint32_t child : n.children) value(child, self);
        break;
    }
    parts[static_cast<std::size_t>(self)].end = static_cast<std::uint32_t>(out.size());
  }
};

// Writes what Walk reads, as text.
struct Render {
  const ValueShape& shape;
  Reader r;
  std::string& out;
  std::size_t max_chars;

  bool full() const { return out.size() > max_chars; }
  void value(std::uint32_t id) {
    if (full()) return;
    const ShapeNode& n = shape.node(id);
    switch (n.kind) {
      case ShapeKind::Bool: out += (r.read_le(1) & 1) != 0 ? "true" : "false"; break;
      case ShapeKind::Int: {
        std::uint64_t v = r.read_le(n.width);
        if (n.is_signed && n.width < 8 && (v >> (8 * n.width - 1)) != 0) v |= ~std::uint64_t{0} << (8 * n.width);
        out += n.is_signed ? std::to_string(static_cast<std::int64_t>(v)) : std::to_string(v);
        break;
      }
      case ShapeKind::Float: {
        std::uint64_t bits = r.read_le(n.width);
        if (n.width == 4) {
          float f;
          auto b = static_cast<std::uint32_t>(bits);
          std::memcpy(&f, &b, sizeof f);
          out += corpus::go_format_float32(f);
        } else {
          double d;
          std::memcpy(&d, &bits, sizeof d);
          out += corpus::go_format_float64(d);
        }
        break;
      }
      case ShapeKind::Bytes: {
        std::size_t count = r.read_count();
        out += corpus::go_quote(std::string_view(reinterpret_cast<const char*>(r.p), count));
        r.p += count;
        break;
      }
      case ShapeKind::Sequence:
      case ShapeKind::Array: {
        std::size_t count = n.kind == ShapeKind::Array ? n.count : r.read_count();
        out += n.is_map ? "{" : "[";
        for (std::size_t i = 0; i < count && !full(); ++i) {
          if (i != 0) out += ", ";
          if (n.is_map) {
            const ShapeNode& entry = shape.node(n.children[0]);
            value(entry.children[0]);
            out += ": ";
            value(entry.children[1]);
          } else {
            value(n.children[0]);
          }
        }
        out += n.is_map ? "}" : "]";
        break;
      }
      case ShapeKind::Optional:
        if ((r.read_le(1) & 1) != 0) {
          value(n.children[0]);
        } else {
          out += "none";
        }
        break;
      case ShapeKind::Variant: value(n.children[static_cast<std::size_t>(r.read_le(1)) % n.children.size()]); break;
      case ShapeKind::Struct:
        out += "{";
        for (std::size_t i = 0; i < n.children.size() && !full(); ++i) {
          if (i != 0) out += ", ";
          value(n.children[i]);
        }
        out += "}";
        break;
    }
  }
};

}  // namespace

void check_shapes(const corpus::Entry& entry, const std::vector<std::string>& shapes, std::string_view filename) {
  for (std::size_t i = 0; i < entry.size() && i < shapes.size(); ++i) {
    const auto* bytes = std::get_if<corpus::Bytes>(&entry[i]);
    if (shapes[i].empty() || bytes == nullptr) continue;
    ValueShape shape = ValueShape::parse(shapes[i]);
    std::vector<std::uint8_t> out;
    std::vector<ValuePart> parts;
    Walk w{shape, Reader{bytes->data(), bytes->data() + bytes->size()}, out, parts};
    w.value(shape.root(), -1);
    std::string what;
    if (w.r.missing != 0) {
      what = "ends before its value does (" + std::to_string(w.r.missing) + " more bytes or elements expected)";
    } else if (w.r.remaining() != 0) {
      what = "has " + std::to_string(w.r.remaining()) + " bytes left over after its value";
    } else {
      continue;
    }
    // Line 1 is the "go test fuzz v1" header.
    throw corpus::CorpusError(std::string(filename), static_cast<int>(i) + 2,
                              "argument " + std::to_string(i) + ", a " + shapes[i] + ", " + what +
                                  "; was the file written for another signature of the fuzz function?");
  }
}

std::string render_value(const ValueShape& shape, const std::uint8_t* data, std::size_t len, std::size_t max_chars) {
  std::string out;
  Render w{shape, Reader{data, data + len}, out, max_chars};
  w.value(shape.root());
  if (out.size() > max_chars) out = out.substr(0, max_chars) + "...";
  return out;
}

ValueShape ValueShape::parse(std::string_view text) {
  ValueShape s;
  s.text_ = std::string(text);
  std::size_t pos = 0;
  s.parse_node(text, pos);
  if (pos != text.size()) malformed(text, pos, "unexpected text after the type");
  return s;
}

std::uint32_t ValueShape::parse_node(std::string_view text, std::size_t& pos) {
  // Constraints come first ("<range 0 9>int32"), so that they cannot be read as the
  // element's in "<size 1 4>[]int32"; they are read once the node's kind is known.
  std::size_t constraints = std::string_view::npos;
  if (take(text, pos, "<")) {
    constraints = pos;
    pos = text.find('>', pos);
    if (pos == std::string_view::npos) malformed(text, constraints, "expected \">\"");
    ++pos;
  }
  std::uint32_t id = parse_type(text, pos);
  if (constraints != std::string_view::npos) parse_constraints(text, constraints, nodes_[id]);
  return id;
}

std::uint32_t ValueShape::parse_type(std::string_view text, std::size_t& pos) {
  auto id = static_cast<std::uint32_t>(nodes_.size());
  nodes_.push_back(ShapeNode{ShapeKind::Struct, 0, false, 0, {}, false, false, 0, 0, {}, 0, UINT64_MAX, {}});
  auto add_child = [&](std::uint32_t child) { nodes_[id].children.push_back(child); };
  for (const Scalar& sc : kScalars) {
    // "[]byte" before "[]T"; a scalar name is never a prefix of another at a type's end.
    std::size_t end = pos + sc.name.size();
    if (text.substr(pos, sc.name.size()) == sc.name &&
        (end == text.size() || text[end] == ']' || text[end] == ';' || text[end] == '|' || text[end] == '}')) {
      pos = end;
      nodes_[id].kind = sc.kind;
      nodes_[id].width = sc.width;
      nodes_[id].is_signed = sc.is_signed;
      return id;
    }
  }
  if (take(text, pos, "[]")) {
    nodes_[id].kind = ShapeKind::Sequence;
    add_child(parse_node(text, pos));
  } else if (take(text, pos, "[")) {
    std::size_t digits = pos;
    std::uint64_t n = 0;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9' && n < (1u << 31))
      n = n * 10 + (text[pos++] - '0');
    if (pos == digits) malformed(text, pos, "expected an array length");
    expect(text, pos, "]");
    nodes_[id].kind = ShapeKind::Array;
    nodes_[id].count = static_cast<std::uint32_t>(n);
    add_child(parse_node(text, pos));
  } else if (take(text, pos, "set[")) {
    nodes_[id].kind = ShapeKind::Sequence;
    add_child(parse_node(text, pos));
    expect(text, pos, "]");
  } else if (take(text, pos, "map[")) {
    // A map is a sequence of key-value structs.
    nodes_[id].kind = ShapeKind::Sequence;
    nodes_[id].is_map = true;
    auto entry = static_cast<std::uint32_t>(nodes_.size());
    nodes_.push_back(ShapeNode{ShapeKind::Struct, 0, false, 0, {}, false, false, 0, 0, {}, 0, UINT64_MAX, {}});
    add_child(entry);
    std::uint32_t key = parse_node(text, pos);
    expect(text, pos, "]");
    std::uint32_t val = parse_node(text, pos);
    nodes_[entry].children = {key, val};
  } else if (take(text, pos, "optional[")) {
    nodes_[id].kind = ShapeKind::Optional;
    add_child(parse_node(text, pos));
    expect(text, pos, "]");
  } else if (take(text, pos, "variant[")) {
    nodes_[id].kind = ShapeKind::Variant;
    do {
      add_child(parse_node(text, pos));
    } while (take(text, pos, "|"));
    expect(text, pos, "]");
  } else if (take(text, pos, "struct{")) {
    nodes_[id].kind = ShapeKind::Struct;
    if (!take(text, pos, "}")) {
      do {
        add_child(parse_node(text, pos));
      } while (take(text, pos, "; "));
      expect(text, pos, "}");
    }
  } else {
    malformed(text, pos, "expected a type");
  }
  return id;
}

void ValueShape::parse_constraints(std::string_view text, std::size_t& pos, ShapeNode& n) {
  auto word = [&]() {
    std::size_t end = text.find_first_of(" ;>", pos);
    if (end == std::string_view::npos || end == pos) malformed(text, pos, "expected a constraint value");
    std::string w(text.substr(pos, end - pos));
    pos = end;
    return w;
  };
  auto number = [&](const std::string& w, bool is_float, bool is_signed) -> std::uint64_t {
    char* end = nullptr;
    std::uint64_t bits;
    if (is_float) {
      double d = std::strtod(w.c_str(), &end);
      std::memcpy(&bits, &d, sizeof bits);
    } else if (is_signed) {
      bits = static_cast<std::uint64_t>(std::strtoll(w.c_str(), &end, 10));
    } else {
      bits = std::strtoull(w.c_str(), &end, 10);
    }
    if (end == nullptr || *end != '\0') malformed(text, pos, "bad number \"" + w + "\"");
    return bits;
  };
  auto hex = [&](const std::string& w) {
    std::vector<std::uint8_t> out;
    if (w == "-") return out;
    if (w.size() % 2 != 0 || w.find_first_not_of("0123456789abcdef") != std::string::npos) {
      malformed(text, pos, "expected hex digits");
    }
    for (std::size_t i = 0; i < w.size(); i += 2) {
      out.push_back(static_cast<std::uint8_t>(std::stoul(w.substr(i, 2), nullptr, 16)));
    }
    return out;
  };
  do {
    if (take(text, pos, "range ")) {
      bool is_float = n.kind == ShapeKind::Float;
      n.lo = number(word(), is_float, n.is_signed);
      expect(text, pos, " ");
      n.hi = number(word(), is_float, n.is_signed);
      n.has_range = true;
    } else if (take(text, pos, "size ")) {
      n.min_size = number(word(), false, false);
      expect(text, pos, " ");
      n.max_size = number(word(), false, false);
    } else if (take(text, pos, "alphabet ")) {
      auto a = hex(word());
      n.alphabet.assign(a.begin(), a.end());
    } else if (take(text, pos, "oneof")) {
      while (take(text, pos, " ")) n.oneof.push_back(hex(word()));
    } else {
      malformed(text, pos, "expected range, size, alphabet or oneof");
    }
  } while (take(text, pos, "; "));
  expect(text, pos, ">");
}

void canonicalize(const ValueShape& shape, const std::uint8_t* data, std::size_t len, std::vector<std::uint8_t>& out,
                  std::vector<ValuePart>& parts) {
  out.clear();
  parts.clear();
  Walk w{shape, Reader{data, data + len}, out, parts};
  w.value(shape.root(), -1);
}

std::uint32_t read_u32_le(const std::uint8_t* p) {
  return std::uint32_t{p[0]} | std::uint32_t{p[1]} << 8 | std::uint32_t{p[2]} << 16 | std::uint32_t{p[3]} << 24;
}

void write_u32_le(std::uint8_t* p, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<std::uint8_t>(v >> (8 * i));
}

}  // namespace cfuzz::core
