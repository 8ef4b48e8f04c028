// cfuzz::in_regexp's generator (cfuzz/regexp.h): every string it makes is matched by
// std::regex, which decides membership, and what it cannot read is an error that says where.
#include <cfuzz/domains.h>
#include <cfuzz/regexp.h>

#include <cstdint>
#include <random>
#include <regex>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "core/mutator.h"
#include "core/pcg.h"

// In a target, cfuzz::mutate_bytes is the runtime's: core::Mutator's byte operators with the
// run's dictionary. This binary has no runtime; the same operators without a dictionary.
std::size_t cfuzz::mutate_bytes(std::uint8_t* data, std::size_t size, std::size_t max_size) {
  static core::Mutator mutator(4096);
  static core::Pcg rng;
  std::uint64_t len = size;
  mutator.mutate_bytes(data, &len, max_size, nullptr, 0, rng);
  return static_cast<std::size_t>(len);
}

namespace cfuzz::detail::regexp {
namespace {

TEST(Regexp, EveryGeneratedStringMatchesAndTheyVary) {
  const char* patterns[] = {
      "[a-z]{2,8}@[a-z]+\\.(com|org|net)",
      "^-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?$",
      "GET /[\\w/.-]* HTTP/1\\.[01]",
      "(ab|cd)*x?y+z{3}",
      "[^\"\\\\]*",
      "\\d{3}-\\d{4}",
      "(?:key|val)=[A-Z_]{1,4};",
      ".{0,5}\\s\\S+",
      "a{2,}b?",
  };
  std::mt19937 rng(3);
  auto next = [&rng]() { return static_cast<std::uint32_t>(rng()); };
  for (const char* p : patterns) {
    Node tree = Parser(p).parse();
    std::regex re(p, std::regex::ECMAScript);
    std::set<std::string> seen;
    for (int i = 0; i < 2000; ++i) {
      std::string s;
      generate(tree, next, s);
      ASSERT_TRUE(std::regex_match(s, re)) << p << " made \"" << s << "\", which it does not match";
      seen.insert(s);
    }
    EXPECT_GE(seen.size(), 10u) << p;
  }
}

TEST(Regexp, WhatTheGeneratorCannotReadIsAnErrorSayingWhere) {
  for (const char* bad : {"(a", "a{3,1}", "\\1", "(?=a)b", "[z-a]", "*a", "a|*"}) {
    try {
      Parser(bad).parse();
      ADD_FAILURE() << "accepted " << bad;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("at offset"), std::string::npos) << e.what();
    }
  }
}

TEST(Regexp, TheDomainsMutatorKeepsItsValuesMatching) {
  auto d = cfuzz::in_regexp("[a-z]{2,8}@[a-z]+\\.(com|org)");
  std::uint8_t buf[64];
  std::size_t len = 0;
  std::string why;
  for (unsigned seed = 0; seed < 3000; ++seed) {
    len = InRegexp::mutate(&d, buf, len, sizeof buf, seed);
    std::string s(reinterpret_cast<char*>(buf), len);
    ASSERT_TRUE(d.admits(s, why)) << why;
  }
  EXPECT_FALSE(d.admits("Root@x.org", why));
  EXPECT_EQ(why, "\"Root@x.org\" is not in InRegexp(\"[a-z]{2,8}@[a-z]+\\.(com|org)\")");
}

}  // namespace
}  // namespace cfuzz::detail::regexp
