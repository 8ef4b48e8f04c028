// Two different bugs of one kind, picked by the input's first byte, for telling bugs apart
// in reports (--sarif's fingerprints): 'H' overflows a heap buffer in parse_header, 'B' in
// parse_body, each reached through a function of its own. The seed "hello" is one byte
// away from both.
#include <cfuzz/cfuzz.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <span>
#include <vector>

namespace {

__attribute__((noinline)) char read_past_end(std::span<const std::uint8_t> d) {
  auto* p = static_cast<char*>(std::malloc(d.size()));
  std::memcpy(p, d.data(), d.size());
  char c = p[d.size()];  // one past the end
  std::free(p);
  return c;
}

__attribute__((noinline)) char parse_header(std::span<const std::uint8_t> d) {
  auto* p = static_cast<char*>(std::malloc(d.size()));
  std::memcpy(p, d.data(), d.size());
  volatile char c = p[d.size() + 1];  // the header's bug: two past the end
  std::free(p);
  return c;
}

__attribute__((noinline)) char parse_body(std::span<const std::uint8_t> d) {
  volatile char c = read_past_end(d);  // the body's bug, one call further down
  return c;
}

__attribute__((noinline)) char parse(std::span<const std::uint8_t> d) {
  if (d.empty()) return 0;
  if (d[0] == 'H') return parse_header(d);
  if (d[0] == 'B') return parse_body(d);
  return 0;
}

}  // namespace

CFUZZ_TEST(FuzzTwoBugs, f) {
  f.add(std::vector<std::uint8_t>{'h', 'e', 'l', 'l', 'o'});
  f.fuzz([](cfuzz::T&, std::span<const std::uint8_t> d) { parse(d); });
}
