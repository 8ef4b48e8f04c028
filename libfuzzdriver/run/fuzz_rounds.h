// How `cfuzz run` shares one --fuzztime among several fuzz tests (multi_run.h): the budget is
// spent in rounds, each test fuzzing for a slice of each round, so that every test gets its
// turn early and the time left moves to the tests that are still finding coverage.
//
// A duration: about kRounds rounds. The first splits its part equally; in a later round a test
// whose last slice added new coverage weighs 2 and one whose last slice found nothing weighs
// 1, so a test that has stalled keeps a little time (coverage often comes in bursts) and one
// that is growing gets twice as much. Each round's part is what is left of the budget over the
// rounds still to come, so slices that ended early (a failure, a short baseline) give their
// time to later rounds, and an overrun (minimizing a failure) takes it from them. Short slices
// spend most of their time starting workers and measuring the corpus: rounds are not planned
// with slices under kMinSlice (the round that would have them is the last, and shares all that
// is left), and time left under kLeastSlice a test is not spent at all.
//
// A count (Nx): one round of equal shares, as executions cost each test differently and a
// counted run is for runs that repeat themselves, which moving counts around would not help.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "libfuzzdriver/util/budget.h"

namespace cfuzz::driver {

class FuzzRounds {
 public:
  static constexpr int kRounds = 3;
  static constexpr std::chrono::seconds kMinSlice{1};
  static constexpr std::chrono::milliseconds kLeastSlice{100};

  // Where a test stands after its last slice.
  enum class State {
    Growing,  // not fuzzed yet, or its last slice added coverage
    Stalled,  // its last slice found nothing new
    Ended,    // failed or could not run: no more slices
  };

  struct Slice {
    std::size_t test = 0;  // index into the states given to next_round
    Budget budget;
  };

  // `total` must be limited (a duration or a count).
  explicit FuzzRounds(Budget total) : total_(total) {}

  // The next round's slices, in test order, for the tests that have not ended; `elapsed`: the
  // run's time so far. Empty: the budget is spent, or every test ended.
  std::vector<Slice> next_round(std::chrono::nanoseconds elapsed, const std::vector<State>& states);

  int rounds_planned() const { return rounds_; }

 private:
  std::vector<Slice> count_round(const std::vector<State>& states) const;
  std::vector<Slice> time_round(std::chrono::nanoseconds left, const std::vector<State>& states) const;

  Budget total_;
  int rounds_ = 0;
};

}  // namespace cfuzz::driver
