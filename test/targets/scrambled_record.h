// The record format of the custom-mutator test targets: 4 bytes of FNV-1a over the payload,
// then the payload XORed with 0x5A. Raw byte mutations almost never keep it well formed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

namespace scrambled_record {

inline std::uint32_t fnv1a(const std::uint8_t* p, std::size_t n) {
  std::uint32_t h = 2166136261u;
  for (std::size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 16777619u;
  return h;
}

// The payload of a well-formed record, or false.
inline bool decode(const std::uint8_t* data, std::size_t size, std::string* payload) {
  if (size < 4) return false;
  payload->assign(reinterpret_cast<const char*>(data + 4), size - 4);
  for (char& c : *payload) c = static_cast<char>(c ^ 0x5A);
  std::uint32_t stored;
  std::memcpy(&stored, data, 4);
  return stored == fnv1a(reinterpret_cast<const std::uint8_t*>(payload->data()), payload->size());
}

// Writes the record of `payload` into out (room for max bytes); returns its size, 0 if it
// does not fit.
inline std::size_t encode(const std::string& payload, std::uint8_t* out, std::size_t max) {
  if (payload.size() + 4 > max) return 0;
  std::uint32_t sum = fnv1a(reinterpret_cast<const std::uint8_t*>(payload.data()), payload.size());
  std::memcpy(out, &sum, 4);
  for (std::size_t i = 0; i < payload.size(); ++i) out[4 + i] = static_cast<std::uint8_t>(payload[i] ^ 0x5A);
  return payload.size() + 4;
}

}  // namespace scrambled_record
