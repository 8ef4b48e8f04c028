// Domains: the values a fuzz test parameter may take, given beside the fuzz function.
//
//   f.fuzz([](cfuzz::T& t, int level, const std::vector<int>& ids, const std::string& name) { ... },
//          cfuzz::domains(cfuzz::in_range(0, 9),
//                         cfuzz::vector_of(cfuzz::element_of<int>({2, 3, 5, 7})).with_size(1, 4),
//                         cfuzz::string_of("abc").with_max_size(8)));
//
// A domain decodes a value and says whether it belongs (values that do not are never given
// to the fuzz function), describes itself for messages, and writes a constrained shape
// (`<range 0 9>int32`) that the runtime's structure mutator keeps to. Included by cfuzz.h.
#pragma once

#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <memory>
#include <optional>
#include <regex>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "cfuzz/regexp.h"
#include "cfuzz/typed_values.h"

namespace cfuzz {

std::size_t mutate_bytes(std::uint8_t* data, std::size_t size, std::size_t max_size);  // cfuzz.h

namespace detail {

template <class V>
std::string describe_value(const V& v) {
  if constexpr (std::is_same_v<V, bool>) {
    return v ? "true" : "false";
  } else if constexpr (std::is_enum_v<V>) {
    return describe_value(static_cast<std::underlying_type_t<V>>(v));
  } else if constexpr (std::is_floating_point_v<V>) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%g", static_cast<double>(v));
    return buf;
  } else if constexpr (std::is_integral_v<V>) {
    return std::to_string(v);
  } else if constexpr (std::is_same_v<V, std::string>) {
    return "\"" + v + "\"";
  } else {
    return "a value";
  }
}

// A bound in a constrained shape: integers in decimal, floats as hexadecimal floats (exact).
template <class V>
std::string shape_number(V v) {
  if constexpr (std::is_floating_point_v<V>) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%a", static_cast<double>(v));
    return buf;
  } else if constexpr (std::is_enum_v<V>) {
    return shape_number(static_cast<std::underlying_type_t<V>>(v));
  } else {
    return std::to_string(v);
  }
}

inline std::string hex_of(const std::vector<std::uint8_t>& bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string s;
  for (std::uint8_t b : bytes) {
    s += kDigits[b >> 4];
    s += kDigits[b & 15];
  }
  return s.empty() ? "-" : s;  // "-": the empty encoding
}

inline std::string size_suffix(std::size_t min, std::size_t max) {
  if (min == 0 && max == SIZE_MAX) return {};
  if (min == 0) return ".WithMaxSize(" + std::to_string(max) + ")";
  return ".WithSize(" + std::to_string(min) + ", " + std::to_string(max) + ")";
}

inline void size_constraint(std::string& out, std::size_t min, std::size_t max) {
  if (min != 0 || max != SIZE_MAX) out += "size " + std::to_string(min) + " " + std::to_string(max);
}

}  // namespace detail

// Any value of V: what a parameter without a domain takes.
template <class V>
struct Arbitrary {
  using value_type = V;
  bool constrained() const { return false; }
  void shape(std::string& out) const { detail::Codec<V>::shape(out); }
  bool decode(detail::ValueReader& r, V& v) const {
    detail::Codec<V>::decode(r, v);
    return true;
  }
  void encode(detail::ValueWriter& w, const V& v) const { detail::Codec<V>::encode(w, v); }
  bool admits(const V&, std::string&) const { return true; }
  std::string describe() const { return "Arbitrary<" + detail::shape_of<V>() + ">"; }
};
template <class V>
Arbitrary<V> arbitrary() {
  return {};
}

// Numbers from lo to hi, both included.
template <class V>
struct InRange {
  static_assert(std::is_arithmetic_v<V> && !std::is_same_v<V, bool>, "cfuzz::in_range takes numbers");
  using value_type = V;
  V lo, hi;
  bool constrained() const { return true; }
  void shape(std::string& out) const {
    out += "<range " + detail::shape_number(lo) + " " + detail::shape_number(hi) + ">";
    detail::Codec<V>::shape(out);
  }
  bool decode(detail::ValueReader& r, V& v) const {
    detail::Codec<V>::decode(r, v);
    return lo <= v && v <= hi;
  }
  void encode(detail::ValueWriter& w, const V& v) const { detail::Codec<V>::encode(w, v); }
  bool admits(const V& v, std::string& why) const {
    if (lo <= v && v <= hi) return true;
    why = detail::describe_value(v) + " is not in " + describe();
    return false;
  }
  std::string describe() const {
    return "InRange(" + detail::describe_value(lo) + ", " + detail::describe_value(hi) + ")";
  }
};
template <class V>
InRange<V> in_range(V lo, V hi) {
  return {lo, hi};
}

