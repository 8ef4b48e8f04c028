// `cfuzz cover` end to end: the example parser fuzzed briefly, its corpus reported by
// source line, checked against llvm-cov run by hand on a source-coverage build of the
// same code replaying the same corpus.
#include <cmath>
#include <map>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "libfuzzdriver/util/llvm_tools.h"
#include "test/support/test_support.h"

namespace cfuzz::test {
namespace {

namespace fs = std::filesystem;

// Lines holding code, each reached or not, per file name (not path: the two builds agree
// on names).
using LineMap = std::map<std::string, std::map<int, bool>>;

LineMap lines_of_report(const nlohmann::json& report) {
  LineMap out;
  for (const auto& f : report["files"]) {
    auto& lines = out[fs::path(f["path"].get<std::string>()).filename().string()];
    for (int n : f["covered_lines"]) lines[n] = true;
    for (int n : f["uncovered_lines"]) lines[n] = false;
  }
  return out;
}

LineMap lines_of_lcov(const std::string& lcov) {
  LineMap out;
  std::istringstream in(lcov);
  std::map<int, bool>* current = nullptr;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("SF:", 0) == 0) current = &out[fs::path(line.substr(3)).filename().string()];
    if (line.rfind("DA:", 0) == 0 && current != nullptr) {
      std::size_t comma = line.find(',');
      bool& reached = (*current)[std::stoi(line.substr(3, comma - 3))];
      reached = reached || std::stoull(line.substr(comma + 1)) > 0;
    }
  }
  return out;
}

double percent(const std::map<int, bool>& lines) {
  std::size_t covered = 0;
  for (const auto& [n, reached] : lines) covered += reached ? 1 : 0;
  return lines.empty() ? 0 : 100.0 * static_cast<double>(covered) / static_cast<double>(lines.size());
}

// Line by line, where both see code, the same verdict on at least `min_percent` of the
// lines; and, given `max_points`, the parser's file within that many points of llvm-cov's
// figure.
void expect_agreement(LineMap ours, LineMap theirs, const std::string& text, std::size_t min_percent,
                      double max_points = 0) {
  ASSERT_TRUE(ours.count("config.cc") != 0) << text;
  ASSERT_TRUE(theirs.count("config.cc") != 0);
  double mine = percent(ours["config.cc"]), reference = percent(theirs["config.cc"]);
  if (max_points > 0) {
    EXPECT_LT(std::abs(mine - reference), max_points) << "cfuzz cover " << mine << "%, llvm-cov " << reference << "%";
  }
  EXPECT_GT(reference, 50.0) << "the run reached little of the parser: the comparison would say nothing";
  // Line by line, where both see code, they agree on nearly every line of every file.
  std::size_t both = 0, agree = 0;
  std::string differ;
  for (const auto& [file, lines] : ours) {
    for (const auto& [n, reached] : lines) {
      auto it = theirs[file].find(n);
      if (it == theirs[file].end()) continue;
      ++both;
      if (it->second == reached) {
        ++agree;
      } else {
        differ += " " + file + ":" + std::to_string(n) + (reached ? " (reached)" : " (not reached)");
      }
    }
  }
  EXPECT_GT(both, 60u);
  EXPECT_GE(agree * 100, both * min_percent)
      << agree << " of " << both << " lines agree; cfuzz cover differs on" << differ;
}

class Cover : public ::testing::Test {
 protected:
  void SetUp() override {
    // A copy of the example's testdata: a failure found while fuzzing must not be written
    // into the source tree.
    fs::copy(source_dir() + "/examples/parser/testdata", dir / "testdata", fs::copy_options::recursive);
  }

  CommandResult fuzz(const std::string& t, const std::string& fuzztime) {
    return run({cfuzz(), "run", target(t), "--cachedir", (dir / "cache").string(), "--srcdir", dir.str(), "--fuzztime",
                fuzztime, "--parallel", "1", "--seed", "1"},
               {.cwd = dir.str()});
  }

