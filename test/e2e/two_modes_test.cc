// The two front ends search alike: `cfuzz run` (the coordinator, its workers over RPC) and
// the libFuzzer front end (the engine in the target's own process) drive one fuzz session
// (core/fuzz_session.h). Run with one seed and one budget on one target, they must admit
// the same kinds of entries: all the coverage there is, each short entry shrunk to what
// its new coverage needs, each long one kept as found, and about as many of them.
#include <algorithm>
#include <regex>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "corpus_format/codec.h"
#include "test/support/test_support.h"

namespace cfuzz::test {
namespace {

namespace fs = std::filesystem;

constexpr const char* kSeed = "3";
constexpr const char* kExecs = "300000";

// The entries of `cfuzz run`'s cache, as the bytes of their one []byte value.
std::vector<std::string> cache_units(const fs::path& cache) {
  std::vector<std::string> units;
  for (const auto& f : fs::recursive_directory_iterator(cache)) {
    if (!f.is_regular_file() || f.path().has_extension()) continue;  // the .baseline and .stats.jsonl files
    corpus::Entry e = corpus::decode(read_file(f.path()), f.path().string());
    const auto* bytes = std::get_if<corpus::Bytes>(&e.at(0));
    if (bytes != nullptr) units.emplace_back(bytes->begin(), bytes->end());
  }
  return units;
}

std::vector<std::string> dir_units(const fs::path& dir) {
  std::vector<std::string> units;
  for (const auto& f : files_in(dir)) units.push_back(read_file(f));
  return units;
}

// The edges a directory of units reaches, as the libFuzzer front end counts them when it
// loads the directory ("INITED cov: N").
int edges_of(const fs::path& dir) {
  auto r = run({target("ladder"), "-runs=0", dir.string()});
  std::smatch m;
  static const std::regex kInited(R"(INITED cov: (\d+))");
  if (!std::regex_search(r.err, m, kInited)) {
    ADD_FAILURE() << r.err;
    return -1;
  }
  return std::stoi(m[1]);
}

std::size_t longest(const std::vector<std::string>& units) {
  std::size_t n = 0;
  for (const auto& u : units) n = std::max(n, u.size());
  return n;
}

bool has_top_rung(const std::vector<std::string>& units) {
  return std::any_of(units.begin(), units.end(), [](const std::string& u) { return u.starts_with("LADDER"); });
}

TEST(TwoModes, BothFrontEndsAdmitTheSameKindsOfEntriesFromOneSeed) {
  TempDir dir;
  // cfuzz run: one worker, a fixed seed and a budget of executions (count-bounded calls).
  auto coordinated = run({cfuzz(), "run", target("ladder"), "--cachedir", (dir / "cache").string(), "--parallel", "1",
                          "--seed", kSeed, "--fuzztime", std::string(kExecs) + "x"},
                         {.cwd = dir.str()});
  ASSERT_EQ(coordinated.exit_code, 0) << coordinated.all();
  // The libFuzzer front end: the same seed and budget, its new units into a directory.
  fs::create_directories(dir / "units");
  auto in_process = run({target("ladder"), std::string("-seed=") + kSeed, std::string("-runs=") + kExecs,
                         "-verbosity=0", (dir / "units").string()},
                        {.cwd = dir.str()});
  ASSERT_EQ(in_process.exit_code, 0) << in_process.all();

  std::vector<std::string> from_run = cache_units(dir / "cache"), from_front_end = dir_units(dir / "units");
  fs::create_directories(dir / "run-units");
  for (std::size_t i = 0; i < from_run.size(); ++i) write_file(dir / "run-units" / std::to_string(i), from_run[i]);
  SCOPED_TRACE(coordinated.all() + in_process.all());

  // All the coverage there is: both climbed the whole ladder, to the same edges.
  EXPECT_TRUE(has_top_rung(from_run));
  EXPECT_TRUE(has_top_rung(from_front_end));
  EXPECT_EQ(edges_of(dir / "run-units"), edges_of(dir / "units"));
  // Each entry shrunk before it was admitted: no longer than the ladder needs.
  EXPECT_LE(longest(from_run), 6u);
  EXPECT_LE(longest(from_front_end), 6u);
  // About as many entries: one a rung, and a few for how the checks' lengths fail.
  EXPECT_GE(from_run.size(), 6u);
  EXPECT_GE(from_front_end.size(), 6u);
  EXPECT_LE(std::max(from_run.size(), from_front_end.size()), 2 * std::min(from_run.size(), from_front_end.size()));
}

TEST(TwoModes, BothFrontEndsKeepLongNewInputsAsFound) {
  // From a seed of 100 bytes (the first rung, then filler), the rungs above are found in
  // inputs mutated from it: 64 bytes or more and mutated from a file as long, they join as
  // found (core::kLongestShrunkInput), where shrinking would have cut them to the ladder's
  // 6 bytes, as from nothing above.
  TempDir dir;
  const std::string seed = "L" + std::string(99, '.');
  write_file(dir / "cache" / "LLVMFuzzerTestOneInput" / "seed", "go test fuzz v1\n[]byte(\"" + seed + "\")\n");
  auto coordinated = run({cfuzz(), "run", target("ladder"), "--cachedir", (dir / "cache").string(), "--parallel", "1",
                          "--seed", kSeed, "--fuzztime", std::string(kExecs) + "x"},
                         {.cwd = dir.str()});
  ASSERT_EQ(coordinated.exit_code, 0) << coordinated.all();
  fs::create_directories(dir / "units");
  write_file(dir / "units" / "seed", seed);
  auto in_process = run({target("ladder"), std::string("-seed=") + kSeed, std::string("-runs=") + kExecs,
                         "-verbosity=0", (dir / "units").string()},
                        {.cwd = dir.str()});
  ASSERT_EQ(in_process.exit_code, 0) << in_process.all();
  SCOPED_TRACE(coordinated.all() + in_process.all());

  auto long_top_rung = [](const std::vector<std::string>& units) {
    return std::any_of(units.begin(), units.end(),
                       [](const std::string& u) { return u.starts_with("LADDER") && u.size() >= 64; });
  };
  EXPECT_TRUE(long_top_rung(cache_units(dir / "cache")));
  EXPECT_TRUE(long_top_rung(dir_units(dir / "units")));
}

}  // namespace
}  // namespace cfuzz::test