// One of the given values.
template <class V>
struct ElementOf {
  using value_type = V;
  std::vector<V> values;
  bool constrained() const { return true; }
  void shape(std::string& out) const {
    out += "<oneof";
    for (const V& v : values) out += " " + detail::hex_of(detail::encode_value(v));
    out += ">";
    detail::Codec<V>::shape(out);
  }
  bool contains(const V& v) const {
    for (const V& x : values) {
      if (x == v) return true;
    }
    return false;
  }
  bool decode(detail::ValueReader& r, V& v) const {
    detail::Codec<V>::decode(r, v);
    return contains(v);
  }
  void encode(detail::ValueWriter& w, const V& v) const { detail::Codec<V>::encode(w, v); }
  bool admits(const V& v, std::string& why) const {
    if (contains(v)) return true;
    why = detail::describe_value(v) + " is not in " + describe();
    return false;
  }
  std::string describe() const {
    std::string s = "ElementOf({";
    for (std::size_t i = 0; i < values.size() && i < 6; ++i) s += (i ? ", " : "") + detail::describe_value(values[i]);
    return s + (values.size() > 6 ? ", ...})" : "})");
  }
};
template <class V>
ElementOf<V> element_of(std::initializer_list<V> values) {
  return {std::vector<V>(values)};
}
template <class V>
ElementOf<V> element_of(std::vector<V> values) {
  return {std::move(values)};
}

// std::vector of values of an inner domain, optionally with bounds on its size.
template <class Inner>
struct VectorOf {
  using element_type = typename Inner::value_type;
  using value_type = std::vector<element_type>;
  static_assert(!std::is_same_v<element_type, bool>, "cfuzz::vector_of: std::vector<bool> is not supported");
  Inner inner;
  std::size_t min_size = 0, max_size = SIZE_MAX;

  VectorOf with_size(std::size_t min, std::size_t max) const { return {inner, min, max}; }
  VectorOf with_max_size(std::size_t max) const { return {inner, 0, max}; }
  bool constrained() const { return true; }
  void shape(std::string& out) const {
    std::string c;
    detail::size_constraint(c, min_size, max_size);
    if (!c.empty()) out += "<" + c + ">";
    out += "[]";
    inner.shape(out);
  }
  bool decode(detail::ValueReader& r, value_type& v) const {
    std::size_t n = r.read_count();
    v.resize(n);
    bool ok = n >= min_size && n <= max_size;
    for (auto& e : v) ok &= inner.decode(r, e);
    return ok;
  }
  void encode(detail::ValueWriter& w, const value_type& v) const {
    w.write_le(v.size(), 4);
    for (const auto& e : v) inner.encode(w, e);
  }
  bool admits(const value_type& v, std::string& why) const {
    if (v.size() < min_size || v.size() > max_size) {
      why = "a vector of " + std::to_string(v.size()) + " elements is not in " + describe();
      return false;
    }
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (!inner.admits(v[i], why)) {
        why = "element " + std::to_string(i) + ": " + why;
        return false;
      }
    }
    return true;
  }
  std::string describe() const {
    return "VectorOf(" + inner.describe() + ")" + detail::size_suffix(min_size, max_size);
  }
};
template <class Inner>
VectorOf<Inner> vector_of(Inner inner) {
  return {std::move(inner)};
}

// std::string over an alphabet (any byte when empty), optionally with bounds on its size.
struct StringOf {
  using value_type = std::string;
  std::string alphabet;
  std::size_t min_size = 0, max_size = SIZE_MAX;

