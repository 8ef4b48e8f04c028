// The harness's set-up, apart from engine_harness.cc: that file is compiled with
// SanitizerCoverage, and the set-up's blocks would be counters that no input reaches.
#include <stdexcept>
#include <string>
#include <utility>

#include "runtime/engine/stack_depth_feature.h"
#include "runtime/engine/test_body.h"
#include "test/runtime/engine_harness.h"

namespace fuzzer::cfuzz::engine_test {

HarnessUnderTest set_up_harness(const char* program) {
  register_stack_depth_counters();
  std::string arg0 = program;
  char* args[] = {arg0.data(), nullptr};
  int argc = 1;
  char** argv = args;
  register_libfuzzer_harness(&argc, &argv);
  const RegisteredTest* test = nullptr;
  for (const auto& t : registered_tests()) {
    if (t.name == kHarnessTestName) test = &t;
  }
  if (test == nullptr) throw std::runtime_error("the libFuzzer harness is not registered");
  std::unique_ptr<detail::TestState> state = run_test_body(*test);
  if (!state->fuzz_function()) throw std::runtime_error(body_failure(*state));
  return {*test, std::move(state)};
}

}  // namespace fuzzer::cfuzz::engine_test
