// cfuzz: fuzz tests for C++ in the shape of Go's testing.F.
//
//   #include <cfuzz/cfuzz.h>
//
//   CFUZZ_TEST(FuzzParseConfig, f) {
//     f.add(std::string("key=value"), std::int64_t{3});
//     f.fuzz([](cfuzz::T& t, const std::string& text, std::int64_t depth) {
//       auto cfg = parse_config(text, depth);
//       if (!cfg) t.skip();
//       if (serialize(*cfg) != text) t.fatalf("round trip changed %s", text.c_str());
//     });
//   }
//
// Build with `cfuzz-clang++ -std=c++20` (or the CMake helper cfuzz_add_fuzz_test).
// Running the binary runs every seed once, like `go test`; `cfuzz run ./binary` fuzzes it.
//
// Parameter types and the `go test fuzz v1` types they are stored as:
//   std::string, std::string_view          string
//   std::vector<std::uint8_t>,
//   std::span<const std::uint8_t>          []byte
//   bool                                   bool
//   std::uint8_t                           byte (uint8)
//   std::int32_t, char32_t                 rune (int32)
//   long long                              int
//   std::int8_t, std::int16_t, std::int64_t   int8, int16, int64
//   unsigned long long                     uint
//   std::uint16_t, std::uint32_t, std::uint64_t  uint16, uint32, uint64
//   float, double                          float32, float64
//   enums                                  their underlying integer's type
//
// Any other supported type, at any depth, is carried as one []byte value holding its
// encoding (docs/corpus-format.md, "Typed values") and mutated element by element:
//   std::vector, std::deque, std::array, std::set, std::map, std::unordered_set,
//   std::unordered_map, std::optional, std::variant, std::pair, std::tuple, and aggregate
//   structs of up to 16 fields, of any supported types.
//
// This header (with cfuzz/typed_values.h, cfuzz/domains.h and cfuzz/regexp.h, which it
// includes) is the whole public API; it includes only the standard library.
#pragma once

#if __cplusplus < 202002L
#error "cfuzz.h needs C++20: compile fuzz tests with -std=c++20 (or later)"
#endif

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "cfuzz/domains.h"
#include "cfuzz/typed_values.h"

