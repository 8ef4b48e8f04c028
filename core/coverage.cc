#include "core/coverage.h"

#include <bit>

static_assert(std::endian::native == std::endian::little, "counter groups are packed little-endian into words");

namespace cfuzz::core {

std::size_t count_new_bits(const std::uint8_t* snapshot, const std::uint8_t* mask, std::size_t n) {
  std::size_t bits = 0;
  for (std::size_t i = 0; i < n; ++i) {
    bits += static_cast<std::size_t>(std::popcount(static_cast<unsigned>(snapshot[i] & ~mask[i])));
  }
  return bits;
}

bool covers(const std::uint8_t* snapshot, const std::uint8_t* required, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    if ((required[i] & ~snapshot[i]) != 0) return false;
  }
  return true;
}

std::size_t merge_into_mask(std::uint8_t* mask, const std::uint8_t* snapshot, std::size_t n) {
  std::size_t added = 0;
  for (std::size_t i = 0; i < n; ++i) {
    auto fresh = static_cast<std::uint8_t>(snapshot[i] & ~mask[i]);
    if (fresh != 0) {
      added += static_cast<std::size_t>(std::popcount(static_cast<unsigned>(fresh)));
      mask[i] |= fresh;
    }
  }
  return added;
}

std::size_t count_bits(const std::uint8_t* mask, std::size_t n) {
  std::size_t bits = 0;
  for (std::size_t i = 0; i < n; ++i) bits += static_cast<std::size_t>(std::popcount(static_cast<unsigned>(mask[i])));
  return bits;
}

std::size_t count_covered(const std::uint8_t* mask, std::size_t n) {
  std::size_t covered = 0;
  for (std::size_t i = 0; i < n; ++i) covered += mask[i] != 0;
  return covered;
}

namespace {

inline std::uint64_t load_mask(const std::uint8_t* mask, std::size_t index, std::size_t len) {
  std::uint64_t m = 0;
  std::memcpy(&m, mask + index, len);
  return m;
}

}  // namespace

bool CounterScanner::scan_and_clear(const CounterRegion* regions, std::size_t region_count, const std::uint8_t* mask,
                                    Touched* touched, std::size_t* touched_count) {
  bool fresh = false;
  std::size_t nt = 0;
  auto note = [&](std::size_t index, std::uint64_t raw, std::size_t len) {
    std::uint64_t b = bucket_word(raw);
    touched[nt++] = Touched{index, b, len};
    std::uint64_t m = mask != nullptr ? load_mask(mask, index, len) : 0;
    if ((b & ~m) != 0) fresh = true;
  };

  for (std::size_t r = 0; r < region_count; ++r) {
    std::uint8_t* p = regions[r].begin;
    std::uint8_t* end = p + regions[r].size;
    std::size_t index = regions[r].offset;
    // Unaligned head, one counter at a time.
    while (p < end && (reinterpret_cast<std::uintptr_t>(p) & 7) != 0) {
      if (*p != 0) {
        note(index, *p, 1);
        *p = 0;
      }
      ++p;
      ++index;
    }
    // The bulk: one aligned load per 8 counters; zero words cost nothing more.
    for (; p + 8 <= end; p += 8, index += 8) {
      std::uint64_t w = *reinterpret_cast<std::uint64_t*>(p);
      if (w == 0) continue;
      *reinterpret_cast<std::uint64_t*>(p) = 0;
      note(index, w, 8);
    }
    for (; p < end; ++p, ++index) {
      if (*p != 0) {
        note(index, *p, 1);
        *p = 0;
      }
    }
  }
  *touched_count = nt;
  return fresh;
}

void CounterScanner::write_snapshot(const Touched* touched, std::size_t touched_count, std::uint8_t* snapshot,
                                    std::size_t n) {
  std::memset(snapshot, 0, n);
  for (std::size_t i = 0; i < touched_count; ++i) {
    std::memcpy(snapshot + touched[i].index, &touched[i].bucketed, touched[i].len);
  }
}

}  // namespace cfuzz::core
