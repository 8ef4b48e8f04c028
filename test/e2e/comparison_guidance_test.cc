// Comparison-guided mutation and dictionaries: magic values that blind mutation would
// essentially never produce (one chance in 2^32 to 2^64 per try) are found from an empty
// corpus within a fixed execution budget, with and without a sanitizer runtime (which
// decides who intercepts memcmp and strcmp: the sanitizer or cfuzz's own interceptors).
// Beside them, what comparisons do not name: an exact sum (the value profile), lengths of
// nested records that must grow together, and a count that grows by copies of the input.
#include <cstdint>
#include <initializer_list>
#include <string>

#include <gtest/gtest.h>

#include "core/fuzz_call_plan.h"
#include "core/value_profile_switch.h"
#include "test/support/test_support.h"

namespace cfuzz::test {
namespace {

namespace fs = std::filesystem;

struct Puzzle {
  std::string test;
  std::string target;
};

std::ostream& operator<<(std::ostream& os, const Puzzle& p) { return os << p.test << "/" << p.target; }

class MagicValues : public ::testing::TestWithParam<Puzzle> {};

TEST_P(MagicValues, AreFoundFromAnEmptyCorpusWithinTheBudget) {
  // Seeded, so that calls are count-bounded and the run repeats. Unseeded, a call lasts 20 ms:
  // on a machine running the target at 1.8M executions a second that is 36K executions, the
  // budget is three calls, and FuzzChecksummedFields missed its bug in 3 of 80 runs. Before
  // follow-ups tried both byte orders (AChecksumStepTriesBothByteOrdersOfTheOldValue), some
  // unseeded runs were stuck for good too: 8 of 400 missed even at 1M executions.
  TempDir dir;
  auto r = run({cfuzz(), "run", target(GetParam().target), "--fuzz", GetParam().test + "$", "--cachedir",
                (dir / "cache").string(), "--parallel", "1", "--fuzztime", "100000x", "--seed", "1"},
               {.cwd = dir.str()});
  EXPECT_EQ(r.exit_code, 1) << r.all();
  EXPECT_NE(r.out.find("deadly signal SIGABRT"), std::string::npos) << r.all();
  EXPECT_EQ(files_in(dir / "testdata/fuzz" / GetParam().test).size(), 1u);
}

INSTANTIATE_TEST_SUITE_P(
    Puzzles, MagicValues,
    ::testing::Values(Puzzle{"FuzzMemcmpMagic", "magic_values"}, Puzzle{"FuzzMemcmpMagic", "magic_values_asan"},
                      Puzzle{"FuzzStrcmpKeyword", "magic_values"}, Puzzle{"FuzzStrcmpKeyword", "magic_values_asan"},
                      Puzzle{"FuzzChainOf32", "magic_values"}, Puzzle{"FuzzChainOf32", "magic_values_asan"},
                      Puzzle{"FuzzEqual64", "magic_values"}, Puzzle{"FuzzEqual64", "magic_values_asan"},
                      Puzzle{"FuzzTypedEqual64", "magic_values"}, Puzzle{"FuzzOffsetFields", "magic_values"},
                      Puzzle{"FuzzOffsetFields", "magic_values_asan"}, Puzzle{"FuzzDecimalFields", "magic_values"},
                      Puzzle{"FuzzDecimalFields", "magic_values_asan"}, Puzzle{"FuzzPromotedChecksum", "magic_values"},
                      Puzzle{"FuzzChecksummedFields", "magic_values"}),
    [](const ::testing::TestParamInfo<Puzzle>& info) { return info.param.test + "_" + info.param.target; });

// `test` of `target_name` from one cached entry (the corpus file's value line), with seeds 1-3,
// each within `budget`: each must find the planted abort.
void expect_each_seed_finds_the_bug_from(const std::string& target_name, const std::string& test,
                                         const std::string& entry, const std::string& budget) {
  for (const char* seed : {"1", "2", "3"}) {
    TempDir dir;
    write_file(dir / "cache" / test / "entry", "go test fuzz v1\n" + entry + "\n");
    auto r = run({cfuzz(), "run", target(target_name), "--fuzz", test + "$", "--cachedir", (dir / "cache").string(),
                  "--parallel", "1", "--fuzztime", budget, "--seed", seed},
                 {.cwd = dir.str()});
    EXPECT_EQ(r.exit_code, 1) << test << ", seed " << seed << "\n" << r.all();
    EXPECT_NE(r.out.find("deadly signal SIGABRT"), std::string::npos) << r.all();
  }
}

TEST(ComparisonGuidance, ARangeCheckBehindAnOffsetIsSolvedFromALongInputInASanitizerBuild) {
  // FuzzOffsetFields from a cached input of 24 bytes, in the ASan build, whose eight-byte
  // bounds checks come before the range check on x - K. The arithmetic guesses of the
  // comparisons take turns, so these seeds solve it in about 1.1K executions. When they went
  // comparison by comparison, an input of 17 bytes or more left the range check's guesses
  // past the stage's 512 candidates, and these seeds took 51K-208K (16 bytes: 1.1K).
  expect_each_seed_finds_the_bug_from("magic_values_asan", "FuzzOffsetFields", "[]byte(\"ABCDEFGHIJKLMNOPQRSTUVWX\")",
                                      "20000x");
}

TEST(ComparisonGuidance, AChecksumStepTriesBothByteOrdersOfTheOldValue) {
  // FuzzChecksummedFields from an entry that an unseeded run was stuck on for good: the last
  // field is rewritten, then the big-endian checksum after it, whose old value 0xefef reads
  // the same in both byte orders. When a follow-up took only the first byte order that
  // matched, the checksum was written little-endian and seeds 1 and 2 got no further in
  // 200000 executions or in 1M; with both orders, seeds 1-3 took 2.8K-8.8K.
  expect_each_seed_finds_the_bug_from("magic_values", "FuzzChecksummedFields", "[]byte(\"Rw\\x124#E4V00\\xef\\xef\")",
                                      "200000x");
}

TEST(ComparisonGuidance, TheInputToStateStageKeepsToAQuarterOfTheRun) {
  // The config parser compares much, and each new entry brings hundreds of candidates.
  // Without the share these seeds gave the stage 35.6K and 42.9K of 100000 executions; with
  // it, 26.2K and 26.3K. A call planned within the share may run its whole stage, hence the
  // one call's executions of slack.
  for (const char* seed : {"3", "4"}) {
    TempDir dir;
    auto r = run({cfuzz(), "run", target("cover_parser"), "--cachedir", (dir / "cache").string(), "--parallel", "1",
                  "--fuzztime", "100000x", "--seed", seed, "--json"},
                 {.cwd = dir.str()});
    ASSERT_EQ(r.exit_code, 0) << r.all();
    nlohmann::json done = last_event(r.out, "done");
    ASSERT_FALSE(done.is_null()) << r.all();
    const auto execs = done["execs"].get<std::uint64_t>();
    const auto stage = done["input_to_state_execs"].get<std::uint64_t>();
    EXPECT_GT(stage, core::InputToStateBudget::kStart) << "seed " << seed << ": the stage ran past its start";
    EXPECT_LE(stage, execs / 4 + core::InputToStateBudget::kStart + core::kSeededCallExecs)
        << "seed " << seed << " of " << execs << " executions";
  }
}

TEST(ComparisonGuidance, TheValueProfileApproachesAnExactSumOnePowerOfTwoAtATime) {
  // No operand of the comparison is in the input, so only the value profile (how close the
  // sum came) leads there. With it, 6 of 6 seeded runs of this budget found the bug (8 of 8
  // within 500000 executions); without it, none of 6.
  for (const char* target_name : {"magic_values", "magic_values_asan"}) {
    TempDir dir;
    auto r = run({cfuzz(), "run", target(target_name), "--fuzz", "FuzzRotatedSum$", "--value-profile", "--cachedir",
                  (dir / "cache").string(), "--parallel", "1", "--fuzztime", "2000000x"},
                 {.cwd = dir.str()});
    EXPECT_EQ(r.exit_code, 1) << target_name << "\n" << r.all();
    EXPECT_EQ(files_in(dir / "testdata/fuzz/FuzzRotatedSum").size(), 1u) << target_name;
  }
}

TEST(ComparisonGuidance, WithValueProfileAutoItComesOnOnceCoverageStalls) {
  // The same sum with --value-profile=auto: coverage stalls at once, and after
  // ValueProfileSwitch::kMinStallExecs executions without growth the value profile comes
  // on (core/value_profile_switch.h) and leads there; off (the default) never does. Its
  // entries come only after that stretch: on from the start, they come at once.
  for (const char* mode : {"off", "auto"}) {
    TempDir dir;
    auto r = run(
        {cfuzz(), "run", target("magic_values"), "--fuzz", "FuzzRotatedSum$", std::string("--value-profile=") + mode,
         "--cachedir", (dir / "cache").string(), "--parallel", "1", "--fuzztime", "2000000x", "--seed", "1", "--json"},
        {.cwd = dir.str()});
    EXPECT_EQ(r.exit_code, std::string(mode) == "off" ? 0 : 1) << mode << "\n" << r.all();
    if (std::string(mode) == "off") continue;
    std::uint64_t last = 0;
    bool waited = false;
    for (const nlohmann::json& e : json_lines(r.out)) {
      if (e.value("event", "") != "new_entry") continue;
      const auto execs = e["execs"].get<std::uint64_t>();
      waited = waited || execs - last >= core::ValueProfileSwitch::kMinStallExecs;
      last = execs;
    }
    EXPECT_TRUE(waited) << "no stretch without new entries before the value profile's\n" << r.out;
  }
}

// magic_values' `test`, run with each seed for `budget` executions, finds its bug every time.
void expect_found_with_each_seed(const std::string& test, const std::string& budget,
                                 std::initializer_list<const char*> seeds) {
  for (const char* seed : seeds) {
    TempDir dir;
    auto r = run({cfuzz(), "run", target("magic_values"), "--fuzz", test + "$", "--cachedir", (dir / "cache").string(),
                  "--parallel", "1", "--fuzztime", budget, "--seed", seed},
                 {.cwd = dir.str()});
    EXPECT_EQ(r.exit_code, 1) << test << ", seed " << seed << "\n" << r.all();
    EXPECT_NE(r.out.find("deadly signal SIGABRT"), std::string::npos) << r.all();
  }
}

// magic_values' `test`, run for `budget` executions with seeds 1, 2, ... up to `last_seed`,
// finds its bug with at least `needed` of them (it stops at the `needed`th). For a search
// that finds it with a fair share of seeds, not all: which seeds do changes with the code's
// layout (see ARecordGetsASiblingCopiedFromTheInput), the share does not.
void expect_found_with_enough_seeds(const std::string& test, const std::string& budget, int needed, int last_seed) {
  int found = 0;
  std::string tried;
  for (int seed = 1; seed <= last_seed && found < needed; ++seed) {
    TempDir dir;
    auto r = run({cfuzz(), "run", target("magic_values"), "--fuzz", test + "$", "--cachedir", (dir / "cache").string(),
                  "--parallel", "1", "--fuzztime", budget, "--seed", std::to_string(seed)},
                 {.cwd = dir.str()});
    bool bug = r.exit_code == 1 && r.out.find("deadly signal SIGABRT") != std::string::npos;
    found += bug;
    tried += " " + std::to_string(seed) + (bug ? ":found" : ":not");
  }
  EXPECT_GE(found, needed) << test << " in " << budget << " executions, seeds" << tried;
}

TEST(ComparisonGuidance, AValueGoesRightAfterAKeywordTheParserAccepted) {
  // "depth=" sits mid-line in the seed; the bug wants a number over 4000 right after it.
  // Inserting where a matched keyword ends finds it in each of these runs; random insertion
  // found it in 1 of 6 runs of this budget (these three seeds: none).
  expect_found_with_each_seed("FuzzKeywordThenNumber", "100000x", {"1", "2", "3"});
}

TEST(NestedLengths, GrowTogetherWhenBytesAreInsertedInsideThem) {
  // A field of exact length three records deep: inserting bytes and adding their count to
  // the lengths around the insertion point finds it in each of these runs (and in 10 seeds
  // of 10). Without that operator, these three seeds did not find it in 2000000 executions;
  // 7 seeds of 10 did.
  expect_found_with_each_seed("FuzzNestedRecords", "1000000x", {"2", "3", "10"});
}

TEST(NestedLengths, ARecordGetsASiblingCopiedFromTheInput) {
  // An item that needs a second field, four records deep. When half of the inserts that
  // grow lengths are a copy of a part of the input, the search either finds it early or
  // wanders for millions: 49 of seeds 1-80 found it within this budget (47 before the
  // arithmetic guesses of the comparisons took turns, 93 of seeds 1-160 before the
  // comparison table stopped probing in the mutants' runs: differences within the spread
  // of 80-seed halves). With random bytes only (1 in 65536 of them a field), seeds 1-10
  // took 52K-19.4M (median 7.0M; measured before the input-to-state stage went on where it
  // stopped). A run with one seed repeats itself for one build, but which seeds find it
  // changes with any change of the runtime's size: a comparison's site in the comparison
  // table is its PC less the table's address (runtime/engine/cmp_table.h), and the runtime's code
  // lies between the two, so every site moves to another slot. So the test asks for a share:
  // with 61% of seeds finding it, 3 of the first 12 fail to do so in 0.2% of layouts; with
  // random bytes only, the median seed above needed 7.0M executions, over four such budgets.
  expect_found_with_enough_seeds("FuzzSecondField", "1500000x", 3, 12);
}

TEST(ExactSizes, TheBytesASizeComparisonLacksGoWhereTheSizeWasMeasured) {
  // A quoted value of exactly 13 bytes after a name of exactly 7. The difference between a
  // measured size and its constant, inserted at the end of each word that long (or before
  // the byte at that offset), found it with seeds 1-10 in 0.5K-4.1K executions. Without
  // (main at 87c727d), seeds 1-5 took 86K-211K.
  expect_found_with_each_seed("FuzzQuotedSizes", "20000x", {"1", "2", "3"});
}

TEST(Spans, AQuotedOrBracketedPartTakesThePlaceOfAnother) {
  // `id` holds a list where a string of three bytes or more is wanted, and the line must
  // still parse. With the operator that puts one quoted or bracketed part of the input in
  // place of another, seeds 1-10 found it in 8.5K-198K executions (median 142K), these
  // three in 96K-168K; without it, seeds 1-10 took 23K-2.14M (median 231K), these three
  // over 2.1M each.
  expect_found_with_each_seed("FuzzValueKinds", "400000x", {"1", "2", "8"});
}

TEST(Counts, ReachTheNextHitCountBucketByACopyOfTheWholeInput) {
  // 40 bytes each one more than the one before. With copies that draw their length before
  // their start (a whole-value copy 1 time in 2n), these seeds find it within 41K-138K
  // executions (seeds 1-10: 25K-439K, median 142K; 87 of seeds 1-100 within this budget,
  // 84 before the arithmetic guesses took turns). Drawn start first, seeds 3, 6 and 9
  // took 307K-732K (seeds 1-10: median 445K; measured before the input-to-state stage went
  // on where it stopped).
  expect_found_with_each_seed("FuzzAscendingSteps", "250000x", {"4", "6", "7"});
}

TEST(Dictionary, KeywordFromDictIsFoundAndNotWithoutIt) {
  // With a seed: unseeded, the run with the word missed it about 1 time in 30 under load.
  TempDir dir;
  write_file(dir / "words.dict", "# the one word that matters\nkw=\"xyzzy-plugh\"\n\"unrelated\"\n");
  auto with = run(
      {cfuzz(), "run", target("magic_values"), "--fuzz", "FuzzHashedKeyword", "--cachedir", (dir / "cache1").string(),
       "--parallel", "1", "--fuzztime", "100000x", "--seed", "1", "--dict", (dir / "words.dict").string()},
      {.cwd = dir.str()});
  EXPECT_EQ(with.exit_code, 1) << with.all();
  fs::remove_all(dir / "testdata");
  auto without = run({cfuzz(), "run", target("magic_values"), "--fuzz", "FuzzHashedKeyword", "--cachedir",
                      (dir / "cache2").string(), "--parallel", "1", "--fuzztime", "100000x"},
                     {.cwd = dir.str()});
  EXPECT_EQ(without.exit_code, 0) << "found without the dictionary?\n" << without.all();
}

TEST(Dictionary, MalformedDictionaryIsAUsageErrorNamingTheLine) {
  TempDir dir;
  write_file(dir / "bad.dict", "ok=\"fine\"\nbroken=\"no end\n");
  auto r = run({cfuzz(), "run", target("magic_values"), "--fuzz", "FuzzHashedKeyword", "--cachedir",
                (dir / "cache").string(), "--dict", (dir / "bad.dict").string(), "--fuzztime", "10x"});
  EXPECT_EQ(r.exit_code, 2) << r.all();
  EXPECT_NE(r.err.find("bad.dict: line 2"), std::string::npos) << r.err;
}

TEST(Dictionary, UsefulComparisonOperandsAreRecommendedAtTheEnd) {
  TempDir dir;
  auto r = run({cfuzz(), "run", target("magic_values"), "--fuzz", "FuzzChainOf32", "--cachedir",
                (dir / "cache").string(), "--parallel", "1", "--fuzztime", "100000x"},
               {.cwd = dir.str()});
  ASSERT_EQ(r.exit_code, 1) << r.all();
  EXPECT_NE(r.out.find("###### Recommended dictionary. ######"), std::string::npos) << r.out;
  // 0x8badf00d, little-endian, as it had to be written into the input.
  EXPECT_NE(r.out.find("\"\\x0D\\xF0\\xAD\\x8B\" # Uses: "), std::string::npos) << r.out;
}

}  // namespace
}  // namespace cfuzz::test
