#include "runtime/engine/stack_depth_feature.h"

#include "runtime/engine/coverage_registry.h"
#include "runtime/failure/stack_limit.h"

namespace fuzzer::cfuzz {

namespace stack_depth_detail {
std::uint8_t g_stack_depth_counters[kStackDepthCounters];
thread_local std::uintptr_t t_stack_depth_base = 0;
}  // namespace stack_depth_detail

void register_stack_depth_counters() {
  auto& r = coverage_registry();
  // A target with no counters of its own is not instrumented, and is told so.
  if (r.total_counters == 0) return;
  for (std::size_t i = 0; i < r.region_count; ++i) {
    if (r.regions[i].begin == stack_depth_detail::g_stack_depth_counters) return;
  }
  if (r.region_count == CoverageRegistry::kMaxModules) return;
  r.regions[r.region_count++] =
      core::CounterRegion{stack_depth_detail::g_stack_depth_counters, kStackDepthCounters, r.total_counters};
  r.total_counters += kStackDepthCounters;
}

bool is_stack_depth_region(const core::CounterRegion& r) {
  return r.begin == stack_depth_detail::g_stack_depth_counters;
}

}  // namespace fuzzer::cfuzz
