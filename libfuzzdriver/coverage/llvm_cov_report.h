// Coverage by source line from clang's source-based coverage, for a target also built with
// -fprofile-instr-generate -fcoverage-mapping: the workers write raw profiles while the
// corpus is replayed (LLVM_PROFILE_FILE), llvm-profdata merges them and llvm-cov exports
// the lines and functions (its lcov format).
#pragma once

#include <string>

#include "libfuzzdriver/coverage/coverage_report.h"

namespace cfuzz::driver {

// The environment entry that makes a profiled process write its profile into `dir`.
std::string profile_file_env(const std::string& dir);

// Fills report.files from the raw profiles in `profile_dir`. Throws std::runtime_error
// when LLVM's tools are missing or fail.
void add_llvm_cov_lines(const std::string& target_abs_path, const std::string& profile_dir, CoverageReport& report);

}  // namespace cfuzz::driver
