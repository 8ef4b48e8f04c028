#include "runtime/libfuzzer/libfuzzer_flags.h"

#include <algorithm>

#include "core/length_control.h"

namespace fuzzer::cfuzz {

namespace {

using O = LibFuzzerOptions;
constexpr FlagEffect kImplemented = FlagEffect::kImplemented;
constexpr FlagEffect kInternal = FlagEffect::kInternal;

// One maker a member type, so that a row's kind always matches the member it sets.
constexpr LibFuzzerFlag flag(std::string_view name, std::int64_t O::*member, std::int64_t by_default,
                             std::string_view help, FlagEffect effect = kImplemented) {
  return {name, FlagKind::kInt, effect, by_default, {}, member, help};
}
constexpr LibFuzzerFlag flag(std::string_view name, int O::*member, int by_default, std::string_view help,
                             FlagEffect effect = kImplemented) {
  return {name, FlagKind::kInt, effect, by_default, {}, member, help};
}
constexpr LibFuzzerFlag flag(std::string_view name, std::uint64_t O::*member, std::uint64_t by_default,
                             std::string_view help) {
  return {name, FlagKind::kUint, kImplemented, static_cast<std::int64_t>(by_default), {}, member, help};
}
constexpr LibFuzzerFlag flag(std::string_view name, bool O::*member, bool by_default, std::string_view help,
                             FlagEffect effect = kImplemented) {
  return {name, FlagKind::kBool, effect, by_default ? 1 : 0, {}, member, help};
}
constexpr LibFuzzerFlag flag(std::string_view name, std::string O::*member, std::string_view by_default,
                             std::string_view help) {
  return {name, FlagKind::kString, kImplemented, 0, by_default, member, help};
}
constexpr LibFuzzerFlag flag(std::string_view name, std::vector<std::string> O::*member, std::string_view help) {
  return {name, FlagKind::kList, kImplemented, 0, {}, member, help};
}

// libFuzzer's flags that set nothing here; the default shown is libFuzzer's.
constexpr LibFuzzerFlag ignored(std::string_view name, std::int64_t libfuzzer_default, std::string_view help) {
  return {name, FlagKind::kInt, FlagEffect::kIgnored, libfuzzer_default, {}, {}, help};
}
constexpr LibFuzzerFlag ignored_text(std::string_view name, std::string_view help) {
  return {name, FlagKind::kString, FlagEffect::kIgnored, 0, {}, {}, help};
}
constexpr LibFuzzerFlag refused(std::string_view name, std::int64_t libfuzzer_default, std::string_view help) {
  return {name, FlagKind::kInt, FlagEffect::kRefused, libfuzzer_default, {}, {}, help};
}

// clang-format off
constexpr LibFuzzerFlag kFlags[] = {
    flag("runs", &O::runs, -1, "Number of inputs to run (-1: no limit)."),
    flag("max_total_time", &O::max_total_time, 0, "If positive, the most time in seconds to fuzz."),
    flag("timeout", &O::timeout, 1200, "Timeout in seconds for one input (if positive)."),
    flag("rss_limit_mb", &O::rss_limit_mb, 2048, "If non-zero, fail when the process uses more memory than this."),
    flag("malloc_limit_mb", &O::malloc_limit_mb, 0,
         "If non-zero, fail an input that allocates more than this at once (needs a sanitizer); 0: as rss_limit_mb."),
    flag("max_len", &O::max_len, 0, "Longest input to generate; 0: the longest corpus input, at least 4096."),
    flag("len_control", &O::len_control, core::kDefaultLenControl,
         "Start with short inputs and let them grow towards max_len after len_control*log2(limit) runs without "
         "new coverage; 0: max_len at once."),
    flag("seed", &O::seed, 0, "Random seed; 0: from the clock."),
    flag("dict", &O::dicts, "A dictionary file (AFL/libFuzzer format); may be given more than once."),
    flag("artifact_prefix", &O::artifact_prefix, "./",
         "Write crash-, timeout-, oom- and leak- files as $(artifact_prefix)file."),
    flag("exact_artifact_path", &O::exact_artifact_path, "", "Write the one artifact of a failure to this path."),
    flag("print_final_stats", &O::print_final_stats, false, "If 1, print statistics at exit."),
    flag("only_ascii", &O::only_ascii, false, "If 1, generate only printable ASCII and spaces."),
    flag("use_value_profile", &O::use_value_profile, false,
         "If 1, how close comparisons with constants came to equal is coverage too."),
    flag("close_fd_mask", &O::close_fd_mask, 0, "1: close stdout at startup; 2: close stderr; 3: both."),
    flag("detect_leaks", &O::detect_leaks, true, "If 1 and LeakSanitizer is linked, fail inputs that leak."),
    flag("error_exitcode", &O::error_exitcode, 77, "Exit status when a failure is found."),
    flag("timeout_exitcode", &O::timeout_exitcode, 70, "Exit status when an input times out."),
    flag("verbosity", &O::verbosity, 1, "Verbosity level."),
    flag("print_funcs", &O::print_funcs, 2,
         "Print at most this many of the functions a new corpus input reaches first (NEW_FUNC lines)."),
    flag("help", &O::help, false, "If 1, print this help and exit."),
    flag("merge", &O::merge, false,
         "If 1, merge the units of the 2nd, 3rd... directories that add coverage into the 1st (crash-resistant, "
         "resumable)."),
    flag("merge_control_file", &O::merge_control_file, "", "The merge's control file (default: a temporary file)."),
    flag("minimize_crash", &O::minimize_crash, false,
         "If 1, minimize the one crashing input given (with -runs or -max_total_time; -exact_artifact_path names "
         "the result)."),
    flag("cleanse_crash", &O::cleanse_crash, false,
         "If 1, replace the bytes of the one crashing input given that do not matter (needs -exact_artifact_path)."),
    flag("reload", &O::reload, 1,
         "Every N seconds, run units other processes added to the first corpus directory; 0: never."),
    flag("jobs", &O::jobs, 0, "Run this many fuzzing jobs in child processes, output in fuzz-N.log."),
    flag("workers", &O::workers, 0, "Jobs at the same time (default: min(jobs, cores / 2))."),
    flag("fork", &O::fork, 0, "Fuzz in this many child processes sharing the first corpus directory."),
    flag("ignore_crashes", &O::ignore_crashes, false, "With -fork: go on after a child's crash."),
    flag("ignore_timeouts", &O::ignore_timeouts, true, "With -fork: go on after a child's timeout."),
    flag("ignore_ooms", &O::ignore_ooms, true, "With -fork: go on after a child's out-of-memory."),

    flag("merge_inner", &O::merge_inner, 0, "The inner process of -merge (1, or 2 to record coverage too).",
         kInternal),
    flag("minimize_crash_internal_step", &O::minimize_crash_internal_step, false,
         "The child process of -minimize_crash.", kInternal),

    // What libFuzzer's own search is tuned with; cfuzz's scheduling and comparison
    // guidance decide these for themselves.
    ignored_text("seed_inputs", "More seed files: a comma-separated list, or @file holding one."),
    ignored("keep_seed", 0, "If 1, seeds stay in the corpus even when they add no coverage."),
    ignored("cross_over", 1, "If 1, mutate by combining two inputs."),
    ignored("cross_over_uniform_dist", 0, "If 1, pick the input to combine with uniformly."),
    ignored("mutate_depth", 5, "Mutations stacked on one input before it runs."),
    ignored("reduce_depth", 0, "If 1, stack fewer mutations when they lose features."),
    ignored("shuffle", 1, "If 1, shuffle the corpus at start."),
    ignored("prefer_small", 1, "If 1, the shuffle puts smaller inputs first."),
    ignored("exit_on_time", 0, "If positive, stop this many seconds after the last new corpus input."),
    ignored_text("stop_file", "Stop once this file exists."),
    ignored_text("features_dir", "Write the features of each new corpus input to a file in this directory."),
    ignored_text("mutation_graph_file", "Write which input was mutated into which (DOT) to this file."),
    ignored("use_counters", 1, "If 1, edges' hit counts are coverage."),
    ignored("use_memmem", 1, "If 1, the strings passed to memmem, strstr... are mutation hints."),
    ignored("use_cmp", 1, "If 1, traced comparisons are mutation hints."),
    ignored("shrink", 0, "If 1, replace corpus inputs with smaller ones of the same coverage."),
    ignored("reduce_inputs", 1, "If 1, keep the smallest input that reaches a set of features."),
    ignored("report_slow_units", 10, "Report inputs slower than this many seconds."),
    ignored("print_pcs", 0, "If 1, print newly covered PCs."),
    ignored("print_corpus_stats", 0, "If 1, print statistics on the corpus at exit."),
    ignored("print_coverage", 0, "If 1, print the covered code at exit."),
    ignored("print_full_coverage", 0, "If 1, print every branch's coverage at exit."),
    ignored("dump_coverage", 0, "Deprecated in libFuzzer."),
    // cfuzz always handles these signals (runtime/failure/crash_handler.h).
    ignored("handle_segv", 1, "If 1, catch SIGSEGV."),
    ignored("handle_bus", 1, "If 1, catch SIGBUS."),
    ignored("handle_abrt", 1, "If 1, catch SIGABRT."),
    ignored("handle_ill", 1, "If 1, catch SIGILL."),
    ignored("handle_fpe", 1, "If 1, catch SIGFPE."),
    ignored("handle_int", 1, "If 1, catch SIGINT."),
    ignored("handle_term", 1, "If 1, catch SIGTERM."),
    ignored("handle_trap", 1, "If 1, catch SIGTRAP."),
    ignored("handle_xfsz", 1, "If 1, catch SIGXFSZ."),
    ignored("handle_usr1", 1, "If 1, catch SIGUSR1."),
    ignored("handle_usr2", 1, "If 1, catch SIGUSR2."),
    ignored("handle_winexcept", 1, "If 1, catch uncaught C++ exceptions on Windows."),
    ignored("purge_allocator_interval", 1, "Seconds between purges of the allocator's caches; -1: never."),
    ignored("trace_malloc", 0, "If 1, print every malloc and free; 2: with their stacks."),
    ignored_text("exit_on_src_pos", "Stop when newly covered code is at this source position (file:line)."),
    ignored_text("exit_on_item", "Stop when an input with this SHA-1 joins the corpus."),
    ignored("ignore_remaining_args", 0, "If 1, the arguments after this one are the target's own."),
    ignored_text("focus_function", "Favour inputs that reach this function."),
    ignored("entropic", 1, "If 1, schedule inputs by the entropy of their rare features."),
    ignored("entropic_feature_frequency_threshold", 255, "With entropic: features seen less often are rare."),
    ignored("entropic_number_of_rarest_features", 100, "With entropic: how many rare features are tracked."),
    ignored("entropic_scale_per_exec_time", 0, "With entropic: if 1, favour fast inputs."),
    ignored("analyze_dict", 0, "If 1, report the dictionary words that do not help."),
    ignored("use_clang_coverage", 0, "Deprecated in libFuzzer."),
    ignored_text("data_flow_trace", "Use this data-flow trace."),
    ignored_text("collect_data_flow", "Collect a data-flow trace with this program."),
    ignored("create_missing_dirs", 0, "If 1, create the corpus and artifact directories that do not exist."),

    refused("set_cover_merge", 0, "If 1, merge as -merge=1 does, keeping a smaller set of units (set cover)."),
    refused("fork_corpus_groups", 0, "With -fork: give each child a sample of the corpus grouped by size."),
};
// clang-format on

}  // namespace

std::span<const LibFuzzerFlag> libfuzzer_flags() { return kFlags; }

const LibFuzzerFlag* find_libfuzzer_flag(std::string_view name) {
  auto it = std::find_if(std::begin(kFlags), std::end(kFlags), [&](const LibFuzzerFlag& f) { return f.name == name; });
  return it == std::end(kFlags) ? nullptr : &*it;
}

}  // namespace fuzzer::cfuzz
