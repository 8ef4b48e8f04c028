// A bug behind seven nested byte checks spelling "cfuzzer": blind mutation would need
// about 2^56 tries; coverage guidance finds it one byte at a time.
#include <cfuzz/cfuzz.h>

#include <cstdint>
#include <cstdlib>
#include <span>
#include <vector>

CFUZZ_TEST(FuzzNestedWord, f) {
  f.add(std::vector<std::uint8_t>{'h', 'e', 'l', 'l', 'o'});
  f.fuzz([](cfuzz::T&, std::span<const std::uint8_t> d) {
    if (d.size() >= 7 && d[0] == 'c') {
      if (d[1] == 'f') {
        if (d[2] == 'u') {
          if (d[3] == 'z') {
            if (d[4] == 'z') {
              if (d[5] == 'e') {
                if (d[6] == 'r') std::abort();
              }
            }
          }
        }
      }
    }
  });
}
