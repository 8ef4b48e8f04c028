#include "core/sha1.h"

#include <string>

#include <gtest/gtest.h>

namespace cfuzz::core {
namespace {

std::string digest(const std::string& s) {
  char out[kSha1HexSize + 1];
  sha1_hex(reinterpret_cast<const std::uint8_t*>(s.data()), s.size(), out);
  return out;
}

// FIPS 180 test vectors, and lengths around the one- and two-block padding boundary
// checked against sha1sum.
TEST(Sha1, MatchesTheStandardVectors) {
  EXPECT_EQ(digest(""), "da39a3ee5e6b4b0d3255bfef95601890afd80709");
  EXPECT_EQ(digest("abc"), "a9993e364706816aba3e25717850c26c9cd0d89d");
  EXPECT_EQ(digest("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "84983e441c3bd26ebaae4aa1f95129e5e54670f1");
  EXPECT_EQ(digest(std::string(1000000, 'a')), "34aa973cd4c4daa4f61eeb2bdbad27316534016f");
}

TEST(Sha1, LengthsAroundTheBlockBoundary) {
  EXPECT_EQ(digest(std::string(55, 'x')), "cef734ba81a024479e09eb5a75b6ddae62e6abf1");
  EXPECT_EQ(digest(std::string(56, 'x')), "901305367c259952f4e7af8323f480d59f81335b");
  EXPECT_EQ(digest(std::string(64, 'x')), "bb2fa3ee7afb9f54c6dfb5d021f14b1ffe40c163");
}

}  // namespace
}  // namespace cfuzz::core
