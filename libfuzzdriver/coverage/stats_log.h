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
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "libfuzzdriver/coverage/coverage_report.h"

namespace cfuzz::driver {

inline constexpr std::size_t kMaxStatsRecords = 4000;
// A file bigger than this was not written by cfuzz (4000 records take about 600 KB): it is
// read as empty, and the next thinning starts it anew.
inline constexpr std::uint64_t kStatsFileLimit = std::uint64_t{16} << 20;

// The stats file of the test whose cache is `test_cache_dir` (cache_dir_for).
std::string stats_path(const std::string& test_cache_dir);

// A new run id: the start time and the process id.
std::string new_run_id();

// Appends one record to `path`, which is below the cache root `root` (no symbolic link
// below `root` is followed, and none at `path`: file_io.h's Directory::append); then thins
// the file if it grew past `max_records`. Throws FileError, leaving no torn record, when it
// cannot write.
void append_stats(const std::string& root, const std::string& path, const StatsRecord& record,
                  std::size_t max_records = kMaxStatsRecords);

// The records of the file, oldest first; a missing file has none, and a line that is not a
// record as cfuzz writes them (torn, too long, of other types) is skipped. The file may be
// anyone's (a shared cache): it is read through no symbolic link and up to kStatsFileLimit.
std::vector<StatsRecord> read_stats(const std::string& path);

// The records of the file's text, as read_stats reads them.
std::vector<StatsRecord> parse_stats(std::string_view text);

// One line of the file as a record; none when it is not one.
std::optional<StatsRecord> parse_stats_line(std::string_view line);

}  // namespace cfuzz::driver
