// The one temporary directory of the tests: a fresh directory under the system temporary
// directory, removed with its contents when the object goes away. With
// CFUZZ_KEEP_TEST_DIRS set it is kept instead (and its path printed), to look at what a
// test wrote.
#pragma once

#include <filesystem>
#include <string>

namespace cfuzz::test {

class TempDir {
 public:
  TempDir();  // throws std::runtime_error when it cannot make one
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  std::string str() const { return path_.string(); }
  std::filesystem::path operator/(const std::string& p) const { return path_ / p; }

 private:
  std::filesystem::path path_;
};

}  // namespace cfuzz::test
