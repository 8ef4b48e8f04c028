#include "runtime/modes/testdata.h"

#include <filesystem>

// Defined by the source file that the CMake helper generates for each target.
extern "C" const char* cfuzz_source_directory(void) __attribute__((weak));

namespace fuzzer::cfuzz {

std::string testdata_root(const std::string& srcdir_flag) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!srcdir_flag.empty()) return fs::absolute(srcdir_flag, ec).lexically_normal().string();
  if (cfuzz_source_directory != nullptr) {
    const char* baked = cfuzz_source_directory();
    if (baked != nullptr && fs::is_directory(baked, ec)) return baked;
  }
  return fs::current_path(ec).string();
}

std::string corpus_dir(const std::string& root, const std::string& test_name) {
  return root + "/testdata/fuzz/" + test_name;
}

}  // namespace fuzzer::cfuzz
