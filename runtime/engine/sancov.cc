// SanitizerCoverage callbacks (clang's -fsanitize=fuzzer-no-link and the equivalent
// -fsanitize-coverage= flags): counter and pc-table registration, comparison tracing,
// and the weak hooks that sanitizer interceptors call for memcmp and friends.
//
// Comparison callbacks run on every comparison the target makes, so they do nothing but
// hand the operands to the comparison table (runtime/engine/cmp_table.h), which drops them
// unless a worker is fuzzing.
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "runtime/engine/cmp_table.h"
#include "runtime/engine/coverage_registry.h"
#include "runtime/engine/engine_namespace.h"
#include "runtime/engine/value_profile.h"
#include "runtime/failure/stack_limit.h"

namespace fuzzer::cfuzz {

CoverageRegistry& coverage_registry() {
  static CoverageRegistry registry;  // zero-initialized, no constructor to run
  return registry;
}

}  // namespace fuzzer::cfuzz

using cfuzz::runtime::cmp_table;
using cfuzz::runtime::coverage_registry;
using cfuzz::runtime::poll_stack_limit;
using cfuzz::runtime::value_profile_record;

#define CFUZZ_CALLER_PC reinterpret_cast<std::uintptr_t>(__builtin_return_address(0))
// The callbacks live in a section of their own, so that a crash site (a stack overflow
// often strikes inside one) names the target's frame that called them.
#define CFUZZ_HOOK __attribute__((section("cfuzz_hooks"), used))

