// Running a fuzz test's body: everything up to f.fuzz, which only records the function.
// Seeds, fuzzing and description all start here.
#pragma once

#include <memory>

#include "runtime/engine/engine_namespace.h"
#include "runtime/engine/registry.h"
#include "runtime/engine/test_state.h"

namespace fuzzer::cfuzz {

// The F state after the body ran. If the body failed, skipped, threw or returned without
// calling f.fuzz, that is recorded on the state (failed() or skipped(), with a log line)
// and it holds no fuzz function.
std::unique_ptr<detail::TestState> run_test_body(const RegisteredTest& test);

// A one-line description of why a prepared test cannot run inputs, from its log.
std::string body_failure(const detail::TestState& f);

}  // namespace fuzzer::cfuzz
