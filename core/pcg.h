// The pseudo-random source of the mutator: PCG-XSH-RR 64/32, the generator Go's fuzzer
// uses. Its whole state is two words, which the worker publishes in shared memory so a
// run can be replayed from it, and which a `--seed` makes reproducible.
#pragma once

#include <cstdint>

namespace cfuzz::core {

class Pcg {
 public:
  Pcg() : Pcg(0x853c49e6748fea9bULL, 1) {}
  Pcg(std::uint64_t seed, std::uint64_t stream) { reseed(seed, stream); }

  void reseed(std::uint64_t seed, std::uint64_t stream) {
    inc_ = (stream << 1) | 1;  // the increment must be odd
    state_ = 0;
    step();
    state_ += seed;
    step();
  }

  std::uint64_t state() const { return state_; }
  std::uint64_t inc() const { return inc_; }
  void restore(std::uint64_t state, std::uint64_t inc) {
    state_ = state;
    inc_ = inc | 1;
  }

  std::uint32_t next32() {
    std::uint64_t old = state_;
    step();
    auto xorshifted = static_cast<std::uint32_t>(((old >> 18) ^ old) >> 27);
    auto rot = static_cast<std::uint32_t>(old >> 59);
    return (xorshifted >> rot) | (xorshifted << ((32 - rot) & 31));
  }

  std::uint64_t next64() { return (std::uint64_t{next32()} << 32) | next32(); }

  // Uniform in [0, n) for 0 < n <= 2^32, without modulo bias (Lemire's method). Larger n
  // gives a uniform 32-bit value.
  std::uint32_t below(std::uint64_t n) {
    if (n <= 1) return 0;
    if (n > 0xffffffffULL) return next32();  // 2^32 (or more): every 32-bit value
    auto bound = static_cast<std::uint32_t>(n);
    std::uint64_t m = std::uint64_t{next32()} * bound;
    auto low = static_cast<std::uint32_t>(m);
    if (low < bound) {
      std::uint32_t threshold = (0u - bound) % bound;
      while (low < threshold) {
        m = std::uint64_t{next32()} * bound;
        low = static_cast<std::uint32_t>(m);
      }
    }
    return static_cast<std::uint32_t>(m >> 32);
  }

  // Uniform in [lo, hi], inclusive.
  std::uint64_t range(std::uint64_t lo, std::uint64_t hi) { return lo + below(hi - lo + 1); }

  bool coin() { return (next32() & 1) == 0; }
  // True with probability 1/n.
  bool one_in(std::uint32_t n) { return below(n) == 0; }

 private:
  void step() { state_ = state_ * 6364136223846793005ULL + inc_; }

  std::uint64_t state_ = 0;
  std::uint64_t inc_ = 1;
};

// Derives independent seeds from one master seed (SplitMix64), so that fuzz call k of a
// `--seed S` run always gets the same generator whatever the timing.
inline std::uint64_t derive_seed(std::uint64_t master, std::uint64_t k) {
  std::uint64_t z = master + (k + 1) * 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

}  // namespace cfuzz::core
