#include "libfuzzdriver/run/fuzz_rounds.h"

#include <algorithm>

namespace cfuzz::driver {

namespace {

std::size_t live_tests(const std::vector<FuzzRounds::State>& states) {
  return static_cast<std::size_t>(
      std::count_if(states.begin(), states.end(), [](FuzzRounds::State s) { return s != FuzzRounds::State::Ended; }));
}

}  // namespace

std::vector<FuzzRounds::Slice> FuzzRounds::next_round(std::chrono::nanoseconds elapsed,
                                                      const std::vector<State>& states) {
  if (live_tests(states) == 0) return {};
  if (total_.count) {
    if (rounds_ > 0) return {};
    ++rounds_;
    return count_round(states);
  }
  if (!total_.time || elapsed >= *total_.time) return {};
  if ((*total_.time - elapsed) / static_cast<std::int64_t>(live_tests(states)) < kLeastSlice) return {};
  std::vector<Slice> round = time_round(*total_.time - elapsed, states);
  ++rounds_;
  return round;
}

std::vector<FuzzRounds::Slice> FuzzRounds::count_round(const std::vector<State>& states) const {
  const std::uint64_t live = live_tests(states);
  const std::uint64_t share = *total_.count / live, extra = *total_.count % live;
  std::vector<Slice> round;
  for (std::size_t i = 0; i < states.size(); ++i) {
    if (states[i] == State::Ended) continue;
    // The remainder goes to the first tests; every test runs at least once.
    std::uint64_t n = share + (round.size() < extra ? 1 : 0);
    round.push_back({i, Budget{std::nullopt, std::max<std::uint64_t>(n, 1)}});
  }
  return round;
}

std::vector<FuzzRounds::Slice> FuzzRounds::time_round(std::chrono::nanoseconds left,
                                                      const std::vector<State>& states) const {
  const auto live = static_cast<std::int64_t>(live_tests(states));
  std::int64_t rounds_left = std::max(1, kRounds - rounds_);
  if (left / rounds_left / live < kMinSlice) rounds_left = 1;
  const std::chrono::nanoseconds part = left / rounds_left;
  // The first round is equal shares: nothing is known yet (every test is Growing).
  auto weight = [](State s) -> std::int64_t { return s == State::Growing ? 2 : s == State::Stalled ? 1 : 0; };
  std::int64_t weights = 0;
  for (State s : states) weights += weight(s);
  std::vector<Slice> round;
  for (std::size_t i = 0; i < states.size(); ++i) {
    if (states[i] == State::Ended) continue;
    round.push_back({i, Budget{part * weight(states[i]) / weights, std::nullopt}});
  }
  return round;
}

}  // namespace cfuzz::driver
