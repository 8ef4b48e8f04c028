#include "runtime/libfuzzer/status_line.h"

#include <sys/resource.h>

#include <algorithm>

#include "core/coverage.h"
#include "runtime/engine/coverage_registry.h"
#include "runtime/engine/stack_depth_feature.h"
#include "runtime/engine/value_profile.h"

namespace fuzzer::cfuzz {

std::string status_line(std::string_view what, const StatusFigures& f, std::string_view extra) {
  std::string line = "#" + std::to_string(f.execs) + "\t" + std::string(what);
  if (f.cov != 0) line += " cov: " + std::to_string(f.cov);
  if (f.ft != 0) line += " ft: " + std::to_string(f.ft);
  if (f.corpus_units != 0) line += " corp: " + std::to_string(f.corpus_units) + "/" + size_text(f.corpus_bytes);
  if (f.len_limit != 0 && what != "INITED") line += " lim: " + std::to_string(f.len_limit);
  line += " exec/s: " + std::to_string(f.seconds == 0 ? 0 : f.execs / f.seconds) + " rss: " + std::to_string(f.rss_mb) +
          "Mb";
  line += extra;
  return line;
}

std::string size_text(std::uint64_t bytes) {
  if (bytes < (1 << 14)) return std::to_string(bytes) + "b";
  if (bytes < (1 << 24)) return std::to_string(bytes >> 10) + "Kb";
  return std::to_string(bytes >> 20) + "Mb";
}

std::uint64_t peak_rss_mb() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<std::uint64_t>(ru.ru_maxrss) / 1024;
}

std::size_t covered_module_counters(const std::uint8_t* mask, std::size_t n) {
  const auto& cov = coverage_registry();
  std::size_t covered = 0;
  for (std::size_t r = 0; r < cov.region_count; ++r) {
    const core::CounterRegion& region = cov.regions[r];
    if (is_stack_depth_region(region) || is_value_profile_region(region)) continue;
    std::size_t end = std::min(region.offset + region.size, n);
    for (std::size_t i = region.offset; i < end; ++i) covered += mask[i] != 0;
  }
  return covered;
}

Pulse::Pulse(std::uint64_t execs) {
  while (next_ <= execs) next_ *= 2;
}

std::uint64_t Pulse::call_limit(std::uint64_t limit, std::uint64_t execs) const {
  std::uint64_t left = next_ - execs;
  return limit != 0 ? std::min(limit, left) : left;
}

bool Pulse::reached(std::uint64_t execs) {
  if (execs < next_) return false;
  bool exactly = execs == next_;
  while (next_ <= execs) next_ *= 2;
  return exactly;
}

}  // namespace fuzzer::cfuzz
