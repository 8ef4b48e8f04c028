// The entry of every cfuzz target. main() (default_main.cc) calls it; a GoogleTest binary's
// main (gtest_main.cc) calls it when cfuzz or a libFuzzer-style caller runs the binary.
#pragma once

#include "runtime/engine/engine_namespace.h"

namespace fuzzer::cfuzz {

// The seed run (`go test` style) by default, or one of the modes the coordinator uses
// (--cfuzz-describe, --cfuzz-worker=<Name>), or libFuzzer's (flags, corpus directories).
// Returns the exit code.
int target_main(int argc, char** argv);

}  // namespace fuzzer::cfuzz
