// Which source files a coverage report lists: not the system's headers, nor cfuzz's own
// (nobody fuzzes those on purpose, and they would crowd the report).
#pragma once

#include <string>

namespace cfuzz::driver {

inline bool is_user_source(const std::string& path) {
  return !path.empty() && path.rfind("/usr/", 0) != 0 && path.find("/include/cfuzz/") == std::string::npos &&
         path != "<stdin>";
}

}  // namespace cfuzz::driver
