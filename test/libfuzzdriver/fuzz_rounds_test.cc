// How one --fuzztime is shared among several fuzz tests (fuzz_rounds.h): equal first, then
// moved to the tests still finding coverage, never past the budget, and never in slices too
// short to fuzz.
#include "libfuzzdriver/run/fuzz_rounds.h"

#include <gtest/gtest.h>

namespace cfuzz::driver {
namespace {

using std::chrono::nanoseconds;
using std::chrono::seconds;
using State = FuzzRounds::State;

Budget time_budget(seconds s) { return Budget{s, std::nullopt}; }

nanoseconds total_of(const std::vector<FuzzRounds::Slice>& round) {
  nanoseconds sum{};
  for (const auto& s : round) sum += *s.budget.time;
  return sum;
}

TEST(FuzzRounds, TheFirstRoundGivesEveryTestAnEqualSliceOfAThird) {
  FuzzRounds rounds(time_budget(seconds(60)));
  auto round = rounds.next_round(nanoseconds(0), {State::Growing, State::Growing});
  ASSERT_EQ(round.size(), 2u);
  EXPECT_EQ(round[0].test, 0u);
  EXPECT_EQ(round[1].test, 1u);
  EXPECT_EQ(*round[0].budget.time, seconds(10));
  EXPECT_EQ(*round[1].budget.time, seconds(10));
  EXPECT_EQ(rounds.rounds_planned(), 1);
}

TEST(FuzzRounds, ATestStillFindingCoverageGetsTwiceTheSliceOfOneThatStalled) {
  FuzzRounds rounds(time_budget(seconds(63)));
  rounds.next_round(nanoseconds(0), {State::Growing, State::Growing});
  auto round = rounds.next_round(seconds(21), {State::Stalled, State::Growing});
  ASSERT_EQ(round.size(), 2u);
  // 42 s over the two rounds left: 21 s now, split 1:2.
  EXPECT_EQ(*round[0].budget.time, seconds(7));
  EXPECT_EQ(*round[1].budget.time, seconds(14));
}

TEST(FuzzRounds, AnEndedTestGetsNoMoreSlicesAndItsTimeGoesToTheOthers) {
  FuzzRounds rounds(time_budget(seconds(60)));
  rounds.next_round(nanoseconds(0), {State::Growing, State::Growing, State::Growing});
  auto round = rounds.next_round(seconds(4), {State::Ended, State::Growing, State::Growing});
  ASSERT_EQ(round.size(), 2u);
  EXPECT_EQ(round[0].test, 1u);
  EXPECT_EQ(round[1].test, 2u);
  // 56 s left over two rounds: slices that ended early left their time to the rounds after.
  EXPECT_EQ(*round[0].budget.time, seconds(14));
  EXPECT_EQ(*round[1].budget.time, seconds(14));
}

TEST(FuzzRounds, TheLastRoundSharesAllThatIsLeftAndThenTheBudgetIsSpent) {
  FuzzRounds rounds(time_budget(seconds(30)));
  std::vector<State> states{State::Growing, State::Growing};
  rounds.next_round(nanoseconds(0), states);
  rounds.next_round(seconds(10), states);
  auto last = rounds.next_round(seconds(21), states);
  EXPECT_EQ(total_of(last), seconds(9));
  // Slices that ended early leave time: another round takes it.
  auto extra = rounds.next_round(seconds(25), states);
  EXPECT_EQ(total_of(extra), seconds(5));
  EXPECT_TRUE(rounds.next_round(seconds(30) - std::chrono::milliseconds(150), states).empty())
      << "75 ms a test would only start workers";
  EXPECT_TRUE(rounds.next_round(seconds(30), states).empty());
  EXPECT_TRUE(rounds.next_round(seconds(31), states).empty()) << "an overrun (minimizing) ends the run";
}

TEST(FuzzRounds, ABudgetTooShortForRoundsIsOneRoundOfAtLeastTheMinimumSlice) {
  FuzzRounds rounds(time_budget(seconds(4)));
  auto round = rounds.next_round(nanoseconds(0), {State::Growing, State::Growing});
  ASSERT_EQ(round.size(), 2u);
  EXPECT_EQ(*round[0].budget.time, seconds(2)) << "not three rounds of 0.67 s";
  EXPECT_GE(*round[0].budget.time, FuzzRounds::kMinSlice);
}

TEST(FuzzRounds, NoRoundWhenEveryTestEnded) {
  FuzzRounds rounds(time_budget(seconds(60)));
  EXPECT_TRUE(rounds.next_round(nanoseconds(0), {State::Ended, State::Ended}).empty());
}

TEST(FuzzRounds, ACountIsSplitEquallyInOneRoundWithTheRemainderToTheFirstTests) {
  FuzzRounds rounds(Budget{std::nullopt, 10});
  auto round = rounds.next_round(nanoseconds(0), {State::Growing, State::Ended, State::Growing, State::Growing});
  ASSERT_EQ(round.size(), 3u);
  EXPECT_EQ(*round[0].budget.count, 4u);
  EXPECT_EQ(*round[1].budget.count, 3u);
  EXPECT_EQ(*round[2].budget.count, 3u);
  EXPECT_EQ(round[1].test, 2u);
  EXPECT_FALSE(round[0].budget.time);
  EXPECT_TRUE(rounds.next_round(seconds(1), {State::Growing, State::Ended, State::Growing, State::Growing}).empty());
}

TEST(FuzzRounds, ACountSmallerThanTheTestsStillRunsEachOnce) {
  FuzzRounds rounds(Budget{std::nullopt, 1});
  auto round = rounds.next_round(nanoseconds(0), {State::Growing, State::Growing});
  ASSERT_EQ(round.size(), 2u);
  EXPECT_EQ(*round[0].budget.count, 1u);
  EXPECT_EQ(*round[1].budget.count, 1u);
}

}  // namespace
}  // namespace cfuzz::driver
