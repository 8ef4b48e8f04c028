#include "runtime/libfuzzer/front_end.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "core/corpus.h"
#include "core/dictionary.h"
#include "runtime/engine/coverage_registry.h"
#include "runtime/engine/private_region.h"
#include "runtime/engine/stack_depth_feature.h"
#include "runtime/engine/test_body.h"
#include "runtime/engine/value_profile.h"
#include "runtime/failure/crash_handler.h"
#include "runtime/failure/leak_check.h"
#include "runtime/libfuzzer/libfuzzer_crash_tools.h"
#include "runtime/libfuzzer/libfuzzer_merge.h"
#include "runtime/libfuzzer/libfuzzer_report.h"

namespace fuzzer::cfuzz {

namespace {

namespace fs = std::filesystem;
using Clock = StopConditions::Clock;

const FrontEnd* g_front_end = nullptr;  // for the failure report's final stats

void print_final_stats_on_exit(int fd) {
  if (g_front_end != nullptr) g_front_end->print_final_stats_to(fd);
}

// SIGINT and SIGTERM end the run at once, as libFuzzer's do: exit status 72.
void on_interrupt(int) {
  char line[64];
  int n = std::snprintf(line, sizeof line, "==%d== libFuzzer: run interrupted; exiting\n", static_cast<int>(getpid()));
  if (n > 0) (void)!::write(2, line, static_cast<std::size_t>(n));
  print_final_stats_on_exit(2);
  syscall(SYS_exit_group, 72);
}

void install_interrupt_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_interrupt;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

}  // namespace

FrontEnd::FrontEnd(const LibFuzzerOptions& o, const RegisteredTest& test, const char* program)
    : o_(o), test_(test), program_(program), stop_(o.runs, o.max_total_time, Clock::now()) {}

int FrontEnd::run() {
  stop_ = StopConditions(o_.runs, o_.max_total_time, Clock::now());
  int report_fd = 2;
  if ((o_.close_fd_mask & 2) != 0) report_fd = dup(2);
  close_fds();
  std::vector<std::string> user_words;
  if (!read_dictionaries(&user_words)) return 1;
  std::uint64_t seed = choose_seed();
  for (const auto& flag : o_.ignored) say("INFO: cfuzz ignores " + flag + " (its engine decides this itself)");
  install_crash_handlers();
  if (o_.detect_leaks) enable_leak_detection();
  if (!run_body()) return 1;
  print_modules();
  new_functions_.emplace(static_cast<std::size_t>(std::max<std::int64_t>(o_.print_funcs, 0)));

  Inputs in;
  if (!read_inputs(&in)) return 1;
  choose_max_len(in);
  // Files run as they are: the region holds the longest.
  shm_ = map_private_region(in.files.empty() ? max_len_ : std::max<std::uint64_t>(in.longest(), 1),
                            static_cast<std::uint32_t>(form_->types.size()), &geometry_);
  install_reports(report_fd, !in.files.empty());
  g_front_end = this;
  install_interrupt_handlers();
  enforce_input_limits(o_);
  engine_.emplace(test_, *f_, shm_);
  engine_->check_const_input(true);
  return run_mode(in, seed, user_words);
}

// What the command line asks this process for, its inputs read and the engine ready.
int FrontEnd::run_mode(Inputs& in, std::uint64_t seed, const std::vector<std::string>& user_words) {
  if (o_.minimize_crash_internal_step && in.units.size() == 1) {
    auto entry = form_->entry(in.units[0].second, in.units[0].second.size());
    if (!entry) {
      std::fprintf(stderr, "ERROR: %s: not a `go test fuzz v1` file for %s\n", in.units[0].first.c_str(),
                   test_.name.c_str());
      return 1;
    }
    return minimize_crash_step(
        *entry, [&](const corpus::Entry& candidate) { run_once(candidate); },
        [&] { return stop_.minimize_step_done(tally_.execs); });
  }
  if (!in.files.empty()) return run_files(in.units);
  if (o_.merge_inner != 0) {
    return merge_inner(o_, max_len_, [&](const std::string& bytes) {
      std::vector<std::uint32_t> features;
      auto entry = form_->entry(bytes, max_len_);
      if (!entry) return features;  // not a unit of this test: adds nothing
      run_once(*entry);
      return core::Corpus::features_of(shm_.snapshot(), geometry_.counters_capacity);
    });
  }
  if (!in.dirs.empty()) output_ = OutputCorpus(in.dirs[0], o_.reload);
  start_session(seed, user_words);
  initial_runs(std::move(in.units));
  seeds_done_ = true;
  fuzz();
  say_status("DONE  ");
  print_recommended_dictionary();
  say("Done " + std::to_string(tally_.execs) + " runs in " + std::to_string(stop_.elapsed_seconds()) + " second(s)");
  print_final_stats();
  return 0;
}

// Read first and counted as libFuzzer counts them (FuzzerDriver.cpp prints this line
// before anything else). False: a file did not parse (said).
bool FrontEnd::read_dictionaries(std::vector<std::string>* user_words) {
  for (const auto& path : o_.dicts) {
    try {
      std::vector<std::string> words = core::parse_dictionary_file(path);
      say("Dictionary: " + std::to_string(words.size()) + " entries");
      user_words->insert(user_words->end(), words.begin(), words.end());
    } catch (const std::exception& e) {
      std::fprintf(stderr, "ERROR: %s\n", e.what());
      return false;
    }
  }
  return true;
}

std::uint64_t FrontEnd::choose_seed() {
  std::uint64_t seed = o_.seed != 0 ? o_.seed
                                    : static_cast<std::uint64_t>(Clock::now().time_since_epoch().count()) ^
                                          static_cast<std::uint64_t>(getpid());
  seed &= 0xffffffffu;  // libFuzzer's seeds are 32-bit
  say("INFO: Seed: " + std::to_string(seed));
  return seed;
}

// The test's body, which records its fuzz function. False: it recorded none (said).
bool FrontEnd::run_body() {
  f_ = run_test_body(test_);
  if (!f_->fuzz_function()) {
    std::fprintf(stderr, "ERROR: %s: %s\n", test_.name.c_str(), body_failure(*f_).c_str());
    return false;
  }
  form_.emplace(f_->fuzz_function()->types);
  return true;
}

// The command line's inputs: files to run, or corpus directories and their units. False:
// one is missing, or both kinds were given (said).
bool FrontEnd::read_inputs(Inputs* in) {
  for (const auto& path : o_.inputs) {
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
      in->dirs.emplace_back(path);
    } else if (fs::exists(path, ec)) {
      in->files.emplace_back(path);
    } else {
      std::fprintf(stderr, "ERROR: %s: no such file or directory\n", path.c_str());
      return false;
    }
  }
  if (!in->files.empty() && !in->dirs.empty()) {
    std::fprintf(stderr, "ERROR: give either corpus directories or input files, not both\n");
    return false;
  }
  if (!in->files.empty()) {
    for (const auto& p : in->files) in->units.emplace_back(p.string(), read_unit(p));
  } else if (o_.merge_inner == 0) {  // a merge's inner process reads the control file's units
    for (const auto& d : in->dirs) {
      std::vector<fs::path> inside = unit_files(d);
      for (const auto& p : inside) {
        std::error_code ec;
        if (fs::exists(p, ec)) in->units.emplace_back(p.string(), read_unit(p));  // another process may remove one
      }
      char line[64];
      std::snprintf(line, sizeof line, "INFO: %8zu files found in ", inside.size());
      say(line + d.string());
    }
  }
  return true;
}

