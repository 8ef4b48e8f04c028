// The environment every worker gets: sanitizer settings for fuzzing, placed before the
// user's own settings so that the user's win.
#pragma once

#include <string>
#include <vector>

namespace cfuzz::driver {

// "ASAN_OPTIONS=...", "UBSAN_OPTIONS=...", "TSAN_OPTIONS=..." entries.
std::vector<std::string> fuzzing_environment();

}  // namespace cfuzz::driver
