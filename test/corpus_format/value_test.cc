// The type table: names, zero values and bitwise comparison.
#include "corpus_format/value.h"

#include <bit>
#include <cstdint>
#include <limits>

#include <gtest/gtest.h>

namespace cfuzz::corpus {
namespace {

TEST(Value, GoTypeNamesAreThoseOfPercentT) {
  EXPECT_EQ(go_type_name(Type::Bytes), "[]uint8");
  EXPECT_EQ(go_type_name(Type::Byte), "uint8");
  EXPECT_EQ(go_type_name(Type::Rune), "int32");
  EXPECT_EQ(go_type_name(Type::Int), "int");
  EXPECT_EQ(go_type_name(Type::Float64), "float64");
}

TEST(Value, EveryTypeNameParsesBackAndAliasesShareASlot) {
  for (int i = 0; i < kTypeCount; ++i) {
    const auto t = static_cast<Type>(i);
    if (t == Type::Bytes) continue;
    EXPECT_EQ(parse_type_name(go_type_name(t)), t);
  }
  EXPECT_EQ(parse_type_name("byte"), Type::Byte);
  EXPECT_EQ(parse_type_name("rune"), Type::Rune);
  EXPECT_EQ(parse_type_name("[]byte"), std::nullopt);
  EXPECT_EQ(parse_type_name("uintptr"), std::nullopt);
  EXPECT_EQ(parse_type_name("Int"), std::nullopt);
}

TEST(Value, ZeroValuesHaveTheirType) {
  for (int i = 0; i < kTypeCount; ++i) {
    const auto t = static_cast<Type>(i);
    EXPECT_EQ(type_of(zero_value(t)), t);
  }
  EXPECT_EQ(std::get<std::string>(zero_value(Type::String)), "");
  EXPECT_EQ(std::bit_cast<std::uint64_t>(std::get<double>(zero_value(Type::Float64))), 0u);
}

TEST(Value, IntAndInt64AreDifferentTypes) {
  EXPECT_NE(type_of(Value(GoInt{5})), type_of(Value(std::int64_t{5})));
  EXPECT_NE(type_of(Value(GoUint{5})), type_of(Value(std::uint64_t{5})));
  EXPECT_FALSE(same_value(GoInt{5}, std::int64_t{5}));
}

TEST(Value, FormatTypeListLikeGo) {
  EXPECT_EQ(format_type_list({Type::Bytes, Type::Int8}), "[[]uint8 int8]");
  EXPECT_EQ(format_type_list({}), "[]");
  EXPECT_EQ(types_of({std::string("a"), 1.5f}), (std::vector<Type>{Type::String, Type::Float32}));
}

TEST(Value, SameValueComparesFloatsBitwise) {
  const double nan1 = std::bit_cast<double>(std::uint64_t{0x7ff8000000000001});
  const double nan2 = std::bit_cast<double>(std::uint64_t{0x7ff8000000000002});
  EXPECT_TRUE(same_value(nan1, nan1));
  EXPECT_FALSE(same_value(nan1, nan2));
  EXPECT_FALSE(same_value(0.0, -0.0));
  EXPECT_FALSE(same_value(0.0f, -0.0f));
  EXPECT_TRUE(same_entry({Bytes{1, 2}, std::string("x")}, {Bytes{1, 2}, std::string("x")}));
  EXPECT_FALSE(same_entry({Bytes{1, 2}}, {Bytes{1, 2}, Bytes{}}));
}

}  // namespace
}  // namespace cfuzz::corpus
