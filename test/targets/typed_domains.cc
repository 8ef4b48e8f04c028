// Domains (cfuzz/domains.h): each fuzz function checks that every value it is given is in
// its domain, and fails loudly if not. With CFUZZ_TEST_DOMAIN_BUG=1 a planted bug needs
// values at the far ends of their domains. CFUZZ_TEST_BAD_SEED=1 adds a seed outside them.
#include <cfuzz/cfuzz.h>

#include <cstdint>
#include <cstdlib>
#include <optional>
#include <regex>
#include <string>
#include <vector>

namespace {

bool env(const char* name) { return std::getenv(name) != nullptr; }

struct Point {
  std::int16_t x;
  std::int16_t y;
};

}  // namespace

CFUZZ_TEST(FuzzDomains, f) {
  f.add(5, std::vector<int>{2}, std::string("ab"), std::optional<std::int16_t>{}, std::int64_t{10}, 0.5);
  if (env("CFUZZ_TEST_BAD_SEED"))
    f.add(12, std::vector<int>{2}, std::string("ab"), std::optional<std::int16_t>{}, std::int64_t{10}, 0.5);
  f.fuzz(
      [](cfuzz::T& t, int level, const std::vector<int>& primes, const std::string& word,
         const std::optional<std::int16_t>& delta, std::int64_t even, double ratio) {
        if (level < 0 || level > 9) t.fatalf("out of domain: level %d", level);
        if (primes.empty() || primes.size() > 4) t.fatalf("out of domain: %zu primes", primes.size());
        for (int p : primes) {
          if (p != 2 && p != 3 && p != 5 && p != 7) t.fatalf("out of domain: prime %d", p);
        }
        if (word.size() > 8 || word.find_first_not_of("abc") != std::string::npos) t.fatalf("out of domain: word");
        if (delta && (*delta < -5 || *delta > 5)) t.fatalf("out of domain: delta %d", *delta);
        if (even % 2 != 0) t.fatalf("out of domain: odd %lld", static_cast<long long>(even));
        if (!(ratio >= 0.0 && ratio <= 1.0)) t.fatalf("out of domain: ratio %g", ratio);
        if (env("CFUZZ_TEST_DOMAIN_BUG") && level == 9 && primes.size() == 4 && primes[0] == 7 && primes[3] == 2 &&
            word == "cabba" && delta == -5) {
          t.fatalf("planted bug: found within the domains");
        }
      },
      cfuzz::domains(cfuzz::in_range(0, 9), cfuzz::vector_of(cfuzz::element_of({2, 3, 5, 7})).with_size(1, 4),
                     cfuzz::string_of("abc").with_max_size(8), cfuzz::optional_of(cfuzz::in_range<std::int16_t>(-5, 5)),
                     cfuzz::filter([](std::int64_t v) { return v % 2 == 0; }, cfuzz::arbitrary<std::int64_t>()),
                     cfuzz::in_range(0.0, 1.0)));
}

// Strings matching a regular expression, given whole to the fuzz function; with
// CFUZZ_TEST_DOMAIN_BUG=1 a planted bug needs a given local part and top-level domain.
CFUZZ_TEST(FuzzRegexp, f) {
  static const std::regex kAddress("[a-z]{2,8}@[a-z]{1,24}\\.(com|org|net)");
  f.add(std::string("ab@example.com"));
  if (env("CFUZZ_TEST_BAD_SEED")) f.add(std::string("AB@example.com"));
  f.fuzz(
      [](cfuzz::T& t, const std::string& address) {
        if (!std::regex_match(address, kAddress)) t.fatalf("out of domain: \"%s\"", address.c_str());
        if (env("CFUZZ_TEST_DOMAIN_BUG") && address.starts_with("root@") && address.ends_with(".org")) {
          t.fatalf("planted bug: %s", address.c_str());
        }
      },
      cfuzz::domains(cfuzz::in_regexp("[a-z]{2,8}@[a-z]{1,24}\\.(com|org|net)")));
}

// A value built from simpler domains; such a parameter takes no seeds.
CFUZZ_TEST(FuzzMappedDomain, f) {
  f.fuzz(
      [](cfuzz::T& t, const Point& p) {
        if (p.x < 0 || p.x > 100 || p.y < -100 || p.y > 0 || (p.x + p.y) % 2 != 0) {
          t.fatalf("out of domain: (%d, %d)", p.x, p.y);
        }
      },
      cfuzz::domains(cfuzz::map(
          [](std::int16_t x, std::int16_t y) {
            return Point{x, static_cast<std::int16_t>(y - (x + y) % 2)};
          },
          cfuzz::in_range<std::int16_t>(0, 100), cfuzz::in_range<std::int16_t>(-99, 0))));
}
