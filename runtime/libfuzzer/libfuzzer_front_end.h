// The libFuzzer-compatible front end: a cfuzz target run the way OSS-Fuzz, ClusterFuzz
// and ClusterFuzzLite run libFuzzer binaries fuzzes in its own process with cfuzz's engine
// (runtime/engine/fuzz_engine.h), planning calls and keeping its corpus as `cfuzz run`'s
// coordinator does (core/fuzz_call_plan.h, core/corpus.h, core/dictionary.h), and speaks
// libFuzzer's output and artifacts (libfuzzer_report.h). This is the entry point that
// chooses the mode: the modes that run the binary again (-merge, -minimize_crash, -fork,
// -jobs...), or the run in this process (front_end.h).
#pragma once

#include "runtime/engine/engine_namespace.h"
#include "runtime/engine/registry.h"
#include "runtime/libfuzzer/libfuzzer_options.h"

namespace fuzzer::cfuzz {

// Fuzzes `test`, runs the input files given, or merges corpus directories; returns the
// exit status (failures end the process from inside, with libFuzzer's exit codes). argv
// is what the process was started with: some modes run this binary again.
int run_libfuzzer_front_end(const LibFuzzerOptions& options, const RegisteredTest& test, int argc, char** argv);

}  // namespace fuzzer::cfuzz
