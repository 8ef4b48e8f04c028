#include "runtime/failure/stack_limit.h"

#include <string>

#include "runtime/failure/crash_handler.h"

namespace fuzzer::cfuzz {

namespace {

std::optional<std::uint64_t> g_given_kb;
thread_local std::uint64_t t_limit_bytes = 0;
thread_local std::uintptr_t t_stack_base = 0;  // where the execution's stack use is measured from

std::string over_limit_message() {
  std::uint64_t used = (t_stack_base - __sancov_lowest_stack) / 1024;
  return "stack use of " + std::to_string(used) + " KiB is over the " + std::to_string(t_limit_bytes / 1024) +
         " KiB limit (--stack-limit-kb)";
}

}  // namespace

constinit __attribute__((tls_model("initial-exec"))) thread_local std::uintptr_t t_stack_floor = 0;

void set_stack_limit_kb(std::optional<std::uint64_t> kb) { g_given_kb = kb; }

std::uint64_t stack_limit_kb_for(bool libfuzzer_harness) {
  return g_given_kb ? *g_given_kb : libfuzzer_harness ? 0 : kDefaultStackLimitKb;
}

void stack_limit_begin(std::uint64_t limit_kb) {
  t_limit_bytes = limit_kb * 1024;
  if (t_limit_bytes == 0) return;
  t_stack_base = reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0));
  __sancov_lowest_stack = t_stack_base;
  t_stack_floor = t_stack_base > t_limit_bytes ? t_stack_base - t_limit_bytes : 0;
}

bool stack_limit_end() {
  if (t_stack_floor == 0) return false;
  bool passed = __sancov_lowest_stack < t_stack_floor;
  t_stack_floor = 0;
  return passed;
}

void stack_limit_failure(core::FailureRecord* failure) {
  core::failure_clear(*failure);
  failure->kind = static_cast<std::uint32_t>(core::FailureKind::StackLimit);
  failure->flags |= core::kFailureExactInput;
  core::failure_set(failure->detail, "stack-limit");
  core::failure_set(failure->message, over_limit_message());
}

void fail_for_stack_limit() {
  t_stack_floor = 0;  // once: the report itself runs instrumented code
  core::FailureRecord* r = execution_state().record;
  std::string message = over_limit_message();
  if (r != nullptr && r->kind == static_cast<std::uint32_t>(core::FailureKind::None)) {
    // The whole record, kind first, then where: fail_running_input leaves a filled one be.
    stack_limit_failure(r);
    describe_site_from_backtrace(*r);
  }
  fail_running_input(core::FailureKind::StackLimit, "stack-limit", message);
}

}  // namespace fuzzer::cfuzz
