// `cfuzz minimize` and `cfuzz corpus minimize` on real targets.
#include <random>
#include <set>
#include <sstream>

#include <gtest/gtest.h>

#include "test/support/test_support.h"

namespace cfuzz::test {
namespace {

namespace fs = std::filesystem;

// A v1 []byte literal of arbitrary bytes.
std::string bytes_literal(const std::string& bytes) {
  std::string out = "[]byte(\"";
  char buf[8];
  for (unsigned char c : bytes) {
    std::snprintf(buf, sizeof buf, "\\x%02x", c);
    out += buf;
  }
  return out + "\")";
}

std::string random_bytes(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::string s(n, '\0');
  for (auto& c : s) c = static_cast<char>(rng() % 256);
  return s;
}

// 5000 random bytes (without the sequence by chance) with "BUG!" at `at`.
std::string input_with_bug(std::size_t at) {
  std::string s = random_bytes(5000, 42);
  for (std::size_t i = 0; i + 4 <= s.size(); ++i) {
    if (s.compare(i, 4, "BUG!") == 0) s[i] = 'x';
  }
  s.replace(at, 4, "BUG!");
  return s;
}

class Minimize : public ::testing::Test {
 protected:
  CommandResult minimize(std::vector<std::string> args, std::vector<std::string> env = {}) {
    std::vector<std::string> argv{cfuzz(), "minimize"};
    argv.insert(argv.end(), args.begin(), args.end());
    auto r = run(argv, {.cwd = dir.str(), .env = std::move(env)});
    EXPECT_TRUE(processes_running(target("minimize_cases")).empty());
    return r;
  }
  TempDir dir;
};

TEST_F(Minimize, FailingInputOf5000BytesShrinksToTheBytesThatMatter) {
  for (std::string kind : {"fatal", "segv"}) {
    write_file(dir / "input", "go test fuzz v1\n" + bytes_literal(input_with_bug(2500)) + "\n");
    auto r = minimize({(dir / "input").string(), "--target", target("minimize_cases"), "--fuzz", "FuzzBadSequence"},
                      {"CFUZZ_TEST_FAILURE=" + kind});
    ASSERT_EQ(r.exit_code, 0) << kind << r.all();
    EXPECT_EQ(read_file(dir / "input.min"), "go test fuzz v1\n[]byte(\"BUG!\")\n") << kind << r.out;
    EXPECT_NE(r.out.find("5000 -> 4 bytes"), std::string::npos) << r.out;
    // Still the same failure: the minimized file fails the target the same way.
    fs::copy_file(
        dir / "input.min", dir / "testdata/fuzz/FuzzBadSequence/min",
        (fs::create_directories(dir / "testdata/fuzz/FuzzBadSequence"), fs::copy_options::overwrite_existing));
    auto rerun = run({target("minimize_cases"), "--run", "FuzzBadSequence/min"},
                     {.cwd = dir.str(), .env = {"CFUZZ_TEST_FAILURE=" + kind}});
    EXPECT_NE(rerun.exit_code, 0);
    EXPECT_NE(rerun.all().find(kind == "segv" ? "SIGSEGV" : "BUG! at offset 0"), std::string::npos) << rerun.all();
    fs::remove_all(dir / "testdata");
  }
}

TEST_F(Minimize, TimingOutInputShrinksAndStillTimesOut) {
  std::string input = random_bytes(300, 7);
  input.replace(20, 4, "BUG!");
  write_file(dir / "hang", "go test fuzz v1\n" + bytes_literal(input) + "\n");
  auto r = minimize({(dir / "hang").string(), "--target", target("minimize_cases"), "--fuzz", "FuzzBadSequence",
                     "--timeout", "300ms", "-o", (dir / "hang.out").string()},
                    {"CFUZZ_TEST_FAILURE=hang"});
  ASSERT_EQ(r.exit_code, 0) << r.all();
  EXPECT_NE(r.out.find("an input ran for more than 300ms"), std::string::npos) << r.out;
  EXPECT_EQ(read_file(dir / "hang.out"), "go test fuzz v1\n[]byte(\"BUG!\")\n") << r.out;
}

TEST_F(Minimize, MultiValueEntryShrinksInEveryValue) {
  write_file(
      dir / "multi",
      "go test fuzz v1\nstring(\"zzzzzzzzzzzzabzzzzzzzzzzzz\")\n[]byte(\"\\x01\\x02\\x03\\xff\\x04\\x05\\x06\")\n"
      "int64(123456)\nfloat64(-98765.5)\n");
  auto r = minimize({(dir / "multi").string(), "--target", target("minimize_cases"), "--fuzz", "FuzzMulti"});
  ASSERT_EQ(r.exit_code, 0) << r.all();
  std::string out = read_file(dir / "multi.min");
  std::istringstream in(out);
  std::string header, s, b, n, x;
  std::getline(in, header);
  std::getline(in, s);
  std::getline(in, b);
  std::getline(in, n);
  std::getline(in, x);
  EXPECT_EQ(s, "string(\"ab\")") << out;
  EXPECT_EQ(b, "[]byte(\"\\xff\")") << out;
  long count = std::stol(n.substr(6));
  EXPECT_GT(count, 1000);
  EXPECT_LT(count, 2100) << out;
  double ratio = std::stod(x.substr(8));
  EXPECT_LT(ratio, -5);
  EXPECT_GT(ratio, -12) << out;
}

TEST_F(Minimize, InputThatDoesNotFailIsRefusedWithExitOne) {
  write_file(dir / "fine", "go test fuzz v1\n[]byte(\"all good\")\n");
  auto r = minimize({(dir / "fine").string(), "--target", target("minimize_cases"), "--fuzz", "FuzzBadSequence"});
  EXPECT_EQ(r.exit_code, 1) << r.all();
  EXPECT_NE(r.out.find("does not fail"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(dir / "fine.min"));
}

TEST_F(Minimize, RawCrashFileOfALibFuzzerHarness) {
  write_file(dir / "crash-123", "LEN:Z!" + std::string(200, 'q'));
  auto r = minimize({(dir / "crash-123").string(), "--raw", "--target", target("libfuzzer_harness")});
  ASSERT_EQ(r.exit_code, 0) << r.all();
  EXPECT_NE(r.out.find("AddressSanitizer: stack-buffer-overflow"), std::string::npos) << r.out;
  std::string out = read_file(dir / "crash-123.min");
  EXPECT_LT(out.size(), 20u) << out;
  EXPECT_EQ(out.substr(0, 6), "LEN:Z!");
}

TEST_F(Minimize, UsageErrorsExitTwo) {
  write_file(dir / "x", "go test fuzz v1\n[]byte(\"x\")\n");
  EXPECT_EQ(minimize({(dir / "x").string()}).exit_code, 2);
  auto wrong = minimize({(dir / "x").string(), "--target", target("minimize_cases"), "--fuzz", "FuzzMulti"});
  EXPECT_EQ(wrong.exit_code, 2);
  EXPECT_NE(wrong.err.find("wrong number of values in corpus entry: 1, want 4"), std::string::npos) << wrong.err;
}

// Features kept, as `corpus minimize` reports them.
std::string features_of(const CommandResult& r) { return line_after(r.out, "keeping all "); }

TEST(CorpusMinimize, RedundantCorpusKeepsFullCoverageWithFarFewerEntries) {
  TempDir dir;
  // 300 entries, most redundant: prefixes of the nested word with random tails, and noise.
  std::mt19937 rng(5);
  std::string word = "cfuzze";
  for (int i = 0; i < 300; ++i) {
    std::string s = word.substr(0, rng() % (word.size() + 1)) + random_bytes(rng() % 20, static_cast<unsigned>(i));
    write_file(dir / "in" / ("e" + std::to_string(i)), "go test fuzz v1\n" + bytes_literal(s) + "\n");
  }
  write_file(dir / "in" / "crasher", "go test fuzz v1\n[]byte(\"cfuzzer\")\n");
  write_file(dir / "in" / "junk", "not a corpus file\n");
  auto r = run({cfuzz(), "corpus", "minimize", (dir / "in").string(), "--target", target("nested_word"), "-o",
                (dir / "out").string()});
  ASSERT_EQ(r.exit_code, 0) << r.all();
  EXPECT_NE(r.out.find("leaving out " + (dir / "in/crasher").string()), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("skipping"), std::string::npos) << r.out;
  auto kept = files_in(dir / "out");
  EXPECT_GT(kept.size(), 0u);
  EXPECT_LE(kept.size(), 12u) << r.out;
  // Re-running the distilled corpus finds every feature of the original.
  auto again = run({cfuzz(), "corpus", "minimize", (dir / "out").string(), "--target", target("nested_word"), "-o",
                    (dir / "out2").string()});
  ASSERT_EQ(again.exit_code, 0) << again.all();
  EXPECT_EQ(features_of(again), features_of(r)) << r.out << again.out;
  EXPECT_EQ(files_in(dir / "out2").size(), kept.size());
}

// libFuzzer's stack-depth feature: two inputs with the same edges and hit counts, one
// taking the stack 12 KiB deeper, are both kept; two of the same depth are one.
TEST(CorpusMinimize, AnInputThatOnlyGoesDeeperIsKept) {
  TempDir dir;
  write_file(dir / "in/shallow", "go test fuzz v1\n[]byte(\"\\x01\")\n");
  write_file(dir / "in/shallow_too", "go test fuzz v1\n[]byte(\"\\x01\\x01\")\n");
  write_file(dir / "in/deep", "go test fuzz v1\n[]byte(\"\\xc8\")\n");
  auto r = run({cfuzz(), "corpus", "minimize", (dir / "in").string(), "--target", target("stack_depth"), "-o",
                (dir / "out").string()});
  ASSERT_EQ(r.exit_code, 0) << r.all();
  std::set<std::string> kept;
  for (const auto& f : files_in(dir / "out")) kept.insert(read_file(f));
  EXPECT_EQ(kept.size(), 2u) << r.out;
  EXPECT_TRUE(kept.count("go test fuzz v1\n[]byte(\"\\xc8\")\n")) << r.out;
}

}  // namespace
}  // namespace cfuzz::test
