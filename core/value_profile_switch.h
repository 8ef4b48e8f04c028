// When a run counts the value profile (runtime/engine/value_profile.h): from the start when
// asked (`cfuzz run --value-profile`, libFuzzer's -use_value_profile=1), once coverage has
// stalled with `cfuzz run --value-profile=auto`, and otherwise never (the default, as in
// libFuzzer, until auto has been shown to help the held-out libraries as well).
//
// The value profile is a gradient where edge coverage has none: a big-endian offset or count
// that must become small, a length that must reach a constant. It also costs: every
// comparison with a constant hashes and writes a counter, and the entries it keeps thin out
// the search. Measured at 60 s (docs/benchmarks/history.md): libplist, whose trailer checks
// are comparisons of pointers that nothing traces, got past its first checks in 2 of 2 runs
// with it against 3 of 10 without, at 0.4x the execution rate; libxml2, which keeps finding
// edges, reached 0.93-0.96 of libFuzzer's branches with it on from the start, against
// 0.97-1.02 without. So auto waits: it comes on once the run has gone half its executions
// so far, and at least kMinStallExecs, without the corpus growing, and stays on.
//
// Driven by execution counts, not time, so that a run with a fixed --seed repeats.
#pragma once

#include <algorithm>
#include <cstdint>

namespace cfuzz::core {

enum class ValueProfileMode { Off, Auto, On };

class ValueProfileSwitch {
 public:
  static constexpr std::uint64_t kMinStallExecs = 1 << 16;

  explicit ValueProfileSwitch(ValueProfileMode mode) : mode_(mode) {}

  // Whether the next call counts it, once the run has made `total_execs` executions.
  bool on(std::uint64_t total_execs) {
    if (mode_ != ValueProfileMode::Auto) return mode_ == ValueProfileMode::On;
    if (!stalled_ && total_execs > last_growth_ &&
        total_execs - last_growth_ >= std::max(kMinStallExecs, total_execs / 2)) {
      stalled_ = true;
    }
    return stalled_;
  }
  // The corpus grew after `total_execs` executions.
  void corpus_grew(std::uint64_t total_execs) { last_growth_ = std::max(last_growth_, total_execs); }

 private:
  ValueProfileMode mode_;
  bool stalled_ = false;
  std::uint64_t last_growth_ = 0;
};

}  // namespace cfuzz::core
