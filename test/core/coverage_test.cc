// Coverage bucketing and the word-at-a-time counter scan, against naive byte loops.
#include "core/coverage.h"

#include <bit>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include <gtest/gtest.h>

namespace cfuzz::core {
namespace {

// AFL's and libFuzzer's hit-count classes, one bit each.
std::uint8_t naive_bucket(unsigned c) {
  const unsigned lower_bounds[] = {1, 2, 3, 4, 8, 16, 32, 128};
  std::uint8_t bit = 0;
  for (unsigned k = 0; k < 8; ++k) {
    if (c >= lower_bounds[k]) bit = static_cast<std::uint8_t>(1u << k);
  }
  return bit;
}

int popcount8(std::uint8_t b) { return std::popcount(static_cast<unsigned>(b)); }

TEST(Coverage, BucketsEveryCountToItsHitCountClass) {
  for (unsigned c = 0; c < 256; ++c) {
    EXPECT_EQ(bucket_counter(static_cast<std::uint8_t>(c)), naive_bucket(c)) << c;
    EXPECT_EQ(kBuckets.v[c], naive_bucket(c)) << c;
  }
  // Spot checks of the table in the header comment.
  EXPECT_EQ(bucket_counter(2), 2);
  EXPECT_EQ(bucket_counter(3), 4);  // not 2's: a third pass through a branch is new
  EXPECT_EQ(bucket_counter(4), 8);
  EXPECT_EQ(bucket_counter(7), 8);
  EXPECT_EQ(bucket_counter(31), 32);
  EXPECT_EQ(bucket_counter(32), 64);
  EXPECT_EQ(bucket_counter(127), 64);
  EXPECT_EQ(bucket_counter(128), 128);
  EXPECT_EQ(bucket_counter(255), 128);
}

TEST(Coverage, BucketsAWordByteByByte) {
  std::mt19937_64 rng(1);
  for (int i = 0; i < 10000; ++i) {
    std::uint64_t w = rng();
    if (i % 3 == 0) w &= 0x00ff00000000ff00ULL;
    std::uint64_t expected = 0;
    for (int k = 0; k < 8; ++k) expected |= std::uint64_t{naive_bucket((w >> (8 * k)) & 0xff)} << (8 * k);
    ASSERT_EQ(bucket_word(w), expected) << std::hex << w;
  }
}

// Random bytes, each zero with probability 1 - density.
std::vector<std::uint8_t> random_bytes(std::mt19937_64& rng, std::size_t n, double density) {
  std::uniform_real_distribution<double> u(0, 1);
  std::vector<std::uint8_t> v(n);
  for (auto& b : v) b = u(rng) < density ? static_cast<std::uint8_t>(rng()) : 0;
  return v;
}

TEST(Coverage, MaskOperationsAgreeWithNaiveLoops) {
  std::mt19937_64 rng(2);
  for (int trial = 0; trial < 500; ++trial) {
    const std::size_t n = rng() % 300;
    const auto snapshot = random_bytes(rng, n, trial % 2 ? 0.5 : 0.05);
    auto mask = random_bytes(rng, n, trial % 3 ? 0.5 : 1.0);
    std::size_t new_bits = 0, bits = 0, covered = 0;
    bool covers_naive = true;
    for (std::size_t i = 0; i < n; ++i) {
      new_bits += static_cast<std::size_t>(popcount8(snapshot[i] & ~mask[i]));
      bits += static_cast<std::size_t>(popcount8(mask[i]));
      covered += mask[i] != 0;
      covers_naive = covers_naive && (mask[i] & ~snapshot[i]) == 0;
    }
    ASSERT_EQ(count_new_bits(snapshot.data(), mask.data(), n), new_bits);
    ASSERT_EQ(count_bits(mask.data(), n), bits);
    ASSERT_EQ(count_covered(mask.data(), n), covered);
    ASSERT_EQ(covers(snapshot.data(), mask.data(), n), covers_naive);
    // A snapshot covers itself and any subset of itself.
    ASSERT_TRUE(covers(snapshot.data(), snapshot.data(), n));

    std::vector<std::uint8_t> merged = mask;
    ASSERT_EQ(merge_into_mask(merged.data(), snapshot.data(), n), new_bits);
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(merged[i], mask[i] | snapshot[i]);
    // Merging again adds nothing; the merged mask covers both.
    ASSERT_EQ(merge_into_mask(merged.data(), snapshot.data(), n), 0u);
    ASSERT_TRUE(covers(merged.data(), snapshot.data(), n));
    ASSERT_TRUE(covers(merged.data(), mask.data(), n));
  }
}

TEST(Coverage, CoversFailsWhenOneRequiredBitIsMissing) {
  std::vector<std::uint8_t> snapshot(100, 0xff), required(100, 0);
  required[99] = 0x80;
  EXPECT_TRUE(covers(snapshot.data(), required.data(), 100));
  snapshot[99] = 0x7f;
  EXPECT_FALSE(covers(snapshot.data(), required.data(), 100));
}

// Counter regions carved out of one buffer at unaligned addresses, with guard bytes
// around them that the scanner must not touch.
struct Layout {
  std::vector<std::uint64_t> storage;  // 8-byte aligned backing
  std::vector<CounterRegion> regions;
  std::size_t total = 0;  // global index space

