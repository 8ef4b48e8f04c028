// Length control (libFuzzer's -len_control): how long the mutator may make a byte value.
//
// A run starts with the limit at its longest corpus value (at least 4 bytes) and raises it,
// by log2 of itself, each time rate * log2(limit) executions pass without the corpus growing.
// Short inputs execute faster, and mutations on them land more often where the parser is;
// the limit still reaches --max-len once short inputs stop finding anything. A value
// already longer than the limit keeps its own length as its limit (Mutator::mutate).
//
// It is driven by the run's total execution count, so a run with a fixed --seed and one
// worker sees the same limits again.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>

namespace cfuzz::core {

inline constexpr std::uint64_t kDefaultLenControl = 100;  // libFuzzer's default rate

// The longest byte value a run makes when not told (--max-len, -max_len): the longest seed,
// within these bounds, as libFuzzer chooses its default.
inline constexpr std::uint64_t kDefaultMaxLen = 4096;
inline constexpr std::uint64_t kMaxDefaultMaxLen = 1 << 20;
inline constexpr std::uint64_t default_max_len(std::uint64_t longest_seed) {
  return std::clamp(longest_seed, kDefaultMaxLen, kMaxDefaultMaxLen);
}

class LengthControl {
 public:
  // `rate` 0: no length control, the limit is `max_len` from the start.
  LengthControl(std::uint64_t max_len, std::uint64_t longest_value, std::uint64_t rate)
      : max_len_(max_len),
        rate_(rate),
        limit_(rate == 0 ? max_len : std::min(max_len, std::max<std::uint64_t>(4, longest_value))) {}

  // The limit for the next mutations, once the run has made `total_execs` executions.
  std::uint64_t limit(std::uint64_t total_execs) {
    // libFuzzer checks before every few executions; a call of many executions catches up
    // with every step it would have taken on the way.
    while (limit_ < max_len_ && total_execs > since_ && total_execs - since_ > rate_ * log2(limit_)) {
      since_ += rate_ * log2(limit_);
      limit_ = std::min(max_len_, limit_ + log2(limit_));
    }
    return limit_;
  }

  // The corpus grew after `total_execs` executions: the current limit still pays.
  void corpus_grew(std::uint64_t total_execs) { since_ = std::max(since_, total_execs); }

  std::uint64_t current() const { return limit_; }

 private:
  static std::uint64_t log2(std::uint64_t x) { return static_cast<std::uint64_t>(std::bit_width(x)) - 1; }

  std::uint64_t max_len_;
  std::uint64_t rate_;
  std::uint64_t limit_;
  std::uint64_t since_ = 0;  // executions counted up to the last growth of corpus or limit
};

}  // namespace cfuzz::core
