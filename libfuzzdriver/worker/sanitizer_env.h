// The environment every worker gets: sanitizer settings for fuzzing, placed before the
// user's own settings so that the user's win.
#pragma once

#include <string>
#include <vector>

namespace cfuzz::driver {

// "ASAN_OPTIONS=...", "UBSAN_OPTIONS=...", "TSAN_OPTIONS=...", "LSAN_OPTIONS=..." entries.
// With `detect_leaks`, LeakSanitizer stays on for the workers' per-input checks, but not
// at exit, where a leak would be nobody's failure.
std::vector<std::string> fuzzing_environment(bool detect_leaks = false);

}  // namespace cfuzz::driver