namespace cfuzz {

class T;
class F;

// A custom mutator for one []byte or string argument of a fuzz test, with the contract of
// libFuzzer's LLVMFuzzerCustomMutator: change data[0, size) in place (the buffer holds
// max_size bytes) and return the new size, at most max_size (0: nothing was done). `seed`
// drives its choices. Typically it decodes the value, calls cfuzz::mutate_bytes on the
// decoded form, and encodes it again; see F::custom_mutator.
using CustomMutator = std::size_t (*)(std::uint8_t* data, std::size_t size, std::size_t max_size, unsigned int seed);

// cfuzz's own mutation of data[0, size), within max_size bytes (with the dictionary and the
// comparison operands it learned), for custom mutators; returns the new size. The same as
// libFuzzer's LLVMFuzzerMutate.
std::size_t mutate_bytes(std::uint8_t* data, std::size_t size, std::size_t max_size);

// Where a call was written. Location would do, but clang 14 with libstdc++
// lacks it; the compilers' __builtin_FILE/__builtin_LINE give the caller's position when
// used as default arguments, which is all that is needed.
struct Location {
  const char* file;
  int line;
  static constexpr Location current(const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
    return Location{file, line};
  }
};

namespace detail {

// The v1 types, in the order of the runtime's type table.
// clang-format off
enum class ArgType : std::uint8_t {
  Bytes, String, Bool, Byte, Rune, Int, Int8, Int16, Int64, Uint, Uint16, Uint32, Uint64,
  Float32, Float64,
};
// clang-format on

// One value as the runtime hands it over: bytes for []byte/string, bits for scalars
// (integers sign- or zero-extended, floats as their IEEE-754 bit pattern).
struct ArgView {
  const std::uint8_t* data;
  std::size_t size;
  std::uint64_t bits;
};

class TestState;  // the runtime's record of one fuzz test or one input

using Invoke = void (*)(void* fn, T& t, const ArgView* args);
// Decodes the encoded values among `args` into the function's storage and checks the
// values that have domains; run before Invoke, apart from it, so that what decoding covers
// is not counted as the input's coverage. False when a value is out of its domain; then
// `why` (when not null) names the argument, the value and the domain.
using Decode = bool (*)(void* fn, const ArgView* args, std::string* why);
using Destroy = void (*)(void* fn);

void register_test(const char* name, void (*body)(F&), const char* file, int line);
// `shapes[i]` is the shape of an encoded value (typed_values.h), or null for Go's types;
// `constraints[i]` the constrained shape of a value with a domain (domains.h), or null.
void add_seed(TestState* s, const ArgType* types, const char* const* shapes, const ArgView* values, std::size_t n,
              Location where);
void set_fuzz_function(TestState* s, const ArgType* types, const char* const* shapes, const char* const* constraints,
                       std::size_t n, Invoke invoke, Decode decode, void* fn, Destroy destroy, Location where);
void set_custom_mutator(TestState* s, std::size_t index, CustomMutator fn, Location where);
// A domain that makes its own values (cfuzz::in_regexp): `fn(domain, ...)` mutates argument
// `index` as a custom mutator does; `domain` lives as long as the fuzz function.
using DomainMutator = std::size_t (*)(const void* domain, std::uint8_t* data, std::size_t size, std::size_t max_size,
                                      unsigned int seed);
void set_domain_mutator(TestState* s, std::size_t index, DomainMutator fn, const void* domain);

template <class>
inline constexpr bool kAlwaysFalse = false;

// How a C++ parameter type is filled from a value. Storage is reused from one input to
// the next, so a fuzz function taking `const std::string&` costs no allocation per input.
template <class P>
struct Param {
  static_assert(!std::is_same_v<P, char>,
                "cfuzz: `char` has no fuzz type (its signedness varies); use std::uint8_t "
                "(byte) or std::int8_t (int8)");
  static_assert(std::is_same_v<P, char> || kAlwaysFalse<P>,
                "cfuzz: unsupported fuzz parameter type. Use std::string, std::string_view, "
                "std::vector<std::uint8_t>, std::span<const std::uint8_t>, bool, float, double, "
                "the fixed-width integers, char32_t, long long, unsigned long long, enums, or "
                "containers, optional, variant, pair, tuple and aggregate structs of these.");
};

struct NoStorage {};

template <>
struct Param<std::string> {
  static constexpr ArgType type = ArgType::String;
  using Storage = std::string;
  static std::string& get(Storage& s, const ArgView& v) {
    s.assign(reinterpret_cast<const char*>(v.data), v.size);
    return s;
  }
};
template <>
struct Param<std::string_view> {
  static constexpr ArgType type = ArgType::String;
  using Storage = NoStorage;
  static std::string_view get(Storage&, const ArgView& v) { return {reinterpret_cast<const char*>(v.data), v.size}; }
};
template <>
struct Param<std::vector<std::uint8_t>> {
  static constexpr ArgType type = ArgType::Bytes;
  using Storage = std::vector<std::uint8_t>;
  static std::vector<std::uint8_t>& get(Storage& s, const ArgView& v) {
    s.assign(v.data, v.data + v.size);
    return s;
  }
};
template <>
struct Param<std::span<const std::uint8_t>> {
  static constexpr ArgType type = ArgType::Bytes;
  using Storage = NoStorage;
  static std::span<const std::uint8_t> get(Storage&, const ArgView& v) { return {v.data, v.size}; }
};

template <class S, ArgType A>
struct ScalarParam {
  static constexpr ArgType type = A;
  using Storage = S;
  static S& get(Storage& s, const ArgView& v) {
    if constexpr (std::is_same_v<S, float>) {
      auto b = static_cast<std::uint32_t>(v.bits);
      __builtin_memcpy(&s, &b, sizeof s);
    } else if constexpr (std::is_same_v<S, double>) {
      __builtin_memcpy(&s, &v.bits, sizeof s);
    } else if constexpr (std::is_same_v<S, bool>) {
      s = v.bits != 0;
    } else {
      s = static_cast<S>(v.bits);
    }
    return s;
  }
};

// Go's types are not encoded: their shape is null.
template <class P>
const char* shape_text() {
  if constexpr (EncodedParam<P>) {
    static const std::string shape = shape_of<P>();
    return shape.c_str();
  } else {
    return nullptr;
  }
}

// clang-format off
template <> struct Param<bool> : ScalarParam<bool, ArgType::Bool> {};
template <> struct Param<std::uint8_t> : ScalarParam<std::uint8_t, ArgType::Byte> {};
template <> struct Param<std::int32_t> : ScalarParam<std::int32_t, ArgType::Rune> {};
template <> struct Param<char32_t> : ScalarParam<char32_t, ArgType::Rune> {};
template <> struct Param<long long> : ScalarParam<long long, ArgType::Int> {};
template <> struct Param<std::int8_t> : ScalarParam<std::int8_t, ArgType::Int8> {};
template <> struct Param<std::int16_t> : ScalarParam<std::int16_t, ArgType::Int16> {};
template <> struct Param<std::int64_t> : ScalarParam<std::int64_t, ArgType::Int64> {};
template <> struct Param<unsigned long long> : ScalarParam<unsigned long long, ArgType::Uint> {};
template <> struct Param<std::uint16_t> : ScalarParam<std::uint16_t, ArgType::Uint16> {};
template <> struct Param<std::uint32_t> : ScalarParam<std::uint32_t, ArgType::Uint32> {};
template <> struct Param<std::uint64_t> : ScalarParam<std::uint64_t, ArgType::Uint64> {};
template <> struct Param<float> : ScalarParam<float, ArgType::Float32> {};
template <> struct Param<double> : ScalarParam<double, ArgType::Float64> {};
// clang-format on

template <class E>
requires std::is_enum_v<E>
struct Param<E> {
  using U = std::underlying_type_t<E>;
  static constexpr ArgType type = Param<U>::type;
  using Storage = E;
  static E& get(Storage& s, const ArgView& v) {
    s = static_cast<E>(static_cast<U>(v.bits));
    return s;
  }
};

// Everything else that has a Codec: a []byte holding its encoding, decoded (by its
// domain, Slot below) into storage that is reused from one input to the next.
template <EncodedParam P>
struct Param<P> {
  static constexpr ArgType type = ArgType::Bytes;
  using Storage = P;
};

// The type of a value given to f.add: string literals are strings, as in Go.
template <class A>
struct SeedParam : Param<A> {};
template <>
struct SeedParam<const char*> : Param<std::string_view> {};
template <>
struct SeedParam<char*> : Param<std::string_view> {};

// `scratch` holds an encoded value's bytes for as long as the view is used.
template <class A>
ArgView seed_view(const A& a, std::vector<std::uint8_t>& scratch) {
  using D = std::decay_t<A>;
  if constexpr (EncodedParam<D>) {
    scratch = encode_value(a);
    return {scratch.data(), scratch.size(), 0};
  } else if constexpr (std::is_enum_v<D>) {
    return seed_view(static_cast<std::underlying_type_t<D>>(a), scratch);
  } else if constexpr (std::is_same_v<D, const char*> || std::is_same_v<D, char*>) {
    std::string_view s(a);
    return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size(), 0};
  } else if constexpr (std::is_same_v<D, std::string> || std::is_same_v<D, std::string_view>) {
    return {reinterpret_cast<const std::uint8_t*>(a.data()), a.size(), 0};
  } else if constexpr (std::is_same_v<D, std::vector<std::uint8_t>> ||
                       std::is_same_v<D, std::span<const std::uint8_t>>) {
    return {a.data(), a.size(), 0};
  } else if constexpr (std::is_same_v<D, float>) {
    std::uint32_t b;
    __builtin_memcpy(&b, &a, sizeof b);
    return {nullptr, 0, b};
  } else if constexpr (std::is_same_v<D, double>) {
    std::uint64_t b;
    __builtin_memcpy(&b, &a, sizeof b);
    return {nullptr, 0, b};
  } else if constexpr (std::is_signed_v<D>) {
    return {nullptr, 0, static_cast<std::uint64_t>(static_cast<std::int64_t>(a))};
  } else {
    return {nullptr, 0, static_cast<std::uint64_t>(a)};
  }
}

// The parameter list of a callable: lambdas (non-generic), function pointers, functors.
template <class Fn>
struct Signature : Signature<decltype(&Fn::operator())> {};
template <class R, class... A>
struct Signature<R (*)(A...)> {
  using Result = R;
  using Args = std::tuple<A...>;
};
template <class R, class... A>
struct Signature<R(A...)> : Signature<R (*)(A...)> {};
template <class C, class R, class... A>
struct Signature<R (C::*)(A...)> : Signature<R (*)(A...)> {};
template <class C, class R, class... A>
struct Signature<R (C::*)(A...) const> : Signature<R (*)(A...)> {};
template <class C, class R, class... A>
struct Signature<R (C::*)(A...) noexcept> : Signature<R (*)(A...)> {};
template <class C, class R, class... A>
struct Signature<R (C::*)(A...) const noexcept> : Signature<R (*)(A...)> {};

// Decoding runs inside every execution, apart from the target's code (typed_values.h).
template <class D, class V>
CFUZZ_NOT_COVERED bool decode_with(const D& d, ValueReader& r, V& v) {
  return d.decode(r, v);
}

template <class D>
concept MapDomain = requires {
  D::kHasNoInverse;
};
template <class D>
inline constexpr bool kArbitrary = false;
template <class V>
inline constexpr bool kArbitrary<Arbitrary<V>> = true;

// How parameter P with domain D travels and is read. Encoded values (typed_values.h) and
// values a domain constrains are decoded and checked before the call (decode); others are
// read from their slot as the call starts.
template <class P, class D>
struct Slot {
  static_assert(std::is_same_v<typename D::value_type, P>,
                "cfuzz: a domain's values must be of its parameter's type (cfuzz::in_range(0, 9) is a domain of "
                "int; for a std::int64_t parameter write cfuzz::in_range<std::int64_t>(0, 9))");
  static constexpr bool kEncoded = EncodedParam<P> || MapDomain<D>;
  static constexpr bool kDecoded = kEncoded || !kArbitrary<D>;
  using Storage = std::conditional_t<kEncoded, P, typename Param<P>::Storage>;
  static constexpr ArgType type = kEncoded ? ArgType::Bytes : Param<P>::type;

