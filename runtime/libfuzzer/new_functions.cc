#include "runtime/libfuzzer/new_functions.h"

#include <cstdio>

#include "runtime/engine/coverage_registry.h"
#include "runtime/engine/stack_depth_feature.h"
#include "runtime/engine/value_profile.h"

extern "C" {
// Present when the target links a sanitizer runtime (all of them have it).
void __sanitizer_symbolize_pc(void* pc, const char* fmt, char* out_buf, std::size_t out_buf_size) __attribute__((weak));
}

namespace fuzzer::cfuzz {

namespace {

constexpr std::uintptr_t kFunctionEntry = 1;  // SanitizerCoverage's PCFlags bit for an entry block

std::string describe_pc(std::uintptr_t pc) {
  char buf[1024];
  if (__sanitizer_symbolize_pc != nullptr) {
    buf[0] = '\0';
    __sanitizer_symbolize_pc(reinterpret_cast<void*>(pc), "%p %F %L", buf, sizeof buf);
    buf[sizeof buf - 1] = '\0';
  } else {
    std::snprintf(buf, sizeof buf, "%p", reinterpret_cast<void*>(pc));
  }
  return buf;
}

}  // namespace

NewFunctions::NewFunctions(std::size_t print_at_most) : print_at_most_(print_at_most) {
  const CoverageRegistry& r = coverage_registry();
  // Each module registers its counters and then its PC table, one (pc, flags) pair per
  // counter; the runtime's own regions (stack depth, value profile) have no table.
  for (std::size_t k = 0, t = 0; k < r.region_count && t < r.pc_table_count; ++k) {
    const core::CounterRegion& region = r.regions[k];
    if (is_stack_depth_region(region) || is_value_profile_region(region)) continue;
    const PcTable& table = r.pc_tables[t++];
    if (static_cast<std::size_t>(table.end - table.begin) != 2 * region.size) continue;  // not this module's
    for (std::size_t i = 0; i < region.size; ++i) {
      const std::uintptr_t* e = table.begin + 2 * i;
      if ((e[1] & kFunctionEntry) != 0) entries_.push_back({region.offset + i, e[0], false});
    }
  }
}

std::vector<std::string> NewFunctions::observe(const std::uint8_t* counters, std::size_t n, bool quiet) {
  std::vector<std::uintptr_t> fresh;
  for (Entry& e : entries_) {
    if (e.seen || e.counter >= n || counters[e.counter] == 0) continue;
    e.seen = true;
    fresh.push_back(e.pc);
  }
  std::vector<std::string> lines;
  if (quiet) return lines;
  for (std::size_t i = 0; i < fresh.size() && i < print_at_most_; ++i) {
    char head[64];
    std::snprintf(head, sizeof head, "\tNEW_FUNC[%zu/%zu]: ", i + 1, fresh.size());
    // The symbolizer takes a return address: the entry block's address plus one.
    lines.push_back(head + describe_pc(fresh[i] + 1));
  }
  return lines;
}

}  // namespace fuzzer::cfuzz
