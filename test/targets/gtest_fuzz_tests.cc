// A GoogleTest binary holding ordinary TESTs and CFUZZ_TESTs, built with
// cfuzz_add_fuzz_test(... GTEST): ctest runs both kinds (the fuzz tests' seeds as
// CfuzzSeeds.<Name>), and cfuzz run fuzzes the same binary. With CFUZZ_TEST_PLANTED=1 the
// fuzz test has a bug that fuzzing finds; CFUZZ_TEST_FAILING_SEED=1 adds a seed that hits it.
#include <cfuzz/cfuzz.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace {

// The code under test: a run-length decoder.
std::string expand(const std::vector<std::uint8_t>& pairs) {
  std::string out;
  for (std::size_t i = 0; i + 1 < pairs.size(); i += 2) out.append(pairs[i] % 16, static_cast<char>(pairs[i + 1]));
  return out;
}

}  // namespace

TEST(Expand, RepeatsEachByte) { EXPECT_EQ(expand({3, 'a', 1, 'b'}), "aaab"); }

TEST(Expand, IgnoresAnOddLastByte) { EXPECT_EQ(expand({2, 'x', 9}), "xx"); }

CFUZZ_TEST(FuzzExpand, f) {
  f.add(std::vector<std::uint8_t>{2, 'a'});
  if (std::getenv("CFUZZ_TEST_FAILING_SEED") != nullptr) f.add(std::vector<std::uint8_t>{1, 'Q', 3, '!'});
  f.fuzz([](cfuzz::T& t, const std::vector<std::uint8_t>& pairs) {
    std::string out = expand(pairs);
    if (out.size() > 15 * pairs.size()) t.fatalf("expanded %zu pairs to %zu bytes", pairs.size() / 2, out.size());
    if (std::getenv("CFUZZ_TEST_PLANTED") != nullptr && out.size() == 4 && out[0] == 'Q' && out[3] == '!') {
      t.fatalf("planted bug: %s", out.c_str());
    }
  });
}
