#include "corpus_format/value.h"

#include <array>
#include <bit>
#include <type_traits>

namespace cfuzz::corpus {

namespace {

// %T spellings, indexed by Type. Go prints the aliases under their real names.
constexpr std::array<std::string_view, kTypeCount> kGoTypeNames = {
    "[]uint8", "string", "bool",   "uint8",  "int32",  "int",     "int8",    "int16",
    "int64",   "uint",   "uint16", "uint32", "uint64", "float32", "float64",
};

}  // namespace

std::string_view go_type_name(Type t) { return kGoTypeNames.at(static_cast<std::size_t>(t)); }

std::optional<Type> parse_type_name(std::string_view name) {
  if (name == "byte") return Type::Byte;
  if (name == "rune") return Type::Rune;
  for (std::size_t i = 0; i < kGoTypeNames.size(); ++i) {
    if (kGoTypeNames[i] == name && name != "[]uint8") return static_cast<Type>(i);
  }
  return std::nullopt;
}

Value zero_value(Type t) {
  switch (t) {
    case Type::Bytes: return Bytes{};
    case Type::String: return std::string{};
    case Type::Bool: return false;
    case Type::Byte: return std::uint8_t{0};
    case Type::Rune: return std::int32_t{0};
    case Type::Int: return GoInt{0};
    case Type::Int8: return std::int8_t{0};
    case Type::Int16: return std::int16_t{0};
    case Type::Int64: return std::int64_t{0};
    case Type::Uint: return GoUint{0};
    case Type::Uint16: return std::uint16_t{0};
    case Type::Uint32: return std::uint32_t{0};
    case Type::Uint64: return std::uint64_t{0};
    case Type::Float32: return 0.0f;
    case Type::Float64: return 0.0;
  }
  return Bytes{};  // unreachable for a valid Type
}

std::string format_type_list(const std::vector<Type>& types) {
  std::string out = "[";
  for (std::size_t i = 0; i < types.size(); ++i) {
    if (i > 0) out.push_back(' ');
    out += go_type_name(types[i]);
  }
  out.push_back(']');
  return out;
}

std::vector<Type> types_of(const Entry& entry) {
  std::vector<Type> types;
  types.reserve(entry.size());
  for (const Value& v : entry) types.push_back(type_of(v));
  return types;
}

bool same_value(const Value& a, const Value& b) {
  if (a.index() != b.index()) return false;
  return std::visit(
      [&b](const auto& x) {
        using T = std::decay_t<decltype(x)>;
        const T& y = std::get<T>(b);
        if constexpr (std::is_same_v<T, float>) {
          return std::bit_cast<std::uint32_t>(x) == std::bit_cast<std::uint32_t>(y);
        } else if constexpr (std::is_same_v<T, double>) {
          return std::bit_cast<std::uint64_t>(x) == std::bit_cast<std::uint64_t>(y);
        } else {
          return x == y;
        }
      },
      a);
}

bool same_entry(const Entry& a, const Entry& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!same_value(a[i], b[i])) return false;
  }
  return true;
}

}  // namespace cfuzz::corpus
