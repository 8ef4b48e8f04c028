// The harness of fuzz_engine_test.cc and worker_server_test.cc (engine_harness.cc), the
// inputs that reach every one of its blocks, and its set-up as a target's main makes it
// (engine_harness_setup.cc).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

#include "runtime/engine/engine_namespace.h"
#include "runtime/engine/registry.h"
#include "runtime/engine/test_state.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace fuzzer::cfuzz::engine_test {

// How many times the harness ran: the executions a test counted are the target's.
extern std::uint64_t g_harness_runs;

// Between them, every branch of the harness both ways.
inline constexpr std::string_view kEngineHarnessSeeds[] = {"", "XXXX", "EABcXXXX", "EGNa", "EGNaINE!"};
// Reaches every comparison with a constant of two bytes or more (what a fuzz call reports
// as new words) with operands that differ (equal ones are not recorded): a call from it has
// found all its constants in its first execution.
inline constexpr std::string_view kEveryComparison = "EABcXXXX";

// The harness as a test, its body run: what target_main does before it fuzzes.
struct HarnessUnderTest {
  const RegisteredTest& test;
  std::unique_ptr<detail::TestState> state;  // holds the fuzz function
};

// Registers the stack depth's counters (after the modules' own) and the libFuzzer harness
// as a test, for a program named `program`, and runs the test's body. Throws
// std::runtime_error if the harness is not registered or its body records no fuzz function.
// Once per process.
HarnessUnderTest set_up_harness(const char* program);

}  // namespace fuzzer::cfuzz::engine_test
