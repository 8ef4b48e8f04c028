// `cfuzz corpus ...`: the real binary, run in temporary directories.
#include <sys/stat.h>

#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "corpus_format/codec.h"
#include "libfuzzdriver/corpus/content_name.h"
#include "test/corpus_format/test_support.h"
#include "test/support/files.h"
#include "test/support/temp_dir.h"

namespace cfuzz {
namespace {

namespace fs = std::filesystem;
using corpus::testing::CommandResult;
using test::files_in;
using test::read_file;
using test::TempDir;
using test::write_file;

CommandResult cfuzz(std::vector<std::string> args, const fs::path& cwd = {}) {
  args.insert(args.begin(), CFUZZ_BINARY);
  return corpus::testing::run_command(args, cwd);
}

TEST(CorpusCommand, RawFilesSurviveBin2V1ThenV12BinByteForByte) {
  TempDir dir;
  std::mt19937_64 rng(99);
  std::string large(1 << 20, '\0');
  for (char& c : large) c = static_cast<char>(rng());
  std::string all_bytes;
  for (int b = 0; b < 256; ++b) all_bytes.push_back(static_cast<char>(b));
  const std::vector<std::pair<std::string, std::string>> raws = {
      {"empty", ""},
      {"binary", all_bytes},
      {"bad_utf8", "\xed\xa0\x80\xc0\x80\xff\xfe plain \"quoted\" \\ é ⌘"},
      {"large", large},
  };
  std::vector<std::string> inputs;
  for (const auto& [name, data] : raws) {
    write_file(dir.path() / "raw" / name, data);
    inputs.push_back((dir.path() / "raw" / name).string());
  }
  std::vector<std::string> args = {"corpus", "convert", "bin2v1"};
  args.insert(args.end(), inputs.begin(), inputs.end());
  args.insert(args.end(), {"-o", (dir.path() / "v1").string()});
  const CommandResult to_v1 = cfuzz(args);
  ASSERT_EQ(to_v1.exit_code, 0) << to_v1.err;

  // Each entry is named by the hash of its bytes and holds one []byte value.
  const auto entries = files_in(dir.path() / "v1");
  ASSERT_EQ(entries.size(), raws.size());
  for (const auto& entry : entries) {
    const std::string bytes = read_file(entry);
    EXPECT_EQ(entry.filename().string(), driver::content_name(bytes));
    EXPECT_NE(to_v1.out.find("wrote " + entry.string()), std::string::npos) << to_v1.out;
  }

  args = {"corpus", "convert", "v12bin"};
  for (const auto& e : entries) args.push_back(e.string());
  args.insert(args.end(), {"-o", (dir.path() / "back").string()});
  const CommandResult to_raw = cfuzz(args);
  ASSERT_EQ(to_raw.exit_code, 0) << to_raw.err;

  // Every raw file came back exactly once, byte for byte.
  std::vector<std::string> original, returned;
  for (const auto& r : raws) original.push_back(r.second);
  for (const auto& f : files_in(dir.path() / "back")) returned.push_back(read_file(f));
  std::sort(original.begin(), original.end());
  std::sort(returned.begin(), returned.end());
  EXPECT_TRUE(original == returned);
}

// A corpus of 10^5 files does not fit on one command line: a directory stands for its files.
TEST(CorpusCommand, DirectoriesConvertLikeTheFilesInsideThem) {
  TempDir dir;
  for (int i = 0; i < 50; ++i) write_file(dir.path() / "raw" / ("r" + std::to_string(i)), std::string(i, 'x'));
  const CommandResult to_v1 =
      cfuzz({"corpus", "convert", "bin2v1", (dir.path() / "raw").string(), "-o", (dir.path() / "v1").string()});
  ASSERT_EQ(to_v1.exit_code, 0) << to_v1.err;
  EXPECT_EQ(files_in(dir.path() / "v1").size(), 50u);
  const CommandResult to_raw =
      cfuzz({"corpus", "convert", "v12bin", (dir.path() / "v1").string(), "-o", (dir.path() / "back").string()});
  ASSERT_EQ(to_raw.exit_code, 0) << to_raw.err;
  std::vector<std::string> lengths;
  for (const auto& f : files_in(dir.path() / "back")) lengths.push_back(std::to_string(read_file(f).size()));
  EXPECT_EQ(lengths.size(), 50u);
  std::sort(lengths.begin(), lengths.end());
  EXPECT_TRUE(std::unique(lengths.begin(), lengths.end()) == lengths.end()) << "each raw file came back once";
}

TEST(CorpusCommand, Bin2V1AsStringAndRerunLeavesEntriesAlone) {
  TempDir dir;
  write_file(dir.path() / "in", "hello\n");
  const std::string out = (dir.path() / "out").string();
  const CommandResult first =
      cfuzz({"corpus", "convert", "bin2v1", "--type", "string", (dir.path() / "in").string(), "-o", out});
  ASSERT_EQ(first.exit_code, 0) << first.err;
  const std::string entry = "go test fuzz v1\nstring(\"hello\\n\")\n";
  EXPECT_EQ(read_file(fs::path(out) / driver::content_name(entry)), entry);
  const CommandResult again =
      cfuzz({"corpus", "convert", "bin2v1", "--type", "string", (dir.path() / "in").string(), "-o", out});
  EXPECT_EQ(again.exit_code, 0);
  EXPECT_EQ(again.out.rfind("unchanged ", 0), 0u) << again.out;
}

TEST(CorpusCommand, Bin2V1RejectsOtherTypes) {
  TempDir dir;
  write_file(dir.path() / "in", "x");
  const CommandResult r =
      cfuzz({"corpus", "convert", "bin2v1", "--type", "int", (dir.path() / "in").string(), "-o", dir.path().string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--type"), std::string::npos) << r.err;
}

TEST(CorpusCommand, ShowPrintsEachValueWithItsType) {
  TempDir dir;
  const fs::path f = dir.path() / "entry";
  write_file(f, "go test fuzz v1\n[]byte(\"ab\\xff\")\nint64(-3)\nfloat64(NaN)\n");
  const CommandResult r = cfuzz({"corpus", "show", f.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, f.string() +
                       ":\n"
                       "  0: []byte \"ab\\xff\" (3 bytes)\n"
                       "  1: int64 -3\n"
                       "  2: float64 NaN (bits 0x7ff8000000000001)\n");
}

TEST(CorpusCommand, ShowAndFmtRefuseAFifoInsteadOfWaitingOnIt) {
  TempDir dir;
  const fs::path fifo = dir.path() / "pipe";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  for (std::vector<std::string> args : {std::vector<std::string>{"corpus", "show", fifo.string()},
                                        std::vector<std::string>{"corpus", "fmt", "--check", fifo.string()}}) {
    const CommandResult r = cfuzz(args);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find(fifo.string() + ": not a regular file"), std::string::npos) << r.err;
  }
}

TEST(CorpusCommand, FmtCheckExitsOneNamingNonCanonicalFilesAndZeroAfterFmt) {
  TempDir dir;
  write_file(dir.path() / "good", "go test fuzz v1\nint(1)\n");
  write_file(dir.path() / "messy", "go test fuzz v1\nint(0x1)\n");
  const CommandResult check = cfuzz({"corpus", "fmt", "--check", dir.path().string()});
  EXPECT_EQ(check.exit_code, 1);
  EXPECT_EQ(check.out, (dir.path() / "messy").string() + ": not in canonical form\n");
  EXPECT_EQ(read_file(dir.path() / "messy"), "go test fuzz v1\nint(0x1)\n");

  const CommandResult fmt = cfuzz({"corpus", "fmt", dir.path().string()});
  EXPECT_EQ(fmt.exit_code, 0) << fmt.err;
  EXPECT_EQ(fmt.out, "formatted " + (dir.path() / "messy").string() + "\n");
  EXPECT_EQ(read_file(dir.path() / "messy"), "go test fuzz v1\nint(1)\n");

  const CommandResult recheck =
      cfuzz({"corpus", "fmt", "--check", (dir.path() / "good").string(), (dir.path() / "messy").string()});
  EXPECT_EQ(recheck.exit_code, 0);
  EXPECT_EQ(recheck.out, "");
}

TEST(CorpusCommand, MalformedInputExitsTwoNamingFileAndLineOnOneLine) {
  TempDir dir;
  const fs::path f = dir.path() / "bad";
  write_file(f, "go test fuzz v1\nint(1)\nint8(300)\n");
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"corpus", "show", f.string()}, std::vector<std::string>{"corpus", "fmt", f.string()},
        std::vector<std::string>{"corpus", "fmt", "--check", f.string()},
        std::vector<std::string>{"corpus", "convert", "v12bin", f.string(), "-o", (dir.path() / "o").string()}}) {
    const CommandResult r = cfuzz(args);
    EXPECT_EQ(r.exit_code, 2) << args[1];
    EXPECT_EQ(r.err, "cfuzz: corpus file " + f.string() + ": line 3: expected int8 value, got 300 (out of range)\n");
  }
}

TEST(CorpusCommand, V12BinOnATwoValueEntryExitsTwoWithAClearMessage) {
  TempDir dir;
  const fs::path f = dir.path() / "pair";
  write_file(f, "go test fuzz v1\nstring(\"a\")\nbool(true)\n");
  const CommandResult r = cfuzz({"corpus", "convert", "v12bin", f.string(), "-o", (dir.path() / "o").string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "cfuzz: corpus file " + f.string() +
                       ": v12bin needs an entry holding exactly one []byte or string value, but "
                       "it holds 2 values [string bool]\n");
}

TEST(CorpusCommand, MissingFilesAndFlagsExitTwo) {
  TempDir dir;
  const CommandResult missing = cfuzz({"corpus", "show", (dir.path() / "nope").string()});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_EQ(missing.err, "cfuzz: cannot read " + (dir.path() / "nope").string() + ": No such file or directory\n");
  write_file(dir.path() / "in", "x");
  const CommandResult no_output = cfuzz({"corpus", "convert", "bin2v1", (dir.path() / "in").string()});
  EXPECT_EQ(no_output.exit_code, 2);
  EXPECT_NE(no_output.err.find("--output"), std::string::npos) << no_output.err;
  EXPECT_EQ(cfuzz({"corpus"}).exit_code, 2);
  EXPECT_EQ(cfuzz({"corpus", "convert"}).exit_code, 2);
}

TEST(CorpusCommand, HelpWorksOnEverySubcommandAndExplainsEachFlag) {
  struct Case {
    std::vector<std::string> args;
    std::vector<std::string> mentions;
  } cases[] = {
      {{"corpus", "--help"}, {"convert", "show", "fmt"}},
      {{"corpus", "convert", "--help"}, {"bin2v1", "v12bin"}},
      {{"corpus", "convert", "bin2v1", "--help"}, {"--output", "--type", "XXH3"}},
      {{"corpus", "convert", "v12bin", "--help"}, {"--output", "exactly one"}},
      {{"corpus", "show", "--help"}, {"--full"}},
      {{"corpus", "fmt", "--help"}, {"--check", "canonical"}},
  };
  for (const auto& c : cases) {
    const CommandResult r = cfuzz(c.args);
    EXPECT_EQ(r.exit_code, 0) << c.args.back();
    for (const auto& word : c.mentions) {
      EXPECT_NE(r.out.find(word), std::string::npos) << word << " missing in:\n" << r.out;
    }
  }
}

}  // namespace
}  // namespace cfuzz
