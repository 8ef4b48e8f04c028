// A fuzzing run's figures over time, kept next to its cache for `cfuzz cover` to plot:
//
//   <cache dir of the target>/<FuzzName>.stats.jsonl
//   {"run":"1764123456-4242","time":1764123459.1,"elapsed":3.0,"execs":123456,"corpus":15,"edges":210,"features":388}
//
// It sits beside the test's cache directory, not in it, so that nothing reading the corpus
// (Go's own fuzzer included) trips over it. Runs append a record every few seconds and at
// exit; one write per record, on a file opened for appending, so runs sharing a cache do
// not tear each other's lines. The file stays bounded: past kMaxRecords, every other
// record is dropped (each run's first and last kept), which keeps the whole history at a
// coarser grain.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "libfuzzdriver/coverage_report.h"

namespace cfuzz::driver {

inline constexpr std::size_t kMaxStatsRecords = 4000;

// The stats file of the test whose cache is `test_cache_dir` (cache_dir_for).
std::string stats_path(const std::string& test_cache_dir);

// A new run id: the start time and the process id.
std::string new_run_id();

// Appends one record; then thins the file if it grew past `max_records`. Returns false
// (and leaves the file as it was) when it cannot write.
bool append_stats(const std::string& path, const StatsRecord& record, std::size_t max_records = kMaxStatsRecords);

// The records of the file, oldest first; a missing file has none, a torn line is skipped.
std::vector<StatsRecord> read_stats(const std::string& path);

}  // namespace cfuzz::driver
