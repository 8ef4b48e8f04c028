#include "libfuzzdriver/content_name.h"

#include <cstdint>
#include <cstdio>

#include <xxhash.h>

namespace cfuzz::driver {

std::string content_name(std::string_view file_bytes) {
  const XXH64_hash_t h = XXH3_64bits(file_bytes.data(), file_bytes.size());
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

}  // namespace cfuzz::driver
