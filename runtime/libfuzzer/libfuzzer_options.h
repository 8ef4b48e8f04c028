// The command line of a libFuzzer binary (`./target -runs=4 -artifact_prefix=out/ CORPUS`),
// as OSS-Fuzz, ClusterFuzz and ClusterFuzzLite invoke fuzz targets. Flags are libFuzzer's
// (FuzzerFlags.def): `-name=value`, with libFuzzer's defaults. Positional arguments are
// corpus directories (new units go to the first) or input files (run once each).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/engine/engine_namespace.h"

namespace fuzzer::cfuzz {

// What the flags set. Each member's default is its flag's row in libfuzzer_flags.cc, which
// parse_libfuzzer_options applies first: a LibFuzzerOptions made any other way has zeros.
struct LibFuzzerOptions {
  std::int64_t runs = 0;  // -1: no limit
  std::int64_t max_total_time = 0;
  std::int64_t timeout = 0;  // seconds per input; 0 or less: none
  std::int64_t rss_limit_mb = 0;
  std::int64_t malloc_limit_mb = 0;  // 0: as rss_limit_mb
  std::int64_t max_len = 0;          // 0: the longest corpus input, at least 4096
  std::int64_t len_control = 0;      // core/length_control.h; 0 or less: off
  std::uint64_t seed = 0;            // 0: from the clock
  std::vector<std::string> dicts;
  std::string artifact_prefix;
  std::string exact_artifact_path;
  bool print_final_stats = false;
  bool only_ascii = false;
  bool use_value_profile = false;  // runtime/engine/value_profile.h
  int close_fd_mask = 0;
  bool detect_leaks = false;
  int error_exitcode = 0;
  int timeout_exitcode = 0;
  int verbosity = 0;
  std::int64_t print_funcs = 0;  // NEW_FUNC lines per new unit (runtime/libfuzzer/new_functions.h)
  bool help = false;
  bool merge = false;
  int merge_inner = 0;  // the inner process of a merge (libfuzzer_merge.h)
  std::string merge_control_file;
  bool minimize_crash = false;
  bool minimize_crash_internal_step = false;  // the child of -minimize_crash
  bool cleanse_crash = false;
  std::int64_t reload = 0;  // seconds between looks at the output corpus directory; 0: never
  int jobs = 0;
  int workers = 0;
  int fork = 0;
  bool ignore_crashes = false;
  bool ignore_timeouts = false;
  bool ignore_ooms = false;
  std::vector<std::string> inputs;  // corpus directories and input files, in order
  // Flags libFuzzer has that this front end accepts and ignores, said once at start.
  std::vector<std::string> ignored;
};

// True when the arguments ask for libFuzzer's front end: a `-name=value` flag, or any
// positional argument (corpus directories to fuzz, or input files to run).
bool wants_libfuzzer_front_end(int argc, char** argv);

// Parses argv against the table of flags (libfuzzer_flags.h), starting from its defaults.
// Unknown flags are warned about on stderr as libFuzzer warns; a malformed value or a refused
// flag throws std::string naming the argument ("-runs=x: expected an integer").
LibFuzzerOptions parse_libfuzzer_options(int argc, char** argv);

// -help=1's text, in libFuzzer's shape (" name<TAB>default<TAB>help" a flag), every flag of
// the table, under headings that say which are accepted and ignored, and which refused.
std::string libfuzzer_help(std::string_view program);
// ...printed on stdout.
void print_libfuzzer_help(const char* program);

}  // namespace fuzzer::cfuzz
