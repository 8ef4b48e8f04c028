// The library behind `cfuzz corpus`: file I/O, content names, conversion, show and fmt.
#include "libfuzzdriver/corpus/corpus_tools.h"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "corpus_format/codec.h"
#include "corpus_format/corpus_dir.h"
#include "libfuzzdriver/corpus/content_name.h"
#include "libfuzzdriver/util/file_io.h"
#include "libfuzzdriver/util/parallel_for.h"
#include "test/corpus_format/test_support.h"
#include "test/support/files.h"
#include "test/support/temp_dir.h"

namespace cfuzz::driver {
namespace {

namespace fs = std::filesystem;
using test::read_file;
using test::TempDir;
using test::write_file;

std::vector<std::string> names_in(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

TEST(ContentName, IsSixteenHexDigitsOfXxh3) {
  EXPECT_EQ(content_name(""), "2d06800538d394c2");  // XXH3-64 of no bytes
  const std::string n = content_name("go test fuzz v1\nint(1)\n");
  EXPECT_EQ(n.size(), 16u);
  EXPECT_EQ(n.find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_NE(n, content_name("go test fuzz v1\nint(2)\n"));
}

TEST(FileIo, AtomicWriteReplacesContentAndLeavesNoTemporaryFile) {
  TempDir dir;
  const fs::path p = dir.path() / "entry";
  write_file_atomic(p, "first");
  write_file_atomic(p, "second, longer");
  EXPECT_EQ(read_file(p), "second, longer");
  EXPECT_EQ(names_in(dir.path()), std::vector<std::string>{"entry"});
}

TEST(FileIo, BatchWritesMakeNewFilesAndReplaceOldOnesWithoutLeftovers) {
  TempDir dir;
  const fs::path fresh = dir.path() / "fresh", old = dir.path() / "old";
  write_file(old, "before");
  write_file_atomic(fresh, "new file", Durability::WithBatch);  // linked in whole (O_TMPFILE)
  write_file_atomic(old, "replaced", Durability::WithBatch);    // renamed over the old one
  write_file_atomic(dir.path() / "empty", "", Durability::WithBatch);
  sync_file_system(dir.path());
  EXPECT_EQ(read_file(fresh), "new file");
  EXPECT_EQ(read_file(old), "replaced");
  EXPECT_EQ(read_file(dir.path() / "empty"), "");
  EXPECT_EQ(names_in(dir.path()), (std::vector<std::string>{"empty", "fresh", "old"}));
  EXPECT_EQ(fs::status(fresh).permissions() & fs::perms::group_write,
            fs::status(old).permissions() & fs::perms::group_write)
      << "a linked file gets the mode a named one gets";
}

TEST(ParallelFor, RunsEveryIndexOnceAndRethrowsTheLowestFailure) {
  std::vector<std::atomic<int>> runs(1000);
  parallel_for(
      runs.size(), [&](std::size_t i) { ++runs[i]; }, 4);
  for (const auto& r : runs) EXPECT_EQ(r.load(), 1);
  try {
    parallel_for(
        1000,
        [](std::size_t i) {
          if (i == 700 || i == 300 || i == 900) throw std::runtime_error("index " + std::to_string(i));
        },
        4);
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "index 300") << "the error a plain loop would have met first";
  }
}

TEST(FileIo, FailedAtomicWriteKeepsTheOldContentAndCleansUp) {
  TempDir dir;
  // A directory in the way makes the final rename fail, even for root.
  const fs::path blocked = dir.path() / "blocked";
  fs::create_directory(blocked);
  write_file(blocked / "inside", "keep me");
  try {
    write_file_atomic(blocked, "new");
    FAIL() << "no error";
  } catch (const FileError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot write " + blocked.string()), std::string::npos) << e.what();
  }
  EXPECT_EQ(read_file(blocked / "inside"), "keep me");
  EXPECT_EQ(names_in(dir.path()), std::vector<std::string>{"blocked"});
}

TEST(FileIo, ErrorsNameTheFile) {
  TempDir dir;
  const fs::path missing = dir.path() / "nope";
  try {
    read_file_bytes(missing);
    FAIL();
  } catch (const FileError& e) {
    EXPECT_EQ(std::string(e.what()), "cannot read " + missing.string() + ": No such file or directory");
  }
  EXPECT_THROW(write_file_atomic(dir.path() / "no-dir" / "x", "data"), FileError);
  EXPECT_THROW(read_file_bytes(dir.path()), FileError);
}

TEST(FileIo, ListRegularFilesIsSortedFlatAndSkipsTemporaries) {
  TempDir dir;
  write_file(dir.path() / "b", "");
  write_file(dir.path() / "a", "");
  write_file(dir.path() / ".a.cfuzz-tmp-123456", "half written");
  fs::create_directory(dir.path() / "sub");
  write_file(dir.path() / "sub" / "c", "");
  const auto files = corpus::list_corpus_files(dir.path());
  ASSERT_EQ(files.size(), 2u);
  EXPECT_EQ(files[0].filename(), "a");
  EXPECT_EQ(files[1].filename(), "b");
}

TEST(CorpusTools, Bin2V1WritesOneEntryPerFileNamedByItsHash) {
  TempDir dir;
  write_file(dir.path() / "raw", std::string("\0\xff", 2));
  const auto out = dir.path() / "out" / "nested";
  const auto converted = convert_bin_to_v1({dir.path() / "raw"}, out);
  ASSERT_EQ(converted.size(), 1u);
  const std::string entry = read_file(converted[0].output);
  EXPECT_EQ(entry, "go test fuzz v1\n[]byte(\"\\x00\\xff\")\n");
  EXPECT_EQ(converted[0].output, out / content_name(entry));
  EXPECT_FALSE(converted[0].unchanged);
  EXPECT_TRUE(convert_bin_to_v1({dir.path() / "raw"}, out)[0].unchanged);
  const auto as_string = convert_bin_to_v1({dir.path() / "raw"}, out, corpus::Type::String);
  EXPECT_EQ(read_file(as_string[0].output), "go test fuzz v1\nstring(\"\\x00\\xff\")\n");
}

TEST(CorpusTools, V12BinRefusesEntriesWithOtherValues) {
  TempDir dir;
  write_file(dir.path() / "two", "go test fuzz v1\n[]byte(\"a\")\nint(1)\n");
  try {
    convert_v1_to_bin({dir.path() / "two"}, dir.path() / "out");
    FAIL();
  } catch (const CorpusToolError& e) {
    EXPECT_EQ(std::string(e.what()), "corpus file " + (dir.path() / "two").string() +
                                         ": v12bin needs an entry holding exactly one []byte or string value, but it "
                                         "holds 2 values [[]uint8 int]");
  }
  EXPECT_FALSE(fs::exists(dir.path() / "out"));
}

TEST(CorpusTools, V12BinRefusesToOverwriteItsInputOrCollideNames) {
  TempDir dir;
  write_file(dir.path() / "e", "go test fuzz v1\nstring(\"x\")\n");
  EXPECT_THROW(convert_v1_to_bin({dir.path() / "e"}, dir.path()), CorpusToolError);
  EXPECT_EQ(read_file(dir.path() / "e"), "go test fuzz v1\nstring(\"x\")\n");
  fs::create_directory(dir.path() / "d");
  write_file(dir.path() / "d" / "e", "go test fuzz v1\nstring(\"y\")\n");
  EXPECT_THROW(convert_v1_to_bin({dir.path() / "e", dir.path() / "d" / "e"}, dir.path() / "out"), CorpusToolError);
}

TEST(CorpusTools, ShowEntryDescribesEveryValue) {
  const corpus::Entry e = corpus::decode(
      "go test fuzz v1\n[]byte(\"hi\\x00\")\nstring(\"é\")\nbool(true)\nbyte('A')\n"
      "rune('☃')\nint32(-1)\nint(-5)\nuint16(7)\nfloat64(1e+06)\n"
      "math.Float64frombits(0x7ff8000000000002)\nfloat32(NaN)\n");
  EXPECT_EQ(show_entry(e),
            "  0: []byte \"hi\\x00\" (3 bytes)\n"
            "  1: string \"é\" (2 bytes)\n"
            "  2: bool true\n"
            "  3: byte 'A' (65)\n"
            "  4: rune '☃' (U+2603)\n"
            "  5: int32 -1 (not a valid Unicode code point)\n"
            "  6: int -5\n"
            "  7: uint16 7\n"
            "  8: float64 1e+06\n"
            "  9: float64 NaN (bits 0x7ff8000000000002)\n"
            "  10: float32 NaN (bits 0x7fc00000)\n");
}

TEST(CorpusTools, ShowCutsLongValuesAndSaysSo) {
  const corpus::Entry e = {std::string(1000, 'x')};
  ShowOptions options;
  options.max_bytes = 4;
  EXPECT_EQ(show_entry(e, options), "  0: string \"xxxx\"... (1000 bytes, first 4 shown)\n");
  options.max_bytes = 0;
  EXPECT_EQ(show_entry(e, options), "  0: string \"" + std::string(1000, 'x') + "\" (1000 bytes)\n");
}

TEST(CorpusTools, FormatRewritesOnlyNonCanonicalEntries) {
  TempDir dir;
  write_file(dir.path() / "canonical", "go test fuzz v1\nint(1)\n");
  write_file(dir.path() / "messy", "go test fuzz v1\r\n  int(0x10) // sixteen\r\n\n");
  FormatResult check = format_corpus({dir.path()}, /*check_only=*/true);
  EXPECT_EQ(check.checked.size(), 2u);
  ASSERT_EQ(check.non_canonical.size(), 1u);
  EXPECT_EQ(check.non_canonical[0].filename(), "messy");
  EXPECT_EQ(read_file(dir.path() / "messy"), "go test fuzz v1\r\n  int(0x10) // sixteen\r\n\n");

  FormatResult fixed = format_corpus({dir.path()}, /*check_only=*/false);
  EXPECT_EQ(fixed.non_canonical.size(), 1u);
  EXPECT_EQ(read_file(dir.path() / "messy"), "go test fuzz v1\nint(16)\n");
  EXPECT_TRUE(format_corpus({dir.path()}, true).non_canonical.empty());
}

TEST(CorpusTools, FormatStopsAtAMalformedEntryBeforeRewritingAnything) {
  TempDir dir;
  write_file(dir.path() / "a_messy", "go test fuzz v1\nint(0x10)\n");
  write_file(dir.path() / "b_bad", "go test fuzz v1\nint(1)\nint(\n");
  try {
    format_corpus({dir.path()}, false);
    FAIL();
  } catch (const corpus::CorpusError& e) {
    EXPECT_EQ(e.file(), (dir.path() / "b_bad").string());
    EXPECT_EQ(e.line(), 3);
  }
  EXPECT_EQ(read_file(dir.path() / "a_messy"), "go test fuzz v1\nint(0x10)\n");
}

}  // namespace
}  // namespace cfuzz::driver
