// Which source files a coverage report lists: not the system's headers, nor cfuzz's own,
// nor the file cfuzz_add_fuzz_test generates to bake in the source directory (nobody
// fuzzes those on purpose, and they would crowd the report).
#pragma once

#include <string>

namespace cfuzz::driver {

inline bool is_user_source(const std::string& path) {
  return !path.empty() && path.rfind("/usr/", 0) != 0 && path.find("/include/cfuzz/") == std::string::npos &&
         !path.ends_with("_cfuzz_srcdir.cc") && path != "<stdin>";
}

}  // namespace cfuzz::driver
