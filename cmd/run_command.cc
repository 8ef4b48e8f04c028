// `cfuzz run ./target`: fuzz one fuzz test of a target; `cfuzz run T1 T2`, `--all`: several.
#include <map>
#include <string>
#include <thread>

#include <spdlog/spdlog.h>

#include "cmd/shared_flags.h"
#include "cmd/subcommands.h"
#include "libfuzzdriver/run/multi_run.h"
#include "libfuzzdriver/util/budget.h"

namespace cfuzz::cmd {
namespace {

std::chrono::milliseconds parse_age(const std::string& text) {
  auto d = driver::parse_go_duration(text);
  if (!d || d->count() < 0) {
    throw std::runtime_error("--worker-max-age " + text + ": expected a duration such as 60s or 10m, or 0 for never");
  }
  return std::chrono::duration_cast<std::chrono::milliseconds>(*d);
}

}  // namespace

void add_run_command(CLI::App& app, int& exit_code) {
  auto* sub = app.add_subcommand("run", "Fuzz a target built with cfuzz-clang++ (or cfuzz_add_fuzz_test)");
  auto opts = std::make_shared<driver::RunOptions>();
  auto fuzztime = std::make_shared<std::string>();
  auto minimize_time = std::make_shared<std::string>("60s");
  auto limits = std::make_shared<InputLimitFlags>();
  auto seed = std::make_shared<std::uint64_t>(0);
  auto max_age = std::make_shared<std::string>("60s");

  sub->add_option("target", opts->targets,
                  "The target binary; with several, every fuzz test of each (those --fuzz matches) is fuzzed, "
                  "sharing --fuzztime")
      ->required();
  sub->add_option("--fuzz", opts->fuzz,
                  "Regular expression selecting the fuzz test (not needed if the target has one); one that "
                  "matches several tests fuzzes them all, sharing --fuzztime");
  sub->add_flag("--all", opts->all,
                "Fuzz every fuzz test of the target (those --fuzz matches), sharing --fuzztime; also what "
                "several targets, or a --fuzz matching several tests, mean");
  sub->add_option("--fuzztime", *fuzztime,
                  "How long to fuzz: a duration (30s, 10m, 1h30m) or a number of executions "
                  "across all workers (100000x). With several fuzz tests, the whole run's budget, shared "
                  "in rounds that give more to tests still finding coverage (required then). Default: until "
                  "interrupted or a failure");
  auto* minimize_opt = sub->add_option("--fuzzminimizetime", *minimize_time,
                                       "Time (or executions, Nx) spent minimizing a failing input; 0 "
                                       "disables. By default also at most 8 + 4 per byte of the input "
                                       "worker restarts (candidates that crash)")
                           ->capture_default_str();
  add_parallel_flag(sub, &opts->parallel);
  limits->add_to(sub, &opts->rss_limit_mb,
                 "Memory limit of a worker in MiB; past it, the input is a failure (0: none)");
  sub->add_option("--worker-growth-mb", opts->worker_growth_mb,
                  "Restart a worker between calls once its memory has grown this many MiB past its size after its "
                  "first call (a long-lived worker under ASan keeps growing); 0: never")
      ->capture_default_str();
  sub->add_option("--worker-max-age", *max_age,
                  "Restart a worker between calls once it is this old, whatever its size (under ASan a worker "
                  "slows as it ages); 0: never")
      ->capture_default_str();
  sub->add_option("--stack-limit-kb", opts->stack_limit_kb,
                  "Stack a fuzz test may use per input, in KiB; past it, the input is a failure (0: none; "
                  "default: 128 for CFUZZ_TESTs, none for LLVMFuzzerTestOneInput, as FuzzTest and libFuzzer)");
  sub->add_option("--max-len", opts->max_len,
                  "Longest []byte or string value the mutator produces, at most 64 MiB (default: "
                  "4096, or the largest seed value, up to 1 MiB)")
      ->check(kMaxLenRange);
  sub->add_option("--len-control", opts->len_control,
                  "Start mutating at the longest corpus value (at least 4 bytes) and let values grow "
                  "towards --max-len by log2(limit) bytes after N*log2(limit) executions without new "
                  "coverage, as libFuzzer's -len_control; 0: up to --max-len from the start")
      ->capture_default_str();
  auto* seed_opt = sub->add_option("--seed", *seed,
                                   "Seed of the random generator: with the same seed, corpus and one "
                                   "worker, a run repeats itself exactly");
  add_cachedir_flag(sub, &opts->cachedir,
                    "Directory of the generated corpus of this target (entries go to DIR/<FuzzName>/). "
                    "Default: $CFUZZ_CACHE, $XDG_CACHE_HOME/cfuzz or ~/.cache/cfuzz, per target. One "
                    "owned by another user (a shared mount) is refused unless --shared-cache says so");
  add_shared_cache_flag(sub, &opts->shared_cache);
  add_srcdir_flag(sub, &opts->srcdir, "Directory holding testdata/fuzz/<FuzzName>/ (default: what the target uses)");
  sub->add_option("--dict", opts->dictionaries, "Dictionary file (AFL/libFuzzer format); may be repeated");
  sub->add_flag("--detect-leaks,!--no-detect-leaks", opts->detect_leaks,
                "Report memory leaks as failures, checked after inputs with new coverage (needs "
                "LeakSanitizer: -fsanitize=address or leak). Default: on; --detect-leaks=false turns it off")
      ->capture_default_str();
  sub->add_flag("--value-profile{on}", opts->value_profile,
                "Keep inputs that bring a comparison with a constant nearer to equal, as libFuzzer's "
                "-use_value_profile=1: finds exact lengths, counts, sums and offsets, at some cost in speed. "
                "on (the flag alone): from the start; auto: once coverage has stalled; off (default): never")
      ->transform(CLI::Validator(
          [](std::string& v) -> std::string {
            static const std::map<std::string, core::ValueProfileMode> kModes = {{"on", core::ValueProfileMode::On},
                                                                                 {"auto", core::ValueProfileMode::Auto},
                                                                                 {"off", core::ValueProfileMode::Off}};
            auto it = kModes.find(v);
            if (it == kModes.end()) return "expected on, auto or off, not '" + v + "'";
            v = std::to_string(static_cast<int>(it->second));  // as CLI11 reads an enum
            return {};
          },
          "on|auto|off"))
      ->default_str("off");
  sub->add_flag("--seeds-only", opts->seeds_only,
                "Run the corpus once as regression tests (the seeds, testdata/ and the cache) and stop without "
                "fuzzing, as the target run alone does, but in workers and with --junit and --sarif reports; "
                "no --fuzztime needed for several tests");
  sub->add_option("--since", opts->since,
                  "Fuzz what changed since git revision REV (git diff -U0 REV, in --srcdir or the current "
                  "directory), or in the unified diff on stdin (-): every fuzz test of the targets is "
                  "considered, the --fuzztime goes to those whose corpus reaches a changed function, "
                  "corpus entries that reach one are fuzzed more, and the summary says how many changed "
                  "lines the run reached")
      ->type_name("REV");
  sub->add_flag("--keepfuzzing", opts->keep_fuzzing,
                "Keep going after a failure, saving each distinct failure once; exit 1 at the end if any");
  add_json_flag(sub, &opts->json, "Print progress and results as JSON lines");
  sub->add_option("--junit", opts->junit,
                  "Also write the run's result to FILE as JUnit XML (a test case per fuzz test and per failing "
                  "seed, a <failure> with the message, stack, reproducer and re-run command), for CI systems "
                  "that show test reports");
  sub->add_option("--sarif", opts->sarif,
                  "Also write the run's failures to FILE as SARIF 2.1.0 (one result per distinct failure: its "
                  "kind as the rule, the user's innermost frame as the location, the stack, the reproducer, the "
                  "re-run command and a fingerprint stable across runs), for GitHub code scanning, GitLab and "
                  "SARIF viewers");
  sub->add_flag("-v,--verbose", opts->verbose, "Log what the coordinator does");

  sub->callback([opts, fuzztime, minimize_time, minimize_opt, limits, seed, seed_opt, max_age, &exit_code] {
    if (!fuzztime->empty()) opts->fuzztime = driver::Budget::parse(*fuzztime, "--fuzztime", false);
    opts->minimize_time = driver::Budget::parse(*minimize_time, "--fuzzminimizetime", true);
    opts->minimize_time_given = minimize_opt->count() > 0;
    opts->timeout = limits->timeout();
    opts->worker_max_age = parse_age(*max_age);
    if (seed_opt->count() > 0) opts->seed = *seed;
    opts->target = opts->targets.front();
    spdlog::set_level(opts->verbose ? spdlog::level::debug : spdlog::level::warn);
    exit_code = driver::run_fuzz_tests(*opts);
  });
}

}  // namespace cfuzz::cmd
