// Worker mode: the target re-executed by the coordinator (`--cfuzz-worker=<FuzzName>`)
// serves its RPC calls until the request pipe closes. The fuzzing loop (mutate, run,
// check coverage) lives here and stays allocation-free.
#pragma once

#include "runtime/registry.h"

namespace cfuzz::runtime {

int serve_worker(const RegisteredTest& test);

}  // namespace cfuzz::runtime
