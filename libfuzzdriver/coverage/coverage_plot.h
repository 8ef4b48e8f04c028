// The coverage page's chart of a fuzz test's history: edges reached and corpus entries over
// fuzzing time, from the stats records its runs wrote. Drawn as inline SVG here, in C++, so
// the page needs no script and no library to show it.
#pragma once

#include <string>
#include <vector>

#include "libfuzzdriver/coverage/coverage_report.h"

namespace cfuzz::driver {

// One <svg data-testid="coverage-plot"> element: two stacked charts (edges above, corpus
// entries below) sharing the time axis. Runs follow each other in the order their records
// come: each run's elapsed time starts where the previous run's last record ended, a dashed
// line marks the boundary, and each run is its own <polyline> (data-run names it). No records:
// an empty string.
std::string coverage_plot_svg(const std::vector<StatsRecord>& stats);

}  // namespace cfuzz::driver