std::uint64_t FrontEnd::Inputs::longest() const {
  std::uint64_t n = 0;
  for (const auto& u : units) n = std::max<std::uint64_t>(n, u.second.size());
  return n;
}

void FrontEnd::choose_max_len(const Inputs& in) {
  std::uint64_t longest = in.longest();
  max_len_ = o_.max_len > 0        ? static_cast<std::uint64_t>(o_.max_len)
             : o_.merge_inner != 0 ? core::kMaxDefaultMaxLen
                                   : core::default_max_len(longest);
  if (o_.max_len <= 0 && in.files.empty()) {
    // Worded as libFuzzer words it: ClusterFuzz reads the limit from this line.
    say("INFO: -max_len is not provided; libFuzzer will not generate inputs larger than " + std::to_string(max_len_) +
        " bytes");
  }
}

// How failures are reported and their artifacts written (libfuzzer_report.h).
// `files`: the inputs are files to run, not corpus directories.
void FrontEnd::install_reports(int report_fd, bool files) {
  ArtifactSettings a;
  a.prefix = o_.artifact_prefix;
  a.exact_path = o_.exact_artifact_path;
  a.error_exitcode = o_.error_exitcode;
  a.timeout_exitcode = o_.timeout_exitcode;
  a.timeout_secs = o_.timeout;
  a.rss_limit_mb = o_.rss_limit_mb;
  a.report_fd = report_fd;
  a.raw_unit = form_->raw;
  // As libFuzzer: inputs given as files are run, not saved again; a minimizing step saves
  // the shorter input that fails.
  a.save_artifacts = !files || o_.minimize_crash_internal_step;
  a.final_stats = print_final_stats_on_exit;
  if (const char* claim = std::getenv(kFailureClaimEnv); claim != nullptr) a.claim_path = claim;
  a.claim_timeouts = !o_.ignore_timeouts;
  a.claim_ooms = !o_.ignore_ooms;
  install_libfuzzer_report(a, shm_);
}

