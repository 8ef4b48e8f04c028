// The lines a diff changed (changed_lines.h), as `cfuzz run --since` reads them: git's -U0
// hunks, context diffs, deletions, deleted files, and text that is not a diff.
#include "libfuzzdriver/run/changed_lines.h"

#include <stdexcept>

#include <gtest/gtest.h>

namespace cfuzz::driver {
namespace {

using Lines = std::set<std::uint32_t>;

TEST(ChangedLines, GitZeroContextHunksGiveTheNewSidesLines) {
  auto c = parse_unified_diff(
      "diff --git a/src/lib.cc b/src/lib.cc\n"
      "index 1111111..2222222 100644\n"
      "--- a/src/lib.cc\n"
      "+++ b/src/lib.cc\n"
      "@@ -10 +10,2 @@ int f() {\n"
      "-  return 1;\n"
      "+  if (x) abort();\n"
      "+  return 2;\n"
      "@@ -20,0 +22 @@\n"
      "+  y++;\n",
      "/repo", "--since X");
  ASSERT_EQ(c.files.size(), 1u);
  EXPECT_EQ(c.files["/repo/src/lib.cc"], (Lines{10, 11, 22}));
  EXPECT_EQ(c.count(), 3u);
}

TEST(ChangedLines, ADeletionMarksTheLinesAroundTheCut) {
  auto c = parse_unified_diff(
      "--- a/x.cc\n"
      "+++ b/x.cc\n"
      "@@ -5,2 +4,0 @@\n"
      "-  a();\n"
      "-  b();\n",
      "/r", "--since X");
  EXPECT_EQ(c.files["/r/x.cc"], (Lines{4, 5}));
}

TEST(ChangedLines, ContextLinesAreNotChanged) {
  auto c = parse_unified_diff(
      "--- x.cc\t2026-01-01 00:00:00\n"
      "+++ x.cc\t2026-01-02 00:00:00\n"
      "@@ -1,4 +1,4 @@\n"
      " a\n"
      "-b\n"
      "+B\n"
      " c\n"
      "\n"
      "\\ No newline at end of file\n",
      "/r", "--since -");
  EXPECT_EQ(c.files["/r/x.cc"], (Lines{2}));
}

TEST(ChangedLines, ADeletedFileHasNoLines) {
  auto c = parse_unified_diff(
      "--- a/gone.cc\n"
      "+++ /dev/null\n"
      "@@ -1,2 +0,0 @@\n"
      "-a\n"
      "-b\n",
      "/r", "--since X");
  EXPECT_TRUE(c.empty());
}

TEST(ChangedLines, AMalformedHunkHeaderNamesTheFlagAndLine) {
  try {
    parse_unified_diff("--- a/x\n+++ b/x\n@@ -1 +one @@\n+x\n", "/r", "--since -");
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    std::string what = e.what();
    EXPECT_NE(what.find("--since -"), std::string::npos) << what;
    EXPECT_NE(what.find("line 3"), std::string::npos) << what;
    EXPECT_NE(what.find("@@ -12,3 +12,4 @@"), std::string::npos) << what;
  }
}

TEST(ChangedLines, ACutShortHunkIsAnError) {
  EXPECT_THROW(parse_unified_diff("--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n x\n", "/r", "--since -"), std::runtime_error);
}

TEST(ChangedLines, HunkLinesBeforeAnyHeaderAreAnError) {
  EXPECT_THROW(parse_unified_diff("--- a/x\n+++ b/x\n+added\n", "/r", "--since -"), std::runtime_error);
}

}  // namespace
}  // namespace cfuzz::driver
