// Typed fuzz tests over containers, structs, optional and maps (test/targets/typed_values.cc),
// fuzzed by the real cfuzz: each planted bug is found in every seed, its reproducer is a
// go test fuzz v1 file that fails again, and Go 1.19's own loader reads every file cfuzz
// wrote for these tests.
#include <unistd.h>

#include <gtest/gtest.h>

#include "corpus_format/codec.h"
#include "test/support/test_support.h"

namespace cfuzz::test {
namespace {

namespace fs = std::filesystem;

CommandResult fuzz(const TempDir& dir, const std::string& test, int seed, const std::string& fuzztime) {
  return run({cfuzz(), "run", target("typed_values"), "--fuzz", "^" + test + "$", "--cachedir",
              (dir / "cache").string(), "--parallel", "1", "--seed", std::to_string(seed), "--fuzztime", fuzztime},
             {.cwd = dir.str()});
}

class PlantedBug : public ::testing::TestWithParam<const char*> {};

TEST_P(PlantedBug, IsFoundInEverySeedAndItsReproducerFailsAgain) {
  const std::string test = GetParam();
  for (int seed = 1; seed <= 3; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    TempDir dir;
    auto r = fuzz(dir, test, seed, "120s");
    ASSERT_EQ(r.exit_code, 1) << r.all();
    EXPECT_NE(r.out.find("planted bug"), std::string::npos) << r.all();
    auto saved = files_in(dir / ("testdata/fuzz/" + test));
    ASSERT_EQ(saved.size(), 1u) << r.all();
    // A v1 file of []byte values, one per parameter.
    auto entry = corpus::decode(read_file(saved[0]));
    ASSERT_FALSE(entry.empty());
    if (test == "FuzzVectorInOrder") {
      // Minimized by its structure: exactly the three values, canonically encoded.
      EXPECT_EQ(read_file(saved[0]),
                "go test fuzz v1\n[]byte(\"\\x03\\x00\\x00\\x00CB\\x0f\\x00/\\xd0\\xfe\\xff2y\\x06\\x00\")\n");
      EXPECT_NE(r.out.find("Failing input: [1000003, -77777, 424242] (16 bytes)"), std::string::npos) << r.out;
    }
    for (const auto& v : entry) EXPECT_EQ(corpus::type_of(v), corpus::Type::Bytes);
    std::string rerun_line = line_after(r.out, "To re-run:\n    ");
    EXPECT_EQ(rerun_line, target("typed_values") + " --run " + test + "/" + saved[0].filename().string()) << r.out;
    auto rerun = run({target("typed_values"), "--run", test + "/" + saved[0].filename().string()}, {.cwd = dir.str()});
    EXPECT_EQ(rerun.exit_code, 1) << rerun.all();
    EXPECT_NE(rerun.out.find("planted bug"), std::string::npos) << rerun.all();
  }
}

INSTANTIATE_TEST_SUITE_P(TypedValues, PlantedBug,
                         ::testing::Values("FuzzVectorInOrder", "FuzzStructAndOptional", "FuzzMap"));

TEST(TypedValues, EverySupportedShapeArrivesAsItWasAdded) {
  TempDir dir;
  auto r = run({target("typed_values"), "-v", "--run", "FuzzEveryShape"},
               {.cwd = dir.str(), .env = {"CFUZZ_TEST_ROUND_TRIP=1"}});
  EXPECT_EQ(r.exit_code, 0) << r.all();
  EXPECT_NE(r.out.find("round trip ok"), std::string::npos) << r.all();
}

TEST(TypedValues, ASeedOfAnotherShapeIsAClearError) {
  TempDir dir;
  auto r = run({target("typed_values"), "--run", "FuzzVectorInOrder"},
               {.cwd = dir.str(), .env = {"CFUZZ_TEST_WRONG_SEED=1"}});
  EXPECT_EQ(r.exit_code, 1) << r.all();
  EXPECT_NE(r.out.find("mismatched types in seed#1: []int64, want []int32"), std::string::npos) << r.all();
}

TEST(TypedValues, AFileWrittenForAnotherSignatureIsAClearErrorOrASkippedCacheFile) {
  // []int64{1, 2}, in the corpus of a test that takes a std::vector<std::int32_t>.
  const std::string file =
      "go test fuzz v1\n[]byte(\"\\x02\\x00\\x00\\x00\\x01\\x00\\x00\\x00\\x00\\x00\\x00\\x00"
      "\\x02\\x00\\x00\\x00\\x00\\x00\\x00\\x00\")\n";
  const std::string why =
      "line 2: argument 0, a []int32, has 8 bytes left over after its value; was the file written for another "
      "signature of the fuzz function?";
  TempDir dir;
  write_file(dir / "testdata/fuzz/FuzzVectorInOrder/old", file);
  auto seeds = run({target("typed_values"), "--srcdir", dir.str(), "--run", "FuzzVectorInOrder"}, {.cwd = dir.str()});
  EXPECT_EQ(seeds.exit_code, 2) << seeds.all();
  EXPECT_NE(seeds.all().find("testdata/fuzz/FuzzVectorInOrder/old: " + why), std::string::npos) << seeds.all();
  auto fuzzed = fuzz(dir, "FuzzVectorInOrder", 1, "1000x");
  EXPECT_EQ(fuzzed.exit_code, 2) << fuzzed.all();
  EXPECT_NE(fuzzed.all().find(why), std::string::npos) << fuzzed.all();

  TempDir other;
  write_file(other / "cache/FuzzVectorInOrder/old", file);
  auto cached = fuzz(other, "FuzzVectorInOrder", 1, "1000x");
  EXPECT_NE(cached.all().find("skipped 1 unusable cache file(s)"), std::string::npos) << cached.all();
  EXPECT_NE(cached.all().find(why), std::string::npos) << cached.all();
  EXPECT_TRUE(fs::exists(other / "cache/FuzzVectorInOrder/old")) << "a cache file was removed";
}

TEST(TypedValues, FuzzingTheEveryShapeTestKeepsItsValuesDecodable) {
  // Every kind of part mutated for a while: nothing the engine makes crashes the decoder
  // or the round-trip-free fuzz function.
  TempDir dir;
  auto r = fuzz(dir, "FuzzEveryShape", 1, "100000x");
  EXPECT_EQ(r.exit_code, 0) << r.all();
  EXPECT_NE(r.out.find("PASS"), std::string::npos) << r.all();
}

// Domains (test/targets/typed_domains.cc): its fuzz functions fail if ever given a value
// out of its domain.
CommandResult fuzz_domains(const TempDir& dir, const std::string& test, int seed, const std::string& fuzztime,
                           std::vector<std::string> env = {}) {
  return run({cfuzz(), "run", target("typed_domains"), "--fuzz", "^" + test + "$", "--cachedir",
              (dir / "cache").string(), "--parallel", "1", "--seed", std::to_string(seed), "--fuzztime", fuzztime},
             {.cwd = dir.str(), .env = std::move(env)});
}

TEST(Domains, EveryValueGivenToTheFuzzFunctionIsInItsDomain) {
  for (const char* test : {"FuzzDomains", "FuzzMappedDomain", "FuzzRegexp"}) {
    TempDir dir;
    auto r = fuzz_domains(dir, test, 1, "300000x");
    EXPECT_EQ(r.exit_code, 0) << r.all();
    EXPECT_EQ(r.out.find("out of domain"), std::string::npos) << r.all();
  }
}

TEST(Domains, ABugThatNeedsValuesAtTheEndsOfTheirDomainsIsFoundInEverySeed) {
  for (const char* test : {"FuzzDomains", "FuzzRegexp"}) {
    for (int seed = 1; seed <= 3; ++seed) {
      SCOPED_TRACE(std::string(test) + " seed " + std::to_string(seed));
      TempDir dir;
      auto r = fuzz_domains(dir, test, seed, "120s", {"CFUZZ_TEST_DOMAIN_BUG=1"});
      ASSERT_EQ(r.exit_code, 1) << r.all();
      EXPECT_NE(r.out.find("planted bug: "), std::string::npos) << r.all();
      auto saved = files_in(dir / ("testdata/fuzz/" + std::string(test)));
      ASSERT_EQ(saved.size(), 1u) << r.all();
      auto rerun = run({target("typed_domains"), "--run", std::string(test) + "/" + saved[0].filename().string()},
                       {.cwd = dir.str(), .env = {"CFUZZ_TEST_DOMAIN_BUG=1"}});
      EXPECT_EQ(rerun.exit_code, 1) << rerun.all();
      EXPECT_NE(rerun.out.find("planted bug"), std::string::npos) << rerun.all();
    }
  }
}

TEST(Domains, ASeedOutOfItsDomainIsAnErrorNamingTheValueAndTheDomain) {
  TempDir dir;
  auto r = run({target("typed_domains")}, {.cwd = dir.str(), .env = {"CFUZZ_TEST_BAD_SEED=1"}});
  EXPECT_EQ(r.exit_code, 1) << r.all();
  EXPECT_NE(r.out.find("f.add: seed#1 is out of the domains: argument 0: 12 is not in InRange(0, 9)"),
            std::string::npos)
      << r.all();
  EXPECT_NE(r.out.find("f.add: seed#1 is out of the domains: argument 0: \"AB@example.com\" is not in "
                       "InRegexp(\"[a-z]{2,8}@[a-z]{1,24}\\.(com|org|net)\")"),
            std::string::npos)
      << r.all();
}

TEST(Domains, ACorpusFileOutOfItsDomainFailsAsASeedAndIsSkippedFromTheCache) {
  const std::string file =
      "go test fuzz v1\nint32(3)\n[]byte(\"\\x01\\x00\\x00\\x00\\x04\\x00\\x00\\x00\")\n"
      "string(\"ab\")\n[]byte(\"\\x00\")\nint64(10)\nfloat64(0.5)\n";
  const std::string why = "value out of its domain: argument 1: element 0: 4 is not in ElementOf({2, 3, 5, 7})";
  TempDir dir;
  write_file(dir / "testdata/fuzz/FuzzDomains/four", file);
  auto seeds = run({target("typed_domains")}, {.cwd = dir.str()});
  EXPECT_EQ(seeds.exit_code, 1) << seeds.all();
  EXPECT_NE(seeds.out.find("--- FAIL: FuzzDomains/four"), std::string::npos) << seeds.all();
  EXPECT_NE(seeds.out.find(why), std::string::npos) << seeds.all();
  auto fuzzed = fuzz_domains(dir, "FuzzDomains", 1, "1000x");
  EXPECT_EQ(fuzzed.exit_code, 1) << fuzzed.all();
  EXPECT_NE(fuzzed.out.find("failure while testing seed corpus entry: FuzzDomains/four"), std::string::npos)
      << fuzzed.all();
  EXPECT_NE(fuzzed.out.find(why), std::string::npos) << fuzzed.all();

  TempDir other;
  write_file(other / "cache/FuzzDomains/four", file);
  auto cached = fuzz_domains(other, "FuzzDomains", 1, "1000x");
  EXPECT_EQ(cached.exit_code, 0) << cached.all();
  EXPECT_NE(cached.all().find("skipped an input out of the fuzz function's domains"), std::string::npos)
      << cached.all();
  EXPECT_TRUE(fs::exists(other / "cache/FuzzDomains/four")) << "a cache file was removed";
}

// Go's loader reads each file as a seed of a fuzz test with as many []byte parameters.
constexpr const char* kGoTests = R"(package typed

import "testing"

func FuzzVectorInOrder(f *testing.F)     { f.Fuzz(func(t *testing.T, v []byte) {}) }
func FuzzStructAndOptional(f *testing.F) { f.Fuzz(func(t *testing.T, h, token []byte) {}) }
func FuzzMap(f *testing.F)               { f.Fuzz(func(t *testing.T, m []byte) {}) }
)";

TEST(TypedValues, GoReadsEveryFileCfuzzWroteForThem) {
  const std::string go = CFUZZ_GO;
  if (go.empty() || ::access(go.c_str(), X_OK) != 0) {
    GTEST_SKIP() << "Go toolchain not found (looked for /usr/lib/go-1.19/bin/go); "
                    "run scripts/install-deps.sh to install golang-1.19";
  }
  TempDir dir;
  const fs::path module = dir / "gomodule";
  int files = 0;
  for (const char* test : {"FuzzVectorInOrder", "FuzzStructAndOptional", "FuzzMap"}) {
    auto r = fuzz(dir, test, 1, "120s");
    ASSERT_EQ(r.exit_code, 1) << r.all();
    // The reproducer and the cache's interesting inputs, as Go seeds.
    fs::create_directories(module / "testdata/fuzz" / test);
    for (const auto& from : {dir / ("testdata/fuzz/" + std::string(test)), dir / ("cache/" + std::string(test))}) {
      for (const auto& f : files_in(from)) {
        fs::copy_file(f, module / "testdata/fuzz" / test / f.filename(), fs::copy_options::overwrite_existing);
        ++files;
      }
    }
  }
  ASSERT_GT(files, 6);
  write_file(module / "go.mod", "module typed\n\ngo 1.19\n");
  write_file(module / "typed_test.go", kGoTests);
  const std::string cache = CFUZZ_GO_WORK_DIR;
  auto r = run({go, "test", "-count=1", "-v", "."},
               {.cwd = module.string(),
                .env = {"GOCACHE=" + cache + "/cache", "GOPATH=" + cache + "/gopath", "GOFLAGS=-mod=mod", "GOPROXY=off",
                        "GO111MODULE=on", "GOWORK=off", "GOENV=off", "CGO_ENABLED=0"}});
  ASSERT_EQ(r.exit_code, 0) << r.all();
  int passed = 0;
  for (std::size_t at = 0; (at = r.out.find("--- PASS: Fuzz", at)) != std::string::npos; ++at) {
    if (r.out.find('/', at) < r.out.find('\n', at)) ++passed;  // one per corpus file
  }
  EXPECT_EQ(passed, files) << r.out;
}

}  // namespace
}  // namespace cfuzz::test
