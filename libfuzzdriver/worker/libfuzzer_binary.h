// Recognising a target linked with libFuzzer's own driver (clang -fsanitize=fuzzer) rather
// than the cfuzz runtime, before running it: asked to describe itself, such a binary would
// start fuzzing instead (and may leave crash files behind).
#pragma once

#include <string>

namespace cfuzz::driver {

// True when the program holds libFuzzer's driver (its LLVMFuzzerRunDriver symbol or its
// "INFO: Seed:" line, which stripping keeps) and not the cfuzz runtime's describe flag.
bool linked_with_libfuzzer(const std::string& program);

}  // namespace cfuzz::driver
