// The stack limit (--stack-limit-kb, FuzzTest's 128 KiB by default for CFUZZ_TESTs): an
// input that makes the fuzz function use more stack than this fails with a failure of its
// own kind, before a deep recursion can overflow the real stack (or pass unnoticed where
// threads have bigger stacks than production's).
//
// Depth comes from -fsanitize-coverage=stack-depth, which every cfuzz build has: each
// instrumented function records the lowest stack address it ran at. The runtime looks at it
// after each input, and in the comparison hooks during one (the deep path of a parser
// compares), so a runaway recursion stops at the limit with a report of where it was.
#pragma once

#include <cstdint>
#include <optional>

#include "core/failure_record.h"
#include "runtime/engine/engine_namespace.h"

extern "C" {
extern __attribute__((tls_model("initial-exec"))) thread_local std::uintptr_t __sancov_lowest_stack;
}

namespace fuzzer::cfuzz {

inline constexpr std::uint64_t kDefaultStackLimitKb = 128;

// The limit given for this process (--stack-limit-kb; 0: none), if any.
void set_stack_limit_kb(std::optional<std::uint64_t> kb);
// The limit for a test: the one given, else the default for its kind (none for a
// libFuzzer harness, as in libFuzzer).
std::uint64_t stack_limit_kb_for(bool libfuzzer_harness);

// The lowest address the executing thread's stack may reach; 0 on other threads and
// between inputs, so the check below is one compare. constinit and initial-exec: the hooks
// read it on every comparison, and so it is one load, without the call a thread_local whose
// initialization the compiler cannot see would go through.
extern constinit __attribute__((tls_model("initial-exec"))) thread_local std::uintptr_t t_stack_floor;

// Around one execution, on the thread that runs it: end says whether it went past the
// limit, and failure then describes that.
void stack_limit_begin(std::uint64_t limit_kb);
bool stack_limit_end();
void stack_limit_failure(core::FailureRecord* failure);

[[noreturn]] void fail_for_stack_limit();

// Called from hooks inside the target's code.
inline void poll_stack_limit() {
  if (__sancov_lowest_stack < t_stack_floor) [[unlikely]]
    fail_for_stack_limit();
}

}  // namespace fuzzer::cfuzz
