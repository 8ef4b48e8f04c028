// Typed values beyond Go's fuzz types: containers, optional, variant, pairs and tuples,
// enums and aggregate structs, at any depth. Included by cfuzz.h; nothing here is called
// by users directly.
//
// Such a parameter travels, and is stored in the corpus, as one `[]byte` value holding the
// value's encoding (docs/corpus-format.md, "Typed values"). Every byte string decodes to
// some value (missing bytes read as zeros, extra bytes are ignored), so nothing the engine
// does to the bytes can make an input that the fuzz function cannot be given. Each
// parameter also has a shape, a Go-like type text such as `[]int32` or
// `struct{string; optional[uint16]}`, from which the runtime mutates the value element by
// element rather than byte by byte.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <variant>
#include <vector>

// Decoding runs inside every execution; its branches are not the target's behaviour, so
// they stay out of its coverage counters (as the runtime, which is built uninstrumented).
#if defined(__clang__)
#define CFUZZ_NOT_COVERED __attribute__((noinline, no_sanitize("coverage")))
#else
#define CFUZZ_NOT_COVERED __attribute__((noinline))
#endif

namespace cfuzz::detail {

template <class>
inline constexpr bool kNotAValueType = false;

// Reads an encoding; past its end every byte reads as zero.
struct ValueReader {
  const std::uint8_t* p;
  const std::uint8_t* end;

