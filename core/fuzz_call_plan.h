// How one fuzz call is set up: which entry, which crossover partner, its random seed, how
// long it runs, and whether it starts with input-to-state candidates. `cfuzz run`'s
// coordinator and the libFuzzer-style front end inside the target plan calls the same way,
// so that both search alike.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "core/corpus.h"
#include "core/pcg.h"

namespace cfuzz::core {

// A fuzz call runs this long before the worker reports back: long enough to make the
// RPC's cost negligible (well under 1%), short enough that every corpus entry gets turns
// often, that new coverage is shared soon, and that a stop is quick. (Go's calls last
// 100ms; fuzzing one entry that long starves the others.)
inline constexpr std::uint64_t kCallMillis = 20;
// Executions per call when a fixed seed makes calls count-bounded instead of time-bounded,
// so that a run can be repeated exactly.
inline constexpr std::uint64_t kSeededCallExecs = 2000;
// Calls are count-bounded only when a run can repeat: a fixed seed and a budget of
// executions. A run bounded by time cannot (where it stops depends on speed), and a fixed
// count per call gives every entry the same executions, so slow entries take the time (on
// a real library, half the executions and less coverage: docs/benchmarks/history.md).
inline constexpr bool repeatable_calls(bool fixed_seed, bool exec_budget) { return fixed_seed && exec_budget; }
// An entry's first calls start with its input-to-state replacements. A call ends at the
// first one that finds new coverage, and the next call on the entry resumes after it, until
// all have run (the list is the same each time: it comes from the entry's own run); the
// cap on calls is for a target whose comparisons vary from run to run.
inline constexpr std::uint64_t kInputToStateCalls = 16;
inline constexpr std::uint64_t kInputToStateCandidates = 512;

// An input with new coverage is shrunk (Go's minimization, keeping the new coverage) for at
// most this long and this many executions before it joins the corpus: enough for most
// inputs, short enough not to hold up fuzzing.
inline constexpr std::uint64_t kInterestingMinimizeMillis = 1000;
inline constexpr std::uint64_t kInterestingMinimizeExecs = 4096;

// A share of a run's executions, for one kind of work: at most total/kShareDivisor, plus
// `start` to begin with, of which `spent` records what was used.
class ExecutionShare {
 public:
  static constexpr std::uint64_t kShareDivisor = 4;
  explicit constexpr ExecutionShare(std::uint64_t start) : start_(start) {}

  // Executions still allowed once the run has made `total_execs`.
  std::uint64_t left(std::uint64_t total_execs) const {
    std::uint64_t allowed = total_execs / kShareDivisor + start_;
    return allowed > used_ ? allowed - used_ : 0;
  }
  void spent(std::uint64_t execs) { used_ += execs; }
  std::uint64_t used() const { return used_; }

 private:
  std::uint64_t start_;
  std::uint64_t used_ = 0;
};

// New inputs this long or longer, mutated from a file the run started with that is this
// long too (or from such an input), are kept as found (FuzzSession::shrink_grant). Shrunk
// to the bytes that hold only their new coverage, an input mutated from a structured file
// (a font, an image, a container of tagged tables) keeps little of the structure the next
// finds build on: from a 1.9 KB font, 1-3 of harfbuzz's ~740 corpus files were still 1 KB
// or more (as v1 text) after 60 s. Kept as found, 229-244 were, and the run reached 10%
// more branches (libFuzzer, which shrinks no new input, more still). Long inputs the
// fuzzer grew from short ones are shrunk: kept with their filler, the bench's counter_n
// (24 places where a byte is one more than the one before) stalled for seconds in 4 of
// 21 seeds, where shrunk ones double their run by a copy of the whole input.
inline constexpr std::uint64_t kLongestShrunkInput = 64;

// Shrinking new inputs takes at most a quarter of a run's executions, plus one full
// shrink's worth to start with. Early in a run new coverage comes every few hundred
// executions, and shrinking each input in full would take most of the run (on a slow real
// target, its whole first minute); length control keeps those early inputs short anyway.
// Later, when finds are rarer, each gets the full budget.
class InterestingMinimizeBudget {
 public:
  static constexpr std::uint64_t kSmallest = 64;  // below this, keep the input as found

  // Executions the next shrink may use once the run has made `total_execs`; 0: none.
  std::uint64_t grant(std::uint64_t total_execs) const {
    std::uint64_t allowed = share_.left(total_execs);
    return allowed < kSmallest ? 0 : std::min(allowed, kInterestingMinimizeExecs);
  }
  void spent(std::uint64_t execs) { share_.spent(execs); }

 private:
  ExecutionShare share_{kInterestingMinimizeExecs};
};

// The input-to-state stage, too, takes at most a quarter of a run's executions, plus a
// start that leaves it whole for the puzzles a few thousand executions solve. Uncapped, it
// took most of the executions on real libraries whose every new entry brings hundreds of
// candidates, and capped at a quarter they reached more coverage (the figures are in
// docs/architecture.md and docs/benchmarks/history.md). A call planned while the stage is
// over its share fuzzes at random only.
class InputToStateBudget {
 public:
  static constexpr std::uint64_t kStart = 4096;

  bool allows(std::uint64_t total_execs) const { return share_.left(total_execs) != 0; }
  void spent(std::uint64_t execs) { share_.spent(execs); }
  std::uint64_t used() const { return share_.used(); }

 private:
  ExecutionShare share_{kStart};
};

struct FuzzCallPlan {
  std::size_t entry = 0;
  std::size_t splice = 0;
  std::uint64_t seed = 0;
  std::uint64_t limit = 0;                // executions; 0: none
  std::uint64_t deadline_ms = 0;          // 0: none
  std::uint64_t input_to_state = 0;       // candidates at most; 0: no input-to-state stage
  std::uint64_t input_to_state_from = 0;  // the first one to try
};

// Plans call number `call` of a run whose master seed is `master_seed`, and counts the
// call against the chosen entry. `repeatable`: count-bounded calls (a fixed --seed);
// `input_to_state_allowed`: the stage is within its share (InputToStateBudget).
inline FuzzCallPlan plan_fuzz_call(Corpus& corpus, Pcg& rng, std::uint64_t master_seed, std::uint64_t call,
                                   bool repeatable, bool input_to_state_allowed) {
  FuzzCallPlan p;
  p.entry = corpus.pick(rng);
  p.splice = corpus.pick(rng);
  p.seed = derive_seed(master_seed, call);
  p.limit = repeatable ? kSeededCallExecs : 0;
  p.deadline_ms = repeatable ? 0 : kCallMillis;
  CorpusEntry& e = corpus.at(p.entry);
  p.input_to_state = input_to_state_allowed && !e.input_to_state_done && e.fuzz_calls < kInputToStateCalls
                         ? kInputToStateCandidates
                         : 0;
  p.input_to_state_from = e.input_to_state_next;
  e.fuzz_calls++;
  return p;
}

// Notes how far a call on entry `e` got through its input-to-state candidates.
inline void note_input_to_state(CorpusEntry& e, std::uint64_t next, bool done) {
  e.input_to_state_next = std::max(e.input_to_state_next, next);
  e.input_to_state_done = e.input_to_state_done || done;
}

}  // namespace cfuzz::core
