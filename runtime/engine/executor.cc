#include "runtime/engine/executor.h"

#include <exception>

#include "core/input_area.h"
#include "runtime/engine/registry.h"
#include "runtime/engine/stack_depth_feature.h"
#include "runtime/failure/crash_handler.h"
#include "runtime/failure/memory_sanitizer.h"
#include "runtime/failure/stack_limit.h"

namespace fuzzer::cfuzz {

// Every call of the fuzz function goes through this one small function, so that a crash
// site can end the stack where the runtime begins (crash_handler.cc stops at its frame).
__attribute__((noinline)) void call_fuzz_function(detail::FuzzFunction& fn, T& t, const detail::ArgView* args) {
  MsanChecksWhileFuzzing checks;
  msan_unpoison_params(3);
  fn.invoke(fn.fn, t, args);
  asm volatile("");  // keep the call a call, not a tail jump, so this frame exists
}

Executor::Executor(detail::TestState& f)
    : fn_(*f.fuzz_function()),
      input_(f.test_name(), /*is_input=*/true),
      t_(&input_),
      stack_limit_kb_(stack_limit_kb_for(f.test_name() == kHarnessTestName)) {}

// What the target's code reads of the runtime's memory: the argument views, the bytes they
// point to, and T.
void Executor::unpoison_for_msan(const detail::ArgView* args) {
  msan_unpoison(args, fn_.types.size() * sizeof *args);
  for (std::size_t i = 0; i < fn_.types.size(); ++i) msan_unpoison(args[i].data, args[i].size);
  msan_unpoison(&t_, sizeof t_);
}

RunResult Executor::run(const detail::ArgView* args, std::string_view input_name, core::FailureRecord* failure) {
  input_.reset_for_input(input_name);
  bool in_domain = true;
  detail::running_input() = &input_;
  bool threw = false;
  if (msan_linked()) unpoison_for_msan(args);
  try {
    if (fn_.decode != nullptr) {
      msan_unpoison_params(3);
      in_domain = fn_.decode(fn_.fn, args, skip_out_of_domain_ ? nullptr : &out_of_domain_);
      if (after_decode_ != nullptr) after_decode_(after_decode_ctx_);
    }
    if (in_domain) {
      stack_depth_begin();
      stack_limit_begin(stack_limit_kb_);
      call_fuzz_function(fn_, t_, args);
    } else if (skip_out_of_domain_) {
      input_.mark_skipped();
    } else {
      input_.record_at(fn_.where, "value out of its domain: " + out_of_domain_, true);
    }
  } catch (const detail::Stop&) {
    // fatal, skip or fail_now: recorded already.
  } catch (const std::exception& e) {
    threw = true;
    core::failure_clear(*failure);
    failure->kind = static_cast<std::uint32_t>(core::FailureKind::Exception);
    core::failure_set(failure->detail, detail::current_exception_type());
    core::failure_set(failure->message, e.what());
  } catch (...) {
    threw = true;
    core::failure_clear(*failure);
    failure->kind = static_cast<std::uint32_t>(core::FailureKind::Exception);
    core::failure_set(failure->detail, detail::current_exception_type());
  }
  stack_depth_end();
  bool too_deep = stack_limit_end();
  if (input_.has_cleanups()) input_.run_cleanups();
  detail::running_input() = nullptr;

  if (!threw && take_ubsan_report(failure)) return RunResult::Fail;
  if (threw) {
    // Log lines the input wrote before throwing come after the exception's message.
    if (!input_.log().empty()) {
      std::string msg = failure->message;
      msg += (msg.empty() ? "" : "\n") + input_.format_log(0);
      core::failure_set(failure->message, msg);
    }
    return RunResult::Fail;
  }
  if (input_.failed()) {
    core::failure_clear(*failure);
    failure->kind = static_cast<std::uint32_t>(core::FailureKind::Returned);
    core::failure_set(failure->site, input_.failure_site());
    std::string msg = input_.format_log(0);
    if (msg.empty()) msg = input_.failure_site() + ": failed (t.fail called)\n";
    core::failure_set(failure->message, msg);
    if (!in_domain) failure->flags |= core::kFailureOutOfDomain;
    return RunResult::Fail;
  }
  // Last: another failure on the way down says more than the depth it reached.
  if (too_deep) {
    stack_limit_failure(failure);
    return RunResult::Fail;
  }
  return input_.skipped() ? RunResult::Skip : RunResult::Pass;
}

void Executor::views_of(const corpus::Entry& entry, InputBuffers& buffers, detail::ArgView* out) {
  for (std::size_t i = 0; i < entry.size(); ++i) {
    out[i] = detail::view_of(entry[i]);
    auto type = corpus::type_of(entry[i]);
    // A private copy: the fuzz function may not write to what the entry holds.
    if (type == corpus::Type::Bytes || type == corpus::Type::String)
      out[i].data = buffers.fill(i, out[i].data, out[i].size);
  }
}

}  // namespace fuzzer::cfuzz
