// The run figures `cfuzz run` keeps beside the cache for `cfuzz cover`'s plot.
#include "libfuzzdriver/stats_log.h"

#include <fstream>

#include <gtest/gtest.h>

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
  ASSERT_TRUE(append_stats(path, record("a", 100)));
  ASSERT_TRUE(append_stats(path, record("a", 250)));
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
  append_stats(path, record("a", 1));
  std::ofstream(path, std::ios::app) << "{\"run\":\"a\",\"ti";  // a run killed mid-write
  EXPECT_EQ(read_stats(path).size(), 1u);
}

TEST(StatsLog, StaysBoundedKeepingEveryRunsFirstAndLastRecord) {
  test::TempDir dir;
  std::string path = (dir.path() / "FuzzX.stats.jsonl").string();
  const std::size_t max = 40;
  for (std::uint64_t i = 1; i <= 30; ++i) ASSERT_TRUE(append_stats(path, record("first", i * 1000), max));
  for (std::uint64_t i = 1; i <= 300; ++i) ASSERT_TRUE(append_stats(path, record("second", i * 1000), max));
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

}  // namespace
}  // namespace cfuzz::driver