// The search (core/fuzz_session.h), once the region is mapped and the limits known.
void FrontEnd::start_session(std::uint64_t seed, const std::vector<std::string>& user_words) {
  core::FuzzSession::Settings search;
  search.counters = geometry_.counters_capacity;
  search.max_len = max_len_;
  search.len_control = static_cast<std::uint64_t>(std::max<std::int64_t>(o_.len_control, 0));
  search.master_seed = seed;
  search.repeatable = core::repeatable_calls(o_.seed != 0, o_.runs >= 0);
  search.only_ascii = o_.only_ascii;
  // -use_value_profile=1 counts it from the start; otherwise never, as in libFuzzer (the
  // mode that waits for coverage to stall is `cfuzz run --value-profile=auto`'s until it has
  // been shown to help the held-out libraries: docs/benchmarks/history.md).
  search.value_profile = o_.use_value_profile ? core::ValueProfileMode::On : core::ValueProfileMode::Off;
  session_.emplace(search);
  session_->dictionary().add_user_words(user_words);
}

void FrontEnd::close_fds() {
  int null = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (null < 0) return;
  if ((o_.close_fd_mask & 1) != 0) dup2(null, 1);
  if ((o_.close_fd_mask & 2) != 0) dup2(null, 2);
  ::close(null);
}

void FrontEnd::say(const std::string& line) {
  std::fflush(stdout);
  std::fprintf(stderr, "%s\n", line.c_str());
}

// The instrumented modules' counters and PC tables, as libFuzzer lists them. The
// runtime's own counters (the stack-depth and value-profile features) are not a module.
void FrontEnd::print_modules() {
  const auto& cov = coverage_registry();
  std::size_t modules = 0, counters = 0;
  std::string ranges;
  for (std::size_t i = 0; i < cov.region_count; ++i) {
    const core::CounterRegion& r = cov.regions[i];
    if (is_stack_depth_region(r) || is_value_profile_region(r)) continue;
    char range[64];
    std::snprintf(range, sizeof range, "[%p, %p), ", static_cast<const void*>(r.begin),
                  static_cast<const void*>(r.begin + r.size));
    ranges += std::to_string(r.size) + " " + range;
    ++modules;
    counters += r.size;
  }
  say("INFO: Loaded " + std::to_string(modules) + " modules   (" + std::to_string(counters) +
      " inline 8-bit counters): " + ranges);
  if (cov.pc_table_count == 0) return;
  std::size_t pcs = 0;
  ranges.clear();
  for (std::size_t i = 0; i < cov.pc_table_count; ++i) {
    const PcTable& t = cov.pc_tables[i];
    std::size_t n = static_cast<std::size_t>(t.end - t.begin) / 2;  // (pc, flags) pairs
    char range[64];
    std::snprintf(range, sizeof range, "[%p,%p), ", static_cast<const void*>(t.begin), static_cast<const void*>(t.end));
    ranges += std::to_string(n) + " " + range;
    pcs += n;
  }
  say("INFO: Loaded " + std::to_string(cov.pc_table_count) + " PC tables (" + std::to_string(pcs) + " PCs): " + ranges);
}

}  // namespace fuzzer::cfuzz
