// The one gate of a run's cache writes: what a refused write means for the writes after it.
#include "libfuzzdriver/corpus/cache_writes.h"

#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "libfuzzdriver/util/file_io.h"

namespace cfuzz::driver {
namespace {

TEST(CacheWrites, TheFirstRefusalStopsEveryLaterWriteWithOneWarning) {
  std::vector<std::string> warnings;
  CacheWrites writes("/cache", [&](const std::string& w) { warnings.push_back(w); });
  auto fail_with = [](int err) {
    return [err] { throw FileError("cannot write /cache/x: " + std::string(std::strerror(err)), err); };
  };
  EXPECT_FALSE(writes.attempt("a link", fail_with(ELOOP)));
  EXPECT_FALSE(writes.attempt("a link", fail_with(ELOOP)));
  EXPECT_FALSE(writes.stopped()) << "a link skips one write, not all";
  int ran = 0;
  EXPECT_TRUE(writes.attempt("an entry", [&] { ++ran; }));
  EXPECT_FALSE(writes.attempt("an entry", fail_with(ENOSPC)));
  EXPECT_TRUE(writes.stopped());
  EXPECT_FALSE(writes.attempt("an entry", [&] { ++ran; }));
  EXPECT_FALSE(writes.attempt("the stats", fail_with(EROFS)));
  EXPECT_EQ(ran, 1);
  ASSERT_EQ(warnings.size(), 2u);
  EXPECT_EQ(warnings[0], "skipped writing a link: cannot write /cache/x: Too many levels of symbolic links");
  EXPECT_EQ(warnings[1],
            "cannot write an entry to the cache: cannot write /cache/x: No space left on device; nothing more is "
            "written to the cache in this run");
}

}  // namespace
}  // namespace cfuzz::driver