  // The shape of the value as stored (the corpus's view), and the constrained shape the
  // runtime mutates by; empty when there is none.
  static std::string stored_shape(const D& d) {
    if constexpr (EncodedParam<P>) {
      return shape_of<P>();
    } else if constexpr (kEncoded) {
      std::string out;
      d.shape(out);
      return out;
    } else {
      return {};
    }
  }
  static std::string constrained_shape(const D& d) {
    std::string out;
    if constexpr (!kArbitrary<D>) {
      if (d.constrained()) d.shape(out);
    }
    return out;
  }

  static bool decode(const D& d, Storage& s, const ArgView& v, std::string* why) {
    std::string ignored;
    if constexpr (kEncoded) {
      ValueReader r{v.data, v.data + v.size};
      if (decode_with(d, r, s)) return true;
      if (why == nullptr) return false;
      if constexpr (MapDomain<D>) {
        *why = "a value out of " + d.describe();
      } else if (d.admits(s, *why)) {
        *why = "a value out of " + d.describe();
      }
      return false;
    } else {
      decltype(auto) x = Param<P>::get(s, v);
      return d.admits(x, why != nullptr ? *why : ignored);
    }
  }
  static decltype(auto) arg(Storage& s, const ArgView& v) {
    if constexpr (kDecoded) {
      return (s);
    } else {
      return Param<P>::get(s, v);
    }
  }
};

template <class Fn, class DomainTuple, class... Ps>
struct Invoker;
template <class Fn, class... D, class... Ps>
struct Invoker<Fn, std::tuple<D...>, Ps...> {
  static_assert(sizeof...(D) == sizeof...(Ps), "cfuzz::domains: give one domain per parameter after cfuzz::T&");
  template <std::size_t I>
  using SlotAt =
      Slot<std::remove_cvref_t<std::tuple_element_t<I, std::tuple<Ps...>>>, std::tuple_element_t<I, std::tuple<D...>>>;

