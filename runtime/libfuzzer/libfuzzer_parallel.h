// libFuzzer's parallel modes, over child processes that each run this binary's own front
// end (and so cfuzz's engine):
//
//   -jobs=N [-workers=W]   N fuzzing jobs, W at a time (default min(N, cores / 2)), each
//                          with its output in fuzz-<job>.log, copied to stderr as it ends.
//   -fork=N                N children fuzzing at once, restarted as they end; a status line
//                          every few seconds; the child's log when one fails.
//
// Children share the first corpus directory (each writes its new units there and reloads
// the others', -reload). The first failure stops the run and is reported once: children
// claim a failure through a file (libfuzzer_report.h), and the others are stopped.
#pragma once

#include "runtime/engine/engine_namespace.h"
#include "runtime/libfuzzer/libfuzzer_options.h"

namespace fuzzer::cfuzz {

// Return the exit status; run_jobs returns -1 when no worker would run (fewer than 2
// cores), and the caller fuzzes in-process.
int run_jobs(const LibFuzzerOptions& o, int argc, char** argv);
int run_fork(const LibFuzzerOptions& o, int argc, char** argv);

}  // namespace fuzzer::cfuzz
