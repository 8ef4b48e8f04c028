// The run figures `cfuzz run` keeps beside the cache for `cfuzz cover`'s plot.
#include "libfuzzdriver/coverage/stats_log.h"

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <iterator>

#include <gtest/gtest.h>

#include "libfuzzdriver/util/file_io.h"
#include "test/support/temp_dir.h"

namespace cfuzz::driver {
namespace {

StatsRecord record(const std::string& run, std::uint64_t execs) {
  StatsRecord r;
  r.run = run;
  r.time = 1.8e9 + static_cast<double>(execs);
  r.elapsed = static_cast<double>(execs) / 10;
  r.execs = execs;
  r.corpus = execs / 100;
  r.edges = execs / 10;
  r.features = execs / 5;
  return r;
}

TEST(StatsLog, SitsBesideTheTestsCacheDirectoryNotInIt) {
  EXPECT_EQ(stats_path("/c/target-1234/FuzzX"), "/c/target-1234/FuzzX.stats.jsonl");
  EXPECT_EQ(stats_path("/c/target-1234/FuzzX/"), "/c/target-1234/FuzzX.stats.jsonl");
}

TEST(StatsLog, RecordsReadBackAsWrittenAndTheDirectoryIsMadeWhenMissing) {
  test::TempDir dir;
  std::string path = stats_path((dir.path() / "never-run/FuzzX").string());
  append_stats(dir.str(), path, record("a", 100));
  append_stats(dir.str(), path, record("a", 250));
  auto back = read_stats(path);
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(back[1].run, "a");
  EXPECT_EQ(back[1].execs, 250u);
  EXPECT_EQ(back[1].corpus, 2u);
  EXPECT_EQ(back[1].edges, 25u);
  EXPECT_EQ(back[1].features, 50u);
  EXPECT_DOUBLE_EQ(back[1].elapsed, 25.0);
}

TEST(StatsLog, ATornLineIsSkippedAndAMissingFileHasNoRecords) {
  test::TempDir dir;
  std::string path = (dir.path() / "FuzzX.stats.jsonl").string();
  EXPECT_TRUE(read_stats(path).empty());
  append_stats(dir.str(), path, record("a", 1));
  std::ofstream(path, std::ios::app) << "{\"run\":\"a\",\"ti";  // a run killed mid-write
  EXPECT_EQ(read_stats(path).size(), 1u);
}

TEST(StatsLog, StaysBoundedKeepingEveryRunsFirstAndLastRecord) {
  test::TempDir dir;
  std::string path = (dir.path() / "FuzzX.stats.jsonl").string();
  const std::size_t max = 40;
  for (std::uint64_t i = 1; i <= 30; ++i) append_stats(dir.str(), path, record("first", i * 1000), max);
  for (std::uint64_t i = 1; i <= 300; ++i) append_stats(dir.str(), path, record("second", i * 1000), max);
  auto back = read_stats(path);
  EXPECT_LE(back.size(), max);
  EXPECT_GE(back.size(), max / 2 - 2) << "thinned by half at most each time";
  ASSERT_FALSE(back.empty());
  EXPECT_EQ(back.front().run, "first");
  EXPECT_EQ(back.front().execs, 1000u);
  EXPECT_EQ(back.back().run, "second");
  EXPECT_EQ(back.back().execs, 300000u);
  bool last_of_first = false;
  for (const auto& r : back) last_of_first = last_of_first || (r.run == "first" && r.execs == 30000);
  EXPECT_TRUE(last_of_first);
  for (std::size_t i = 1; i < back.size(); ++i) {
    if (back[i].run == back[i - 1].run) {
      EXPECT_LT(back[i - 1].execs, back[i].execs) << "in order";
    }
  }
}

TEST(StatsLog, AFileThatIsASymbolicLinkIsNeitherAppendedToNorRead) {
  test::TempDir dir;
  std::string path = stats_path((dir.path() / "FuzzX").string());
  { std::ofstream(dir.path() / "victim") << "{\"run\":\"theirs\",\"execs\":1}\n"; }
  std::filesystem::create_symlink(dir.path() / "victim", path);
  try {
    append_stats(dir.str(), path, record("a", 1));
    ADD_FAILURE() << "appended through a link";
  } catch (const FileError& e) {
    EXPECT_EQ(e.error(), ELOOP);
  }
  EXPECT_TRUE(read_stats(path).empty()) << "a link is not followed when reading either";
  std::ifstream in(dir.path() / "victim");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text, "{\"run\":\"theirs\",\"execs\":1}\n");
}

TEST(StatsLog, LinesOfOtherShapesAreSkippedNotTrusted) {
  EXPECT_TRUE(parse_stats_line(R"({"run":"a","time":1.5,"elapsed":2,"execs":3,"corpus":4,"edges":5,"features":6})"));
  EXPECT_TRUE(parse_stats_line("{}")) << "absent fields are 0, as before";
  for (const char* line : {
           R"({"run":5})",          // not a string
           R"({"execs":"many"})",   // not a number
           R"({"execs":-1})",       // not a count
           R"({"execs":1e300})",    // a count too big for 64 bits
           R"({"execs":2.5})",      // not a whole number
           R"({"time":-3})",        // before the epoch
           R"({"elapsed":1e999})",  // not finite
           R"([1,2,3])",            // not an object
           R"("text")",             //
           "{\"run\":\"\xff\"}",    // not UTF-8
       }) {
    EXPECT_FALSE(parse_stats_line(line)) << line;
  }
  EXPECT_FALSE(parse_stats_line("{\"run\":\"" + std::string(5000, 'a') + "\"}")) << "far longer than a record";
}

}  // namespace
}  // namespace cfuzz::driver
