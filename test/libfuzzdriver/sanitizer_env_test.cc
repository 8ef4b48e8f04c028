// The sanitizer settings every process of the target gets, and the user's own after them.
#include "libfuzzdriver/worker/sanitizer_env.h"

#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace cfuzz::driver {
namespace {

// Sets ASAN_OPTIONS (or clears it) for one test and puts it back after it.
class AsanOptions {
 public:
  explicit AsanOptions(const char* value) {
    if (const char* old = std::getenv("ASAN_OPTIONS")) saved_ = old;
    if (value != nullptr) {
      ::setenv("ASAN_OPTIONS", value, 1);
    } else {
      ::unsetenv("ASAN_OPTIONS");
    }
  }
  ~AsanOptions() {
    if (saved_) {
      ::setenv("ASAN_OPTIONS", saved_->c_str(), 1);
    } else {
      ::unsetenv("ASAN_OPTIONS");
    }
  }

 private:
  std::optional<std::string> saved_;
};

std::string asan_entry(bool detect_leaks) {
  for (const std::string& e : fuzzing_environment(detect_leaks)) {
    if (e.rfind("ASAN_OPTIONS=", 0) == 0) return e;
  }
  return "";
}

TEST(SanitizerEnv, WorkersGetAQuarterOfAsansQuarantine) {
  AsanOptions none(nullptr);
  EXPECT_EQ(asan_entry(true),
            "ASAN_OPTIONS=detect_leaks=1:leak_check_at_exit=0:allocator_may_return_null=1:"
            "quarantine_size_mb=64");
  EXPECT_EQ(asan_entry(false), "ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1:quarantine_size_mb=64");
}

TEST(SanitizerEnv, TheUsersQuarantineComesLastAndSoWins) {
  AsanOptions user("quarantine_size_mb=256");
  const std::string entry = asan_entry(true);
  EXPECT_LT(entry.find("quarantine_size_mb=64"), entry.find("quarantine_size_mb=256"));
  EXPECT_TRUE(entry.ends_with(":quarantine_size_mb=256")) << entry;
}

}  // namespace
}  // namespace cfuzz::driver
