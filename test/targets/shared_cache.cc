// Runs sharing one cache directory. FuzzTwoHalves fails only when both of its values are
// right, and a run sees only one half: CFUZZ_TEST_HALF ("a" or "b") says which value it
// compares plainly (comparison guidance finds it at once); the other is compared through a
// hash, which nothing here inverts. So only runs that import each other's entries from the
// cache, while they run, combine the halves and find the bug. `note` is free text that
// makes the runs' failing inputs differ.
#include <cfuzz/cfuzz.h>

#include <cstdint>
#include <cstdlib>
#include <string>

namespace {

volatile int sink;

std::uint64_t mix(std::uint64_t x) {
  x ^= x >> 31;
  x *= 0x7fb5d329728ea185ULL;
  x ^= x >> 27;
  x *= 0x81dadef4bc2dd44dULL;
  return x ^ (x >> 33);
}

bool is(std::uint64_t v, std::uint64_t want, bool plainly) { return plainly ? v == want : mix(v) == mix(want); }

}  // namespace

CFUZZ_TEST(FuzzTwoHalves, f) {
  f.fuzz([](cfuzz::T&, std::uint64_t a, std::uint64_t b, const std::string& note) {
    static const char* half = std::getenv("CFUZZ_TEST_HALF");
    bool a_ok = is(a, 0x5eed0000a11ce5ULL, half != nullptr && half[0] == 'a');
    bool b_ok = is(b, 0xb0b0000cafe5ULL, half != nullptr && half[0] == 'b');
    if (a_ok) sink = 1;  // each half is new coverage of its own
    if (b_ok) sink = 2;
    if (a_ok && b_ok && !note.empty()) std::abort();
  });
}
