// What `cfuzz cover` found: per source file, the lines that hold code and whether the
// corpus reached them, and the functions and whether they were entered. Built either from
// SanitizerCoverage's PC table (sancov_source_lines.h) or from clang's source-based coverage
// (llvm_cov_report.h); printed as text or JSON, or drawn as a page (coverage_html.h).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace cfuzz::driver {

struct FunctionCoverage {
  std::string name;  // demangled
  std::uint32_t line = 0;
  bool covered = false;
};

struct FileCoverage {
  std::string path;                         // as the debug info names it
  std::map<std::uint32_t, bool> lines;      // every line holding code -> reached
  std::vector<FunctionCoverage> functions;  // sorted by line

  std::size_t lines_covered() const;
  std::size_t functions_covered() const;
};

struct CoverageReport {
  std::string target;               // absolute path of the binary
  std::string test;                 // the fuzz test replayed
  std::string method;               // "sancov" (PC table and debug info) or "llvm-cov" (source-based)
  std::size_t inputs = 0;           // corpus entries replayed
  std::size_t failing = 0;          // of them, those that failed (their coverage is left out)
  std::vector<FileCoverage> files;  // sorted by path

  std::size_t lines_total() const;
  std::size_t lines_covered() const;
  std::size_t functions_total() const;
  std::size_t functions_covered() const;
};

// One record of `<cache>/<Name>.stats.jsonl` (stats_log.h): a fuzzing run's figures at one
// moment.
struct StatsRecord {
  std::string run;             // id of the run that wrote it
  double time = 0;             // seconds since the epoch
  double elapsed = 0;          // seconds since that run started
  std::uint64_t execs = 0;     // executions so far in that run
  std::uint64_t corpus = 0;    // corpus entries
  std::uint64_t edges = 0;     // counters reached (libFuzzer's cov:)
  std::uint64_t features = 0;  // counter hit-count buckets reached (ft:)
};

// "75.0": a percentage with one decimal, rounded down so that only full coverage reads 100.0
// ("0.0" when total is 0). The text and the page print the same figure.
std::string coverage_percent(std::size_t covered, std::size_t total);

// "  config.cc  120/160 lines (75.0%)  9/11 functions" lines and a total, as `cover` prints.
std::string format_coverage_text(const CoverageReport& report);
// The same as one JSON document.
std::string format_coverage_json(const CoverageReport& report);

}  // namespace cfuzz::driver
