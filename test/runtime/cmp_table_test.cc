// The table of recent comparisons (runtime/engine/cmp_table.h), the input-to-state stage's view of
// the base input's run: a comparison that the table loses is one the stage never answers.
#include "runtime/engine/cmp_table.h"

#include <cstdint>
#include <set>
#include <tuple>

#include <gtest/gtest.h>

namespace fuzzer::cfuzz {
namespace {

std::size_t comparisons_kept(const CmpTable& t) {
  std::set<std::tuple<std::uint32_t, std::uint64_t, std::uint64_t>> kept;
  for (std::size_t i = 0; i < CmpTable::kIntSlots; ++i) {
    const CmpTable::IntCmp& c = t.int_slot(i);
    if (c.width != 0) kept.emplace(c.site, c.a, c.b);
  }
  return kept.size();
}

// The place of the k-th comparison site. CmpTable hashes a site by its offset from the
// runtime's code, which moves with it under address space randomization; a test's sites
// must move with it too, or the slots they hash to change from run to run.
std::uintptr_t site_pc(std::uint64_t k) { return reinterpret_cast<std::uintptr_t>(&cmp_table) + 0x4000 + 16 * k; }

TEST(CmpTable, KeepsTheComparisonsOfARunThatFillAnEighthOfIt) {
  // 128 comparisons, each of a size with its constant at a site of its own (a parser's
  // checks of one input). Hashed to one slot each, 8 of them are lost to a later one.
  static CmpTable t;  // 50 KB: not on the stack
  t.clear();
  t.set_enabled(true);
  t.set_probing(true);
  for (std::uint64_t k = 0; k < 128; ++k) t.record_int(site_pc(k), 6, k % 5, 8, true);
  EXPECT_EQ(comparisons_kept(t), 128u);
  // Recorded again, each finds itself: nothing is kept twice.
  for (std::uint64_t k = 0; k < 128; ++k) t.record_int(site_pc(k), 6, k % 5, 8, true);
  EXPECT_EQ(comparisons_kept(t), 128u);
  std::size_t slots_used = 0;
  for (std::size_t i = 0; i < CmpTable::kIntSlots; ++i) slots_used += t.int_slot(i).width != 0;
  EXPECT_EQ(slots_used, 128u);
}

TEST(CmpTable, KeepsFewerWithoutProbing) {
  // The mutants' runs record each comparison in its own slot: some of the 128 are lost.
  static CmpTable t;
  t.clear();
  t.set_enabled(true);
  t.set_probing(false);
  for (std::uint64_t k = 0; k < 128; ++k) t.record_int(site_pc(k), 6, k % 5, 8, true);
  EXPECT_LT(comparisons_kept(t), 128u);
}

TEST(CmpTable, RecordsNothingWhileOff) {
  static CmpTable t;
  t.clear();
  t.set_enabled(false);
  t.record_int(site_pc(0), 6, 1, 8, true);
  EXPECT_EQ(comparisons_kept(t), 0u);
}

}  // namespace
}  // namespace fuzzer::cfuzz