  // The example parser has a planted bug: inputs that read past their end, whose path
  // then depends on what the memory after them held (earlier inputs), so two replays need
  // not agree on them. The corpus keeps only what passes under AddressSanitizer (`corpus
  // minimize` leaves failing inputs out), so that every replay takes the same paths.
  void keep_inputs_that_pass_under_asan() {
    fs::path cache = dir / "cache/FuzzParseConfig";
    auto r = run({cfuzz(), "corpus", "minimize", "--target", target("cover_parser_asan"), cache.string(), "-o",
                  (dir / "passing").string()},
                 {.cwd = dir.str()});
    ASSERT_EQ(r.exit_code, 0) << r.all();
    fs::remove_all(cache);
    fs::rename(dir / "passing", cache);
  }

  CommandResult cover(const std::string& t, std::vector<std::string> extra = {}) {
    std::vector<std::string> argv{cfuzz(),    "cover",  target(t), "--cachedir", (dir / "cache").string(),
                                  "--srcdir", dir.str()};
    argv.insert(argv.end(), extra.begin(), extra.end());
    return run(argv, {.cwd = dir.str()});
  }

  // llvm-cov's own account: the source-coverage build runs every corpus file as a seed
  // (cache entries copied into a testdata tree of their own), then llvm-profdata and
  // llvm-cov export it.
  LineMap llvm_cov_lines() {
    fs::path seeds = dir / "replay/testdata/fuzz/FuzzParseConfig";
    fs::create_directories(seeds);
    for (const auto& from : {dir / "testdata/fuzz/FuzzParseConfig", dir / "cache/FuzzParseConfig"}) {
      for (const auto& f : files_in(from)) fs::copy_file(f, seeds / f.filename(), fs::copy_options::skip_existing);
    }
    std::string profile = (dir / "replay/seeds.profraw").string();
    auto r = run({target("cover_parser_profiled"), "--srcdir", (dir / "replay").string()},
                 {.cwd = dir.str(), .env = {"LLVM_PROFILE_FILE=" + profile}});
    EXPECT_TRUE(fs::exists(profile)) << r.all();
    std::string merged = (dir / "replay/seeds.profdata").string();
    driver::run_llvm_tool("llvm-profdata", {"merge", "-sparse", "-o", merged, profile});
    return lines_of_lcov(driver::run_llvm_tool(
        "llvm-cov", {"export", "--format=lcov", "--instr-profile=" + merged, target("cover_parser_profiled")}));
  }

  TempDir dir;
};

