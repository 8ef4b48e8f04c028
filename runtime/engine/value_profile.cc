#include "runtime/engine/value_profile.h"

#include <cstdlib>
#include <string_view>

#include "core/rpc.h"

namespace fuzzer::cfuzz {

namespace value_profile_detail {
std::uint8_t g_counters[kValueProfileCounters];
bool g_enabled = false;
bool g_written = false;
}  // namespace value_profile_detail

void enable_value_profile() {
  auto& r = coverage_registry();
  if (r.total_counters == 0 || value_profile_detail::g_enabled) return;
  if (r.region_count == CoverageRegistry::kMaxModules) return;
  r.regions[r.region_count++] =
      core::CounterRegion{value_profile_detail::g_counters, kValueProfileCounters, r.total_counters};
  r.total_counters += kValueProfileCounters;
  value_profile_detail::g_enabled = true;
}

void enable_value_profile_if_asked() {
  const char* v = std::getenv(core::rpc::kValueProfileEnv);
  if (v != nullptr && std::string_view(v) == "1") enable_value_profile();
}

}  // namespace fuzzer::cfuzz