  Fn fn;
  std::tuple<D...> domains;
  std::tuple<typename Slot<std::remove_cvref_t<Ps>, D>::Storage...> storage;

  static constexpr bool kDecodes = (Slot<std::remove_cvref_t<Ps>, D>::kDecoded || ...);
  static constexpr ArgType kTypes[] = {Slot<std::remove_cvref_t<Ps>, D>::type..., ArgType::Bool};

  static void call(void* self, T& t, const ArgView* args) {
    auto* me = static_cast<Invoker*>(self);
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      me->fn(t, SlotAt<I>::arg(std::get<I>(me->storage), args[I])...);
    }
    (std::index_sequence_for<Ps...>{});
  }
  // False when a value is out of its domain; then `why` (if given) says which and why.
  static bool decode(void* self, const ArgView* args, std::string* why) {
    auto* me = static_cast<Invoker*>(self);
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      auto one = [&]<std::size_t K>() {
        if constexpr (!SlotAt<K>::kDecoded) {
          return true;
        } else {
          if (SlotAt<K>::decode(std::get<K>(me->domains), std::get<K>(me->storage), args[K], why)) return true;
          if (why != nullptr) *why = "argument " + std::to_string(K) + ": " + *why;
          return false;
        }
      };
      return (one.template operator()<I>() && ...);
    }
    (std::index_sequence_for<Ps...>{});
  }
  static void destroy(void* self) { delete static_cast<Invoker*>(self); }
};

