// The mutator's random source: reproducible, in range, unbiased.
#include "core/pcg.h"

#include <array>
#include <cstdint>
#include <set>
#include <vector>

#include <gtest/gtest.h>

namespace cfuzz::core {
namespace {

// Pearson's statistic of observed counts against a uniform expectation.
double chi_square(const std::vector<std::uint64_t>& counts, std::uint64_t total) {
  double expected = static_cast<double>(total) / static_cast<double>(counts.size());
  double x = 0;
  for (std::uint64_t c : counts) {
    double d = static_cast<double>(c) - expected;
    x += d * d / expected;
  }
  return x;
}

TEST(Pcg, MatchesThePcg32ReferenceOutput) {
  // pcg32-demo from the PCG reference implementation: pcg32_srandom(42, 54).
  Pcg r(42, 54);
  const std::array<std::uint32_t, 6> expected = {0xa15c02b7, 0x7b47f409, 0xba1d3330,
                                                 0x83d2f293, 0xbfa4784b, 0xcbed606e};
  for (std::uint32_t e : expected) EXPECT_EQ(r.next32(), e);
}

TEST(Pcg, SameSeedAndStreamGiveTheSameSequence) {
  Pcg a(123456789, 7), b(123456789, 7);
  for (int i = 0; i < 10000; ++i) ASSERT_EQ(a.next32(), b.next32()) << i;
  // reseed() starts over exactly as the constructor does.
  Pcg c(1, 1);
  c.reseed(123456789, 7);
  Pcg d(123456789, 7);
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(c.next64(), d.next64()) << i;
}

TEST(Pcg, RestoringThePublishedStateContinuesTheSameSequence) {
  // The worker publishes state() and inc() in shared memory; a replay restores them.
  Pcg a(99, 3);
  for (int i = 0; i < 17; ++i) a.next32();
  Pcg b;
  b.restore(a.state(), a.inc());
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(a.next32(), b.next32()) << i;
}

TEST(Pcg, DifferentSeedsOrStreamsGiveDifferentSequences) {
  auto first = [](Pcg r) {
    std::vector<std::uint32_t> v;
    for (int i = 0; i < 8; ++i) v.push_back(r.next32());
    return v;
  };
  EXPECT_NE(first(Pcg(1, 1)), first(Pcg(2, 1)));
  EXPECT_NE(first(Pcg(1, 1)), first(Pcg(1, 2)));
}

TEST(Pcg, BelowStaysInRange) {
  Pcg r(2024, 1);
  const std::uint64_t bounds[] = {
      1, 2, 3, 7, 10, 255, 256, 1000, 65537, (1ULL << 31) + 1, 0xfffffffe, 0xffffffffULL, 1ULL << 32};
  for (std::uint64_t n : bounds) {
    for (int i = 0; i < 20000; ++i) ASSERT_LT(r.below(n), n) << "n=" << n;
  }
  for (int i = 0; i < 100; ++i) ASSERT_EQ(r.below(0), 0u);
  for (int i = 0; i < 100; ++i) ASSERT_EQ(r.below(1), 0u);
}

// below(2^32) is every 32-bit value: here the generator is put in a state whose next
// 32-bit draw is 0xffffffff, which a bound clamped to 2^32 - 1 could not return.
TEST(Pcg, BelowTwoToThe32CanReturnEveryThirtyTwoBitValue) {
  // Output bits 27..58 of (state ^ state >> 18) all set, rotation 0: the draw is all ones.
  const std::uint64_t all_ones_state = 0x07fffe0000000000ULL;
  Pcg check;
  check.restore(all_ones_state, 1);
  ASSERT_EQ(check.next32(), 0xffffffffu);
  Pcg r;
  r.restore(all_ones_state, 1);
  EXPECT_EQ(r.below(1ULL << 32), 0xffffffffu);
}

TEST(Pcg, BelowIsRoughlyUniformForSmallBounds) {
  // 99.9999th percentile of chi-square: 9 dof ~ 42, 2 dof ~ 28. A fixed seed never flakes;
  // the bound only has to catch a real bias (a biased generator lands far above it).
  Pcg r(7, 1);
  for (std::uint64_t n : {3u, 10u}) {
    std::vector<std::uint64_t> counts(n);
    const std::uint64_t draws = 200000;
    for (std::uint64_t i = 0; i < draws; ++i) ++counts[r.below(n)];
    EXPECT_LT(chi_square(counts, draws), n == 3 ? 28.0 : 42.0) << "n=" << n;
  }
}

TEST(Pcg, BelowHasNoBiasForLargeBounds) {
  // n = 3 * 2^30 is where shortcuts show. `next32() % n` would put half of all draws into
  // the lowest third; a multiply-shift without Lemire's rejection step, floor(x * 3/4),
  // would make multiples of 3 twice as likely as other values. Both must be even.
  Pcg r(11, 5);
  const std::uint64_t n = 3ULL << 30;
  std::vector<std::uint64_t> thirds(3), residues(3);
  const std::uint64_t draws = 300000;
  for (std::uint64_t i = 0; i < draws; ++i) {
    std::uint64_t v = r.below(n);
    ++thirds[v >> 30];
    ++residues[v % 3];
  }
  EXPECT_LT(chi_square(thirds, draws), 28.0) << thirds[0] << " " << thirds[1] << " " << thirds[2];
  EXPECT_LT(chi_square(residues, draws), 28.0) << residues[0] << " " << residues[1] << " " << residues[2];
}

TEST(Pcg, RangeIsInclusiveAtBothEnds) {
  Pcg r(5, 1);
  std::set<std::uint64_t> seen;
  for (int i = 0; i < 1000; ++i) {
    std::uint64_t v = r.range(5, 7);
    ASSERT_GE(v, 5u);
    ASSERT_LE(v, 7u);
    seen.insert(v);
  }
  EXPECT_EQ(seen, (std::set<std::uint64_t>{5, 6, 7}));
  EXPECT_EQ(r.range(9, 9), 9u);
}

TEST(Pcg, CoinAndOneInHaveTheirProbabilities) {
  Pcg r(31, 1);
  int heads = 0, hits = 0;
  const int draws = 100000;
  for (int i = 0; i < draws; ++i) {
    heads += r.coin();
    hits += r.one_in(4);
  }
  EXPECT_NEAR(heads, draws / 2, draws / 50);
  EXPECT_NEAR(hits, draws / 4, draws / 50);
  for (int i = 0; i < 100; ++i) ASSERT_TRUE(r.one_in(1));
}

TEST(Pcg, DeriveSeedGivesADifferentSeedForEveryCallAndMaster) {
  std::set<std::uint64_t> seeds;
  for (std::uint64_t k = 0; k < 10000; ++k) seeds.insert(derive_seed(42, k));
  EXPECT_EQ(seeds.size(), 10000u);
  for (std::uint64_t k = 0; k < 100; ++k) {
    EXPECT_NE(derive_seed(42, k), derive_seed(43, k)) << k;
    EXPECT_EQ(derive_seed(42, k), derive_seed(42, k));  // a function, not a generator
  }
}

}  // namespace
}  // namespace cfuzz::core
