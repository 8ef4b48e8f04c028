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

namespace {
bool g_registered = false;
}  // namespace

void register_value_profile() {
  auto& r = coverage_registry();
  if (g_registered || r.total_counters == 0 || r.region_count == CoverageRegistry::kMaxModules) return;
  r.regions[r.region_count++] =
      core::CounterRegion{value_profile_detail::g_counters, kValueProfileCounters, r.total_counters};
  r.total_counters += kValueProfileCounters;
  g_registered = true;
}

void enable_value_profile() {
  register_value_profile();
  record_value_profile();
}

void record_value_profile() { value_profile_detail::g_enabled = g_registered; }

void enable_value_profile_if_asked() {
  const char* v = std::getenv(core::rpc::kValueProfileEnv);
  if (v == nullptr) return;
  if (std::string_view(v) == "1") enable_value_profile();
  if (std::string_view(v) == "auto") register_value_profile();
}

}  // namespace fuzzer::cfuzz
