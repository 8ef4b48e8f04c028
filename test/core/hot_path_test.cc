// The worker's per-execution path (mutate, then scan the counters) allocates nothing:
// CONTRIBUTING.md makes it a rule. This file replaces the global operator new to count
// allocations, so it is only part of the plain test binary (the sanitizers bring their
// own allocator).
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "core/coverage.h"
#include "core/mutator.h"
#include "core/pcg.h"
#include "test/core/test_area.h"

namespace {
std::atomic<std::uint64_t> g_allocations{0};
}  // namespace

void* operator new(std::size_t n) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n) { return operator new(n); }
// gcc 12 takes the replaced operators' malloc/free for a mismatched pair.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

namespace cfuzz::core {
namespace {

using core_test::area_with;
using core_test::bytes_of;
using core_test::HeapArea;
using corpus::Entry;

class FixedWords : public WordSource {
 public:
  std::string_view pick_word(Pcg& rng) const override {
    static constexpr std::string_view kWords[] = {"GET ", "Content-Length", "\xff\xfe"};
    return kWords[rng.below(3)];
  }
  bool replacement_for(const std::uint8_t*, std::size_t len, Pcg& rng, Replacement* out) const override {
    if (len == 0) return false;
    *out = Replacement{rng.below(len), 1, "\x7f\x7f\x7f"};
    return true;
  }
  bool integer_for(std::uint64_t, int, Pcg&, std::uint64_t* out) const override {
    *out = 0x4142;
    return true;
  }
};

TEST(HotPath, CountingAllocationsWorks) {
  // The counter sees an allocation, so a zero below means something.
  const std::uint64_t before = g_allocations.load();
  auto* p = new std::string(100, 'x');
  delete p;
  EXPECT_GT(g_allocations.load(), before);
}

TEST(HotPath, MutatingAllocatesNothing) {
  const Entry start = {
      bytes_of("GET /index.html HTTP/1.0"), std::string("text"), std::int64_t{5}, 1.5, true, std::uint8_t{9}, 2.5f};
  const HeapArea base = area_with(start, 512);
  const HeapArea partner = area_with(Entry{bytes_of("POST / HTTP/1.1\r\nHost: x\r\n"), std::string("other"),
                                           std::int64_t{7}, 0.5, false, std::uint8_t{1}, 1.0f},
                                     512);
  HeapArea current = base;
  FixedWords words;
  Mutator m(300);
  m.set_words(&words);
  Pcg r(1, 1);
  const std::uint64_t before = g_allocations.load();
  for (int i = 0; i < 20000; ++i) {
    // Go's chains: five mutations, then back to the base input.
    if (i % 5 == 0) copy_input_area(base.header(), current.header());
    m.mutate(current.header(), &partner.header(), r);
  }
  EXPECT_EQ(g_allocations.load() - before, 0u);
}

TEST(HotPath, ScanningCountersAllocatesNothing) {
  std::vector<std::uint64_t> storage(512);
  auto* bytes = reinterpret_cast<std::uint8_t*>(storage.data());
  const CounterRegion regions[] = {{bytes + 3, 1001, 0}, {bytes + 2048, 700, 1001}};
  std::vector<std::uint8_t> mask(1701), snapshot(1701);
  std::vector<CounterScanner::Touched> touched(1701 / 8 + 32);
  CounterScanner scanner;
  Pcg r(2, 1);
  std::size_t n = 0;
  const std::uint64_t before = g_allocations.load();
  for (int i = 0; i < 2000; ++i) {
    for (int k = 0; k < 20; ++k) {
      const CounterRegion& reg = regions[r.below(2)];
      reg.begin[r.below(reg.size)] += 1;
    }
    if (scanner.scan_and_clear(regions, 2, mask.data(), touched.data(), &n)) {
      CounterScanner::write_snapshot(touched.data(), n, snapshot.data(), snapshot.size());
      merge_into_mask(mask.data(), snapshot.data(), mask.size());
    }
  }
  EXPECT_EQ(g_allocations.load() - before, 0u);
}

}  // namespace
}  // namespace cfuzz::core
