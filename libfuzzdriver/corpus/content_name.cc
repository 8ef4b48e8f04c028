#include "libfuzzdriver/corpus/content_name.h"

#include <cstdint>
#include <cstdio>

#include <xxhash.h>

namespace cfuzz::driver {

std::string content_name(std::string_view file_bytes) {
  return content_name(std::uint64_t{XXH3_64bits(file_bytes.data(), file_bytes.size())});
}

std::string content_name(std::uint64_t h) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

}  // namespace cfuzz::driver