extern "C" {

// The deepest stack pointer seen (-fsanitize-coverage=stack-depth); clang expects the
// runtime to define it, thread-local and initial-exec like libFuzzer's. The stack limit
// reads it (stack_limit.h); the integer comparison hooks below poll it.
__attribute__((tls_model("initial-exec"))) thread_local std::uintptr_t __sancov_lowest_stack;

CFUZZ_HOOK void __sanitizer_cov_8bit_counters_init(std::uint8_t* start, std::uint8_t* stop) {
  auto& r = coverage_registry();
  if (start == stop) return;
  for (std::size_t i = 0; i < r.region_count; ++i) {
    if (r.regions[i].begin == start) return;  // a module registering twice
  }
  if (r.region_count == cfuzz::runtime::CoverageRegistry::kMaxModules) return;
  auto size = static_cast<std::size_t>(stop - start);
  r.regions[r.region_count++] = cfuzz::core::CounterRegion{start, size, r.total_counters};
  r.total_counters += size;
}

CFUZZ_HOOK void __sanitizer_cov_pcs_init(const std::uintptr_t* pcs_beg, const std::uintptr_t* pcs_end) {
  auto& r = coverage_registry();
  if (r.pc_table_count == cfuzz::runtime::CoverageRegistry::kMaxModules) return;
  r.pc_tables[r.pc_table_count++] = cfuzz::runtime::PcTable{pcs_beg, pcs_end};
}

// Integer comparisons: two operands of 1, 2, 4 or 8 bytes. The const_ variants have a
// compile-time constant first operand: the most useful magic values, and the only
// comparisons the value profile counts (runtime/engine/value_profile.h), when it is on.
// One line per hook: a table of the ABI.
// clang-format off
CFUZZ_HOOK void __sanitizer_cov_trace_cmp1(std::uint8_t a, std::uint8_t b) { poll_stack_limit(); cmp_table().record_int(CFUZZ_CALLER_PC, a, b, 1, false); }
CFUZZ_HOOK void __sanitizer_cov_trace_cmp2(std::uint16_t a, std::uint16_t b) { poll_stack_limit(); cmp_table().record_int(CFUZZ_CALLER_PC, a, b, 2, false); }
CFUZZ_HOOK void __sanitizer_cov_trace_cmp4(std::uint32_t a, std::uint32_t b) { poll_stack_limit(); cmp_table().record_int(CFUZZ_CALLER_PC, a, b, 4, false); }
CFUZZ_HOOK void __sanitizer_cov_trace_cmp8(std::uint64_t a, std::uint64_t b) { poll_stack_limit(); cmp_table().record_int(CFUZZ_CALLER_PC, a, b, 8, false); }
CFUZZ_HOOK void __sanitizer_cov_trace_const_cmp1(std::uint8_t a, std::uint8_t b) { poll_stack_limit(); cmp_table().record_int(CFUZZ_CALLER_PC, a, b, 1, true); }
CFUZZ_HOOK void __sanitizer_cov_trace_const_cmp2(std::uint16_t a, std::uint16_t b) { poll_stack_limit(); value_profile_record(CFUZZ_CALLER_PC, a, b); cmp_table().record_int(CFUZZ_CALLER_PC, a, b, 2, true); }
CFUZZ_HOOK void __sanitizer_cov_trace_const_cmp4(std::uint32_t a, std::uint32_t b) { poll_stack_limit(); value_profile_record(CFUZZ_CALLER_PC, a, b); cmp_table().record_int(CFUZZ_CALLER_PC, a, b, 4, true); }
CFUZZ_HOOK void __sanitizer_cov_trace_const_cmp8(std::uint64_t a, std::uint64_t b) { poll_stack_limit(); value_profile_record(CFUZZ_CALLER_PC, a, b); cmp_table().record_int(CFUZZ_CALLER_PC, a, b, 8, true); }
// clang-format on

// switch (val) { case c0: ... }: cases[0] = number of cases, cases[1] = bit width, then
// the case values, sorted. Only the cases next to `val` are recorded: they are the ones a
// small change reaches, and recording every case of a big switch on every execution would
// crowd everything else out of the table.
CFUZZ_HOOK void __sanitizer_cov_trace_switch(std::uint64_t val, std::uint64_t* cases) {
  poll_stack_limit();
  std::uint64_t n = cases[0];
  int width = static_cast<int>(cases[1] / 8);
  if (width <= 0 || width > 8) width = 8;
  std::uint64_t i = 0;
  while (i < n && cases[2 + i] < val) ++i;
  if (i < n) cmp_table().record_int(CFUZZ_CALLER_PC + i, cases[2 + i], val, width, true, true);
  if (i > 0) cmp_table().record_int(CFUZZ_CALLER_PC + i - 1, cases[2 + i - 1], val, width, true, true);
}

// Divisions and array indexing: the operand is compared with the values that would make it
// interesting (a zero divisor); recorded like a comparison with zero.
// clang-format off
CFUZZ_HOOK void __sanitizer_cov_trace_div4(std::uint32_t val) { cmp_table().record_int(CFUZZ_CALLER_PC, 0, val, 4, true); }
CFUZZ_HOOK void __sanitizer_cov_trace_div8(std::uint64_t val) { cmp_table().record_int(CFUZZ_CALLER_PC, 0, val, 8, true); }
// clang-format on
CFUZZ_HOOK void __sanitizer_cov_trace_gep(std::uintptr_t) {}
CFUZZ_HOOK void __sanitizer_cov_trace_pc_indir(std::uintptr_t) {}

// Called by the sanitizer runtimes' interceptors (ASan, UBSan, ...) after the real call.
CFUZZ_HOOK void __sanitizer_weak_hook_memcmp(void* caller_pc, const void* s1, const void* s2, std::size_t n,
                                             int result) {
  if (result == 0) {
    cmp_table().record_match(s1, n);
    return;
  }
  cmp_table().record_bytes(reinterpret_cast<std::uintptr_t>(caller_pc), s1, n, s2, n);
}
CFUZZ_HOOK void __sanitizer_weak_hook_strncmp(void* caller_pc, const char* s1, const char* s2, std::size_t n,
                                              int result) {
  if (result == 0) {
    if (cmp_table().enabled()) cmp_table().record_match(s1, strnlen(s1, n));
    return;
  }
  std::size_t l1 = strnlen(s1, n), l2 = strnlen(s2, n);
  cmp_table().record_bytes(reinterpret_cast<std::uintptr_t>(caller_pc), s1, l1, s2, l2);
}
CFUZZ_HOOK void __sanitizer_weak_hook_strcmp(void* caller_pc, const char* s1, const char* s2, int result) {
  if (result == 0) {
    if (cmp_table().enabled()) cmp_table().record_match(s1, std::strlen(s1));
    return;
  }
  cmp_table().record_bytes(reinterpret_cast<std::uintptr_t>(caller_pc), s1, std::strlen(s1), s2, std::strlen(s2));
}
CFUZZ_HOOK void __sanitizer_weak_hook_strncasecmp(void* caller_pc, const char* s1, const char* s2, std::size_t n,
                                                  int result) {
  __sanitizer_weak_hook_strncmp(caller_pc, s1, s2, n, result);
}
CFUZZ_HOOK void __sanitizer_weak_hook_strcasecmp(void* caller_pc, const char* s1, const char* s2, int result) {
  __sanitizer_weak_hook_strcmp(caller_pc, s1, s2, result);
}
CFUZZ_HOOK void __sanitizer_weak_hook_strstr(void* caller_pc, const char* haystack, const char* needle, char* result) {
  if (result != nullptr) {
    if (cmp_table().enabled()) cmp_table().record_match(needle, std::strlen(needle));
    return;
  }
  cmp_table().record_bytes(reinterpret_cast<std::uintptr_t>(caller_pc), haystack, std::strlen(haystack), needle,
                           std::strlen(needle));
}
CFUZZ_HOOK void __sanitizer_weak_hook_strcasestr(void* caller_pc, const char* haystack, const char* needle,
                                                 char* result) {
  __sanitizer_weak_hook_strstr(caller_pc, haystack, needle, result);
}
CFUZZ_HOOK void __sanitizer_weak_hook_memmem(void* caller_pc, const void* haystack, std::size_t hlen,
                                             const void* needle, std::size_t nlen, void* result) {
  if (result != nullptr) {
    cmp_table().record_match(needle, nlen);
    return;
  }
  cmp_table().record_bytes(reinterpret_cast<std::uintptr_t>(caller_pc), haystack, hlen, needle, nlen);
}

}  // extern "C"
