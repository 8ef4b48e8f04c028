// `cfuzz run --since REV`: a library with three fuzz tests in a git repository, a commit that
// plants a bug in a function only one of them reaches; the run fuzzes that one only, finds
// the bug, and says how many changed lines it reached. A --since that git cannot resolve is a
// one-line usage error.
#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "libfuzzdriver/util/process.h"
#include "test/support/test_support.h"

namespace cfuzz::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// lib.cc with `parse_header` for its function of that name: the change is to it only.
std::string lib_cc(const char* parse_header) {
  std::string head = R"(#include "lib.h"

#include <cstdlib>

int checksum(const std::string& s) {
  int sum = 0;
  for (char c : s) sum = sum * 31 + c;
  return sum;
}

)";
  std::string tail = R"(
int count_words(const std::string& s) {
  int n = 0;
  bool in_word = false;
  for (char c : s) {
    bool space = c == ' ';
    if (!space && !in_word) ++n;
    in_word = !space;
  }
  return n;
}
)";
  return head + parse_header + tail;
}

const char* kParseHeaderBefore = R"(int parse_header(const std::string& s) {
  if (s.size() < 4) return -1;
  return s[0] == 'H' ? 1 : 0;
}
)";

// The change: parse_header reads a version, and crashes on one (the planted bug).
const char* kParseHeaderAfter = R"(int parse_header(const std::string& s) {
  if (s.size() < 4) return -1;
  if (s[0] == 'H' && s[1] == 'D') {
    if (s[2] == 'R' && s[3] == '9') std::abort();
    return 2;
  }
  return s[0] == 'H' ? 1 : 0;
}
)";

const char* kHeader = R"(#pragma once
#include <string>
int checksum(const std::string& s);
int parse_header(const std::string& s);
int count_words(const std::string& s);
)";

const char* kFuzzTests = R"(#include <cfuzz/cfuzz.h>

#include "lib.h"

CFUZZ_TEST(FuzzChecksum, f) {
  f.add(std::string("abc"));
  f.fuzz([](cfuzz::T&, const std::string& s) { checksum(s); });
}

CFUZZ_TEST(FuzzHeader, f) {
  f.add(std::string("Hxyz"));
  f.fuzz([](cfuzz::T&, const std::string& s) { parse_header(s); });
}

CFUZZ_TEST(FuzzWords, f) {
  f.add(std::string("two words"));
  f.fuzz([](cfuzz::T&, const std::string& s) { count_words(s); });
}
)";

class Since : public ::testing::Test {
 protected:
  void SetUp() override {
    repo = dir / "repo";
    fs::create_directories(repo);
    write_file(repo / "lib.h", kHeader);
    write_file(repo / "lib.cc", lib_cc(kParseHeaderBefore));
    write_file(repo / "fuzz.cc", kFuzzTests);
    write_file(repo / ".gitignore", "fuzz\ncache/\ntestdata/\n");
    git({"init", "-q"});
    git({"add", "."});
    git({"commit", "-q", "-m", "library"});
    write_file(repo / "lib.cc", lib_cc(kParseHeaderAfter));
    git({"commit", "-q", "-am", "parse_header reads a version"});
    auto built = run({bin_dir() + "/cfuzz-clang++", "-std=c++20", "-g", "-O1", (repo / "fuzz.cc").string(),
                      (repo / "lib.cc").string(), "-o", (repo / "fuzz").string()});
    ASSERT_EQ(built.exit_code, 0) << built.all();
  }

  void git(std::vector<std::string> args) {
    args.insert(args.begin(), {driver::find_in_path("git"), "-c", "user.name=t", "-c", "user.email=t@example.org"});
    auto r = run(args, {.cwd = repo.string()});
    ASSERT_EQ(r.exit_code, 0) << r.all();
  }

  TempDir dir;
  fs::path repo;
};

