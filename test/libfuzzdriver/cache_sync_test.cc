// The shared cache, from one run's side: entries other runs write are found once, its own
// and unusable ones never; one failure among runs gets one claim.
#include "libfuzzdriver/corpus/cache_sync.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "corpus_format/codec.h"
#include "libfuzzdriver/corpus/cache_dir.h"
#include "libfuzzdriver/corpus/content_name.h"
#include "libfuzzdriver/corpus/failure_claim.h"
#include "libfuzzdriver/util/file_io.h"
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
  std::string mine = save_to_cache(dir, dir, bytes_entry("mine"));
  w.note_known(mine);
  std::string theirs = save_to_cache(dir, dir, bytes_entry("theirs"));
  test::write_file(fs::path(dir) / ".x.cfuzz-tmp-123", "go test fuzz v1\n[]byte(\"half");  // a write in progress
  test::write_file(fs::path(dir) / "0000000000000bad", "not a corpus file\n");
  test::write_file(fs::path(dir) / "00000000000000aa", "go test fuzz v1\nint(1)\n");  // other types
  EXPECT_EQ(names(w.new_entries()), std::vector<std::string>{theirs});
  EXPECT_TRUE(w.new_entries().empty());
  std::string later = save_to_cache(dir, dir, bytes_entry("later"));
  auto found = w.new_entries();
  ASSERT_EQ(names(found), std::vector<std::string>{later});
  EXPECT_EQ(found[0].values, bytes_entry("later"));
}

TEST(CacheWatcher, DoesNotListADirectoryThatHasNotChangedSinceItSettled) {
  Dir d;
  std::string dir = (d.path() / "FuzzX").string();
  save_to_cache(dir, dir, bytes_entry("one"));
  // The directory's timestamp put well in the past, as on a cache nobody writes to.
  timespec old[2] = {{1000000000, 0}, {1000000000, 0}};
  ASSERT_EQ(::utimensat(AT_FDCWD, dir.c_str(), old, 0), 0);
  CacheWatcher w(dir, {corpus::Type::Bytes});
  EXPECT_EQ(w.new_entries().size(), 1u);
  EXPECT_TRUE(w.new_entries().empty());
  EXPECT_TRUE(w.new_entries().empty());
  EXPECT_EQ(w.stats().scans, 3u);
  EXPECT_EQ(w.stats().listings, 1u);
  save_to_cache(dir, dir, bytes_entry("two"));  // moves the timestamp: listed again
  EXPECT_EQ(w.new_entries().size(), 1u);
  EXPECT_EQ(w.stats().listings, 2u);
}

TEST(FailureClaim, TheFirstRunClaimsAndTheOthersGetItsPath) {
  Dir d;
  auto now = std::chrono::system_clock::now();
  FailureClaim first(d.str(), (d.path() / ".claims").string(), "FuzzX", "signal|SIGSEGV|t+0x12|0", now);
  ASSERT_TRUE(first.acquire());
  const std::string text = "go test fuzz v1\n[]byte(\"x\")\n";
  fs::path reproducer = d.path() / "testdata/fuzz/FuzzX" / content_name(text);
  test::write_file(reproducer, text);
  first.record(reproducer.string());
  FailureClaim second(d.str(), (d.path() / ".claims").string(), "FuzzX", "signal|SIGSEGV|t+0x12|0", now);
  EXPECT_FALSE(second.acquire());
  EXPECT_EQ(second.other_path(), reproducer.string());
  // Another failure, or the same one in another fuzz test, is a claim of its own.
  EXPECT_TRUE(
      FailureClaim(d.str(), (d.path() / ".claims").string(), "FuzzX", "signal|SIGABRT|t+0x40|0", now).acquire());
  EXPECT_TRUE(
      FailureClaim(d.str(), (d.path() / ".claims").string(), "FuzzY", "signal|SIGSEGV|t+0x12|0", now).acquire());
}

TEST(FailureClaim, AClaimFromBeforeThisRunIsStaleAndTakenOver) {
  Dir d;
  auto then = std::chrono::system_clock::now() - std::chrono::hours(24);
  FailureClaim old(d.str(), (d.path() / ".claims").string(), "FuzzX", "sig", then);
  ASSERT_TRUE(old.acquire());
  fs::path reproducer = d.path() / "old";
  test::write_file(reproducer, "x");
  old.record(reproducer.string());
  // Made yesterday: its file's timestamp says so.
  for (const auto& f : fs::directory_iterator(d.path() / ".claims")) {
    timespec t[2] = {{1000000000, 0}, {1000000000, 0}};
    ASSERT_EQ(::utimensat(AT_FDCWD, f.path().c_str(), t, 0), 0);
  }
  FailureClaim now(d.str(), (d.path() / ".claims").string(), "FuzzX", "sig", std::chrono::system_clock::now());
  EXPECT_TRUE(now.acquire());
}

TEST(FailureClaim, AClaimWithoutAReproducerWhoseRunHasEndedIsTakenOverAtOnce) {
  Dir d;
  auto now = std::chrono::system_clock::now();
  FailureClaim dead(d.str(), (d.path() / ".claims").string(), "FuzzX", "sig", now);
  ASSERT_TRUE(dead.acquire());
  // Its owner: a process of this host that no longer runs (killed while minimizing).
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  for (const auto& f : fs::directory_iterator(d.path() / ".claims")) {
    test::write_file(f.path(), std::string(host) + " 999999999\n");
  }
  auto started = std::chrono::steady_clock::now();
  EXPECT_TRUE(FailureClaim(d.str(), (d.path() / ".claims").string(), "FuzzX", "sig", now).acquire());
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(5)) << "waited for a dead run";
}

