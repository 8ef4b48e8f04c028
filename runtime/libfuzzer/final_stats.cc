#include "runtime/libfuzzer/final_stats.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>

namespace fuzzer::cfuzz {

void write_final_stats(int fd, const FinalStats& s) {
  char buf[512];
  int n = std::snprintf(buf, sizeof buf,
                        "stat::number_of_executed_units: %llu\n"
                        "stat::average_exec_per_sec:     %llu\n"
                        "stat::new_units_added:          %llu\n"
                        "stat::slowest_unit_time_sec:    %llu\n"
                        "stat::peak_rss_mb:              %llu\n",
                        static_cast<unsigned long long>(s.execs),
                        static_cast<unsigned long long>(s.seconds > 0 ? static_cast<double>(s.execs) / s.seconds : 0),
                        static_cast<unsigned long long>(s.new_units),
                        static_cast<unsigned long long>(s.slowest_ns / 1000000000ULL),
                        static_cast<unsigned long long>(s.peak_rss_mb));
  if (n > 0) (void)!::write(fd, buf, static_cast<std::size_t>(std::min<int>(n, sizeof buf - 1)));
}

}  // namespace fuzzer::cfuzz