  StringOf with_size(std::size_t min, std::size_t max) const { return {alphabet, min, max}; }
  StringOf with_max_size(std::size_t max) const { return {alphabet, 0, max}; }
  bool constrained() const { return true; }
  void shape(std::string& out) const {
    std::string c;
    detail::size_constraint(c, min_size, max_size);
    if (!alphabet.empty()) {
      c += c.empty() ? "" : "; ";
      c += "alphabet " + detail::hex_of(std::vector<std::uint8_t>(alphabet.begin(), alphabet.end()));
    }
    if (!c.empty()) out += "<" + c + ">";
    out += "string";
  }
  bool in_alphabet(const std::string& v) const {
    return alphabet.empty() || v.find_first_not_of(alphabet) == std::string::npos;
  }
  bool decode(detail::ValueReader& r, std::string& v) const {
    detail::Codec<std::string>::decode(r, v);
    return v.size() >= min_size && v.size() <= max_size && in_alphabet(v);
  }
  void encode(detail::ValueWriter& w, const std::string& v) const { detail::Codec<std::string>::encode(w, v); }
  bool admits(const std::string& v, std::string& why) const {
    if (v.size() >= min_size && v.size() <= max_size && in_alphabet(v)) return true;
    why = detail::describe_value(v) + " is not in " + describe();
    return false;
  }
  std::string describe() const {
    return (alphabet.empty() ? std::string("String()") : "StringOf(\"" + alphabet + "\")") +
           detail::size_suffix(min_size, max_size);
  }
};
inline StringOf string_of(std::string alphabet) { return {std::move(alphabet)}; }
inline StringOf strings() { return {}; }

// std::string matching an ECMAScript regular expression (cfuzz/regexp.h for the syntax the
// generator reads). Its values are made by the domain itself: half the time a small change
// of the current string that still matches, else a new string drawn from the pattern. Best
// as a parameter of its own; inside a container its strings are mutated as any string's
// and those that no longer match are dropped.
struct InRegexp {
  using value_type = std::string;
  static constexpr bool kHasValueMutator = true;
  std::string pattern;
  std::shared_ptr<const detail::regexp::Node> tree;
  std::shared_ptr<const std::regex> re;

  bool constrained() const { return false; }  // the mutator is its own (mutate below)
  void shape(std::string& out) const { out += "string"; }
  bool matches(const std::string& v) const { return std::regex_match(v, *re); }
  bool decode(detail::ValueReader& r, std::string& v) const {
    detail::Codec<std::string>::decode(r, v);
    return matches(v);
  }
  void encode(detail::ValueWriter& w, const std::string& v) const { detail::Codec<std::string>::encode(w, v); }
  bool admits(const std::string& v, std::string& why) const {
    if (matches(v)) return true;
    why = detail::describe_value(v) + " is not in " + describe();
    return false;
  }
  std::string describe() const { return "InRegexp(\"" + pattern + "\")"; }

  // The value mutator: data[0, size) in place within max_size bytes; returns the new size.
  CFUZZ_NOT_COVERED static std::size_t mutate(const void* self, std::uint8_t* data, std::size_t size,
                                              std::size_t max_size, unsigned int seed) {
    const auto& d = *static_cast<const InRegexp*>(self);
    std::uint64_t state = seed * 0x9e3779b97f4a7c15ULL + 1;
    auto next = [&state]() {
      state ^= state << 13, state ^= state >> 7, state ^= state << 17;
      return static_cast<std::uint32_t>(state >> 11);
    };
    std::string s;
    if (next() % 2 == 0 && size > 0) {
      std::vector<std::uint8_t> buf(max_size);
      for (int attempt = 0; attempt < 8; ++attempt) {
        std::copy(data, data + size, buf.begin());
        std::size_t n = mutate_bytes(buf.data(), size, max_size);
        s.assign(buf.begin(), buf.begin() + static_cast<std::ptrdiff_t>(n));
        if (d.matches(s)) {
          std::copy(s.begin(), s.end(), data);
          return s.size();
        }
      }
    }
    for (int attempt = 0; attempt < 8; ++attempt) {
      s.clear();
      detail::regexp::generate(*d.tree, next, s);
      if (s.size() <= max_size) break;
    }
    if (s.size() > max_size) return size;  // no room for a match: left as it is
    std::copy(s.begin(), s.end(), data);
    return s.size();
  }
};
// Throws std::invalid_argument (a construct the generator does not read) or std::regex_error.
inline InRegexp in_regexp(std::string pattern) {
  auto tree = std::make_shared<const detail::regexp::Node>(detail::regexp::Parser(pattern).parse());
  auto re = std::make_shared<const std::regex>(pattern, std::regex::ECMAScript);
  return {std::move(pattern), std::move(tree), std::move(re)};
}

