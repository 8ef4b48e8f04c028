#include "runtime/libfuzzer_options.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>

namespace fuzzer::cfuzz {

namespace {

std::int64_t parse_int(std::string_view arg, std::string_view value) {
  std::string v(value);
  char* end = nullptr;
  errno = 0;
  long long n = std::strtoll(v.c_str(), &end, 10);
  if (v.empty() || *end != '\0' || errno != 0) throw std::string(arg) + ": expected an integer";
  return n;
}

// libFuzzer flags cfuzz takes but does not act on: its own scheduling and
// comparison guidance stand in for them, or they only tune libFuzzer's internals.
// clang-format off
constexpr std::string_view kIgnoredFlags[] = {
    "cross_over", "cross_over_uniform_dist", "mutate_depth", "reduce_depth", "shuffle",
    "prefer_small", "use_counters", "use_memmem", "use_cmp", "shrink",
    "reduce_inputs", "report_slow_units", "print_pcs", "print_funcs", "print_corpus_stats",
    "print_coverage", "handle_segv", "handle_bus", "handle_abrt", "handle_ill", "handle_fpe",
    "handle_int", "handle_term", "handle_trap", "handle_xfsz", "handle_usr1", "handle_usr2",
    "purge_allocator_interval", "entropic", "entropic_feature_frequency_threshold",
    "entropic_number_of_rarest_features", "entropic_scale_per_exec_time", "keep_seed",
    "exit_on_time", "stop_file", "create_missing_dirs", "seed_inputs", "features_dir",
    "mutation_graph_file", "trace_malloc", "analyze_dict", "focus_function", "data_flow_trace",
    "collect_data_flow", "dump_coverage", "print_full_coverage", "exit_on_src_pos",
    "exit_on_item", "ignore_remaining_args"};
// clang-format on

// Flags of libFuzzer's that this front end does not have yet: refused rather than
// ignored, since running without them would look like success.
constexpr std::string_view kMissingFlags[] = {"set_cover_merge", "fork_corpus_groups"};

bool is_flag(std::string_view arg) { return arg.size() > 1 && arg[0] == '-' && arg[1] != '-'; }

// The seed run's flags that take their value as the next argument.
bool takes_next_argument(std::string_view arg) {
  return arg == "--run" || arg == "-run" || arg == "--srcdir" || arg == "--timeout" || arg == "--rss-limit-mb" ||
         arg == "--stack-limit-kb";
}

}  // namespace

bool wants_libfuzzer_front_end(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (takes_next_argument(arg)) {
      ++i;
    } else if (arg.starts_with("-run=")) {
      // go test's spelling of the seed run's --run (libFuzzer has no -run flag)
    } else if ((is_flag(arg) && arg.find('=') != std::string_view::npos) || !arg.starts_with("-")) {
      return true;
    }
  }
  return false;
}

LibFuzzerOptions parse_libfuzzer_options(int argc, char** argv) {
  LibFuzzerOptions o;
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (takes_next_argument(arg)) {
      ++i;
      continue;
    }
    if (!is_flag(arg)) {
      if (arg.starts_with("--")) continue;
      o.inputs.emplace_back(arg);
      continue;
    }
    auto eq = arg.find('=');
    std::string_view name = arg.substr(1, eq == std::string_view::npos ? std::string_view::npos : eq - 1);
    std::string_view value = eq == std::string_view::npos ? std::string_view() : arg.substr(eq + 1);
    auto as_int = [&] { return parse_int(arg, value); };
    if (name == "runs") {
      o.runs = as_int();
    } else if (name == "max_total_time") {
      o.max_total_time = as_int();
    } else if (name == "timeout") {
      o.timeout = as_int();
    } else if (name == "rss_limit_mb") {
      o.rss_limit_mb = as_int();
    } else if (name == "malloc_limit_mb") {
      o.malloc_limit_mb = as_int();
    } else if (name == "max_len") {
      o.max_len = as_int();
    } else if (name == "len_control") {
      o.len_control = as_int();
    } else if (name == "seed") {
      o.seed = static_cast<std::uint64_t>(as_int());
    } else if (name == "dict") {
      o.dicts.emplace_back(value);
    } else if (name == "artifact_prefix") {
      o.artifact_prefix = value;
    } else if (name == "exact_artifact_path") {
      o.exact_artifact_path = value;
    } else if (name == "only_ascii") {
      o.only_ascii = as_int() != 0;
    } else if (name == "use_value_profile") {
      o.use_value_profile = as_int() != 0;
    } else if (name == "print_final_stats") {
      o.print_final_stats = as_int() != 0;
    } else if (name == "close_fd_mask") {
      o.close_fd_mask = static_cast<int>(as_int());
    } else if (name == "detect_leaks") {
      o.detect_leaks = as_int() != 0;
    } else if (name == "error_exitcode") {
      o.error_exitcode = static_cast<int>(as_int());
    } else if (name == "timeout_exitcode") {
      o.timeout_exitcode = static_cast<int>(as_int());
    } else if (name == "verbosity") {
      o.verbosity = static_cast<int>(as_int());
    } else if (name == "help") {
      o.help = as_int() != 0;
    } else if (name == "merge") {
      o.merge = as_int() != 0;
    } else if (name == "merge_inner") {
      o.merge_inner = static_cast<int>(as_int());
    } else if (name == "merge_control_file") {
      o.merge_control_file = value;
    } else if (name == "minimize_crash") {
      o.minimize_crash = as_int() != 0;
    } else if (name == "minimize_crash_internal_step") {
      o.minimize_crash_internal_step = as_int() != 0;
    } else if (name == "cleanse_crash") {
      o.cleanse_crash = as_int() != 0;
    } else if (name == "reload") {
      o.reload = as_int();
    } else if (name == "jobs") {
      o.jobs = static_cast<int>(as_int());
    } else if (name == "workers") {
      o.workers = static_cast<int>(as_int());
    } else if (name == "fork") {
      o.fork = static_cast<int>(as_int());
    } else if (name == "ignore_crashes") {
      o.ignore_crashes = as_int() != 0;
    } else if (name == "ignore_timeouts") {
      o.ignore_timeouts = as_int() != 0;
    } else if (name == "ignore_ooms") {
      o.ignore_ooms = as_int() != 0;
    } else if (std::find(std::begin(kMissingFlags), std::end(kMissingFlags), name) != std::end(kMissingFlags)) {
      throw std::string(arg) + ": not supported by cfuzz's libFuzzer front end yet (docs/cli.md)";
    } else if (std::find(std::begin(kIgnoredFlags), std::end(kIgnoredFlags), name) != std::end(kIgnoredFlags)) {
      o.ignored.emplace_back(arg);
    } else {
      std::fprintf(stderr, "WARNING: unrecognized flag '%s'; use -help=1 to list all flags\n", argv[i]);
    }
  }
  return o;
}

