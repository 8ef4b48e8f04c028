// The coordinator's in-memory corpus: one copy of each content, and a schedule that gives
// every entry turns but favours fresh, productive and small ones.
#include "core/corpus.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/pcg.h"

namespace cfuzz::core {
namespace {

CorpusEntry entry(std::string name, std::string encoded, std::uint64_t size = 10, std::uint64_t fuzz_calls = 0,
                  std::uint64_t found = 0) {
  CorpusEntry e;
  e.name = std::move(name);
  e.values = {corpus::Bytes(encoded.begin(), encoded.end())};
  e.key = entry_key(e.values);
  e.size = size;
  e.fuzz_calls = fuzz_calls;
  e.found = found;
  return e;
}

TEST(Corpus, AddKeepsOneCopyOfEachContent) {
  Corpus c;
  EXPECT_TRUE(c.empty());
  EXPECT_TRUE(c.add(entry("seed#0", "go test fuzz v1\nstring(\"a\")\n")));
  // Same bytes under another name and origin: a duplicate.
  CorpusEntry dup = entry("abc123", "go test fuzz v1\nstring(\"a\")\n");
  dup.origin = Origin::Cache;
  EXPECT_FALSE(c.add(dup));
  EXPECT_TRUE(c.add(entry("seed#1", "go test fuzz v1\nstring(\"b\")\n")));
  EXPECT_TRUE(c.add(entry("empty", "")));
  EXPECT_FALSE(c.add(entry("empty again", "")));
  ASSERT_EQ(c.size(), 3u);
  EXPECT_EQ(c.at(0).name, "seed#0");  // the first copy is the one kept
  EXPECT_EQ(c.at(1).name, "seed#1");
  EXPECT_EQ(c.at(2).name, "empty");
}

TEST(Corpus, PickGivesEveryEntryTurns) {
  Corpus c;
  for (int i = 0; i < 20; ++i) {
    // A spread of sizes and histories, including the least favoured kind.
    c.add(
        entry("e" + std::to_string(i), "content " + std::to_string(i), i % 2 ? 1u << 20 : 3u, i % 3 ? 100000u : 0u, 0));
  }
  core::Pcg rng(1, 1);
  std::vector<int> picks(c.size());
  for (int i = 0; i < 100000; ++i) {
    std::size_t k = c.pick(rng);
    ASSERT_LT(k, c.size());
    ++picks[k];
    ++c.at(k).fuzz_calls;  // as the coordinator does for the entry it fuzzes
  }
  for (std::size_t k = 0; k < picks.size(); ++k) EXPECT_GT(picks[k], 0) << "entry " << k;
}

TEST(Corpus, PickTakesNeverFuzzedEntriesFirstOldestFirst) {
  Corpus c;
  c.add(entry("old", "a", 10, 50));
  c.add(entry("new1", "b", 1 << 20, 0));  // large, yet first: it has never been fuzzed
  c.add(entry("new2", "c", 10, 0));
  core::Pcg rng(4, 1);
  // Until the caller fuzzes it, the oldest never-fuzzed entry stays the answer.
  EXPECT_EQ(c.pick(rng), 1u);
  EXPECT_EQ(c.pick(rng), 1u);
  ++c.at(1).fuzz_calls;
  EXPECT_EQ(c.pick(rng), 2u);
  ++c.at(2).fuzz_calls;
  // All fuzzed: a weighted choice, which gives the old entry turns again.
  std::vector<int> picks(3);
  for (int i = 0; i < 3000; ++i) ++picks[c.pick(rng)];
  EXPECT_GT(picks[0], 0);
  EXPECT_GT(picks[2], picks[0]);  // fuzzed once beats fuzzed fifty times
  // An entry added now is next.
  c.add(entry("found", "d", 10, 0));
  EXPECT_EQ(c.pick(rng), 3u);
}

TEST(Corpus, PickFromASingleEntryCorpusGivesThatEntry) {
  Corpus c;
  c.add(entry("only", "x"));
  core::Pcg rng(2, 1);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(c.pick(rng), 0u);
}

// How often `a` is picked from a corpus of `a` and `b`, added in either order. Both have
// been fuzzed before (fuzz_calls >= 1), so that only the weighting decides.
double share_of(const CorpusEntry& a, const CorpusEntry& b, bool a_first) {
  Corpus c;
  c.add(a_first ? a : b);
  c.add(a_first ? b : a);
  core::Pcg rng(3, 1);
  int hits = 0;
  const int picks = 20000;
  for (int i = 0; i < picks; ++i) hits += c.pick(rng) == (a_first ? 0u : 1u);
  return static_cast<double>(hits) / picks;
}

void expect_favoured(const CorpusEntry& favoured, const CorpusEntry& other) {
  for (bool first : {true, false}) {
    EXPECT_GT(share_of(favoured, other, first), 0.8) << favoured.name << " added " << (first ? "first" : "second");
  }
}

TEST(Corpus, PickFavoursEntriesFuzzedLess) {
  expect_favoured(entry("fresh", "a", 10, 1), entry("worn", "b", 10, 1000));
}

TEST(Corpus, PickFavoursSmallEntries) { expect_favoured(entry("small", "a", 4, 1), entry("large", "b", 1 << 20, 1)); }

TEST(Corpus, PickFavoursEntriesThatLedToNewCoverage) {
  expect_favoured(entry("productive", "a", 10, 5, 8), entry("barren", "b", 10, 5, 0));
}

TEST(Corpus, PickFavoursTheEntryThatAloneReachesAnEdge) {
  // Feature = counter * 8 + bucket bit. "loop" only ran a loop more often than "base";
  // "deep" got past a check to counter 2, which no other entry reaches.
  Corpus c;
  c.add(entry("base", "a", 10, 1));
  c.set_features(0, {0 * 8 + 0, 1 * 8 + 0});
  c.add(entry("loop", "b", 10, 1));
  c.set_features(1, {0 * 8 + 0, 1 * 8 + 4});
  c.add(entry("deep", "c", 10, 1));
  c.set_features(2, {0 * 8 + 0, 1 * 8 + 0, 2 * 8 + 0});
  auto picks = [&c] {
    core::Pcg rng(5, 1);
    std::vector<int> n(c.size());
    for (int i = 0; i < 30000; ++i) ++n[c.pick(rng)];
    return n;
  };
  std::vector<int> n = picks();
  EXPECT_GT(n[2], 3 * n[1]) << "deep " << n[2] << ", loop " << n[1];
  // Once other entries reach counter 2 too, "deep" is no longer rare.
  for (int k = 0; k < 7; ++k) {
    c.add(entry("descendant" + std::to_string(k), "d" + std::to_string(k), 10, 1000));
    c.set_features(c.size() - 1, {0 * 8 + 0, 1 * 8 + 0, 2 * 8 + 0, 3 * 8 + static_cast<std::uint32_t>(k % 8)});
  }
  std::vector<int> later = picks();
  EXPECT_LT(later[2], n[2] * 2 / 3) << "deep kept " << later[2] << " of " << n[2];
}

TEST(Corpus, PickTreatsEqualEntriesAlike) {
  for (bool first : {true, false}) {
    const double share = share_of(entry("one", "a", 10, 3), entry("two", "b", 10, 3), first);
    EXPECT_GT(share, 0.45);
    EXPECT_LT(share, 0.55);
  }
}

}  // namespace
}  // namespace cfuzz::core
