// Typed fuzz tests beside the same logic over raw bytes, for the benchmark's "typed" part:
// a container test, a struct test (with an optional beside it) and a domain-constrained
// test. Each pair has the same planted bug; BENCH_NO_BUG removes it (execs/sec runs).
#include <cfuzz/cfuzz.h>

#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace {

#ifdef BENCH_NO_BUG
constexpr bool kBug = false;
#else
constexpr bool kBug = true;
#endif

// Container: three given values in a row, anywhere in the list.
void check_sequence(cfuzz::T& t, const std::int32_t* v, std::size_t n) {
  for (std::size_t i = 0; i + 2 < n; ++i) {
    if (v[i] == 90017 && v[i + 1] == -31337 && v[i + 2] == 7340033 && kBug) t.fatalf("planted bug at %zu", i);
  }
}

// Struct: a record whose fields must all be right, and a token beside it.
enum class Op : std::uint8_t { Read = 1, Write = 2, Erase = 3 };
struct Request {
  Op op;
  std::uint16_t port;
  std::string user;
  std::vector<std::uint16_t> ranges;
};

void check_request(cfuzz::T& t, const Request& r, const std::optional<std::uint32_t>& token) {
  if (r.op != Op::Erase || r.port != 6379) return;
  if (r.user != "root" || !token || *token != 0x5EC12E75u) return;
  if (r.ranges.size() >= 2 && r.ranges[0] == 100 && r.ranges[1] == 200 && kBug) t.fatalf("planted bug");
}

// Domains: values at the far ends of their ranges, in a given order.
void check_plan(cfuzz::T& t, int level, const std::vector<int>& primes, const std::string& word) {
  if (level == 9 && primes.size() == 4 && primes[0] == 7 && primes[1] == 5 && primes[2] == 3 && primes[3] == 2 &&
      word == "cabba" && kBug) {
    t.fatalf("planted bug");
  }
}

// Raw-bytes readers: what a test written over []byte has to do by hand.
struct Reader {
  std::span<const std::uint8_t> d;
  std::size_t at = 0;
  std::uint64_t take(std::size_t n) {
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < n && at < d.size(); ++i) v |= std::uint64_t{d[at++]} << (8 * i);
    return v;
  }
};

}  // namespace

CFUZZ_TEST(FuzzSequence, f) {
  f.add(std::vector<std::int32_t>{1, 2, 3});
  f.fuzz([](cfuzz::T& t, const std::vector<std::int32_t>& v) { check_sequence(t, v.data(), v.size()); });
}

CFUZZ_TEST(FuzzSequenceRaw, f) {
  f.add(std::vector<std::uint8_t>{1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0});
  f.fuzz([](cfuzz::T& t, std::span<const std::uint8_t> data) {
    std::vector<std::int32_t> v(data.size() / 4);
    if (!v.empty()) std::memcpy(v.data(), data.data(), v.size() * 4);
    check_sequence(t, v.data(), v.size());
  });
}

CFUZZ_TEST(FuzzRequest, f) {
  f.add(Request{Op::Read, 80, "guest", {1}}, std::optional<std::uint32_t>{});
  f.fuzz([](cfuzz::T& t, const Request& r, const std::optional<std::uint32_t>& token) { check_request(t, r, token); });
}

CFUZZ_TEST(FuzzRequestRaw, f) {
  // op, port (2), user length, user, range count, ranges (2 each), token flag, token (4)
  f.add(std::vector<std::uint8_t>{1, 80, 0, 5, 'g', 'u', 'e', 's', 't', 1, 1, 0, 0});
  f.fuzz([](cfuzz::T& t, std::span<const std::uint8_t> data) {
    Reader in{data};
    Request r;
    r.op = static_cast<Op>(in.take(1));
    r.port = static_cast<std::uint16_t>(in.take(2));
    for (std::uint64_t n = in.take(1); n > 0 && in.at < data.size(); --n) r.user += static_cast<char>(in.take(1));
    for (std::uint64_t n = in.take(1); n > 0 && in.at < data.size(); --n) {
      r.ranges.push_back(static_cast<std::uint16_t>(in.take(2)));
    }
    std::optional<std::uint32_t> token;
    if ((in.take(1) & 1) != 0) token = static_cast<std::uint32_t>(in.take(4));
    check_request(t, r, token);
  });
}

CFUZZ_TEST(FuzzPlan, f) {
  f.add(5, std::vector<int>{2}, std::string("ab"));
  f.fuzz([](cfuzz::T& t, int level, const std::vector<int>& primes,
            const std::string& word) { check_plan(t, level, primes, word); },
         cfuzz::domains(cfuzz::in_range(0, 9), cfuzz::vector_of(cfuzz::element_of({2, 3, 5, 7})).with_size(1, 4),
                        cfuzz::string_of("abc").with_max_size(8)));
}

CFUZZ_TEST(FuzzPlanRaw, f) {
  // level, prime count, primes (an index each), word length, word (an index each): every
  // byte string maps into the same domains.
  f.add(std::vector<std::uint8_t>{5, 0, 0, 2, 0, 1});
  f.fuzz([](cfuzz::T& t, std::span<const std::uint8_t> data) {
    static constexpr int kPrimes[] = {2, 3, 5, 7};
    Reader in{data};
    int level = static_cast<int>(in.take(1) % 10);
    std::vector<int> primes(1 + in.take(1) % 4);
    for (int& p : primes) p = kPrimes[in.take(1) % 4];
    std::string word(in.take(1) % 9, 'a');
    for (char& c : word) c = static_cast<char>('a' + in.take(1) % 3);
    check_plan(t, level, primes, word);
  });
}
