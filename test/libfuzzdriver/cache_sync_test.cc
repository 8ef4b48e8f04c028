// The shared cache, from one run's side: entries other runs write are found once, its own
// and unusable ones never; one failure among runs gets one claim.
#include "libfuzzdriver/cache_sync.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "corpus_format/codec.h"
#include "libfuzzdriver/cache_dir.h"
#include "libfuzzdriver/failure_claim.h"
#include "test/support/files.h"
#include "test/support/temp_dir.h"

namespace cfuzz::driver {
namespace {

namespace fs = std::filesystem;

using Dir = test::TempDir;

corpus::Entry bytes_entry(const std::string& s) { return {corpus::Value(corpus::Bytes(s.begin(), s.end()))}; }

std::vector<std::string> names(const std::vector<CachedEntry>& entries) {
  std::vector<std::string> out;
  for (const auto& e : entries) out.push_back(e.name);
  std::sort(out.begin(), out.end());
  return out;
}

TEST(CacheWatcher, ReportsEachEntryAnotherRunWroteOnce) {
  Dir d;
  std::string dir = (d.path() / "FuzzX").string();
  CacheWatcher w(dir, {corpus::Type::Bytes});
  EXPECT_TRUE(w.new_entries().empty());  // no directory yet
  std::string mine = save_to_cache(dir, bytes_entry("mine"));
  w.note_known(mine);
  std::string theirs = save_to_cache(dir, bytes_entry("theirs"));
  test::write_file(fs::path(dir) / ".x.cfuzz-tmp-123", "go test fuzz v1\n[]byte(\"half");  // a write in progress
  test::write_file(fs::path(dir) / "0000000000000bad", "not a corpus file\n");
  test::write_file(fs::path(dir) / "00000000000000aa", "go test fuzz v1\nint(1)\n");  // other types
  EXPECT_EQ(names(w.new_entries()), std::vector<std::string>{theirs});
  EXPECT_TRUE(w.new_entries().empty());
  std::string later = save_to_cache(dir, bytes_entry("later"));
  auto found = w.new_entries();
  ASSERT_EQ(names(found), std::vector<std::string>{later});
  EXPECT_EQ(found[0].values, bytes_entry("later"));
}

TEST(CacheWatcher, DoesNotListADirectoryThatHasNotChangedSinceItSettled) {
  Dir d;
  std::string dir = (d.path() / "FuzzX").string();
  save_to_cache(dir, bytes_entry("one"));
  // The directory's timestamp put well in the past, as on a cache nobody writes to.
  timespec old[2] = {{1000000000, 0}, {1000000000, 0}};
  ASSERT_EQ(::utimensat(AT_FDCWD, dir.c_str(), old, 0), 0);
  CacheWatcher w(dir, {corpus::Type::Bytes});
  EXPECT_EQ(w.new_entries().size(), 1u);
  EXPECT_TRUE(w.new_entries().empty());
  EXPECT_TRUE(w.new_entries().empty());
  EXPECT_EQ(w.stats().scans, 3u);
  EXPECT_EQ(w.stats().listings, 1u);
  save_to_cache(dir, bytes_entry("two"));  // moves the timestamp: listed again
  EXPECT_EQ(w.new_entries().size(), 1u);
  EXPECT_EQ(w.stats().listings, 2u);
}

TEST(FailureClaim, TheFirstRunClaimsAndTheOthersGetItsPath) {
  Dir d;
  auto now = std::chrono::system_clock::now();
  FailureClaim first((d.path() / ".claims").string(), "FuzzX", "signal|SIGSEGV|t+0x12|0", now);
  ASSERT_TRUE(first.acquire());
  fs::path reproducer = d.path() / "testdata" / "abc";
  fs::create_directories(reproducer.parent_path());
  test::write_file(reproducer, "go test fuzz v1\n[]byte(\"x\")\n");
  first.record(reproducer.string());
  FailureClaim second((d.path() / ".claims").string(), "FuzzX", "signal|SIGSEGV|t+0x12|0", now);
  EXPECT_FALSE(second.acquire());
  EXPECT_EQ(second.other_path(), reproducer.string());
  // Another failure, or the same one in another fuzz test, is a claim of its own.
  EXPECT_TRUE(FailureClaim((d.path() / ".claims").string(), "FuzzX", "signal|SIGABRT|t+0x40|0", now).acquire());
  EXPECT_TRUE(FailureClaim((d.path() / ".claims").string(), "FuzzY", "signal|SIGSEGV|t+0x12|0", now).acquire());
}

TEST(FailureClaim, AClaimFromBeforeThisRunIsStaleAndTakenOver) {
  Dir d;
  auto then = std::chrono::system_clock::now() - std::chrono::hours(24);
  FailureClaim old((d.path() / ".claims").string(), "FuzzX", "sig", then);
  ASSERT_TRUE(old.acquire());
  fs::path reproducer = d.path() / "old";
  test::write_file(reproducer, "x");
  old.record(reproducer.string());
  // Made yesterday: its file's timestamp says so.
  for (const auto& f : fs::directory_iterator(d.path() / ".claims")) {
    timespec t[2] = {{1000000000, 0}, {1000000000, 0}};
    ASSERT_EQ(::utimensat(AT_FDCWD, f.path().c_str(), t, 0), 0);
  }
  FailureClaim now((d.path() / ".claims").string(), "FuzzX", "sig", std::chrono::system_clock::now());
  EXPECT_TRUE(now.acquire());
}

TEST(FailureClaim, AClaimWithoutAReproducerWhoseRunHasEndedIsTakenOverAtOnce) {
  Dir d;
  auto now = std::chrono::system_clock::now();
  FailureClaim dead((d.path() / ".claims").string(), "FuzzX", "sig", now);
  ASSERT_TRUE(dead.acquire());
  // Its owner: a process of this host that no longer runs (killed while minimizing).
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  for (const auto& f : fs::directory_iterator(d.path() / ".claims")) {
    test::write_file(f.path(), std::string(host) + " 999999999\n");
  }
  auto started = std::chrono::steady_clock::now();
  EXPECT_TRUE(FailureClaim((d.path() / ".claims").string(), "FuzzX", "sig", now).acquire());
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(5)) << "waited for a dead run";
}

}  // namespace
}  // namespace cfuzz::driver
