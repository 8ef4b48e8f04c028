#include "runtime/stack_depth_feature.h"

#include "runtime/coverage_registry.h"
#include "runtime/stack_limit.h"

namespace cfuzz::runtime {

namespace {

std::uint8_t g_counters[kStackDepthCounters];
thread_local std::uintptr_t t_base = 0;  // the stack pointer the depth is measured from

// The hit count that core::bucket_counter turns into bucket `bit`.
constexpr std::uint8_t kCountForBucket[8] = {1, 2, 3, 4, 8, 16, 32, 128};

}  // namespace

void register_stack_depth_counters() {
  auto& r = coverage_registry();
  // A target with no counters of its own is not instrumented, and is told so.
  if (r.total_counters == 0) return;
  for (std::size_t i = 0; i < r.region_count; ++i) {
    if (r.regions[i].begin == g_counters) return;
  }
  if (r.region_count == CoverageRegistry::kMaxModules) return;
  r.regions[r.region_count++] = core::CounterRegion{g_counters, kStackDepthCounters, r.total_counters};
  r.total_counters += kStackDepthCounters;
}

bool is_stack_depth_region(const core::CounterRegion& r) { return r.begin == g_counters; }

std::uint32_t stack_depth_step(std::uintptr_t depth_bytes) {
  std::uintptr_t a = depth_bytes / 8;
  if (a == 0) return 0;
  auto log2 = static_cast<std::uint32_t>(63 - __builtin_clzll(a));
  if (log2 < 3) return static_cast<std::uint32_t>(a);
  log2 -= 3;
  return (log2 + 1) * 8 + static_cast<std::uint32_t>((a >> log2) & 7);
}

void stack_depth_begin() {
  t_base = reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0));
  __sancov_lowest_stack = t_base;
}

void stack_depth_end() {
  std::uintptr_t lowest = __sancov_lowest_stack;
  if (t_base == 0 || lowest >= t_base) return;
  std::uint32_t step = stack_depth_step(t_base - lowest);
  if (step == 0 || step >= 8 * kStackDepthCounters) return;
  g_counters[step / 8] = kCountForBucket[step % 8];
}

}  // namespace cfuzz::runtime
