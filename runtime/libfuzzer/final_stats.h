// libFuzzer's -print_final_stats lines ("stat::number_of_executed_units: N" ...), which
// ClusterFuzz reads into its statistics of a run. They are printed at the end of a run and
// also when a failure ends the process, from the crash handler's report: so they are
// formatted on the stack and written with one write(2), with no allocation.
#pragma once

#include <cstdint>

#include "runtime/engine/engine_namespace.h"

namespace fuzzer::cfuzz {

struct FinalStats {
  std::uint64_t execs = 0;
  double seconds = 0;  // since the start; average_exec_per_sec is 0 before any time passed
  std::uint64_t new_units = 0;
  std::uint64_t slowest_ns = 0;  // printed in whole seconds, as libFuzzer's
  std::uint64_t peak_rss_mb = 0;
};

void write_final_stats(int fd, const FinalStats& s);

}  // namespace fuzzer::cfuzz
