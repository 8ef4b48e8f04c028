// Where the cache goes by default, and the base64 of inputs printed when they cannot be saved.
#include "libfuzzdriver/corpus/cache_dir.h"

#include <pwd.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "libfuzzdriver/util/base64.h"

namespace cfuzz::driver {
namespace {

// Sets or clears environment variables for one test and puts them back after it.
class Env {
 public:
  void unset(const char* name) {
    const char* old = std::getenv(name);
    saved_.push_back({name, old != nullptr, old != nullptr ? old : ""});
    ::unsetenv(name);
  }
  ~Env() {
    for (const auto& s : saved_) {
      if (s.had) ::setenv(s.name, s.value.c_str(), 1);
    }
  }

 private:
  struct Saved {
    const char* name;
    bool had;
    std::string value;
  };
  std::vector<Saved> saved_;
};

TEST(CacheDir, WithoutHomeTheCacheGoesToTheUsersHomeFromThePasswordDatabase) {
  Env env;
  env.unset("CFUZZ_CACHE");
  env.unset("XDG_CACHE_HOME");
  env.unset("HOME");
  std::string root = default_cache_root();
  EXPECT_EQ(root.find("/cfuzz-cache"), std::string::npos) << root;  // not the shared /tmp name
  const passwd* pw = getpwuid(getuid());
  if (pw != nullptr && pw->pw_dir != nullptr && std::string(pw->pw_dir) != "/" && pw->pw_dir[0] != '\0') {
    EXPECT_EQ(root, std::string(pw->pw_dir) + "/.cache/cfuzz");
  } else {
    EXPECT_NE(root.find("cfuzz-cache-" + std::to_string(getuid())), std::string::npos) << root;
  }
}

TEST(Base64, EncodesAsRfc4648) {
  // The test vectors of RFC 4648, section 10.
  EXPECT_EQ(base64_encode(""), "");
  EXPECT_EQ(base64_encode("f"), "Zg==");
  EXPECT_EQ(base64_encode("fo"), "Zm8=");
  EXPECT_EQ(base64_encode("foo"), "Zm9v");
  EXPECT_EQ(base64_encode("foob"), "Zm9vYg==");
  EXPECT_EQ(base64_encode("fooba"), "Zm9vYmE=");
  EXPECT_EQ(base64_encode("foobar"), "Zm9vYmFy");
  EXPECT_EQ(base64_encode(std::string("\xff\x00\xfe", 3)), "/wD+");
}

}  // namespace
}  // namespace cfuzz::driver