  std::uint8_t* bytes() { return reinterpret_cast<std::uint8_t*>(storage.data()); }
  std::size_t byte_size() const { return storage.size() * 8; }
};

constexpr std::uint8_t kGuard = 0x5a;

Layout random_layout(std::mt19937_64& rng) {
  Layout l;
  l.storage.assign(1024, 0);
  std::memset(l.bytes(), kGuard, l.byte_size());
  const std::size_t count = 1 + rng() % 4;
  std::size_t addr = 0, index = 0;
  for (std::size_t r = 0; r < count; ++r) {
    addr += 1 + rng() % 13;                                       // at least one guard byte before each region
    index += rng() % 20;                                          // gaps in the global index space too
    std::size_t size = rng() % 4 == 0 ? rng() % 8 : rng() % 300;  // short and odd sizes
    if (addr + size + 1 >= l.byte_size()) break;
    std::memset(l.bytes() + addr, 0, size);
    l.regions.push_back(CounterRegion{l.bytes() + addr, size, index});
    addr += size;
    index += size;
  }
  l.total = index;
  return l;
}

TEST(Coverage, ScanReportsNewCoverageExactlyWhenANaiveLoopDoes) {
  std::mt19937_64 rng(3);
  int fresh_results = 0, stale_results = 0;
  for (int trial = 0; trial < 4000; ++trial) {
    Layout l = random_layout(rng);
    const double density = std::vector<double>{0.005, 0.05, 0.3, 1.0}[trial % 4];
    std::uniform_real_distribution<double> u(0, 1);
    std::vector<std::uint8_t> expected_snapshot(l.total, 0);
    for (const CounterRegion& r : l.regions) {
      for (std::size_t i = 0; i < r.size; ++i) {
        if (u(rng) < density) r.begin[i] = static_cast<std::uint8_t>(1 + rng() % 255);
        expected_snapshot[r.offset + i] = naive_bucket(r.begin[i]);
      }
    }
    // Masks of four kinds: random; a superset of this run's buckets except (sometimes) one
    // bit; everything; none at all (nullptr).
    const int kind = static_cast<int>(rng() % 4);
    std::vector<std::uint8_t> mask(l.total + 8, 0);
    for (std::size_t i = 0; i < l.total; ++i) {
      if (kind == 0) mask[i] = static_cast<std::uint8_t>(rng() & rng());
      if (kind == 1) mask[i] = expected_snapshot[i] | static_cast<std::uint8_t>(rng() & rng());
      if (kind == 2) mask[i] = 0xff;
    }
    if (kind == 1 && l.total > 0 && rng() % 2 == 0) {
      std::size_t i = rng() % l.total;
      mask[i] &= static_cast<std::uint8_t>(~expected_snapshot[i]);
    }
    const std::uint8_t* mask_ptr = kind == 3 ? nullptr : mask.data();
    bool naive_fresh = false;
    for (std::size_t i = 0; i < l.total; ++i) {
      std::uint8_t m = mask_ptr != nullptr ? mask[i] : 0;
      naive_fresh = naive_fresh || (expected_snapshot[i] & ~m) != 0;
    }

    // Exactly the room the header asks for, plus a sentinel that must survive.
    std::size_t room = 0;
    for (const CounterRegion& r : l.regions) room += r.size / 8 + 16;
    std::vector<CounterScanner::Touched> touched(room + 1);
    touched[room] = CounterScanner::Touched{12345, 678, 9};
    std::size_t touched_count = 999999;
    const std::vector<std::uint64_t> before = l.storage;

    CounterScanner scanner;
    const bool fresh =
        scanner.scan_and_clear(l.regions.data(), l.regions.size(), mask_ptr, touched.data(), &touched_count);
    ASSERT_EQ(fresh, naive_fresh) << "trial " << trial << ", mask kind " << kind;
    (fresh ? fresh_results : stale_results)++;
    ASSERT_LE(touched_count, room);
    ASSERT_EQ(touched[room].index, 12345u);

    // Every counter read is cleared; nothing outside the regions is touched.
    std::vector<bool> inside(l.byte_size(), false);
    for (const CounterRegion& r : l.regions) {
      for (std::size_t i = 0; i < r.size; ++i) {
        ASSERT_EQ(r.begin[i], 0) << "trial " << trial;
        inside[static_cast<std::size_t>(r.begin + i - l.bytes())] = true;
      }
    }
    const auto* old_bytes = reinterpret_cast<const std::uint8_t*>(before.data());
    for (std::size_t i = 0; i < l.byte_size(); ++i) {
      if (!inside[i]) {
        ASSERT_EQ(l.bytes()[i], old_bytes[i]) << "trial " << trial << ", byte " << i;
      }
    }

    // The snapshot is the naive bucketed copy, whatever the buffer held before.
    // (One spare byte, which must stay as it was, and which keeps data() non-null.)
    std::vector<std::uint8_t> snapshot(l.total + 1, 0xcc);
    CounterScanner::write_snapshot(touched.data(), touched_count, snapshot.data(), l.total);
    ASSERT_EQ(snapshot.back(), 0xcc);
    snapshot.pop_back();
    ASSERT_EQ(snapshot, expected_snapshot) << "trial " << trial;

    // A second scan finds nothing: the counters were cleared.
    ASSERT_FALSE(scanner.scan_and_clear(l.regions.data(), l.regions.size(), nullptr, touched.data(), &touched_count));
    ASSERT_EQ(touched_count, 0u);
  }
  // Both answers occurred many times, so the comparison meant something.
  EXPECT_GT(fresh_results, 500);
  EXPECT_GT(stale_results, 500);
}

TEST(Coverage, ScanSeesCountersInTheUnalignedHeadAndTailOfARegion) {
  alignas(8) std::uint8_t buf[48] = {};
  // 3 bytes past an aligned address, 23 counters: a head of 5 read one at a time, two
  // words, and a tail of 2 read one at a time.
  CounterRegion region{buf + 3, 23, 100};
  std::vector<CounterScanner::Touched> touched(23 / 8 + 16);
  std::size_t n = 0;
  std::vector<std::uint8_t> mask(123, 0);
  CounterScanner scanner;
  for (std::size_t i : {0u, 4u, 5u, 12u, 13u, 20u, 21u, 22u}) {
    buf[3 + i] = 2;  // bucket bit 2
    mask[100 + i] = 2;
    EXPECT_FALSE(scanner.scan_and_clear(&region, 1, mask.data(), touched.data(), &n)) << i;
    EXPECT_EQ(n, 1u) << i;
    buf[3 + i] = 3;  // bucket bit 4: new
    EXPECT_TRUE(scanner.scan_and_clear(&region, 1, mask.data(), touched.data(), &n)) << i;
    std::vector<std::uint8_t> snapshot(123, 0xcc);
    CounterScanner::write_snapshot(touched.data(), n, snapshot.data(), snapshot.size());
    for (std::size_t k = 0; k < snapshot.size(); ++k) {
      EXPECT_EQ(snapshot[k], k == 100 + i ? 4 : 0) << "counter " << i << ", index " << k;
    }
    mask[100 + i] = 0;
  }
}

TEST(Coverage, ClearZeroesEveryRegion) {
  std::vector<std::uint8_t> a(13, 7), b(64, 9);
  const CounterRegion regions[] = {{a.data(), a.size(), 0}, {b.data() + 1, 60, 13}};
  CounterScanner::clear(regions, 2);
  EXPECT_EQ(a, std::vector<std::uint8_t>(13, 0));
  EXPECT_EQ(b[0], 9);
  for (std::size_t i = 1; i < 61; ++i) EXPECT_EQ(b[i], 0) << i;
  EXPECT_EQ(b[61], 9);
}

}  // namespace
}  // namespace cfuzz::core
