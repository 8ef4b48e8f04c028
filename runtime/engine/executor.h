// Runs the fuzz function on one input: the per-input T, failure and skip detection,
// exceptions, cleanups. Shared by seed runs and the worker's fuzzing loop, where it is on
// the hot path: for an input that logs nothing it allocates nothing.
#pragma once

#include <string_view>

#include "core/failure_record.h"
#include "runtime/engine/engine_namespace.h"
#include "runtime/engine/input_buffers.h"
#include "runtime/engine/test_state.h"

namespace fuzzer::cfuzz {

enum class RunResult { Pass, Fail, Skip };

void call_fuzz_function(detail::FuzzFunction& fn, T& t, const detail::ArgView* args);

class Executor {
 public:
  // `f` must hold the fuzz function (its body called f.fuzz).
  explicit Executor(detail::TestState& f);

  const std::vector<corpus::Type>& types() const { return fn_.types; }

  // Runs the fuzz function with `args` (one view per parameter). On Fail, `failure` says
  // what and where.
  RunResult run(const detail::ArgView* args, std::string_view input_name, core::FailureRecord* failure);

  // Builds the views of an entry's values (byte values copied into `buffers`).
  static void views_of(const corpus::Entry& entry, InputBuffers& buffers, detail::ArgView* out);

  // Called after the encoded values are decoded and before the fuzz function runs, when
  // the function takes encoded values (the fuzz engine starts counting coverage there).
  void set_after_decode(void (*fn)(void*), void* ctx) {
    after_decode_ = fn;
    after_decode_ctx_ = ctx;
  }
  bool decodes() const { return fn_.decode != nullptr; }
  // While fuzzing, an input with a value out of its domain is skipped (the mutator made
  // it); elsewhere (a seed, a corpus file) it fails, saying which value and domain.
  void set_skip_out_of_domain(bool skip) { skip_out_of_domain_ = skip; }

  // The last input's state, for its log.
  const detail::TestState& last_input() const { return input_; }

 private:
  void unpoison_for_msan(const detail::ArgView* args);

  detail::FuzzFunction& fn_;
  detail::TestState input_;
  T t_;
  void (*after_decode_)(void*) = nullptr;
  void* after_decode_ctx_ = nullptr;
  bool skip_out_of_domain_ = false;
  std::uint64_t stack_limit_kb_;  // stack_limit.h
  std::string out_of_domain_;
};

}  // namespace fuzzer::cfuzz
