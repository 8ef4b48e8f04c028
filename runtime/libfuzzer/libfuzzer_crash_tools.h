// libFuzzer's tools for a crashing input, driven as ClusterFuzz drives them:
//
//   -minimize_crash=1 [-exact_artifact_path=OUT] [-max_total_time=N] CRASH
//       The parent runs this binary again on the input to see it crash, then runs a step
//       (-minimize_crash_internal_step=1) that tries shorter inputs, from cfuzz's
//       minimizer (core/minimizer.h), until one crashes: the step dies writing it as the
//       artifact, and the parent goes on from it. It stops when a step finds nothing
//       shorter, or when the crash changes (the sanitizers' DEDUP_TOKEN differs).
//   -cleanse_crash=1 -exact_artifact_path=OUT CRASH
//       Replaces each byte with ' ' or 0xff where the input still crashes, so that what
//       is left of the original bytes is what matters.
//
// Every candidate runs in a child process: a crash ends only the child.
#pragma once

#include <functional>
#include <string>

#include "corpus_format/value.h"
#include "runtime/engine/engine_namespace.h"
#include "runtime/libfuzzer/libfuzzer_options.h"

namespace fuzzer::cfuzz {

// The parents; each returns the exit status.
int minimize_crash(const LibFuzzerOptions& o, int argc, char** argv);
int cleanse_crash(const LibFuzzerOptions& o, int argc, char** argv);

// The step: runs `run` on candidates shorter than `input` until one fails (then `run`
// does not return) or there are none left; returns the exit status.
int minimize_crash_step(const corpus::Entry& input, const std::function<void(const corpus::Entry&)>& run,
                        const std::function<bool()>& out_of_time);

}  // namespace fuzzer::cfuzz
