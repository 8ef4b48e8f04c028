// A fuzz test of several typed values; the bug needs a particular combination of them.
#include <cfuzz/cfuzz.h>

#include <cstdint>
#include <string>

CFUZZ_TEST(FuzzTyped, f) {
  f.add(std::string("abc"), std::int64_t{1}, true, 0.5, std::uint8_t{7});
  f.fuzz([](cfuzz::T& t, const std::string& name, std::int64_t count, bool enabled, double ratio, std::uint8_t level) {
    t.logf("name=%s count=%ld enabled=%d ratio=%g level=%u", name.c_str(), static_cast<long>(count), enabled, ratio,
           level);
    if (name.size() == 4 && count > 100 && !enabled && ratio < 0 && level == 9) {
      t.fatalf("planted bug: %s %ld", name.c_str(), static_cast<long>(count));
    }
  });
}

CFUZZ_TEST(FuzzTypedPasses, f) {
  f.add(std::int32_t{5}, 1.5f);
  f.fuzz([](cfuzz::T& t, std::int32_t n, float x) {
    if (n == 5 && x != 1.5f) t.error("seed changed");
  });
}
