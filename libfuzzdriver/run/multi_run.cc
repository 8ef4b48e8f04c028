#include "libfuzzdriver/run/multi_run.h"

#include <pthread.h>
#include <signal.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/rpc.h"
#include "libfuzzdriver/run/change_focus.h"
#include "libfuzzdriver/run/changed_lines.h"
#include "libfuzzdriver/run/coordinator.h"
#include "libfuzzdriver/run/fuzz_rounds.h"
#include "libfuzzdriver/run/run_reports.h"
#include "libfuzzdriver/run/run_summary.h"
#include "libfuzzdriver/worker/pc_table.h"
#include "libfuzzdriver/worker/sanitizer_env.h"
#include "libfuzzdriver/worker/target_info.h"

namespace cfuzz::driver {

namespace {

using Clock = std::chrono::steady_clock;

// A pattern that matches `name` alone.
std::string exactly(const std::string& name) {
  std::string re = "^";
  for (char c : name) {
    if (std::string("\\^$.|?*+()[]{}").find(c) != std::string::npos) re += '\\';
    re += c;
  }
  return re + "$";
}

// --cachedir DIR keeps each test's corpus in DIR/<FuzzName>/, whatever its target: tests of one
// name in two targets read each other's entries there (and skip those they cannot use).
void warn_of_shared_cache(const RunOptions& options, const std::vector<FuzzTestResult>& tests, Reporter& reporter) {
  if (options.cachedir.empty()) return;
  for (std::size_t i = 0; i < tests.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (tests[j].test != tests[i].test || tests[j].target == tests[i].target || !tests[i].error.empty()) continue;
      reporter.warning(tests[i].test + " of " + tests[j].target + " and of " + tests[i].target + " share " +
                       options.cachedir + "/" + tests[i].test +
                       "/ (without --cachedir, each target has a cache of its own)");
      break;
    }
  }
}

// The fuzz tests to run, in command-line order, each target's in its own order. A target that
// cannot be described is a result with its error (exit 2), and the others still run.
std::vector<FuzzTestResult> resolve_tests(const RunOptions& options, Reporter& reporter) {
  std::vector<FuzzTestResult> tests;
  for (const auto& path : options.targets) {
    TargetInfo info;
    try {
      info = describe_target(path, options.srcdir, fuzzing_environment());
    } catch (const std::exception& e) {
      FuzzTestResult r;
      r.target = path;
      r.test = options.fuzz.empty() ? "fuzz" : options.fuzz;
      r.error = e.what();
      tests.push_back(std::move(r));
      continue;
    }
    std::vector<const TestInfo*> matches = info.matching(options.fuzz);
    if (matches.empty()) reporter.warning("--fuzz " + options.fuzz + " matches no fuzz test in " + path);
    for (const auto* t : matches) {
      FuzzTestResult r;
      r.target = path;
      r.test = t->name;
      tests.push_back(std::move(r));
    }
  }
  if (tests.empty()) throw std::runtime_error("--fuzz " + options.fuzz + " matches no fuzz test in any target");
  warn_of_shared_cache(options, tests, reporter);
  return tests;
}

// One slice of `test`: a Coordinator run of its own, whose report is added to the test's.
// Returns where the test stands after it; sets `*interrupted` if SIGINT or SIGTERM stopped it.
// Under --since, what one test's slices share: its target's focus, and what its corpus reached.
struct SliceFocus {
  const ChangeFocus* focus = nullptr;
  std::vector<bool> reached;  // one flag per counter, over all its slices
};

FuzzRounds::State run_slice(const RunOptions& options, FuzzTestResult& test, SliceFocus& focus, const Budget& budget,
                            bool seeds_only, std::uint64_t slice, bool* interrupted) {
  RunOptions o = options;
  if (focus.focus != nullptr) o.focus = focus.focus->counters;
  o.target = test.target;
  o.targets.clear();
  o.fuzz = exactly(test.test);
  o.fuzztime = budget;
  o.seeds_only = seeds_only;
  o.slice = true;
  o.junit.clear();
  o.sarif.clear();
  // Each slice its own stream of random numbers, still fixed by --seed.
  if (options.seed) o.seed = *options.seed + slice;
  auto started = Clock::now();
  auto c = std::make_unique<Coordinator>(o);
  try {
    c->run();
  } catch (const std::exception& e) {
    test.error = e.what();
  }
  test.time += Clock::now() - started;
  if (focus.focus != nullptr) {
    std::vector<bool> reached = c->reached_counters();
    focus.reached.resize(std::max(focus.reached.size(), reached.size()), false);
    for (std::size_t i = 0; i < reached.size(); ++i) focus.reached[i] = focus.reached[i] || reached[i];
  }
  Reporter::Record record = c->record();
  test.failures.insert(test.failures.end(), record.failures.begin(), record.failures.end());
  if (record.done && (!seeds_only || options.seeds_only)) {  // a --seeds-only run's one slice is the whole
    test.finished = true;
    test.execs += record.done->execs;
    test.new_interesting += record.done->new_interesting;
    test.corpus = record.done->total;
  }
  *interrupted = c->interrupted();
  // A failed test gets no more slices, even with --keepfuzzing: its saved failure, a testdata
  // file now, would fail the next slice's baseline.
  if (!test.error.empty() || test.failed()) return FuzzRounds::State::Ended;
  if (seeds_only) return FuzzRounds::State::Growing;
  return record.done && record.done->new_interesting > 0 ? FuzzRounds::State::Growing : FuzzRounds::State::Stalled;
}

// The seed corpus of every test, before any test is fuzzed: a regression test that fails
// early. Bounded by what is left of a time budget (the next slice goes on where a cut-short
// baseline stopped); a counted budget counts only fuzzing.
bool run_seeds(const RunOptions& options, std::vector<FuzzTestResult>& tests, std::vector<SliceFocus>& foci,
               std::vector<FuzzRounds::State>& states, Clock::time_point started) {
  for (std::size_t i = 0; i < tests.size(); ++i) {
    if (states[i] == FuzzRounds::State::Ended) continue;
    Budget budget;
    if (options.fuzztime.time) {
      auto left = *options.fuzztime.time - (Clock::now() - started);
      budget.time = std::max<std::chrono::nanoseconds>(left, FuzzRounds::kMinSlice);
    }
    print_slice_start(stdout, options.json, tests[i], 0, budget);
    bool interrupted = false;
    states[i] = run_slice(options, tests[i], foci[i], budget, true, i, &interrupted);
    if (interrupted) return false;
  }
  return true;
}

// The rounds of fuzzing, until the budget is spent, every test ended, or an interrupt.
void run_rounds(const RunOptions& options, std::vector<FuzzTestResult>& tests, std::vector<SliceFocus>& foci,
                std::vector<FuzzRounds::State>& states, Clock::time_point started) {
  FuzzRounds rounds(options.fuzztime);
  std::uint64_t slice = tests.size();
  for (;;) {
    auto round = rounds.next_round(Clock::now() - started, states);
    if (round.empty()) return;
    for (const auto& s : round) {
      print_slice_start(stdout, options.json, tests[s.test], rounds.rounds_planned(), s.budget);
      bool interrupted = false;
      states[s.test] = run_slice(options, tests[s.test], foci[s.test], s.budget, false, slice++, &interrupted);
      if (interrupted) return;
    }
  }
}

// Under --since: each target's changed lines mapped onto its counters, once per target.
std::map<std::string, ChangeFocus> map_changes_per_target(const std::vector<FuzzTestResult>& tests,
                                                          const ChangedLines& changed, Reporter& reporter) {
  std::map<std::string, ChangeFocus> out;
  for (const auto& t : tests) {
    if (!t.error.empty() || out.count(t.target) != 0) continue;
    try {
      std::string path = std::filesystem::absolute(t.target).string();
      out[t.target] = map_changes(read_pc_table(path, fuzzing_environment()), changed);
    } catch (const std::exception& e) {
      // The target still runs, unfocused: its tests count as reaching the change.
      reporter.warning("--since: cannot map the changed lines onto " + t.target + ": " + e.what());
    }
  }
  return out;
}

// After the seeds: the tests whose corpus reaches no changed function get no fuzzing time,
// when others do. When none does, the change is in code no corpus reaches yet, and every
// test is fuzzed (any may be the one to reach it); when no changed line has code in these
// targets, none is.
void focus_on_change(std::vector<FuzzTestResult>& tests, std::vector<SliceFocus>& foci,
                     std::vector<FuzzRounds::State>& states, Reporter& reporter) {
  bool any_code = false, any_reaches = false;
  for (std::size_t i = 0; i < tests.size(); ++i) {
    FuzzTestResult::ChangeReach reach;
    if (foci[i].focus == nullptr) {
      reach.reaches_function = tests[i].error.empty();
    } else {
      reach.lines = foci[i].focus->lines.size();
      reach.reaches_function = foci[i].focus->reaches_changed_function(foci[i].reached);
      any_code = any_code || std::any_of(foci[i].focus->counters->begin(), foci[i].focus->counters->end(),
                                         [](bool b) { return b; });
    }
    any_reaches = any_reaches || reach.reaches_function;
    tests[i].change = reach;
  }
  if (!any_code && std::all_of(foci.begin(), foci.end(), [](const SliceFocus& f) { return f.focus != nullptr; })) {
    reporter.warning("--since: no changed line is in these targets' instrumented code: nothing to fuzz");
  } else if (!any_reaches) {
    reporter.warning("--since: no fuzz test's corpus reaches a changed function yet: every test is fuzzed");
    return;
  }
  for (std::size_t i = 0; i < tests.size(); ++i) {
    if (tests[i].change->reaches_function || states[i] == FuzzRounds::State::Ended) continue;
    tests[i].change->skipped = true;
    states[i] = FuzzRounds::State::Ended;
  }
}

// The summary's figures on the change: each test's, and the run's over all targets.
ChangeSummary summarize_change(const RunOptions& options, const ChangedLines& changed,
                               std::vector<FuzzTestResult>& tests, const std::vector<SliceFocus>& foci) {
  ChangeSummary s;
  s.since = options.since;
  s.lines = changed.count();
  std::set<std::pair<std::string, std::uint32_t>> with_code, reached;
  std::set<std::string> functions;
  for (std::size_t i = 0; i < tests.size(); ++i) {
    const ChangeFocus* focus = foci[i].focus;
    if (focus == nullptr) continue;
    if (tests[i].change) tests[i].change->lines_reached = focus->lines_reached(foci[i].reached);
    functions.insert(focus->functions.begin(), focus->functions.end());
    for (const auto& l : focus->lines) {
      with_code.insert({l.file, l.line});
      if (std::any_of(l.counters.begin(), l.counters.end(),
                      [&](std::size_t c) { return c < foci[i].reached.size() && foci[i].reached[c]; })) {
        reached.insert({l.file, l.line});
      }
    }
  }
  s.with_code = with_code.size();
  s.reached = reached.size();
  s.functions.assign(functions.begin(), functions.end());
  return s;
}

int run_several(const RunOptions& options) {
  // A --since that names nothing git knows is a usage error before anything runs.
  std::optional<ChangedLines> changed;
  if (!options.since.empty()) changed = changed_lines_since(options.since, options.srcdir);
  if (options.fuzztime.unlimited() && !options.seeds_only) {
    throw std::runtime_error(
        "fuzzing several fuzz tests needs --fuzztime, the budget they share (e.g. --fuzztime 10m)");
  }
  // An interrupt between slices waits for the next one, which stops at once (coordinator.h):
  // the run still ends with its summary and reports.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  auto started = Clock::now();
  Reporter reporter(options.json, stdout);
  std::vector<FuzzTestResult> tests = resolve_tests(options, reporter);
  std::vector<FuzzRounds::State> states;
  for (const auto& t : tests) states.push_back(t.error.empty() ? FuzzRounds::State::Growing : FuzzRounds::State::Ended);
  std::map<std::string, ChangeFocus> targets_focus;
  std::vector<SliceFocus> foci(tests.size());
  if (changed) {
    targets_focus = map_changes_per_target(tests, *changed, reporter);
    for (std::size_t i = 0; i < tests.size(); ++i) {
      auto it = targets_focus.find(tests[i].target);
      if (it != targets_focus.end()) foci[i].focus = &it->second;
    }
  }
  bool go_on = run_seeds(options, tests, foci, states, started);
  if (changed) focus_on_change(tests, foci, states, reporter);
  if (go_on && !options.seeds_only) run_rounds(options, tests, foci, states, started);
  std::optional<ChangeSummary> change;
  if (changed) change = summarize_change(options, *changed, tests, foci);
  print_summary(stdout, options.json, tests, Clock::now() - started, change ? &*change : nullptr);
  bool errors = false, failed = false;
  for (const auto& t : tests) {
    errors = errors || !t.error.empty();
    failed = failed || t.failed();
  }
  int code = errors ? 2 : failed ? 1 : 0;
  if (!write_reports(options, tests) && code == 0) code = 2;
  return code;
}

// A run that could not begin (no --fuzztime, no test matched) still leaves its reports,
// with the error, for the CI page that expects them.
int run_several_reporting_errors(const RunOptions& options) {
  try {
    return run_several(options);
  } catch (const std::exception& e) {
    FuzzTestResult r;
    r.target = options.target;
    r.test = options.fuzz.empty() ? "fuzz" : options.fuzz;
    r.error = e.what();
    write_reports(options, {r});
    throw;
  }
}

}  // namespace

bool wants_several_tests(const RunOptions& options) {
  // --since chooses among every test of the targets.
  if (options.targets.size() > 1 || options.all || !options.since.empty()) return true;
  if (options.fuzz.empty()) return false;
  try {
    return describe_target(options.target, options.srcdir, fuzzing_environment()).matching(options.fuzz).size() > 1;
  } catch (const std::exception&) {
    return false;  // the one-test run says what is wrong, in its reports too
  }
}

int run_fuzz_tests(const RunOptions& options) {
  // Every process of the target inherits it: its self-description and its workers must
  // agree on the number of counters.
  if (options.value_profile != core::ValueProfileMode::Off) {
    ::setenv(core::rpc::kValueProfileEnv, options.value_profile == core::ValueProfileMode::On ? "1" : "auto", 1);
  }
  if (!wants_several_tests(options)) return run_fuzzing(options);
  return run_several_reporting_errors(options);
}

}  // namespace cfuzz::driver
