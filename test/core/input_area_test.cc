// Moving entries in and out of input areas: every type round-trips, scalars sit in their
// slots in canonical form, and what does not fit or is corrupt is refused.
#include "core/input_area.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "corpus_format/value.h"
#include "test/core/test_area.h"

namespace cfuzz::core {
namespace {

using core_test::area_with;
using core_test::bytes_of;
using core_test::HeapArea;
using corpus::Entry;

TEST(InputArea, EntriesOfEveryTypeRoundTripThroughAnArea) {
  const Entry entry = {bytes_of(std::string("\0\xff", 2)),
                       std::string("\xe2\x82\xac"),
                       true,
                       std::uint8_t{255},
                       std::int32_t{-2147483647 - 1},
                       corpus::GoInt{std::numeric_limits<long long>::min()},
                       std::int8_t{-128},
                       std::int16_t{-1},
                       std::int64_t{std::numeric_limits<std::int64_t>::max()},
                       corpus::GoUint{~0ULL},
                       std::uint16_t{65535},
                       std::uint32_t{4294967295u},
                       std::uint64_t{1},
                       -0.0f,
                       std::nan("0x123")};
  const HeapArea a = area_with(entry, 8);
  EXPECT_TRUE(corpus::same_entry(load_entry(a.header()), entry));
  // Signed values are sign-extended in their slots, unsigned ones zero-extended.
  EXPECT_EQ(a.header().slots[4].bits, 0xffffffff80000000ULL);
  EXPECT_EQ(a.header().slots[6].bits, 0xffffffffffffff80ULL);
  EXPECT_EQ(a.header().slots[3].bits, 0xffu);
  EXPECT_EQ(a.header().slots[10].bits, 0xffffu);
  EXPECT_EQ(a.header().slots[13].bits, 0x80000000u);  // float32 in the low half
  EXPECT_EQ(entry_size(entry), 5u);
}

TEST(InputArea, StoreRefusesEntriesThatDoNotFit) {
  HeapArea a(4, kMaxValues + 1);
  EXPECT_THROW(store_entry(a.header(), Entry{std::string("12345")}), std::length_error);
  EXPECT_THROW(store_entry(a.header(), Entry(kMaxValues + 1, corpus::Value{true})), std::length_error);
  EXPECT_NO_THROW(store_entry(a.header(), Entry{std::string("1234")}));
}

TEST(InputArea, LoadRefusesACorruptArea) {
  HeapArea a = area_with(Entry{bytes_of("abc"), std::int8_t{1}}, 8);
  a.header().count = kMaxValues + 1;
  EXPECT_THROW(load_entry(a.header()), std::runtime_error);
  a.header().count = 2;
  a.header().slots[1].type = corpus::kTypeCount;
  EXPECT_THROW(load_entry(a.header()), std::runtime_error);
  a.header().slots[1].type = static_cast<std::uint8_t>(corpus::Type::Int8);
  a.header().slots[0].len = 9;
  EXPECT_THROW(load_entry(a.header()), std::runtime_error);
  a.header().slots[0].len = 8;
  EXPECT_NO_THROW(load_entry(a.header()));
}

// The area's own `slot_capacity` lives in shared memory a target may scribble on; the
// caller's knowledge of the area's size bounds values too. Here an area of 16-byte slots
// claims 1 MiB slots and a 1000-byte value.
TEST(InputArea, LoadRefusesAValueLongerThanTheRealSlotEvenIfTheCapacityWasScribbled) {
  HeapArea a = area_with(Entry{bytes_of("abc")}, 16);
  a.header().slot_capacity = 1 << 20;
  a.header().slots[0].len = 1000;
  EXPECT_THROW(load_entry(a.header(), a.size()), std::runtime_error);
  EXPECT_THROW(store_entry(a.header(), Entry{corpus::Bytes(1000, 1)}, a.size()), std::length_error);
}

// A scribbled capacity puts the second slot outside the area even when every length is
// small: the slot offsets themselves must be checked (this read crashed the coordinator).
TEST(InputArea, LoadRefusesSlotsThatWouldLieOutsideTheArea) {
  HeapArea a = area_with(Entry{bytes_of("abc"), bytes_of("de")}, 16);
  a.header().slot_capacity = std::uint64_t{1} << 40;
  a.header().slots[0].len = 1;
  a.header().slots[1].len = 1;
  EXPECT_THROW(load_entry(a.header(), a.size()), CorruptInput);
}

}  // namespace
}  // namespace cfuzz::core
