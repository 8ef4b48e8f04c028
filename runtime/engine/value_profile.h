// Value profile, when asked for (`cfuzz run --value-profile`, libFuzzer's
// -use_value_profile=1; `--value-profile=auto` once coverage stalls:
// core/value_profile_switch.h): how close each comparison with a constant came to being
// equal is one more coverage feature. An input whose comparison got nearer its constant than
// any earlier input's did is kept, as one with a new edge is. That is a gradient where edge
// coverage has none: a length, a count or a sum behind arithmetic that must reach an exact
// value, one step at a time.
//
// It is off by default, as in libFuzzer: every comparison with a constant then costs a hash
// and a counter update, and the entries it keeps thin out the search elsewhere. Measured
// (docs/benchmarks/history.md): on by default, libxml2 reached 0.93-0.96 of libFuzzer's branches at
// 60 s against 0.97-1.02 without it, while a planted record of exact lengths was found in
// 4-7 runs of 10 instead of 1.
//
// The distance |a - b| falls in one of 68 levels: 1, 2, ... 7 exactly, then one level per
// power of two (8-15, 16-31, ...), as libFuzzer's leading-zero count. Each (site, group of
// 8 levels) is a counter, each level within the group one of its 8 bucket bits
// (core/coverage.h), nearer levels as higher buckets; a site is a hash of its place in the
// code. The map holds 8 × kValueProfileCounters features at most, shared by all sites.
// Only comparisons with a compile-time constant of 2 bytes or more count: byte comparisons
// (a lexer's characters) and comparisons of two variables (loop bounds, pointers) would
// add features that lead nowhere, and a magic value that is in the input is
// input-to-state's job.
//
// The counters are a region registered after every other, so that the scan after an
// execution can leave it out when no comparison wrote to it.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/coverage.h"
#include "runtime/engine/coverage_registry.h"
#include "runtime/engine/engine_namespace.h"

namespace fuzzer::cfuzz {

inline constexpr std::size_t kValueProfileCounters = 4096;

// Registers the counters, once, after every other region, and leaves the recording off.
// Nothing when no module has counters (a target that is not instrumented is told so).
void register_value_profile();
// Turns the recording on, for good, if the counters are registered (a fuzz call does when
// the search asks for it: core/value_profile_switch.h).
void record_value_profile();
// Both.
void enable_value_profile();
// Enables it, or only registers the counters, when the environment asks for it
// (core::rpc::kValueProfileEnv: "1" or "auto", which `cfuzz run --value-profile` and
// `--value-profile=auto` set for the target's every process, so that its self-description
// and its workers count the same counters).
void enable_value_profile_if_asked();

namespace value_profile_detail {
extern std::uint8_t g_counters[kValueProfileCounters];
extern bool g_enabled;
extern bool g_written;  // a counter changed since the last scan

// 0 for a distance of 1, up to 67.
inline unsigned distance_level(std::uint64_t d) {
  return d < 8 ? static_cast<unsigned>(d) - 1 : static_cast<unsigned>(64 - __builtin_clzll(d)) + 3;
}
}  // namespace value_profile_detail

inline bool is_value_profile_region(const core::CounterRegion& r) {
  return r.begin == value_profile_detail::g_counters;
}

// From the hooks of comparisons with a constant of 2 bytes or more.
inline void value_profile_record(std::uintptr_t pc, std::uint64_t a, std::uint64_t b) {
  using namespace value_profile_detail;
  if (!g_enabled || a == b) return;
  unsigned level = distance_level(a > b ? a - b : b - a);
  // The site as an offset from the runtime's code, the same in every process whatever
  // address space randomization does, so that --seed runs repeat.
  std::uint64_t site = pc - reinterpret_cast<std::uintptr_t>(&enable_value_profile);
  std::uint64_t h = (site * 8 + level / 8) * 0x9e3779b97f4a7c15ULL;
  std::size_t i = static_cast<std::size_t>(h >> 40) & (kValueProfileCounters - 1);
  std::uint8_t c = core::kCountForBucket[7 - level % 8];
  if (g_counters[i] < c) {
    g_counters[i] = c;
    g_written = true;
  }
}

// How many of the registry's regions the scan after an execution reads: all, or all but
// the value profile when no comparison wrote to it.
inline std::size_t regions_to_scan(const CoverageRegistry& r) {
  if (value_profile_detail::g_written) {
    value_profile_detail::g_written = false;
    return r.region_count;
  }
  return r.region_count != 0 && is_value_profile_region(r.regions[r.region_count - 1]) ? r.region_count - 1
                                                                                       : r.region_count;
}

}  // namespace fuzzer::cfuzz
