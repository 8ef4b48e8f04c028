// `cfuzz cover -o DIR`: the coverage report as one self-contained web page, with the totals,
// the files, the functions never entered, each file's source with its lines marked reached or
// not, and a chart of coverage over fuzzing time (coverage_plot.h). No network, no script
// library, no external font: the page opens from disk anywhere, and CI can keep it as an
// artifact.
#pragma once

#include <string>
#include <vector>

#include "libfuzzdriver/coverage/coverage_report.h"

namespace cfuzz::driver {

// Writes DIR/index.html (creating DIR). `srcdir` resolves relative FileCoverage paths; a source
// that cannot be read is named in the page, with its lines listed by number instead. Throws
// FileError (a std::runtime_error) naming the path when it cannot write.
void write_coverage_html(const CoverageReport& report, const std::vector<StatsRecord>& stats, const std::string& srcdir,
                         const std::string& out_dir);

// The page itself, as write_coverage_html writes it.
std::string coverage_html(const CoverageReport& report, const std::vector<StatsRecord>& stats,
                          const std::string& srcdir);

}  // namespace cfuzz::driver
