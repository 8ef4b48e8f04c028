// Worker mode: the target re-executed by the coordinator (`--cfuzz-worker=<FuzzName>`)
// serves its RPC calls until the request pipe closes. The fuzzing loop (mutate, run,
// check coverage) lives here and stays allocation-free.
#pragma once

#include "runtime/engine_namespace.h"
#include "runtime/registry.h"

namespace fuzzer::cfuzz {

// `detect_leaks`: check inputs for memory leaks (leak_check.h); `cfuzz run` passes
// --cfuzz-detect-leaks unless told --detect-leaks=false.
int serve_worker(const RegisteredTest& test, bool detect_leaks);

}  // namespace fuzzer::cfuzz