TEST_F(Since, OnlyTheTestReachingTheChangedFunctionIsFuzzedAndFindsItsBug) {
  auto r = run({cfuzz(), "run", "./fuzz", "--since", "HEAD~1", "--fuzztime", "30s", "--parallel", "2", "--json",
                "--cachedir", (repo / "cache").string()},
               {.cwd = repo.string()});
  ASSERT_EQ(r.exit_code, 1) << r.all();
  std::map<std::string, json> results;
  for (const auto& e : json_lines(r.out)) {
    if (e.value("event", "") == "result") results[e["test"]] = e;
  }
  ASSERT_EQ(results.size(), 3u) << r.out;
  EXPECT_EQ(results["FuzzHeader"]["result"], "fail") << r.all();
  EXPECT_TRUE(results["FuzzHeader"]["reaches_change"].get<bool>()) << r.out;
  EXPECT_TRUE(results["FuzzHeader"]["fuzzed"].get<bool>()) << r.out;
  // The others reach no changed function: their seeds ran, and they got no fuzzing time.
  for (const std::string test : {"FuzzChecksum", "FuzzWords"}) {
    EXPECT_EQ(results[test]["result"], "pass") << test << "\n" << r.all();
    EXPECT_FALSE(results[test]["reaches_change"].get<bool>()) << test << "\n" << r.out;
    EXPECT_FALSE(results[test]["fuzzed"].get<bool>()) << test << "\n" << r.out;
    EXPECT_EQ(results[test]["execs"], 0) << test << "\n" << r.out;
  }
  auto saved = files_in(repo / "testdata/fuzz/FuzzHeader");
  ASSERT_EQ(saved.size(), 1u) << r.all();
  EXPECT_NE(read_file(saved[0]).find("HDR9"), std::string::npos) << read_file(saved[0]);

  // The change's lines, and the run reached them (the crash is on one).
  json done = json_lines(r.out).back();
  ASSERT_EQ(done["event"], "done") << r.out;
  EXPECT_EQ(done["since"], "HEAD~1");
  EXPECT_GE(done["changed_lines"].get<int>(), 4) << done.dump();
  EXPECT_GE(done["changed_lines_with_code"].get<int>(), 2) << done.dump();
  EXPECT_EQ(done["changed_lines_reached"], done["changed_lines_with_code"]) << done.dump();
  auto functions = done["changed_functions"].get<std::vector<std::string>>();
  EXPECT_TRUE(std::any_of(functions.begin(), functions.end(), [](const std::string& f) {
    return f.find("parse_header") != std::string::npos;
  })) << done.dump();
  EXPECT_GE(results["FuzzHeader"]["changed_lines_reached"].get<int>(), 2) << r.out;
}

TEST_F(Since, TheTextSummarySaysHowManyChangedLinesWereReached) {
  auto r = run({cfuzz(), "run", "./fuzz", "--since", "HEAD~1", "--fuzztime", "30s", "--parallel", "2", "--cachedir",
                (repo / "cache").string()},
               {.cwd = repo.string()});
  ASSERT_EQ(r.exit_code, 1) << r.all();
  EXPECT_NE(r.out.find("--- changed since HEAD~1: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("FuzzWords (./fuzz): not fuzzed: reaches no changed function"), std::string::npos) << r.out;
  std::string header = line_after(r.out, "FAIL  FuzzHeader (./fuzz): ");
  EXPECT_NE(header.find("changed lines reached: "), std::string::npos) << r.out;
}

TEST_F(Since, ARevisionGitCannotResolveIsAOneLineErrorNamingTheFlag) {
  auto r = run({cfuzz(), "run", "./fuzz", "--since", "no-such-branch", "--fuzztime", "5s", "--cachedir",
                (repo / "cache").string()},
               {.cwd = repo.string()});
  EXPECT_EQ(r.exit_code, 2) << r.all();
  EXPECT_NE(r.err.find("--since no-such-branch"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("expected a revision"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << "one line: " << r.err;
}

TEST_F(Since, OutsideAGitWorkTreeIsAOneLineError) {
  fs::path elsewhere = dir / "not_a_repo";
  fs::create_directories(elsewhere);
  auto r = run({cfuzz(), "run", (repo / "fuzz").string(), "--since", "HEAD~1", "--fuzztime", "5s", "--cachedir",
                (dir / "cache").string()},
               {.cwd = elsewhere.string(), .env = {"GIT_CEILING_DIRECTORIES=" + dir.str()}});
  EXPECT_EQ(r.exit_code, 2) << r.all();
  EXPECT_NE(r.err.find("--since HEAD~1"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("not in a git work tree"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << "one line: " << r.err;
}

}  // namespace
}  // namespace cfuzz::test
