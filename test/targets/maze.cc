// Coverage that keeps growing and never fails: each further character of the phrase
// reached is a new branch. For tests of the corpus, the cache and determinism.
#include <cfuzz/cfuzz.h>

#include <cstdint>
#include <span>
#include <vector>

namespace {

volatile int sink;

}  // namespace

CFUZZ_TEST(FuzzMaze, f) {
  f.add(std::vector<std::uint8_t>{'s', 't', 'a', 'r', 't'});
  f.fuzz([](cfuzz::T&, std::span<const std::uint8_t> d) {
    static const char phrase[] = "the quick brown fox";
    int depth = 0;
    while (depth < static_cast<int>(sizeof phrase) - 1 && static_cast<std::size_t>(depth) < d.size() &&
           d[static_cast<std::size_t>(depth)] == static_cast<std::uint8_t>(phrase[depth])) {
      ++depth;
    }
    // One branch per depth, so that each further character is new coverage.
    switch (depth) {
      case 1: sink = 1; break;
      case 2: sink = 2; break;
      case 3: sink = 3; break;
      case 4: sink = 4; break;
      case 5: sink = 5; break;
      case 6: sink = 6; break;
      case 7: sink = 7; break;
      case 8: sink = 8; break;
      case 9: sink = 9; break;
      case 10: sink = 10; break;
      case 11: sink = 11; break;
      case 12: sink = 12; break;
      case 13: sink = 13; break;
      case 14: sink = 14; break;
      case 15: sink = 15; break;
      case 16: sink = 16; break;
      case 17: sink = 17; break;
      case 18: sink = 18; break;
      case 19: sink = 19; break;
      default: sink = 0; break;
    }
  });
}
