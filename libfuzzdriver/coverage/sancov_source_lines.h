// Coverage by source line from what every cfuzz build already has: SanitizerCoverage's PC
// table and the binary's debug info. No second build is needed.
//
// A counter counts one basic block, and its PC-table address is where the block's
// machine code starts. The machine code is cut into blocks (machine_blocks.h); a block
// without a counter (SanitizerCoverage leaves out those whose coverage others imply) ran
// when its neighbours say it must have. Every address of the line table is then
// symbolized with its inlining frames: the lines it belongs to (its own, and the call
// sites of the functions inlined there) hold code, reached when its block ran; the
// functions of those frames are entered when one of their blocks ran. Code that runs
// before any input (the test bodies with their f.add calls) counts as reached, as in
// source-based coverage.
#pragma once

#include <vector>

#include "libfuzzdriver/coverage/coverage_report.h"
#include "libfuzzdriver/worker/pc_table.h"

namespace cfuzz::driver {

// Fills report.files from `table` and `reached` (one flag per counter). Files of the
// system's and cfuzz's own headers are left out. Throws std::runtime_error when LLVM's
// tools are missing or the target has no debug info (naming -g).
void add_sancov_source_lines(const PcTable& table, const std::vector<bool>& reached, CoverageReport& report);

}  // namespace cfuzz::driver
