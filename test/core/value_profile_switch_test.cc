#include "core/value_profile_switch.h"

#include <gtest/gtest.h>

namespace cfuzz::core {
namespace {

constexpr std::uint64_t kStall = ValueProfileSwitch::kMinStallExecs;

TEST(ValueProfileSwitch, OnAndOffAreSoFromTheStart) {
  ValueProfileSwitch on(ValueProfileMode::On), off(ValueProfileMode::Off);
  EXPECT_TRUE(on.on(0));
  EXPECT_FALSE(off.on(0));
  EXPECT_FALSE(off.on(100 * kStall));  // however long nothing is found
}

TEST(ValueProfileSwitch, AutoComesOnOnceTheRunHasGoneHalfItsExecutionsWithoutGrowing) {
  ValueProfileSwitch s(ValueProfileMode::Auto);
  EXPECT_FALSE(s.on(0));
  s.corpus_grew(10 * kStall);
  EXPECT_FALSE(s.on(19 * kStall)) << "9 of 19 without growth: less than half";
  EXPECT_TRUE(s.on(20 * kStall)) << "10 of 20: half";
}

TEST(ValueProfileSwitch, AutoWaitsAtLeastTheMinimumStallEarlyInARun) {
  ValueProfileSwitch s(ValueProfileMode::Auto);
  s.corpus_grew(100);
  EXPECT_FALSE(s.on(kStall)) << "more than half the run, but fewer than the minimum";
  EXPECT_TRUE(s.on(kStall + 100));
}

TEST(ValueProfileSwitch, AutoStaysOnOnceOn) {
  // Entries kept for the value profile's features are fuzzed with it on; turning it off
  // would leave them without what made them worth keeping.
  ValueProfileSwitch s(ValueProfileMode::Auto);
  ASSERT_TRUE(s.on(2 * kStall));
  s.corpus_grew(2 * kStall + 1);
  EXPECT_TRUE(s.on(2 * kStall + 2));
}

}  // namespace
}  // namespace cfuzz::core
