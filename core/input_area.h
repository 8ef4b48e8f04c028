// Moving corpus entries in and out of the shared-memory input areas.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>

#include "core/shm_layout.h"
#include "corpus_format/value.h"

namespace cfuzz::core {

// The 64-bit slot payload of a scalar value: integers sign- or zero-extended, bool as 0/1,
// floats as their bit pattern (float32 in the low half).
std::uint64_t scalar_bits(const corpus::Value& v);
// The bytes of a []byte or string value; nullopt for a scalar.
std::optional<std::span<const std::uint8_t>> byte_value(const corpus::Value& v);
corpus::Value scalar_from_bits(corpus::Type t, std::uint64_t bits);

// `area_size` is how many bytes the caller knows the area spans (its own geometry, not the
// area's header, which a target scribbling on shared memory may have changed): values are
// bounded by it as well as by the header's slot capacity. Every cfuzz caller passes it;
// the default (no bound) is for areas the caller built itself.
inline constexpr std::uint64_t kUnboundedArea = ~std::uint64_t{0};

// Throws std::length_error when the entry has too many values or a value is longer than
// the area's slot capacity.
void store_entry(InputAreaHeader& area, const corpus::Entry& entry, std::uint64_t area_size = kUnboundedArea);

// What load_entry throws when an area does not hold a well-formed entry (a worker, or a
// target scribbling on shared memory, may have left anything there).
class CorruptInput : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

corpus::Entry load_entry(const InputAreaHeader& area, std::uint64_t area_size = kUnboundedArea);

// Total bytes of the byte values of an entry, the "size" shown to users.
std::uint64_t entry_size(const corpus::Entry& entry);

}  // namespace cfuzz::core
