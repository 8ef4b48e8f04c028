// The coordinator's automatic dictionary: what it keeps and recommends.
#include "core/dictionary.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace cfuzz::core {
namespace {

TEST(Dictionary, AddressesAreNeverRecommendedInEitherByteOrder) {
  const std::string little("\x10\x32\x54\x76\xfd\x7f\x00\x00", 8);  // 0x00007ffd76543210
  const std::string big("\x00\x00\x7f\xfd\x76\x54\x32\x10", 8);     // the same, big-endian
  const std::string word("\x0d\xf0\xad\x8b", 4);
  Dictionary d;
  for (int call = 0; call < 2; ++call) d.note_constants({little, big, word});
  d.credit({little, big, word});
  auto rec = d.recommended();
  ASSERT_EQ(rec.size(), 1u);
  EXPECT_EQ(rec[0].first, word);
}

}  // namespace
}  // namespace cfuzz::core
