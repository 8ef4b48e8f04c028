// The target run by itself, as `go test` runs a package: every fuzz test's seeds once
// (f.add values, then the files in testdata/fuzz/<Name>/), reported go-test style.
#pragma once

#include <string>
#include <vector>

#include "runtime/engine/engine_namespace.h"
#include "runtime/failure/input_limits.h"
#include "runtime/modes/run_pattern.h"

namespace fuzzer::cfuzz {

struct StandaloneOptions {
  std::string program;  // argv[0], for the summary line
  RunPattern run;
  bool verbose = false;
  bool list = false;
  std::string srcdir;
  InputLimits limits;  // --timeout, --rss-limit-mb
};

// Returns the exit code: 0 all passed, 1 a seed failed, 2 a usage or corpus error.
int run_standalone(const StandaloneOptions& options);

}  // namespace fuzzer::cfuzz
