// SHA-1, as libFuzzer names its units and artifacts (crash-<sha1>, corpus files). It
// allocates nothing, so that a dying process can name the input that killed it from a
// signal handler.
#pragma once

#include <cstddef>
#include <cstdint>

namespace cfuzz::core {

inline constexpr std::size_t kSha1HexSize = 40;

// Writes the digest of `data` as 40 lowercase hex digits and a terminating NUL.
void sha1_hex(const std::uint8_t* data, std::size_t size, char out[kSha1HexSize + 1]);

}  // namespace cfuzz::core
