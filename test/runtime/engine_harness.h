// The harness of fuzz_engine_test.cc (engine_harness.cc) and the inputs that reach every
// one of its blocks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "runtime/engine_namespace.h"

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

}  // namespace fuzzer::cfuzz::engine_test
