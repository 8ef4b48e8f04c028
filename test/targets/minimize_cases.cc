// Failures for `cfuzz minimize` to shrink.
#include <cfuzz/cfuzz.h>

#include <cstdint>
#include <cstdlib>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace {

// CFUZZ_TEST_FAILURE: "fatal" (default), "segv" or "hang".
void fail(cfuzz::T& t, std::size_t at) {
  const char* k = std::getenv("CFUZZ_TEST_FAILURE");
  std::string_view kind = k != nullptr ? k : "fatal";
  if (kind == "segv") *static_cast<volatile int*>(nullptr) = 1;
  if (kind == "hang") {
    for (volatile int i = 0;; i = i + 1) {
    }
  }
  t.fatalf("BUG! at offset %zu", at);
}

}  // namespace

// Fails when the bytes "BUG!" appear anywhere.
CFUZZ_TEST(FuzzBadSequence, f) {
  f.fuzz([](cfuzz::T& t, std::span<const std::uint8_t> d) {
    std::string_view s(reinterpret_cast<const char*>(d.data()), d.size());
    if (auto at = s.find("BUG!"); at != std::string_view::npos) fail(t, at);
  });
}

// Fails on a combination of four values; each can shrink.
CFUZZ_TEST(FuzzMulti, f) {
  f.fuzz([](cfuzz::T& t, const std::string& s, std::span<const std::uint8_t> b, std::int64_t n, double x) {
    bool ff = false;
    for (auto c : b) ff |= c == 0xff;
    if (s.find("ab") != std::string::npos && ff && n > 1000 && x < -5) t.fatal("multi-value bug");
  });
}

// Once `n` is right, the seed's 30-byte string crashes with SIGSEGV, and every shorter or
// longer string with SIGABRT: nearly every candidate of minimizing the SIGSEGV kills the
// worker without qualifying, so minimization is a long run of worker restarts.
CFUZZ_TEST(FuzzRestartStorm, f) {
  f.add(std::string("abcdefghijklmnopqrstuvwxyz0123"), std::int64_t{0});
  f.fuzz([](cfuzz::T&, const std::string& s, std::int64_t n) {
    if (n != 123456789) return;
    if (s.size() != 30) std::abort();
    *static_cast<volatile int*>(nullptr) = 1;
  });
}
