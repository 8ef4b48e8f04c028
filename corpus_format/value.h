// Typed corpus values: the C++ side of the `go test fuzz v1` type table.
//
// Each v1 type maps to exactly one C++ type, and the alternatives of `Value` are listed in
// the order of `Type`, so `Value::index()` is the type. Go's aliases share a slot: `byte`
// is `uint8` and `rune` is `int32`, exactly as in Go, where they are the same type.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace cfuzz::corpus {

using Bytes = std::vector<std::uint8_t>;
// Go's `int` and `uint` are 64-bit on every platform cfuzz supports. They need C++ types
// distinct from int64_t/uint64_t (`long`/`unsigned long` on LP64) so that an `int(5)` entry
// and an `int64(5)` entry stay different types, as they are in Go.
using GoInt = long long;
using GoUint = unsigned long long;

enum class Type : std::uint8_t {
  Bytes,    // []byte
  String,   // string
  Bool,     // bool
  Byte,     // byte, uint8
  Rune,     // rune, int32
  Int,      // int
  Int8,     // int8
  Int16,    // int16
  Int64,    // int64
  Uint,     // uint
  Uint16,   // uint16
  Uint32,   // uint32
  Uint64,   // uint64
  Float32,  // float32
  Float64,  // float64
};
inline constexpr int kTypeCount = 15;

using Value = std::variant<Bytes, std::string, bool, std::uint8_t, std::int32_t, GoInt, std::int8_t, std::int16_t,
                           std::int64_t, GoUint, std::uint16_t, std::uint32_t, std::uint64_t, float, double>;
static_assert(std::variant_size_v<Value> == kTypeCount);

// One corpus entry: the values passed to one call of the fuzz function, in parameter order.
using Entry = std::vector<Value>;

inline Type type_of(const Value& v) { return static_cast<Type>(v.index()); }

// The name Go prints for the type (`[]byte`, `string`, `uint8`, `int32`, ...): the
// spelling of %T, used in type-mismatch messages.
std::string_view go_type_name(Type t);

// Accepts every spelling a v1 file may use for a type (`byte` and `uint8`, `rune` and
// `int32`, ...). `[]byte` is not an identifier and is handled by the decoder.
std::optional<Type> parse_type_name(std::string_view name);

// The zero value of a type: what Go fuzzes when the corpus is empty.
Value zero_value(Type t);

// "[[]uint8 int8]": how Go prints a type list in "mismatched types" errors.
std::string format_type_list(const std::vector<Type>& types);

std::vector<Type> types_of(const Entry& entry);

// Bitwise equality: NaN payloads and the sign of zero count, as they do for a file.
bool same_value(const Value& a, const Value& b);
bool same_entry(const Entry& a, const Entry& b);

}  // namespace cfuzz::corpus
