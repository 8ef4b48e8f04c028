#include "runtime/engine/input_shrink.h"

#include <chrono>

#include "core/coverage.h"
#include "core/input_area.h"

namespace fuzzer::cfuzz {

ShrinkOutcome shrink_input(FuzzEngine& engine, core::Minimizer& m, const ShrinkGoal& goal, std::uint64_t limit,
                           std::uint64_t millis, ShrinkWatch* watch) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  const auto deadline = start + std::chrono::milliseconds(millis);
  core::ShmView shm = engine.shm();
  core::ShmHeader& hdr = shm.header();
  ShrinkOutcome out;
  corpus::Entry candidate;
  core::FailureRecord failure;
  for (;;) {
    if ((limit != 0 && out.execs >= limit) || (millis != 0 && Clock::now() >= deadline)) {
      out.end = ShrinkOutcome::End::Budget;
      break;
    }
    if (!m.next(&candidate)) break;
    if (watch != nullptr) watch->before_candidate(m, candidate, out.execs);
    core::store_entry(shm.current(), candidate, engine.area_size());
    core::failure_clear(hdr.failure);
    bool fresh = false;
    RunResult r = engine.run_current(&failure, ++out.execs, &fresh);
    if (watch != nullptr) watch->after_candidate(m, candidate);
    bool qualifies;
    if (goal.keep != nullptr) {
      if (r == RunResult::Fail) {
        // A new failure found while shrinking an input with new coverage: reported as any other.
        out.failure = failure;
        out.end = ShrinkOutcome::End::Failure;
        break;
      }
      engine.write_snapshot();
      // A candidate the fuzz function skipped (out of its domains) keeps nothing.
      qualifies = r == RunResult::Pass && core::covers(shm.snapshot(), goal.keep, goal.counters);
    } else {
      qualifies = r == RunResult::Fail && core::same_failure(failure, *goal.target);
    }
    m.report(qualifies);
    if (qualifies) {
      out.improved = true;
      if (watch != nullptr) watch->improved(m);
    }
  }
  out.duration_ns =
      static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count());
  return out;
}

}  // namespace fuzzer::cfuzz
