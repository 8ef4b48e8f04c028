// The batch and features areas of exec_batch: entries round-trip, packing stops where the
// area ends, and malformed areas (a target may write anything over shared memory) are
// refused rather than read out of bounds.
#include "core/exec_batch.h"

#include <cstring>
#include <vector>

#include <gtest/gtest.h>

#include "core/input_area.h"

namespace cfuzz::core {
namespace {

corpus::Entry bytes_entry(std::size_t n, std::uint8_t fill) { return {corpus::Bytes(n, fill)}; }

TEST(ExecBatch, EntriesOfEveryTypeRoundTrip) {
  std::vector<corpus::Entry> entries = {
      {corpus::Bytes{1, 2, 3}, std::string("héllo"), std::int64_t{-5}, std::uint16_t{65535}, true, 1.5, 2.5f},
      {corpus::Bytes{}},
      {},
      {std::int8_t{-128}, std::int32_t{-7}, corpus::GoInt{-1}, corpus::GoUint{~0ULL}},
  };
  std::vector<const corpus::Entry*> ptrs;
  for (const auto& e : entries) ptrs.push_back(&e);
  std::vector<std::uint8_t> area(4096);
  ASSERT_EQ(pack_batch(area.data(), area.size(), ptrs), entries.size());
  std::vector<corpus::Entry> back = unpack_batch(area.data(), area.size());
  ASSERT_EQ(back.size(), entries.size());
  for (std::size_t i = 0; i < entries.size(); ++i) EXPECT_TRUE(corpus::same_entry(back[i], entries[i])) << i;
}

TEST(ExecBatch, PacksOnlyWhatFitsAndNothingWhenTheFirstDoesNot) {
  std::vector<corpus::Entry> entries = {bytes_entry(100, 'a'), bytes_entry(100, 'b'), bytes_entry(100, 'c')};
  std::vector<const corpus::Entry*> ptrs;
  for (const auto& e : entries) ptrs.push_back(&e);
  // Header 8, then 4 + 9 + 100 = 113 per entry: two fit in 240 bytes, not three.
  std::vector<std::uint8_t> area(240);
  ASSERT_EQ(pack_batch(area.data(), area.size(), ptrs), 2u);
  auto back = unpack_batch(area.data(), area.size());
  ASSERT_EQ(back.size(), 2u);
  EXPECT_TRUE(corpus::same_entry(back[1], entries[1]));
  std::vector<corpus::Entry> big = {bytes_entry(1000, 'z')};
  EXPECT_EQ(pack_batch(area.data(), area.size(), {&big[0]}), 0u);
  EXPECT_TRUE(unpack_batch(area.data(), area.size()).empty());
}

TEST(ExecBatch, AMalformedBatchAreaIsRefused) {
  std::vector<corpus::Entry> entries = {bytes_entry(10, 'a')};
  std::vector<std::uint8_t> area(64);
  ASSERT_EQ(pack_batch(area.data(), area.size(), {&entries[0]}), 1u);
  auto damaged = area;
  std::uint64_t huge = 1ULL << 40;  // the byte length of the first value
  std::memcpy(damaged.data() + 8 + 4 + 1, &huge, sizeof huge);
  EXPECT_THROW(unpack_batch(damaged.data(), damaged.size()), CorruptInput);
  damaged = area;
  damaged[8 + 4] = 200;  // no such type
  EXPECT_THROW(unpack_batch(damaged.data(), damaged.size()), CorruptInput);
  damaged = area;
  std::uint32_t many = 1000;  // more inputs than the area holds
  std::memcpy(damaged.data(), &many, sizeof many);
  EXPECT_THROW(unpack_batch(damaged.data(), damaged.size()), CorruptInput);
}

TEST(ExecBatch, FeaturesAreReadBackPerInputAndAFullAreaTakesNoMore) {
  std::vector<std::uint8_t> area(16 + 4 * 7);
  BatchFeatureWriter out(area.data(), area.size());
  EXPECT_TRUE(out.add({8, 17, 42}));
  EXPECT_TRUE(out.add({}));
  EXPECT_FALSE(out.add({1, 2}));  // 12 bytes, 8 left
  EXPECT_TRUE(out.add({3}));
  auto back = read_batch_features(area.data(), area.size(), 5);
  ASSERT_EQ(back.size(), 3u);
  EXPECT_EQ(back[0], (std::vector<std::uint32_t>{8, 17, 42}));
  EXPECT_TRUE(back[1].empty());
  EXPECT_EQ(back[2], (std::vector<std::uint32_t>{3}));
  // More inputs recorded than were sent, or a count past the area: refused.
  EXPECT_THROW(read_batch_features(area.data(), area.size(), 2), CorruptInput);
  auto damaged = area;
  std::uint32_t n = 0xa5a5a5a5;
  std::memcpy(damaged.data() + 16, &n, sizeof n);
  EXPECT_THROW(read_batch_features(damaged.data(), damaged.size(), 5), CorruptInput);
  std::memset(damaged.data(), 0xa5, damaged.size());
  EXPECT_THROW(read_batch_features(damaged.data(), damaged.size(), 300), CorruptInput);
}

}  // namespace
}  // namespace cfuzz::core
