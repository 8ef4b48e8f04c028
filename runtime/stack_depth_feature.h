// libFuzzer's stack-depth feature: how deep the fuzz function's stack went, in steps that
// grow like 8 × log2 of the depth, is one more coverage feature. An input that reaches a
// step no earlier input reached is kept, as one with a new edge is. Parsers of nested
// structure go deeper as inputs nest deeper, so the deeper inputs stay in the corpus to be
// built on, where edge coverage alone sees nothing new.
//
// The steps are counters of a region the runtime registers after the modules' own: the
// mask, the snapshots, the baseline and minimization treat them as any counter. Depth
// comes from -fsanitize-coverage=stack-depth (__sancov_lowest_stack), which every cfuzz
// build has.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/coverage.h"

namespace cfuzz::runtime {

// The counters of the steps, one bit per step (core/coverage.h's buckets).
inline constexpr std::size_t kStackDepthCounters = 32;

// Once, before anything counts the counters (the start of main: the modules have
// registered theirs from their static constructors). Nothing when no module has counters.
void register_stack_depth_counters();
bool is_stack_depth_region(const core::CounterRegion& r);

// The step of a depth in bytes, 0 for none; libFuzzer's step function of depth / 8.
std::uint32_t stack_depth_step(std::uintptr_t depth_bytes);

// Around one execution of the fuzz function, on the thread that runs it.
void stack_depth_begin();
void stack_depth_end();

}  // namespace cfuzz::runtime