TEST(FailureClaim, OnlyAClaimAsCfuzzWritesItIsBelieved) {
  auto c = parse_claim("host.example 4242\n/src/testdata/fuzz/FuzzX/0123456789abcdef");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->host, "host.example");
  EXPECT_EQ(c->pid, 4242);
  EXPECT_EQ(c->path, "/src/testdata/fuzz/FuzzX/0123456789abcdef");
  EXPECT_TRUE(parse_claim("host 1\n")) << "claimed, no reproducer yet";
  for (const char* text : {
           "",                           // empty
           "host\n",                     // no pid
           "host 0\n",                   // not a process
           "host -5\n",                  //
           "host 12345678901234\n",      // not a pid
           "host 12x\n",                 //
           "host 1\nrelative/path",      // not absolute
           "host 1\n/a/$(rm -rf ~)",     // would run in a copied re-run command
           "host 1\n/a/b; reboot",       //
           "host 1\n/a/\x1b[2Jcleared",  // a terminal escape
           "host 1\n/a/b\n/c",           // two lines
       }) {
    EXPECT_FALSE(parse_claim(text)) << text;
  }
  EXPECT_FALSE(parse_claim("host 1\n/" + std::string(9000, 'a'))) << "over the size of a claim";
}

TEST(FailureClaim, AClaimPointingAtAFileThatIsNoReproducerIsTakenOver) {
  // Else a hostile claim would keep this run from saving its own input.
  Dir d;
  auto now = std::chrono::system_clock::now();
  FailureClaim first(d.str(), (d.path() / ".claims").string(), "FuzzX", "sig", now);
  ASSERT_TRUE(first.acquire());
  test::write_file(d.path() / "home/.profile", "export PATH=...\n");
  test::write_file(d.path() / "testdata/fuzz/FuzzX/0123456789abcdef", "not the file of that name\n");
  for (const fs::path& p : {d.path() / "home/.profile", d.path() / "testdata/fuzz/FuzzX/0123456789abcdef"}) {
    first.record(p.string());
    FailureClaim second(d.str(), (d.path() / ".claims").string(), "FuzzX", "sig", now);
    auto started = std::chrono::steady_clock::now();
    EXPECT_TRUE(second.acquire()) << p;
    EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(5)) << "waited for " << p;
  }
}

TEST(FailureClaim, ALinkWhereTheClaimShouldBeIsNotFollowedAndGarbageIsTakenOver) {
  Dir d;
  auto now = std::chrono::system_clock::now();
  fs::create_directories(d.path() / ".claims");
  test::write_file(d.path() / "victim", "precious");
  FailureClaim probe(d.str(), (d.path() / ".claims").string(), "FuzzX", "sig", now);
  ASSERT_TRUE(probe.acquire());
  std::string name = fs::directory_iterator(d.path() / ".claims")->path().filename().string();
  // Someone replaces the claim with a link to a file of the user's, then with garbage.
  fs::remove(d.path() / ".claims" / name);
  fs::create_symlink(d.path() / "victim", d.path() / ".claims" / name);
  FailureClaim after_link(d.str(), (d.path() / ".claims").string(), "FuzzX", "sig", now);
  EXPECT_TRUE(after_link.acquire()) << "a link is no claim";
  after_link.record((d.path() / "repro").string());
  EXPECT_EQ(test::read_file(d.path() / "victim"), "precious");
  fs::remove(d.path() / ".claims" / name);
  test::write_file(d.path() / ".claims" / name, "host 1\n/a/$(touch pwned)");
  auto started = std::chrono::steady_clock::now();
  EXPECT_TRUE(FailureClaim(d.str(), (d.path() / ".claims").string(), "FuzzX", "sig", now).acquire());
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(5)) << "waited on garbage";
}

TEST(CacheDir, AnEntryIsNotWrittenIntoALinkedCorpusDirectory) {
  Dir d;
  fs::create_directories(d.path() / "elsewhere");
  fs::create_directories(d.path() / "cache");
  fs::create_directory_symlink(d.path() / "elsewhere", d.path() / "cache/FuzzX");
  EXPECT_THROW(save_to_cache((d.path() / "cache").string(), (d.path() / "cache/FuzzX").string(), bytes_entry("a")),
               FileError);
  EXPECT_TRUE(fs::is_empty(d.path() / "elsewhere"));
}

TEST(CacheDir, AnEntryOverTheLimitIsSkippedUnread) {
  Dir d;
  std::string dir = (d.path() / "FuzzX").string();
  save_to_cache(dir, dir, bytes_entry("small"));
  save_to_cache(dir, dir, bytes_entry(std::string(5000, 'b')));
  fs::create_symlink(d.path() / "elsewhere", fs::path(dir) / "linked");
  CacheContents c = load_cache(dir, {corpus::Type::Bytes}, {}, 1000);
  EXPECT_EQ(c.entries.size(), 1u);
  ASSERT_EQ(c.skipped.too_large.size(), 1u);
  EXPECT_NE(c.skipped.too_large[0].find("over the limit of 1000"), std::string::npos) << c.skipped.too_large[0];
  EXPECT_EQ(cache_entry_limit(0), kCacheEntryLimit);
  EXPECT_EQ(cache_entry_limit(std::uint64_t{64} << 20), (std::uint64_t{256} << 20) + (64 << 10));
}

}  // namespace
}  // namespace cfuzz::driver
