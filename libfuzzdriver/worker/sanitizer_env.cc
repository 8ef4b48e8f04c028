#include "libfuzzdriver/worker/sanitizer_env.h"

#include <cstdlib>

namespace cfuzz::driver {

std::vector<std::string> fuzzing_environment(bool detect_leaks) {
  auto with_user = [](const char* name, const std::string& ours) {
    const char* user = std::getenv(name);
    return std::string(name) + "=" + ours + (user != nullptr && user[0] != '\0' ? ":" + std::string(user) : "");
  };
  // UBSan and TSan reports must end the process (by default they only print); leak reports
  // at a worker's normal exit are nobody's failure (leaks are checked per input instead,
  // runtime/failure/leak_check.h); allocations too large to satisfy return null (the target's
  // problem to handle) instead of aborting the worker. A worker lives for the whole run, so
  // ASan's quarantine of freed memory (256 MiB by default) fills within its first seconds and
  // stays: it was two thirds of a libxml2 worker's 380 MiB; with 64 MiB the worker held 120
  // MiB (docs/benchmarks.md, "Soak: an hour under ASan"). A use after free is still caught
  // unless more than 64 MiB was freed in between.
  std::string leaks = detect_leaks ? "detect_leaks=1:leak_check_at_exit=0" : "detect_leaks=0";
  return {with_user("ASAN_OPTIONS", leaks + ":allocator_may_return_null=1:quarantine_size_mb=64"),
          with_user("LSAN_OPTIONS", leaks), with_user("UBSAN_OPTIONS", "halt_on_error=1:print_stacktrace=1"),
          with_user("TSAN_OPTIONS", "halt_on_error=1")};
}

}  // namespace cfuzz::driver