void print_libfuzzer_help(const char* program) {
  std::printf(
      "Usage:\n\nTo run fuzzing pass 0 or more directories.\n%s [-flag1=val1 [-flag2=val2 ...] ] [dir1 [dir2 ...] ]\n\n"
      "To run individual tests without fuzzing pass 1 or more files:\n%s [-flag1=val1 [-flag2=val2 ...] ] file1 [file2 "
      "...]\n\n"
      "This is cfuzz's libFuzzer-compatible front end: the same engine as `cfuzz run`.\n"
      "Flags:\n"
      " runs                  -1  Number of individual test runs (-1 for infinite runs).\n"
      " max_total_time         0  If positive, the most time in seconds to fuzz.\n"
      " timeout             1200  Timeout in seconds for one input (if positive).\n"
      " rss_limit_mb        2048  If non-zero, fail when the process uses more memory than this.\n"
      " malloc_limit_mb        0  If non-zero, fail an input that allocates more than this at once\n"
      "                           (needs a sanitizer); 0: as rss_limit_mb.\n"
      " max_len                0  Longest input to generate; 0: the longest corpus input, at least 4096.\n"
      " len_control          100  Start with short inputs and let them grow towards max_len after\n"
      "                           len_control*log2(limit) runs without new coverage; 0: max_len at once.\n"
      " seed                   0  Random seed; 0: from the clock.\n"
      " dict                      A dictionary file (AFL/libFuzzer format).\n"
      " artifact_prefix           Write crash-, timeout-, oom- and leak- files as $(artifact_prefix)file.\n"
      " exact_artifact_path       Write the one artifact of a failure to this path.\n"
      " print_final_stats      0  If 1, print statistics at exit.\n"
      " only_ascii             0  If 1, generate only printable ASCII and spaces.\n"
      " use_value_profile      0  If 1, how close comparisons with constants came to equal is coverage too.\n"
      " close_fd_mask          0  1: close stdout at startup; 2: close stderr; 3: both.\n"
      " detect_leaks           1  If 1 and LeakSanitizer is linked, fail inputs that leak.\n"
      " error_exitcode        77  Exit status when a failure is found.\n"
      " timeout_exitcode      70  Exit status when an input times out.\n"
      " verbosity              1  Verbosity level.\n"
      " help                   0  Print this help.\n"
      " merge                  0  If 1, merge the units of the 2nd, 3rd... directories that add\n"
      "                           coverage into the 1st (crash-resistant, resumable).\n"
      " merge_control_file        The merge's control file (default: a temporary file).\n"
      " minimize_crash         0  If 1, minimize the one crashing input given (with -runs or\n"
      "                           -max_total_time; -exact_artifact_path names the result).\n"
      " cleanse_crash          0  If 1, replace the bytes of the one crashing input given that\n"
      "                           do not matter (needs -exact_artifact_path).\n"
      " reload                 1  Every N seconds, run units other processes added to the first\n"
      "                           corpus directory; 0: never.\n"
      " jobs                   0  Run this many fuzzing jobs in child processes, output in fuzz-N.log.\n"
      " workers                0  Jobs at the same time (default: min(jobs, cores / 2)).\n"
      " fork                   0  Fuzz in this many child processes sharing the first corpus directory.\n"
      " ignore_crashes         0  With -fork: go on after a child's crash.\n"
      " ignore_timeouts        1  With -fork: go on after a child's timeout.\n"
      " ignore_ooms            1  With -fork: go on after a child's out-of-memory.\n"
      "Accepted and ignored (cfuzz's engine decides these itself):",
      program, program);
  for (auto f : kIgnoredFlags) std::printf(" %.*s", static_cast<int>(f.size()), f.data());
  std::printf("\nNot supported yet: ");
  for (auto f : kMissingFlags) std::printf(" %.*s", static_cast<int>(f.size()), f.data());
  std::printf("\n");
}

}  // namespace fuzzer::cfuzz