TEST_F(Cover, ReportsTheLinesTheCorpusReachesAsLlvmCovDoes) {
  auto fuzzing = fuzz("cover_parser", "5s");
  ASSERT_TRUE(fuzzing.exit_code == 0 || fuzzing.exit_code == 1) << fuzzing.all();
  keep_inputs_that_pass_under_asan();
  LineMap theirs = llvm_cov_lines();
  for (std::string t : {"cover_parser", "cover_parser_asan"}) {
    SCOPED_TRACE(t);
    auto r = cover(t, {"--json"});
    ASSERT_EQ(r.exit_code, 0) << r.all();
    auto report = nlohmann::json::parse(r.out);
    EXPECT_EQ(report["method"], "sancov");
    EXPECT_EQ(report["test"], "FuzzParseConfig");
    EXPECT_GT(report["inputs"].get<int>(), 10) << "the seeds, testdata and the cache";
    LineMap ours = lines_of_report(report);
    if (t == "cover_parser") {
      expect_agreement(ours, theirs, r.out, 95, 5.0);
    } else {
      // The test body must be seen to have run, through ASan's checks and UBSan's function
      // prologue.
      expect_agreement(ours, theirs, r.out, 90);
      for (int line : {12, 13, 14}) EXPECT_TRUE(ours["fuzz_config.cc"][line]) << "fuzz_config.cc:" << line;
    }
  }

  // Text output: one line per file and a total.
  auto text = cover("cover_parser");
  ASSERT_EQ(text.exit_code, 0) << text.all();
  EXPECT_NE(text.out.find("config.cc"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("total"), std::string::npos) << text.out;
}

TEST_F(Cover, UsesSourceBasedCoverageWhenTheTargetWasBuiltWithIt) {
  auto fuzzing = fuzz("cover_parser", "2s");
  ASSERT_TRUE(fuzzing.exit_code == 0 || fuzzing.exit_code == 1) << fuzzing.all();
  keep_inputs_that_pass_under_asan();
  auto r = cover("cover_parser_profiled", {"--json"});
  ASSERT_EQ(r.exit_code, 0) << r.all();
  auto report = nlohmann::json::parse(r.out);
  EXPECT_EQ(report["method"], "llvm-cov");
  LineMap ours = lines_of_report(report);
  LineMap theirs = llvm_cov_lines();
  ASSERT_FALSE(ours["config.cc"].empty()) << r.out;
  std::string differ;
  for (const auto& [n, reached] : theirs["config.cc"]) {
    auto it = ours["config.cc"].find(n);
    if (it == ours["config.cc"].end()) {
      differ += " " + std::to_string(n) + " (missing)";
    } else if (it->second != reached) {
      differ += " " + std::to_string(n) + (reached ? " (llvm-cov: reached)" : " (llvm-cov: not reached)");
    }
  }
  EXPECT_EQ(ours["config.cc"].size(), theirs["config.cc"].size());
  EXPECT_EQ(differ, "") << "config.cc lines where cover differs from llvm-cov by hand";
  EXPECT_FALSE(fs::exists(dir / "default.profraw")) << "profiles belong in cover's own directory";
}

TEST_F(Cover, RunRecordsItsFiguresBesideTheCacheAndThePagePlotsThem) {
  for (int i = 0; i < 2; ++i) {
    auto fuzzing = fuzz("cover_parser", "4s");
    ASSERT_TRUE(fuzzing.exit_code == 0 || fuzzing.exit_code == 1) << fuzzing.all();
  }
  fs::path stats = dir / "cache/FuzzParseConfig.stats.jsonl";
  ASSERT_TRUE(fs::exists(stats));
  std::istringstream lines(read_file(stats));
  std::map<std::string, int> records_per_run;
  std::uint64_t last_execs = 0;
  for (std::string line; std::getline(lines, line);) {
    auto j = nlohmann::json::parse(line);
    std::string run_id = j["run"];
    if (records_per_run[run_id]++ == 0) last_execs = 0;
    EXPECT_GE(j["execs"].get<std::uint64_t>(), last_execs) << line;
    last_execs = j["execs"];
    EXPECT_GT(j["time"].get<double>(), 1.7e9) << line;
  }
  EXPECT_EQ(records_per_run.size(), 2u) << read_file(stats);
  for (const auto& [run_id, n] : records_per_run) EXPECT_GE(n, 2) << run_id << ": its start, every 3 s, its end";
  EXPECT_GT(last_execs, 1000u);

  auto r = cover("cover_parser", {"-o", (dir / "report").string()});
  ASSERT_EQ(r.exit_code, 0) << r.all();
  std::string page = read_file(dir / "report/index.html");
  EXPECT_NE(page.find("data-testid=\"coverage-plot\""), std::string::npos);
  EXPECT_NE(page.find("<polyline"), std::string::npos);
  EXPECT_NE(page.find("data-testid=\"source-view\""), std::string::npos);
  EXPECT_NE(page.find("parse"), std::string::npos);
}

TEST_F(Cover, ATargetWithoutDebugInfoIsAnErrorNamingTheFlag) {
  std::string bare = (dir / "no_debug_info").string();
  auto built = run({bin_dir() + "/cfuzz-clang++", "-std=c++20", "-O1", source_dir() + "/examples/parser/fuzz_config.cc",
                    source_dir() + "/examples/parser/config.cc", "-o", bare});
  ASSERT_EQ(built.exit_code, 0) << built.all();
  auto r =
      run({cfuzz(), "cover", bare, "--cachedir", (dir / "cache").string(), "--srcdir", dir.str()}, {.cwd = dir.str()});
  EXPECT_EQ(r.exit_code, 2) << r.all();
  EXPECT_NE(r.err.find("-g"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << "one line: " << r.err;
}

TEST_F(Cover, ATargetThatIsNotInstrumentedIsAnError) {
  auto r = run({cfuzz(), "cover", target("not_instrumented")}, {.cwd = dir.str()});
  EXPECT_EQ(r.exit_code, 2) << r.all();
  EXPECT_NE(r.err.find("not instrumented"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace cfuzz::test