// std::optional of an inner domain's values.
template <class Inner>
struct OptionalOf {
  using value_type = std::optional<typename Inner::value_type>;
  Inner inner;
  bool constrained() const { return inner.constrained(); }
  void shape(std::string& out) const {
    out += "optional[";
    inner.shape(out);
    out += "]";
  }
  bool decode(detail::ValueReader& r, value_type& v) const {
    if ((r.read_le(1) & 1) == 0) {
      v.reset();
      return true;
    }
    if (!v) v.emplace();
    return inner.decode(r, *v);
  }
  void encode(detail::ValueWriter& w, const value_type& v) const {
    w.write_le(v ? 1 : 0, 1);
    if (v) inner.encode(w, *v);
  }
  bool admits(const value_type& v, std::string& why) const { return !v || inner.admits(*v, why); }
  std::string describe() const { return "OptionalOf(" + inner.describe() + ")"; }
};
template <class Inner>
OptionalOf<Inner> optional_of(Inner inner) {
  return {std::move(inner)};
}

// The inner domain's values for which pred(value) is true. The mutator cannot see the
// predicate: values it rejects are made and dropped, so keep it true for most values.
template <class Inner, class Pred>
struct Filter {
  using value_type = typename Inner::value_type;
  Inner inner;
  Pred pred;
  bool constrained() const { return inner.constrained(); }
  void shape(std::string& out) const { inner.shape(out); }
  bool decode(detail::ValueReader& r, value_type& v) const { return inner.decode(r, v) && pred(v); }
  void encode(detail::ValueWriter& w, const value_type& v) const { inner.encode(w, v); }
  bool admits(const value_type& v, std::string& why) const {
    if (!inner.admits(v, why)) return false;
    if (pred(v)) return true;
    why = detail::describe_value(v) + " is not in " + describe() + " (the predicate is false)";
    return false;
  }
  std::string describe() const { return "Filter(" + inner.describe() + ")"; }
};
template <class Pred, class Inner>
Filter<Inner, Pred> filter(Pred pred, Inner inner) {
  return {std::move(inner), std::move(pred)};
}

// fn(values of the inner domains...): a value built from simpler ones. The corpus holds
// the inner values; a parameter with this domain takes no f.add seeds (fn has no inverse).
template <class Fn, class... Inner>
struct Map {
  using value_type = std::remove_cvref_t<std::invoke_result_t<const Fn&, const typename Inner::value_type&...>>;
  Fn fn;
  std::tuple<Inner...> inner;
  // The inner values, kept from one input to the next.
  mutable std::tuple<typename Inner::value_type...> scratch{};

  static constexpr bool kHasNoInverse = true;
  bool constrained() const { return true; }
  void shape(std::string& out) const {
    if constexpr (sizeof...(Inner) == 1) {
      std::get<0>(inner).shape(out);
    } else {
      out += "struct{";
      bool first = true;
      std::apply([&](const Inner&... d) { ((out += first ? "" : "; ", first = false, d.shape(out)), ...); }, inner);
      out += "}";
    }
  }
  bool decode(detail::ValueReader& r, value_type& v) const {
    bool ok = [&]<std::size_t... I>(std::index_sequence<I...>) {
      return (std::get<I>(inner).decode(r, std::get<I>(scratch)) & ...);
    }
    (std::index_sequence_for<Inner...>{});
    if (ok) v = std::apply(fn, scratch);
    return ok;
  }
  void encode(detail::ValueWriter&, const value_type&) const {}
  bool admits(const value_type&, std::string& why) const {
    why = "a parameter with a cfuzz::map domain takes no f.add seeds (its function cannot be undone)";
    return false;
  }
  std::string describe() const {
    std::string s = "Map(";
    bool first = true;
    std::apply([&](const Inner&... d) { ((s += first ? "" : ", ", first = false, s += d.describe()), ...); }, inner);
    return s + ")";
  }
};
template <class Fn, class... Inner>
Map<Fn, Inner...> map(Fn fn, Inner... inner) {
  return {std::move(fn), {std::move(inner)...}};
}

// The domains of a fuzz function's parameters, in order: f.fuzz(fn, cfuzz::domains(...)).
template <class... D>
struct Domains {
  std::tuple<D...> each;
};
template <class... D>
Domains<D...> domains(D... d) {
  return {{std::move(d)...}};
}

}  // namespace cfuzz
