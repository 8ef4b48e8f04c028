// A cache directory that others can write to (a shared mount): whatever they put there,
// `cfuzz run` writes nowhere outside it, does not take their files' size as its memory,
// and refuses a cache root of another user's unless told it is shared.
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>

#include <gtest/gtest.h>

#include "test/support/test_support.h"

namespace cfuzz::test {
namespace {

namespace fs = std::filesystem;

// The lines of `text` holding `needle`.
std::size_t lines_with(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  std::size_t at = 0;
  while ((at = text.find(needle, at)) != std::string::npos) {
    ++n;
    at = text.find('\n', at);
    if (at == std::string::npos) break;
  }
  return n;
}

// `cfuzz run` on the maze target, one worker, a fixed seed and number of executions.
CommandResult fuzz_maze(const TempDir& dir, const std::string& seed, const std::string& fuzztime) {
  return run({cfuzz(), "run", target("maze"), "--cachedir", (dir / "cache").string(), "--parallel", "1", "--fuzztime",
              fuzztime, "--seed", seed},
             {.cwd = dir.str()});
}

TEST(UntrustedCache, SymbolicLinksInTheCacheAreNeverWrittenThrough) {
  TempDir dir;
  auto first = fuzz_maze(dir, "7", "3000x");
  ASSERT_EQ(first.exit_code, 0) << first.all();
  ASSERT_TRUE(fs::exists(dir / "cache/FuzzMaze.stats.jsonl")) << first.all();
  ASSERT_TRUE(fs::exists(dir / "cache/FuzzMaze.baseline")) << first.all();
  // Someone who can write to the cache points its files at files of the user's.
  const std::string precious = "the user's own file\n";
  write_file(dir / "victim_stats", precious);
  write_file(dir / "victim_baseline", precious);
  fs::remove(dir / "cache/FuzzMaze.stats.jsonl");
  fs::remove(dir / "cache/FuzzMaze.baseline");
  fs::create_symlink(dir / "victim_stats", dir / "cache/FuzzMaze.stats.jsonl");
  fs::create_symlink(dir / "victim_baseline", dir / "cache/FuzzMaze.baseline");
  // And the corpus directory at a directory of the user's, which holds a corpus-like file.
  write_file(dir / "victim_dir/secret", "go test fuzz v1\n[]byte(\"the user's secret\")\n");
  fs::rename(dir / "cache/FuzzMaze", dir / "old_corpus");
  fs::create_directory_symlink(dir / "victim_dir", dir / "cache/FuzzMaze");

  // A fresh seed and more executions: new entries (and a changed baseline) to write.
  auto second = fuzz_maze(dir, "8", "20000x");
  EXPECT_EQ(second.exit_code, 0) << second.all();
  EXPECT_EQ(read_file(dir / "victim_stats"), precious) << second.all();
  EXPECT_EQ(read_file(dir / "victim_baseline"), precious) << second.all();
  EXPECT_EQ(files_in(dir / "victim_dir").size(), 1u) << second.all();
  EXPECT_TRUE(fs::is_symlink(dir / "cache/FuzzMaze.stats.jsonl"));
  EXPECT_TRUE(fs::is_symlink(dir / "cache/FuzzMaze.baseline"));
  // Each link is named once, in one line.
  for (const char* name : {"FuzzMaze.stats.jsonl", "FuzzMaze.baseline"}) {
    EXPECT_EQ(lines_with(second.err, std::string(name) + ": it is a symbolic link"), 1u) << name << "\n"
                                                                                         << second.all();
  }
  // The linked directory is neither written into (one warning) nor read as a corpus (one more).
  EXPECT_EQ(lines_with(second.err, "cannot use " + (dir / "cache/FuzzMaze").string() + ": it is a symbolic link"), 1u)
      << second.all();
  EXPECT_EQ(lines_with(second.err, "cannot read " + (dir / "cache/FuzzMaze").string() + ": it is a symbolic link"), 1u)
      << second.all();
}

TEST(UntrustedCache, ACacheRootOfAnotherUserIsRefusedUnlessItIsSharedOnPurpose) {
  TempDir dir;
  fs::path root = dir / "cache";
  if (geteuid() == 0) {
    fs::create_directories(root);
    ASSERT_EQ(::chown(root.c_str(), 65534, 65534), 0);  // nobody's
  } else {
    root = "/";  // root's, and exists everywhere; nothing is written there before the check
  }
  std::vector<std::string> argv{cfuzz(),      "run", target("maze"), "--cachedir", root.string(),
                                "--parallel", "1",   "--fuzztime",   "100x"};
  auto refused = run(argv, {.cwd = dir.str()});
  EXPECT_EQ(refused.exit_code, 2) << refused.all();
  EXPECT_NE(refused.err.find("cache directory " + root.string() + " belongs to another user"), std::string::npos)
      << refused.all();
  EXPECT_NE(refused.err.find("--shared-cache"), std::string::npos) << refused.all();
  EXPECT_EQ(std::count(refused.err.begin(), refused.err.end(), '\n'), 1) << refused.all();

  argv.push_back("--shared-cache");
  auto flagged = run(argv, {.cwd = dir.str()});
  EXPECT_EQ(flagged.exit_code, 0) << flagged.all();
  argv.pop_back();
  auto by_env = run(argv, {.cwd = dir.str(), .env = {"CFUZZ_SHARED_CACHE=1"}});
  EXPECT_EQ(by_env.exit_code, 0) << by_env.all();

  // `cfuzz cover` runs the cache's inputs too: the same check, the same way out.
  std::vector<std::string> cover{cfuzz(), "cover", target("maze"), "--cachedir", root.string(), "--parallel", "1"};
  auto cover_refused = run(cover, {.cwd = dir.str()});
  EXPECT_EQ(cover_refused.exit_code, 2) << cover_refused.all();
  EXPECT_NE(cover_refused.err.find("cache directory " + root.string() + " belongs to another user"), std::string::npos)
      << cover_refused.all();
  cover.push_back("--shared-cache");
  auto cover_flagged = run(cover, {.cwd = dir.str()});
  EXPECT_EQ(cover_flagged.exit_code, 0) << cover_flagged.all();
}

TEST(UntrustedCache, AHugeCacheFileIsSkippedUnreadWithOneWarning) {
  TempDir dir;
  fs::create_directories(dir / "cache/FuzzMaze");
  // A well-formed entry of 80 MiB, over the 64 MiB limit...
  {
    std::ofstream out(dir / "cache/FuzzMaze/00000000000000aa", std::ios::binary);
    out << "go test fuzz v1\n[]byte(\"";
    std::string chunk(1 << 20, 'a');
    for (int i = 0; i < 80; ++i) out << chunk;
    out << "\")\n";
  }
  // ... and a sparse file of 1 GiB: two files, one warning.
  { std::ofstream out(dir / "cache/FuzzMaze/00000000000000bb", std::ios::binary); }
  fs::resize_file(dir / "cache/FuzzMaze/00000000000000bb", std::uintmax_t{1} << 30);
  auto r = fuzz_maze(dir, "7", "1000x");
  EXPECT_EQ(r.exit_code, 0) << r.all();
  EXPECT_EQ(lines_with(r.err, "cache file(s) over 64 MiB"), 1u) << r.all();
  EXPECT_NE(r.err.find("skipped 2 cache file(s) over 64 MiB"), std::string::npos) << r.all();
  // The coordinator and its worker (the only children of this test process) never held
  // the files: a read would take 80 MiB at least, the sparse one a gigabyte.
  rusage usage{};
  ASSERT_EQ(getrusage(RUSAGE_CHILDREN, &usage), 0);
  EXPECT_LT(usage.ru_maxrss, 64 * 1024) << "peak resident set of a child, in KiB";
}

}  // namespace
}  // namespace cfuzz::test
