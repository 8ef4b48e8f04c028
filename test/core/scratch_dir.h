// A temporary directory for one unit test, removed with its contents at the end; with
// CFUZZ_KEEP_TEST_DIRS=1 it is kept (and its path printed), to look at what a test wrote.
#pragma once

#include <stdlib.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

namespace cfuzz::test {

struct ScratchDir {
  std::filesystem::path path;
  ScratchDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "cfuzz-unit-XXXXXX").string();
    path = ::mkdtemp(tmpl.data());
  }
  ~ScratchDir() {
    if (std::getenv("CFUZZ_KEEP_TEST_DIRS") != nullptr) {
      std::printf("kept %s\n", path.c_str());
    } else {
      std::error_code ec;
      std::filesystem::remove_all(path, ec);
    }
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
};

}  // namespace cfuzz::test
