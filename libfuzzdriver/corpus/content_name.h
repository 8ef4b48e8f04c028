// The name of a corpus entry file: derived from its bytes, so that saving the same entry
// twice gives one file and a name says nothing beyond the content.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace cfuzz::driver {

// 16 lowercase hex digits of XXH3-64 (seed 0) of the exact file bytes, as in
// "3f2a9c0d1b7e4a65". (Go names its files by SHA-256; cfuzz hashes with xxHash, which
// it uses everywhere else too. Names only need to be stable and distinct.)
std::string content_name(std::string_view file_bytes);
// The same name, from the hash already taken.
std::string content_name(std::uint64_t xxh3_of_file_bytes);

}  // namespace cfuzz::driver