  std::size_t remaining() const { return static_cast<std::size_t>(end - p); }
  std::uint64_t read_le(std::size_t width) {
    std::uint64_t v = 0;
    std::size_t n = width < remaining() ? width : remaining();
    for (std::size_t i = 0; i < n; ++i) v |= std::uint64_t{p[i]} << (8 * i);
    p += n;
    return v;
  }
  // A container's element count: the stored count, but no more than the bytes left, so a
  // damaged count costs no more than the input's length.
  std::size_t read_count() {
    std::uint64_t n = read_le(4);
    return n < remaining() ? static_cast<std::size_t>(n) : remaining();
  }
};

struct ValueWriter {
  std::vector<std::uint8_t>& out;
  void write_le(std::uint64_t v, std::size_t width) {
    for (std::size_t i = 0; i < width; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
  }
  void write_bytes(const void* data, std::size_t n) {
    auto* b = static_cast<const std::uint8_t*>(data);
    out.insert(out.end(), b, b + n);
  }
};

// How one C++ type is decoded, encoded and described. Specialized below; the primary
// template is the unsupported case, and says so once something uses it.
template <class T>
struct Codec {
  static constexpr bool kUnsupported = true;
  static void shape(std::string&) {
    static_assert(!std::is_same_v<T, char>,
                  "cfuzz: `char` has no fuzz type (its signedness varies); use std::uint8_t or std::int8_t");
    static_assert(!std::is_pointer_v<T> && !std::is_reference_v<T>,
                  "cfuzz: a fuzz value cannot hold pointers or references; hold the value itself");
    static_assert(std::is_same_v<T, char> || std::is_pointer_v<T> || std::is_reference_v<T> || kNotAValueType<T>,
                  "cfuzz: unsupported type inside a fuzz parameter. Supported: bool, integers, enums, float, "
                  "double, std::string, std::vector, std::array, std::deque, std::set, std::map and their "
                  "unordered forms, std::optional, std::variant, std::pair, std::tuple and aggregate structs of "
                  "up to 16 fields");
  }
  static void decode(ValueReader&, T&) {}
  static void encode(ValueWriter&, const T&) {}
};

template <class T>
concept HasCodec = !requires {
  Codec<T>::kUnsupported;
};

template <class T>
concept FuzzInteger = std::is_integral_v<T> && !std::is_same_v<T, bool> && !std::is_same_v<T, char>;

inline const char* int_shape(std::size_t width, bool is_signed) {
  constexpr const char* kSigned[] = {"int8", "int16", "", "int32", "", "", "", "int64"};
  constexpr const char* kUnsigned[] = {"uint8", "uint16", "", "uint32", "", "", "", "uint64"};
  return is_signed ? kSigned[width - 1] : kUnsigned[width - 1];
}

template <FuzzInteger T>
struct Codec<T> {
  static void decode(ValueReader& r, T& v) { v = static_cast<T>(r.read_le(sizeof(T))); }
  static void encode(ValueWriter& w, const T& v) { w.write_le(static_cast<std::uint64_t>(v), sizeof(T)); }
  static void shape(std::string& out) { out += int_shape(sizeof(T), std::is_signed_v<T>); }
};

template <class T>
requires std::is_enum_v<T>
struct Codec<T> {
  using U = std::underlying_type_t<T>;
  static void decode(ValueReader& r, T& v) { v = static_cast<T>(static_cast<U>(r.read_le(sizeof(U)))); }
  static void encode(ValueWriter& w, const T& v) {
    w.write_le(static_cast<std::uint64_t>(static_cast<U>(v)), sizeof(U));
  }
  static void shape(std::string& out) { out += int_shape(sizeof(U), std::is_signed_v<U>); }
};

template <>
struct Codec<bool> {
  static void decode(ValueReader& r, bool& v) { v = (r.read_le(1) & 1) != 0; }
  static void encode(ValueWriter& w, const bool& v) { w.write_le(v ? 1 : 0, 1); }
  static void shape(std::string& out) { out += "bool"; }
};

template <class T>
requires std::is_floating_point_v<T> &&(sizeof(T) == 4 || sizeof(T) == 8) struct Codec<T> {
  using Bits = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
  static void decode(ValueReader& r, T& v) {
    auto b = static_cast<Bits>(r.read_le(sizeof(T)));
    __builtin_memcpy(&v, &b, sizeof v);
  }
  static void encode(ValueWriter& w, const T& v) {
    Bits b;
    __builtin_memcpy(&b, &v, sizeof b);
    w.write_le(b, sizeof b);
  }
  static void shape(std::string& out) { out += sizeof(T) == 4 ? "float32" : "float64"; }
};

// Byte strings: a 4-byte count, then the bytes.
template <class S>
struct ByteStringCodec {
  static void decode(ValueReader& r, S& v) {
    std::size_t n = r.read_count();
    v.assign(reinterpret_cast<const typename S::value_type*>(r.p), n);
    r.p += n;
  }
  static void encode(ValueWriter& w, const S& v) {
    w.write_le(v.size(), 4);
    w.write_bytes(v.data(), v.size());
  }
};
template <>
struct Codec<std::string> : ByteStringCodec<std::string> {
  static void shape(std::string& out) { out += "string"; }
};
template <>
struct Codec<std::vector<std::uint8_t>> {
  static void decode(ValueReader& r, std::vector<std::uint8_t>& v) {
    std::size_t n = r.read_count();
    v.assign(r.p, r.p + n);
    r.p += n;
  }
  static void encode(ValueWriter& w, const std::vector<std::uint8_t>& v) {
    w.write_le(v.size(), 4);
    w.write_bytes(v.data(), v.size());
  }
  static void shape(std::string& out) { out += "[]byte"; }
};

// Sequences: a 4-byte count, then the elements. Sets and maps drop repeated keys.
template <class C, class E>
struct ListCodec {
  static void decode(ValueReader& r, C& v) {
    std::size_t n = r.read_count();
    v.resize(n);
    if constexpr (std::is_same_v<E, bool>) {
      for (std::size_t i = 0; i < n; ++i) v[i] = (r.read_le(1) & 1) != 0;  // std::vector<bool>'s proxies
    } else {
      for (auto& e : v) Codec<E>::decode(r, e);
    }
  }
  static void encode(ValueWriter& w, const C& v) {
    w.write_le(v.size(), 4);
    for (const E& e : v) Codec<E>::encode(w, e);
  }
  static void shape(std::string& out) {
    out += "[]";
    Codec<E>::shape(out);
  }
};
template <class E, class A>
struct Codec<std::vector<E, A>> : ListCodec<std::vector<E, A>, E> {};
template <class E, class A>
struct Codec<std::deque<E, A>> : ListCodec<std::deque<E, A>, E> {};

template <class C, class E>
struct SetCodec {
  static void decode(ValueReader& r, C& v) {
    v.clear();
    std::size_t n = r.read_count();
    for (std::size_t i = 0; i < n; ++i) {
      E e{};
      Codec<E>::decode(r, e);
      v.insert(std::move(e));
    }
  }
  static void encode(ValueWriter& w, const C& v) {
    w.write_le(v.size(), 4);
    for (const E& e : v) Codec<E>::encode(w, e);
  }
  static void shape(std::string& out) {
    out += "set[";
    Codec<E>::shape(out);
    out += "]";
  }
};
template <class E, class... R>
struct Codec<std::set<E, R...>> : SetCodec<std::set<E, R...>, E> {};
template <class E, class... R>
struct Codec<std::unordered_set<E, R...>> : SetCodec<std::unordered_set<E, R...>, E> {};

template <class C, class K, class V>
struct MapCodec {
  static void decode(ValueReader& r, C& v) {
    v.clear();
    std::size_t n = r.read_count();
    for (std::size_t i = 0; i < n; ++i) {
      K k{};
      V x{};
      Codec<K>::decode(r, k);
      Codec<V>::decode(r, x);
      v.emplace(std::move(k), std::move(x));  // the first of repeated keys stays
    }
  }
  static void encode(ValueWriter& w, const C& v) {
    w.write_le(v.size(), 4);
    for (const auto& [k, x] : v) {
      Codec<K>::encode(w, k);
      Codec<V>::encode(w, x);
    }
  }
  static void shape(std::string& out) {
    out += "map[";
    Codec<K>::shape(out);
    out += "]";
    Codec<V>::shape(out);
  }
};
template <class K, class V, class... R>
struct Codec<std::map<K, V, R...>> : MapCodec<std::map<K, V, R...>, K, V> {};
template <class K, class V, class... R>
struct Codec<std::unordered_map<K, V, R...>> : MapCodec<std::unordered_map<K, V, R...>, K, V> {};

// Fixed-size arrays: the elements, no count.
template <class E, std::size_t N>
struct Codec<std::array<E, N>> {
  static void decode(ValueReader& r, std::array<E, N>& v) {
    for (auto& e : v) Codec<E>::decode(r, e);
  }
  static void encode(ValueWriter& w, const std::array<E, N>& v) {
    for (const auto& e : v) Codec<E>::encode(w, e);
  }
  static void shape(std::string& out) {
    out += "[" + std::to_string(N) + "]";
    Codec<E>::shape(out);
  }
};

// Optional: a tag byte (its low bit says whether a value follows), then the value.
template <class E>
struct Codec<std::optional<E>> {
  static void decode(ValueReader& r, std::optional<E>& v) {
    if ((r.read_le(1) & 1) == 0) {
      v.reset();
      return;
    }
    if (!v) v.emplace();
    Codec<E>::decode(r, *v);
  }
  static void encode(ValueWriter& w, const std::optional<E>& v) {
    w.write_le(v ? 1 : 0, 1);
    if (v) Codec<E>::encode(w, *v);
  }
  static void shape(std::string& out) {
    out += "optional[";
    Codec<E>::shape(out);
    out += "]";
  }
};

// Variant: an index byte (taken modulo the number of alternatives), then that alternative.
template <class... A>
struct Codec<std::variant<A...>> {
  static_assert(sizeof...(A) >= 1 && sizeof...(A) <= 256, "cfuzz: a variant takes 1 to 256 alternatives");
  using V = std::variant<A...>;
  template <std::size_t I>
  static void decode_alternative(ValueReader& r, V& v) {
    if (v.index() != I) v.template emplace<I>();
    Codec<std::variant_alternative_t<I, V>>::decode(r, std::get<I>(v));
  }
  static void decode(ValueReader& r, V& v) {
    std::size_t index = static_cast<std::size_t>(r.read_le(1)) % sizeof...(A);
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      using Fn = void (*)(ValueReader&, V&);
      static constexpr Fn kAlternatives[] = {&decode_alternative<I>...};
      kAlternatives[index](r, v);
    }
    (std::index_sequence_for<A...>{});
  }
  static void encode(ValueWriter& w, const V& v) {
    w.write_le(v.index(), 1);
    std::visit([&](const auto& x) { Codec<std::remove_cvref_t<decltype(x)>>::encode(w, x); }, v);
  }
  static void shape(std::string& out) {
    out += "variant[";
    bool first = true;
    ((out += first ? "" : "|", first = false, Codec<A>::shape(out)), ...);
    out += "]";
  }
};
template <>
struct Codec<std::monostate> {
  static void decode(ValueReader&, std::monostate&) {}
  static void encode(ValueWriter&, const std::monostate&) {}
  static void shape(std::string& out) { out += "struct{}"; }
};

// Fields in order, no separators: pairs, tuples and aggregate structs.
template <class... F>
void shape_of_fields(std::string& out) {
  out += "struct{";
  bool first = true;
  ((out += first ? "" : "; ", first = false, Codec<F>::shape(out)), ...);
  out += "}";
}

template <class A, class B>
struct Codec<std::pair<A, B>> {
  static void decode(ValueReader& r, std::pair<A, B>& v) {
    Codec<A>::decode(r, v.first);
    Codec<B>::decode(r, v.second);
  }
  static void encode(ValueWriter& w, const std::pair<A, B>& v) {
    Codec<A>::encode(w, v.first);
    Codec<B>::encode(w, v.second);
  }
  static void shape(std::string& out) { shape_of_fields<A, B>(out); }
};

template <class... F>
struct Codec<std::tuple<F...>> {
  static void decode(ValueReader& r, std::tuple<F...>& v) {
    std::apply([&](F&... f) { (Codec<F>::decode(r, f), ...); }, v);
  }
  static void encode(ValueWriter& w, const std::tuple<F...>& v) {
    std::apply([&](const F&... f) { (Codec<F>::encode(w, f), ...); }, v);
  }
  static void shape(std::string& out) { shape_of_fields<F...>(out); }
};

// Aggregate structs, by reflection: the number of fields is the most initializers the
// struct accepts in braces, and structured bindings reach them.
struct AnyField {
  // Only named in brace-initialization tests; defined because a field's own constructor
  // templates (std::optional's) may be instantiated by them.
  template <class U>
  operator U&() const&& noexcept {
    __builtin_unreachable();
  }
};
template <class T, std::size_t... I>
constexpr bool brace_initializable(std::index_sequence<I...>) {
  return requires { T{(void(I), AnyField{})...}; };
}
template <class T, std::size_t N = 0>
constexpr std::size_t field_count() {
  if constexpr (N > 16 || !brace_initializable<T>(std::make_index_sequence<N + 1>{})) {
    return N;
  } else {
    return field_count<T, N + 1>();
  }
}

// Calls fn with references to the fields of `v` in order.
template <class T, class Fn>
void with_fields(T& v, Fn&& fn) {
  constexpr std::size_t n = field_count<std::remove_const_t<T>>();
  static_assert(n <= 16, "cfuzz: an aggregate struct holds at most 16 fields");
  // clang-format off
  if constexpr (n == 0) { fn(); }
  else if constexpr (n == 1) { auto& [a] = v; fn(a); }
  else if constexpr (n == 2) { auto& [a, b] = v; fn(a, b); }
  else if constexpr (n == 3) { auto& [a, b, c] = v; fn(a, b, c); }
  else if constexpr (n == 4) { auto& [a, b, c, d] = v; fn(a, b, c, d); }
  else if constexpr (n == 5) { auto& [a, b, c, d, e] = v; fn(a, b, c, d, e); }
  else if constexpr (n == 6) { auto& [a, b, c, d, e, f] = v; fn(a, b, c, d, e, f); }
  else if constexpr (n == 7) { auto& [a, b, c, d, e, f, g] = v; fn(a, b, c, d, e, f, g); }
  else if constexpr (n == 8) { auto& [a, b, c, d, e, f, g, h] = v; fn(a, b, c, d, e, f, g, h); }
  else if constexpr (n == 9) { auto& [a, b, c, d, e, f, g, h, i] = v; fn(a, b, c, d, e, f, g, h, i); }
  else if constexpr (n == 10) { auto& [a, b, c, d, e, f, g, h, i, j] = v; fn(a, b, c, d, e, f, g, h, i, j); }
  else if constexpr (n == 11) { auto& [a, b, c, d, e, f, g, h, i, j, k] = v; fn(a, b, c, d, e, f, g, h, i, j, k); }
  else if constexpr (n == 12) { auto& [a, b, c, d, e, f, g, h, i, j, k, l] = v; fn(a, b, c, d, e, f, g, h, i, j, k, l); }
  else if constexpr (n == 13) { auto& [a, b, c, d, e, f, g, h, i, j, k, l, m] = v; fn(a, b, c, d, e, f, g, h, i, j, k, l, m); }
  else if constexpr (n == 14) { auto& [a, b, c, d, e, f, g, h, i, j, k, l, m, o] = v; fn(a, b, c, d, e, f, g, h, i, j, k, l, m, o); }
  else if constexpr (n == 15) { auto& [a, b, c, d, e, f, g, h, i, j, k, l, m, o, p] = v; fn(a, b, c, d, e, f, g, h, i, j, k, l, m, o, p); }
  else { auto& [a, b, c, d, e, f, g, h, i, j, k, l, m, o, p, q] = v; fn(a, b, c, d, e, f, g, h, i, j, k, l, m, o, p, q); }
  // clang-format on
}

template <class T>
concept ReflectedStruct = std::is_class_v<T> && std::is_aggregate_v<T> && !std::is_union_v<T>;

template <ReflectedStruct T>
struct Codec<T> {
  static void decode(ValueReader& r, T& v) {
    with_fields(v, [&](auto&... f) { (Codec<std::remove_cvref_t<decltype(f)>>::decode(r, f), ...); });
  }
  static void encode(ValueWriter& w, const T& v) {
    with_fields(v, [&](const auto&... f) { (Codec<std::remove_cvref_t<decltype(f)>>::encode(w, f), ...); });
  }
  static void shape(std::string& out) {
    T probe{};
    with_fields(probe, [&](auto&... f) { shape_of_fields<std::remove_cvref_t<decltype(f)>...>(out); });
  }
};

// A fuzz parameter that is carried as an encoded []byte value: everything with a Codec
// except Go's own types, which keep their v1 types.
template <class P>
concept EncodedParam = HasCodec<P> && !std::is_arithmetic_v<P> && !std::is_enum_v<P> &&
                       !std::is_same_v<P, std::string> && !std::is_same_v<P, std::vector<std::uint8_t>>;

template <class P>
std::string shape_of() {
  std::string s;
  Codec<P>::shape(s);
  return s;
}

template <class P>
CFUZZ_NOT_COVERED void decode_value(const std::uint8_t* data, std::size_t size, P& out) {
  ValueReader r{data, data + size};
  Codec<P>::decode(r, out);
}

template <class P>
std::vector<std::uint8_t> encode_value(const P& v) {
  std::vector<std::uint8_t> out;
  ValueWriter w{out};
  Codec<P>::encode(w, v);
  return out;
}

}  // namespace cfuzz::detail
