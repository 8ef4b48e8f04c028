#include "test/support/temp_dir.h"

#include <stdlib.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <system_error>

namespace cfuzz::test {

TempDir::TempDir() {
  std::string pattern = (std::filesystem::temp_directory_path() / "cfuzz-test-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    throw std::runtime_error("mkdtemp failed: " + std::string(std::strerror(errno)));
  }
  path_ = pattern;
}

TempDir::~TempDir() {
  if (std::getenv("CFUZZ_KEEP_TEST_DIRS") != nullptr) {
    std::printf("kept %s\n", path_.c_str());
    return;
  }
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

}  // namespace cfuzz::test
