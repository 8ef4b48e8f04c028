// libFuzzer's -merge=1, crash-resistant and resumable as ClusterFuzz uses it:
//
//   ./target -merge=1 [-merge_control_file=MCF] OUT_DIR IN_DIR...
//
// The outer process lists the units (OUT_DIR's first, each directory's by size) into the
// control file and runs this binary again as the inner process (-merge_inner=1), which
// runs the units in order, appending to the control file as it goes:
//
//   STARTED <i> <size>        before unit i runs
//   FT <i> <feature>...       after it: the features this inner process had not seen
//   COV <i> <counter>...      and the counters (edges) it had not seen
//
// A unit that kills the inner process is left STARTED without FT; the outer process starts
// a new inner process, which resumes after it. When all units ran, the outer process picks
// the new units that add features (smallest first, greedy) and copies them to OUT_DIR as
// <sha1>. A control file that is complete is reused: its units are not run again.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "runtime/engine/engine_namespace.h"
#include "runtime/libfuzzer/libfuzzer_options.h"

namespace fuzzer::cfuzz {

// The outer process; returns the exit status.
int merge_outer(const LibFuzzerOptions& o, int argc, char** argv);

// What running one unit gave: its features (counter * 8 + bucket bit) in order.
using UnitFeatures = std::function<std::vector<std::uint32_t>(const std::string& bytes)>;

// The inner process: runs the units the control file lists and has no record for.
int merge_inner(const LibFuzzerOptions& o, std::uint64_t max_len, const UnitFeatures& run);

}  // namespace fuzzer::cfuzz