template <class Fn, class Doms, class TRef, class... Ps>
void bind_fuzz(TestState* s, Fn&& fn, Doms&& doms, Location where, std::tuple<TRef, Ps...>*) {
  static_assert(std::is_same_v<TRef, T&>, "cfuzz: the fuzz function's first parameter must be `cfuzz::T&`");
  static_assert(sizeof...(Ps) <= 32, "cfuzz: a fuzz function takes at most 32 values");
  using I = Invoker<std::decay_t<Fn>, std::decay_t<Doms>, Ps...>;
  auto* inv = new I{std::forward<Fn>(fn), std::forward<Doms>(doms), {}};
  std::string stored[sizeof...(Ps) + 1], constrained[sizeof...(Ps) + 1];
  const char* stored_text[sizeof...(Ps) + 1] = {};
  const char* constrained_text[sizeof...(Ps) + 1] = {};
  [&]<std::size_t... K>(std::index_sequence<K...>) {
    ((stored[K] = I::template SlotAt<K>::stored_shape(std::get<K>(inv->domains)),
      constrained[K] = I::template SlotAt<K>::constrained_shape(std::get<K>(inv->domains)),
      stored_text[K] = stored[K].empty() ? nullptr : stored[K].c_str(),
      constrained_text[K] = constrained[K].empty() ? nullptr : constrained[K].c_str()),
     ...);
  }
  (std::index_sequence_for<Ps...>{});
  set_fuzz_function(s, I::kTypes, stored_text, constrained_text, sizeof...(Ps), &I::call,
                    I::kDecodes ? &I::decode : nullptr, inv, &I::destroy, where);
  [&]<std::size_t... K>(std::index_sequence<K...>) {
    auto one = [&]<std::size_t J>() {
      using D = std::remove_cvref_t<decltype(std::get<J>(inv->domains))>;
      if constexpr (requires { D::kHasValueMutator; }) set_domain_mutator(s, J, &D::mutate, &std::get<J>(inv->domains));
    };
    (one.template operator()<K>(), ...);
  }
  (std::index_sequence_for<Ps...>{});
}

// Thrown by fatal/skip to leave the fuzz function, as Go's runtime.Goexit leaves it:
// destructors run. Not a std::exception, so `catch (const std::exception&)` in the code
// under test does not swallow it.
struct Stop {};

}  // namespace detail

// A printf-style format that remembers where it was written, for "file.cc:12:" prefixes.
struct Format {
  const char* text;
  Location where;
  Format(const char* t, Location w = Location::current()) : text(t), where(w) {}
};

// What T (one input) and F (the fuzz test) share: Go's testing.common.
// A helper that reports on its caller's behalf takes a cfuzz::Location (default
// cfuzz::Location::current()) and passes it on; this is C++'s t.Helper().
class Common {
 public:
  void log(std::string_view msg, Location where = Location::current());
  void logf(Format fmt, ...);
  // Marks the test failed and goes on.
  void error(std::string_view msg, Location where = Location::current());
  void errorf(Format fmt, ...);
  // Marks the test failed and stops it.
  [[noreturn]] void fatal(std::string_view msg, Location where = Location::current());
  [[noreturn]] void fatalf(Format fmt, ...);
  // Stops the test without failing it; a skipped input does not count as interesting.
  [[noreturn]] void skip(std::string_view msg = {}, Location where = Location::current());
  [[noreturn]] void skipf(Format fmt, ...);
  void fail(Location where = Location::current());
  [[noreturn]] void fail_now(Location where = Location::current());
  bool failed() const;
  bool skipped() const;
  // "FuzzX" for F; "FuzzX/seed#0", "FuzzX/<file>" or "FuzzX" (while fuzzing) for T.
  std::string name() const;
  // Runs after the test (or the input) finishes, last registered first.
  void cleanup(std::function<void()> fn);
  // A new directory, removed with its contents at cleanup.
  std::string tempdir();
  // Go's Helper; see the class comment. Accepted for familiarity, and does nothing.
  void helper() {}

