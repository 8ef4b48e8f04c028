#include "core/input_area.h"

#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace cfuzz::core {

using corpus::Type;

std::uint64_t scalar_bits(const corpus::Value& v) {
  return std::visit(
      [](const auto& x) -> std::uint64_t {
        using V = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<V, corpus::Bytes> || std::is_same_v<V, std::string>) {
          return 0;
        } else if constexpr (std::is_same_v<V, bool>) {
          return x ? 1 : 0;
        } else if constexpr (std::is_same_v<V, float>) {
          std::uint32_t b;
          std::memcpy(&b, &x, sizeof b);
          return b;
        } else if constexpr (std::is_same_v<V, double>) {
          std::uint64_t b;
          std::memcpy(&b, &x, sizeof b);
          return b;
        } else if constexpr (std::is_signed_v<V>) {
          return static_cast<std::uint64_t>(static_cast<std::int64_t>(x));
        } else {
          return static_cast<std::uint64_t>(x);
        }
      },
      v);
}

std::optional<std::span<const std::uint8_t>> byte_value(const corpus::Value& v) {
  if (const auto* b = std::get_if<corpus::Bytes>(&v)) return std::span<const std::uint8_t>(*b);
  if (const auto* s = std::get_if<std::string>(&v)) {
    return std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(s->data()), s->size());
  }
  return std::nullopt;
}

corpus::Value scalar_from_bits(Type t, std::uint64_t bits) {
  switch (t) {
    case Type::Bool: return bits != 0;
    case Type::Byte: return static_cast<std::uint8_t>(bits);
    case Type::Rune: return static_cast<std::int32_t>(bits);
    case Type::Int: return static_cast<corpus::GoInt>(bits);
    case Type::Int8: return static_cast<std::int8_t>(bits);
    case Type::Int16: return static_cast<std::int16_t>(bits);
    case Type::Int64: return static_cast<std::int64_t>(bits);
    case Type::Uint: return static_cast<corpus::GoUint>(bits);
    case Type::Uint16: return static_cast<std::uint16_t>(bits);
    case Type::Uint32: return static_cast<std::uint32_t>(bits);
    case Type::Uint64: return static_cast<std::uint64_t>(bits);
    case Type::Float32: {
      auto b = static_cast<std::uint32_t>(bits);
      float f;
      std::memcpy(&f, &b, sizeof f);
      return f;
    }
    case Type::Float64: {
      double d;
      std::memcpy(&d, &bits, sizeof d);
      return d;
    }
    case Type::Bytes: return corpus::Bytes{};
    case Type::String: return std::string{};
  }
  throw std::invalid_argument("unknown value type");
}

namespace {

// The slot capacity the area's memory really allows.
std::uint64_t real_capacity(const InputAreaHeader& area, std::uint32_t count, std::uint64_t area_size) {
  if (area_size == kUnboundedArea || count == 0) return area.slot_capacity;
  if (area_size < kInputDataOffset) return 0;
  std::uint64_t room = (area_size - kInputDataOffset) / count;
  return room < area.slot_capacity ? room : area.slot_capacity;
}

}  // namespace

void store_entry(InputAreaHeader& area, const corpus::Entry& entry, std::uint64_t area_size) {
  if (entry.size() > kMaxValues) {
    throw std::length_error("an entry has at most " + std::to_string(kMaxValues) + " values, got " +
                            std::to_string(entry.size()));
  }
  std::uint64_t capacity = real_capacity(area, static_cast<std::uint32_t>(entry.size()), area_size);
  area.count = static_cast<std::uint32_t>(entry.size());
  for (std::uint32_t i = 0; i < area.count; ++i) {
    const corpus::Value& v = entry[i];
    SlotHeader& slot = area.slots[i];
    slot = SlotHeader{};
    slot.type = static_cast<std::uint8_t>(v.index());
    auto bytes = byte_value(v);
    const std::uint8_t* data = bytes ? bytes->data() : nullptr;
    std::size_t len = bytes ? bytes->size() : 0;
    if (!bytes) slot.bits = scalar_bits(v);
    if (len > capacity) {
      throw std::length_error("value " + std::to_string(i) + " is " + std::to_string(len) + " bytes, more than the " +
                              std::to_string(capacity) + " bytes shared memory holds per value");
    }
    slot.len = len;
    if (len != 0) std::memcpy(ShmView::slot_data(area, i), data, len);
  }
}

corpus::Entry load_entry(const InputAreaHeader& area, std::uint64_t area_size) {
  if (area.count > kMaxValues) {
    throw CorruptInput("shared memory holds a corrupt input (" + std::to_string(area.count) + " values)");
  }
  // Slots lie at multiples of the header's slot capacity: it must fit the area the caller
  // knows, or the values would be read from outside it.
  if (area_size != kUnboundedArea && area.count != 0 &&
      (area_size < kInputDataOffset || area.slot_capacity > (area_size - kInputDataOffset) / area.count)) {
    throw CorruptInput("shared memory holds a corrupt input (slots larger than the area)");
  }
  std::uint64_t capacity = real_capacity(area, area.count, area_size);
  corpus::Entry entry;
  entry.reserve(area.count);
  auto& a = const_cast<InputAreaHeader&>(area);
  for (std::uint32_t i = 0; i < area.count; ++i) {
    const SlotHeader& slot = area.slots[i];
    if (slot.type >= corpus::kTypeCount) {
      throw CorruptInput("shared memory holds a corrupt input (bad type tag)");
    }
    auto type = static_cast<Type>(slot.type);
    if (type == Type::Bytes || type == Type::String) {
      if (slot.len > capacity) {
        throw CorruptInput("shared memory holds a corrupt input (value longer than its slot)");
      }
      const std::uint8_t* p = ShmView::slot_data(a, i);
      if (type == Type::Bytes) {
        entry.emplace_back(corpus::Bytes(p, p + slot.len));
      } else {
        entry.emplace_back(std::string(reinterpret_cast<const char*>(p), slot.len));
      }
    } else {
      entry.push_back(scalar_from_bits(type, slot.bits));
    }
  }
  return entry;
}

std::uint64_t entry_size(const corpus::Entry& entry) {
  std::uint64_t n = 0;
  for (const auto& v : entry) {
    if (const auto* b = std::get_if<corpus::Bytes>(&v)) n += b->size();
    if (const auto* s = std::get_if<std::string>(&v)) n += s->size();
  }
  return n;
}

}  // namespace cfuzz::core
