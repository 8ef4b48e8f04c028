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
#include "runtime/engine/engine_namespace.h"
#include "runtime/failure/stack_limit.h"

namespace fuzzer::cfuzz {

// The counters of the steps, one bit per step (core/coverage.h's buckets).
inline constexpr std::size_t kStackDepthCounters = 32;

// Once, before anything counts the counters (the start of main: the modules have
// registered theirs from their static constructors). Nothing when no module has counters.
void register_stack_depth_counters();
bool is_stack_depth_region(const core::CounterRegion& r);

// The step of a depth in bytes, 0 for none; libFuzzer's step function of depth / 8.
inline std::uint32_t stack_depth_step(std::uintptr_t depth_bytes) {
  std::uintptr_t a = depth_bytes / 8;
  if (a == 0) return 0;
  auto log2 = static_cast<std::uint32_t>(63 - __builtin_clzll(a));
  if (log2 < 3) return static_cast<std::uint32_t>(a);
  log2 -= 3;
  return (log2 + 1) * 8 + static_cast<std::uint32_t>((a >> log2) & 7);
}

namespace stack_depth_detail {
extern std::uint8_t g_stack_depth_counters[kStackDepthCounters];
extern thread_local std::uintptr_t t_stack_depth_base;  // the stack pointer the depth is measured from
}  // namespace stack_depth_detail

// Around one execution of the fuzz function, on the thread that runs it. Inline: they run
// on every execution.
inline void stack_depth_begin() {
  stack_depth_detail::t_stack_depth_base = reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0));
  __sancov_lowest_stack = stack_depth_detail::t_stack_depth_base;
}

inline void stack_depth_end() {
  std::uintptr_t base = stack_depth_detail::t_stack_depth_base, lowest = __sancov_lowest_stack;
  if (base == 0 || lowest >= base) return;
  std::uint32_t step = stack_depth_step(base - lowest);
  if (step == 0 || step >= 8 * kStackDepthCounters) return;
  stack_depth_detail::g_stack_depth_counters[step / 8] = core::kCountForBucket[step % 8];
}

}  // namespace fuzzer::cfuzz
