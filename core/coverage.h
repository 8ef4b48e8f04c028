// Coverage as AFL and libFuzzer see it: SanitizerCoverage's 8-bit per-edge counters, each
// bucketed by hit count (1, 2, 3, 4-7, 8-15, 16-31, 32-127, 128+; one bit per bucket),
// compared with a mask that records, per counter, every bucket some corpus entry has
// reached.
//
// The scan runs after every execution in the worker, so it reads the counters a machine
// word at a time, skips zero words, and clears the words it found non-zero: the cost is one
// load per 8 counters plus work proportional to the counters the input actually touched.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace cfuzz::core {

// 0→0, 1→1, 2→2, 3→4, 4..7→8, 8..15→16, 16..31→32, 32..127→64, 128..255→128.
// Go rounds down to a power of two, which puts 2 and 3 in one bucket: a loop or a
// function that runs once per field then cannot show its third field getting through
// (three fields of a record each passing a range check), and the search stalls there.
inline constexpr std::uint8_t bucket_counter(std::uint8_t c) {
  if (c <= 2) return c;
  if (c == 3) return 4;
  if (c < 8) return 8;
  if (c < 16) return 16;
  if (c < 32) return 32;
  if (c < 128) return 64;
  return 128;
}

// The hit count that bucket_counter turns into bucket bit k: how a counter the runtime sets
// itself (the stack-depth steps, the value profile) names the one bucket it means.
inline constexpr std::uint8_t kCountForBucket[8] = {1, 2, 3, 4, 8, 16, 32, 128};
static_assert([] {
  for (int k = 0; k < 8; ++k) {
    if (bucket_counter(kCountForBucket[k]) != (1 << k)) return false;
  }
  return true;
}());

struct BucketTable {
  std::uint8_t v[256];
  constexpr BucketTable() : v{} {
    for (int i = 0; i < 256; ++i) v[i] = bucket_counter(static_cast<std::uint8_t>(i));
  }
};
inline constexpr BucketTable kBuckets{};

// Bucketizes the 8 counters packed in `w` (any byte order, byte-wise).
inline std::uint64_t bucket_word(std::uint64_t w) {
  std::uint64_t out = 0;
  for (int shift = 0; shift < 64; shift += 8) {
    out |= std::uint64_t{kBuckets.v[(w >> shift) & 0xff]} << shift;
  }
  return out;
}

// Number of bits set in `snapshot` that are not in `mask`: the new coverage.
std::size_t count_new_bits(const std::uint8_t* snapshot, const std::uint8_t* mask, std::size_t n);
// True when every bit of `required` is also set in `snapshot`.
bool covers(const std::uint8_t* snapshot, const std::uint8_t* required, std::size_t n);
// mask |= snapshot; returns the number of bits added.
std::size_t merge_into_mask(std::uint8_t* mask, const std::uint8_t* snapshot, std::size_t n);
// Number of bits set: the coverage "features" a mask holds.
std::size_t count_bits(const std::uint8_t* mask, std::size_t n);
// Number of counters with at least one bucket bit set.
std::size_t count_covered(const std::uint8_t* mask, std::size_t n);

// A contiguous counter array of one module, placed at `offset` in the global index space.
struct CounterRegion {
  std::uint8_t* begin;
  std::size_t size;
  std::size_t offset;
};

// Scans the counters after one execution. For every non-zero word: clears it in the
// target, remembers its bucketed value, and checks it against the mask. Call
// `write_snapshot` afterwards to materialize the full bucketed snapshot when needed (only
// on the rare executions worth reporting). The touched list must have room for one entry
// per 8 counters plus 16 per region (unaligned edges); it is preallocated once by the owner.
class CounterScanner {
 public:
  struct Touched {
    std::size_t index;       // global counter index of the first byte of the group
    std::uint64_t bucketed;  // up to 8 bucketed counters, first counter in the low byte
    std::size_t len;         // counters in the group: 8, or fewer at unaligned region edges
  };

  // Returns true if any bucket bit is not in `mask`. `mask` may be null (everything new).
  bool scan_and_clear(const CounterRegion* regions, std::size_t region_count, const std::uint8_t* mask,
                      Touched* touched, std::size_t* touched_count);

  // Writes the bucketed counters of the last scan into `snapshot` (length `n`).
  static void write_snapshot(const Touched* touched, std::size_t touched_count, std::uint8_t* snapshot, std::size_t n);

  static void clear(const CounterRegion* regions, std::size_t region_count) {
    for (std::size_t r = 0; r < region_count; ++r) std::memset(regions[r].begin, 0, regions[r].size);
  }
};

}  // namespace cfuzz::core
