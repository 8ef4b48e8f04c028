// The shared-memory region: areas that fit and do not overlap, a header check that
// refuses anything it cannot trust, and moving entries in and out of input areas.
#include "core/shm_layout.h"

#include <algorithm>
#include <cstdint>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "core/input_area.h"
#include "corpus_format/value.h"
#include "test/core/test_area.h"

namespace cfuzz::core {
namespace {

using core_test::area_with;
using core_test::bytes_of;
using core_test::HeapArea;
using corpus::Bytes;
using corpus::Entry;

// A zeroed, page-aligned buffer the size of a real region, with a fresh header.
class Region {
 public:
  explicit Region(const ShmGeometry& g) : size_(g.total_size) {
    mem_ = static_cast<std::uint8_t*>(::operator new (size_, std::align_val_t{4096}));
    std::fill(mem_, mem_ + size_, 0);
    shm_init_header(mem_, g);
  }
  ~Region() { ::operator delete (mem_, std::align_val_t{4096}); }
  Region(const Region&) = delete;
  Region& operator=(const Region&) = delete;

  void* base() const { return mem_; }
  std::uint64_t size() const { return size_; }
  ShmHeader& header() const { return ShmView(mem_).header(); }

 private:
  std::uint64_t size_;
  std::uint8_t* mem_;
};

TEST(ShmLayout, AreasDoNotOverlapAndFitInTheRegion) {
  const std::uint64_t capacities[] = {0, 1, 7, 4096, 4097, 1 << 20};
  const std::uint32_t values[] = {0, 1, 3, kMaxValues};
  const std::uint64_t counters[] = {0, 1, 4095, 4096, 100001};
  for (std::uint64_t cap : capacities) {
    for (std::uint32_t n : values) {
      for (std::uint64_t c : counters) {
        const ShmGeometry g = shm_geometry(cap, n, c);
        SCOPED_TRACE("capacity " + std::to_string(cap) + ", values " + std::to_string(n) + ", counters " +
                     std::to_string(c));
        EXPECT_GE(g.input_area_size, input_area_size(cap, std::max<std::uint32_t>(n, 1)));
        EXPECT_GE(g.counters_capacity, c);
        std::vector<std::pair<std::uint64_t, std::uint64_t>> spans = {
            {0, sizeof(ShmHeader)},
            {g.base_offset, g.input_area_size},
            {g.current_offset, g.input_area_size},
            {g.best_offset, g.input_area_size},
            {g.splice_offset, g.input_area_size},
            {g.mask_offset, g.counters_capacity},
            {g.snapshot_offset, g.counters_capacity},
        };
        for (std::size_t i = 0; i < spans.size(); ++i) {
          EXPECT_LE(spans[i].first + spans[i].second, g.total_size) << "span " << i;
          EXPECT_EQ(spans[i].first % alignof(InputAreaHeader), 0u) << "span " << i;
          for (std::size_t k = i + 1; k < spans.size(); ++k) {
            bool disjoint = spans[i].first + spans[i].second <= spans[k].first ||
                            spans[k].first + spans[k].second <= spans[i].first;
            EXPECT_TRUE(disjoint) << "spans " << i << " and " << k;
          }
        }
      }
    }
  }
}

TEST(ShmLayout, AFreshHeaderIsValid) {
  const ShmGeometry g = shm_geometry(1000, 3, 5000);
  Region r(g);
  EXPECT_TRUE(shm_header_valid(r.base(), r.size()));
  // Every input area starts empty with the region's slot capacity.
  ShmView v(r.base());
  for (InputAreaHeader* a : {&v.base(), &v.current(), &v.best(), &v.splice()}) {
    EXPECT_EQ(a->count, 0u);
    EXPECT_EQ(a->slot_capacity, 1000u);
  }
  // A mapping larger than the region is fine; a smaller one is not.
  EXPECT_TRUE(shm_header_valid(r.base(), r.size() + 4096));
  EXPECT_FALSE(shm_header_valid(r.base(), r.size() - 1));
  EXPECT_FALSE(shm_header_valid(r.base(), sizeof(ShmHeader) - 1));
}

TEST(ShmLayout, HeaderCheckRejectsEachKindOfDamage) {
  const ShmGeometry g = shm_geometry(64, 2, 100);
  struct Damage {
    const char* what;
    void (*apply)(ShmHeader&);
  };
  const Damage damages[] = {
      {"magic", [](ShmHeader& h) { h.magic ^= 1; }},
      {"version", [](ShmHeader& h) { h.version = kShmVersion + 1; }},
      {"header size", [](ShmHeader& h) { h.header_size -= 8; }},
      {"total size", [](ShmHeader& h) { h.total_size += 1; }},
      {"base offset", [](ShmHeader& h) { h.base_offset = h.total_size - h.input_area_size + 1; }},
      {"current offset", [](ShmHeader& h) { h.current_offset = h.total_size; }},
      {"best offset", [](ShmHeader& h) { h.best_offset = ~std::uint64_t{0}; }},
      {"splice offset", [](ShmHeader& h) { h.splice_offset = h.total_size + 4096; }},
      {"area size", [](ShmHeader& h) { h.input_area_size = h.total_size; }},
      {"area size wraps", [](ShmHeader& h) { h.input_area_size = ~std::uint64_t{0} - 100; }},
      {"mask offset", [](ShmHeader& h) { h.mask_offset = h.total_size - h.counters_capacity + 1; }},
      {"snapshot offset", [](ShmHeader& h) { h.snapshot_offset = ~std::uint64_t{0} - 10; }},
      {"counter capacity", [](ShmHeader& h) { h.counters_capacity = h.total_size; }},
      {"counters beyond capacity", [](ShmHeader& h) { h.counters_len = h.counters_capacity + 1; }},
  };
  for (const Damage& d : damages) {
    Region r(g);
    ASSERT_TRUE(shm_header_valid(r.base(), r.size()));
    d.apply(r.header());
    EXPECT_FALSE(shm_header_valid(r.base(), r.size())) << d.what;
  }
  Region r(g);
  r.header().counters_len = r.header().counters_capacity;  // full is fine
  EXPECT_TRUE(shm_header_valid(r.base(), r.size()));
}

// An input area must hold at least its own header: with input_area_size = 0 and
// base_offset = total_size, ShmView::base() would refer to memory past the end.
TEST(ShmLayout, HeaderCheckRejectsInputAreasTooSmallForTheirOwnHeader) {
  const ShmGeometry g = shm_geometry(64, 2, 100);
  Region r(g);
  r.header().input_area_size = 0;
  r.header().base_offset = r.header().total_size;
  EXPECT_FALSE(shm_header_valid(r.base(), r.size()));
}

TEST(ShmLayout, CopyInputAreaCopiesEveryValue) {
  const Entry entry = {bytes_of("some bytes\0with a nul"), std::string("text"), std::int64_t{-5}, Bytes{}, 2.5f, true};
  const HeapArea from = area_with(entry, 32);
  HeapArea to(32, 6);
  // Leftovers in the destination must not survive.
  core::store_entry(to.header(),
                    Entry{std::string(32, 'x'), std::string(32, 'y'), std::int64_t{1}, bytes_of("old"), 0.0f, false});
  copy_input_area(from.header(), to.header());
  EXPECT_TRUE(corpus::same_entry(load_entry(to.header()), entry));
  EXPECT_EQ(to.header().slot_capacity, 32u);
}

TEST(ShmLayout, CopyInputAreaCopiesAFewerValuedEntryOverALongerOne) {
  const HeapArea from = area_with(Entry{std::string("a")}, 16);
  HeapArea to = area_with(Entry{std::string("bbb"), std::string("ccc")}, 16);
  copy_input_area(from.header(), to.header());
  EXPECT_EQ(to.header().count, 1u);
  EXPECT_TRUE(corpus::same_entry(load_entry(to.header()), Entry{std::string("a")}));
}

}  // namespace
}  // namespace cfuzz::core
