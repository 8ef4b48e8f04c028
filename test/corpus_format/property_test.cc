// Properties over many random entries of all fifteen types: encoding then decoding gives
// the same values bit for bit, and the encoding is a fixed point.
#include <bit>
#include <random>

#include <gtest/gtest.h>

#include "corpus_format/codec.h"
#include "corpus_format/go_number.h"
#include "corpus_format/go_quote.h"
#include "test/corpus_format/test_support.h"

namespace cfuzz::corpus {
namespace {

TEST(Property, RandomEntriesRoundTripBitForBit) {
  std::mt19937_64 rng(20240501);
  for (int i = 0; i < 20000; ++i) {
    const Entry entry = testing::random_entry(rng);
    const std::string file = encode(entry);
    Entry back;
    ASSERT_NO_THROW(back = decode(file, "random")) << file;
    ASSERT_TRUE(same_entry(entry, back)) << "file:\n"
                                         << file << "wrote: " << testing::describe_all(entry)
                                         << "\nread:  " << testing::describe_all(back);
    ASSERT_EQ(encode(back), file);
  }
}

TEST(Property, AwkwardValuesOfEveryTypeRoundTrip) {
  for (int t = 0; t < kTypeCount; ++t) {
    for (const Value& v : testing::awkward_values(static_cast<Type>(t))) {
      const std::string file = encode({v});
      const Entry back = decode(file, "awkward");
      ASSERT_EQ(back.size(), 1u);
      EXPECT_TRUE(same_value(v, back[0])) << file;
      EXPECT_EQ(encode(back), file);
    }
  }
}

TEST(Property, EveryByteAndEveryInt8RoundTrips) {
  for (int b = 0; b < 256; ++b) {
    const Entry e = {static_cast<std::uint8_t>(b), static_cast<std::int8_t>(b - 128),
                     Bytes{static_cast<std::uint8_t>(b)}, std::string(1, static_cast<char>(b))};
    EXPECT_TRUE(same_entry(decode(encode(e)), e)) << b;
  }
}

TEST(Property, EveryRuneInTheBasicPlaneAndAroundItRoundTrips) {
  for (std::int32_t r = -2; r <= 0x10100; ++r) {
    const Entry e = {r};
    EXPECT_TRUE(same_entry(decode(encode(e)), e)) << r;
  }
}

TEST(Property, FloatFormattingIsShortestAndExact) {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 200000; ++i) {
    const double d = std::bit_cast<double>(rng());
    if (d != d) continue;
    const std::string s = go_format_float64(d);
    const Parsed<double> back = go_parse_float64(s);
    ASSERT_TRUE(back.ok()) << s;
    ASSERT_EQ(std::bit_cast<std::uint64_t>(back.value), std::bit_cast<std::uint64_t>(d)) << s;
    const float f = std::bit_cast<float>(static_cast<std::uint32_t>(rng()));
    if (f != f) continue;
    const std::string s32 = go_format_float32(f);
    const Parsed<float> back32 = go_parse_float32(s32);
    ASSERT_TRUE(back32.ok()) << s32;
    ASSERT_EQ(std::bit_cast<std::uint32_t>(back32.value), std::bit_cast<std::uint32_t>(f)) << s32;
  }
}

}  // namespace
}  // namespace cfuzz::corpus
