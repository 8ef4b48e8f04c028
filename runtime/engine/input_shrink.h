// Go's minimization, run in the target's own process: the minimizer's candidates run one
// after another in the current area, and one that keeps what is asked becomes the best.
// The worker server runs it for the coordinator's minimize calls (a failing input, or a
// new input keeping its new coverage); the libFuzzer front end runs it on each input with
// new coverage before the fuzz session admits it. One loop for both.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/failure_record.h"
#include "core/minimizer.h"
#include "corpus_format/value.h"
#include "runtime/engine/engine_namespace.h"
#include "runtime/engine/fuzz_engine.h"

namespace fuzzer::cfuzz {

// What a candidate must keep: the coverage bits `keep` (per counter: the bucket bits), or,
// when `keep` is null, a failure like `target` (core::same_failure).
struct ShrinkGoal {
  const std::uint8_t* keep = nullptr;
  std::size_t counters = 0;
  const core::FailureRecord* target = nullptr;
};

// The worker server's checks around each candidate: that the target left the shared
// memory and the RPC descriptors alone, and where to resume if the candidate kills it.
class ShrinkWatch {
 public:
  virtual void before_candidate(const core::Minimizer& m, const corpus::Entry& candidate, std::uint64_t count) = 0;
  virtual void after_candidate(const core::Minimizer& m, const corpus::Entry& candidate) = 0;
  virtual void improved(const core::Minimizer& m) = 0;

 protected:
  ~ShrinkWatch() = default;
};

struct ShrinkOutcome {
  // Done: the minimizer has no more candidates; Budget: the executions or the time ran out;
  // Failure: while keeping coverage, a candidate failed (`failure` says how).
  enum class End { Done, Budget, Failure } end = End::Done;
  std::uint64_t execs = 0;
  std::uint64_t duration_ns = 0;
  bool improved = false;
  core::FailureRecord failure{};
};

// Runs candidates of `m` until it has none, `limit` executions (0: no limit) or `millis`
// of wall time (0: none).
ShrinkOutcome shrink_input(FuzzEngine& engine, core::Minimizer& m, const ShrinkGoal& goal, std::uint64_t limit,
                           std::uint64_t millis, ShrinkWatch* watch = nullptr);

}  // namespace fuzzer::cfuzz
