// The SanitizerCoverage data of every instrumented module (the executable and any shared
// library), as the modules register it at startup.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/coverage.h"
#include "runtime/engine/engine_namespace.h"

namespace fuzzer::cfuzz {

struct PcTable {
  const std::uintptr_t* begin;  // pairs of (pc, flags), one per counter
  const std::uintptr_t* end;
};

// Plain data with no constructor: modules register from their own static constructors,
// which may run before any of the runtime's.
struct CoverageRegistry {
  static constexpr std::size_t kMaxModules = 256;
  core::CounterRegion regions[kMaxModules];
  std::size_t region_count;
  std::size_t total_counters;
  PcTable pc_tables[kMaxModules];
  std::size_t pc_table_count;
};

CoverageRegistry& coverage_registry();

}  // namespace fuzzer::cfuzz