 protected:
  explicit Common(detail::TestState* s) : state_(s) {}
  detail::TestState* state_;
};

class T : public Common {
 public:
  explicit T(detail::TestState* s) : Common(s) {}
};

class F : public Common {
 public:
  explicit F(detail::TestState* s) : Common(s) {}

  // Adds a seed input. Types must match the fuzz function's parameters exactly, as in Go:
  // f.add(std::int64_t{3}) for a std::int64_t parameter; string literals are strings.
  template <class... A>
  void add(const A&... values) {
    static constexpr detail::ArgType types[] = {detail::SeedParam<std::decay_t<A>>::type..., detail::ArgType::Bool};
    const char* const shapes[] = {detail::shape_text<std::decay_t<A>>()..., nullptr};
    std::vector<std::uint8_t> encoded[sizeof...(A) + 1];
    std::size_t next = 0;
    const detail::ArgView views[] = {detail::seed_view(values, encoded[next++])..., detail::ArgView{}};
    detail::add_seed(state_, types, shapes, views, sizeof...(A), Location::current());
  }

  // Structure-aware fuzzing: `fn` makes every mutation of argument `index` (0 is the first
  // after cfuzz::T&), which must be a []byte or string, as libFuzzer's custom mutator does
  // for a whole input; the other arguments are mutated as usual. Seeds, the corpus and
  // saved failures stay in the v1 format. Call it before or after fuzz, once per argument.
  void custom_mutator(std::size_t index, CustomMutator fn, Location where = Location::current()) {
    detail::set_custom_mutator(state_, index, fn, where);
  }

  // Registers the fuzz function: `void(cfuzz::T&, params...)`. Call it once, after add.
  template <class Fn>
  void fuzz(Fn&& fn, Location where = Location::current()) {
    using Sig = detail::Signature<std::remove_cvref_t<Fn>>;
    static_assert(std::is_void_v<typename Sig::Result>, "cfuzz: the fuzz function must return void");
    fuzz_with_arbitrary(std::forward<Fn>(fn), where, static_cast<typename Sig::Args*>(nullptr));
  }

  // The same, each parameter taking only the values of its domain (cfuzz/domains.h):
  // f.fuzz(fn, cfuzz::domains(cfuzz::in_range(0, 9), cfuzz::arbitrary<std::string>())).
  // Seeds must be in the domains; the fuzz function is never given a value outside them.
  template <class Fn, class... D>
  void fuzz(Fn&& fn, Domains<D...> domains, Location where = Location::current()) {
    using Sig = detail::Signature<std::remove_cvref_t<Fn>>;
    static_assert(std::is_void_v<typename Sig::Result>, "cfuzz: the fuzz function must return void");
    detail::bind_fuzz(state_, std::forward<Fn>(fn), std::move(domains.each), where,
                      static_cast<typename Sig::Args*>(nullptr));
  }

 private:
  template <class Fn, class TRef, class... Ps>
  void fuzz_with_arbitrary(Fn&& fn, Location where, std::tuple<TRef, Ps...>* args) {
    detail::bind_fuzz(state_, std::forward<Fn>(fn), std::tuple<Arbitrary<std::remove_cvref_t<Ps>>...>{}, where, args);
  }
};

}  // namespace cfuzz

namespace cfuzz::detail {
constexpr bool valid_test_name(const char* n) { return n[0] == 'F' && n[1] == 'u' && n[2] == 'z' && n[3] == 'z'; }
}  // namespace cfuzz::detail

// Declares a fuzz test. The name must start with "Fuzz", as Go requires.
#define CFUZZ_TEST(name, f)                                                                                 \
  static_assert(::cfuzz::detail::valid_test_name(#name), "cfuzz: fuzz test names start with Fuzz: " #name); \
  static void cfuzz_test_body_##name(::cfuzz::F& f);                                                        \
  [[maybe_unused]] static const bool cfuzz_registered_##name =                                              \
      (::cfuzz::detail::register_test(#name, &cfuzz_test_body_##name, __FILE__, __LINE__), true);           \
  static void cfuzz_test_body_##name(::cfuzz::F& f)
