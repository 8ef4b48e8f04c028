// The fuzz tests in this binary: those declared with CFUZZ_TEST, and a libFuzzer harness
// (LLVMFuzzerTestOneInput) if the binary has one.
#pragma once

#include <cfuzz/cfuzz.h>

#include <string>
#include <vector>

#include "runtime/engine/engine_namespace.h"

namespace fuzzer::cfuzz {

struct RegisteredTest {
  std::string name;
  void (*body)(F&);
  std::string file;
  int line;
};

// In registration order (the order of static initialization, then the libFuzzer harness).
// Duplicate names are reported and make the binary exit with status 2 at startup.
const std::vector<RegisteredTest>& registered_tests();

// The name a libFuzzer harness is registered under.
inline constexpr const char* kHarnessTestName = "LLVMFuzzerTestOneInput";

// Adds LLVMFuzzerTestOneInput as a test named kHarnessTestName when defined, and
// calls LLVMFuzzerInitialize(&argc, &argv) when defined. Called once from main().
void register_libfuzzer_harness(int* argc, char*** argv);

// Every registered name that is a duplicate, as "Name (file:line and file:line)".
std::vector<std::string> duplicate_tests();

}  // namespace fuzzer::cfuzz
