#include "runtime/libfuzzer/libfuzzer_front_end.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "core/corpus.h"
#include "core/coverage.h"
#include "core/dictionary.h"
#include "core/fuzz_session.h"
#include "core/input_area.h"
#include "core/minimizer.h"
#include "core/sha1.h"
#include "corpus_format/codec.h"
#include "runtime/engine/coverage_registry.h"
#include "runtime/engine/fuzz_engine.h"
#include "runtime/engine/input_shrink.h"
#include "runtime/engine/private_region.h"
#include "runtime/engine/stack_depth_feature.h"
#include "runtime/engine/test_body.h"
#include "runtime/engine/value_profile.h"
#include "runtime/failure/crash_handler.h"
#include "runtime/failure/input_limits.h"
#include "runtime/failure/leak_check.h"
#include "runtime/failure/malloc_limit.h"
#include "runtime/libfuzzer/libfuzzer_crash_tools.h"
#include "runtime/libfuzzer/libfuzzer_merge.h"
#include "runtime/libfuzzer/libfuzzer_parallel.h"
#include "runtime/libfuzzer/libfuzzer_report.h"
#include "runtime/libfuzzer/libfuzzer_units.h"
#include "runtime/libfuzzer/new_functions.h"

namespace fuzzer::cfuzz {

namespace {

namespace fs = std::filesystem;
namespace rpc = core::rpc;
using Clock = std::chrono::steady_clock;

std::uint64_t peak_rss_mb() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<std::uint64_t>(ru.ru_maxrss) / 1024;
}

// Sizes as libFuzzer writes them in its status lines.
std::string size_text(std::uint64_t bytes) {
  if (bytes < (1 << 14)) return std::to_string(bytes) + "b";
  if (bytes < (1 << 24)) return std::to_string(bytes >> 10) + "Kb";
  return std::to_string(bytes >> 20) + "Mb";
}

class FrontEnd;
FrontEnd* g_front_end = nullptr;  // for the failure report's final stats
void print_final_stats_on_exit(int fd);

// SIGINT and SIGTERM end the run at once, as libFuzzer's do: exit status 72.
void on_interrupt(int) {
  char line[64];
  int n = std::snprintf(line, sizeof line, "==%d== libFuzzer: run interrupted; exiting\n", static_cast<int>(getpid()));
  if (n > 0) (void)!::write(2, line, static_cast<std::size_t>(n));
  print_final_stats_on_exit(2);
  syscall(SYS_exit_group, 72);
}

class FrontEnd {
 public:
  FrontEnd(const LibFuzzerOptions& o, const RegisteredTest& test, const char* program)
      : o_(o), test_(test), program_(program) {}

  int run() {
    start_ = Clock::now();
    int report_fd = 2;
    if ((o_.close_fd_mask & 2) != 0) report_fd = dup(2);
    close_fds();
    std::vector<std::string> user_words;
    if (!read_dictionaries(&user_words)) return 1;
    std::uint64_t seed = o_.seed != 0 ? o_.seed
                                      : static_cast<std::uint64_t>(Clock::now().time_since_epoch().count()) ^
                                            static_cast<std::uint64_t>(getpid());
    seed &= 0xffffffffu;  // libFuzzer's seeds are 32-bit
    say("INFO: Seed: " + std::to_string(seed));
    for (const auto& flag : o_.ignored) say("INFO: cfuzz ignores " + flag + " (its engine decides this itself)");
    install_crash_handlers();
    if (o_.detect_leaks) enable_leak_detection();

    f_ = run_test_body(test_);
    if (!f_->fuzz_function()) {
      std::fprintf(stderr, "ERROR: %s: %s\n", test_.name.c_str(), body_failure(*f_).c_str());
      return 1;
    }
    types_ = f_->fuzz_function()->types;
    raw_ = types_.size() == 1 && (types_[0] == corpus::Type::Bytes || types_[0] == corpus::Type::String);
    print_modules();
    new_functions_.emplace(static_cast<std::size_t>(std::max<std::int64_t>(o_.print_funcs, 0)));

    std::vector<fs::path> files, dirs;
    std::vector<std::pair<std::string, std::string>> units;  // name, bytes
    if (!read_inputs(&files, &dirs, &units)) return 1;
    std::uint64_t longest = 0;
    for (const auto& u : units) longest = std::max<std::uint64_t>(longest, u.second.size());
    max_len_ = o_.max_len > 0        ? static_cast<std::uint64_t>(o_.max_len)
               : o_.merge_inner != 0 ? core::kMaxDefaultMaxLen
                                     : core::default_max_len(longest);
    if (o_.max_len <= 0 && files.empty()) {
      // Worded as libFuzzer words it: ClusterFuzz reads the limit from this line.
      say("INFO: -max_len is not provided; libFuzzer will not generate inputs larger than " + std::to_string(max_len_) +
          " bytes");
    }
    map_region(files.empty() ? max_len_ : std::max<std::uint64_t>(longest, 1));
    install_reports(report_fd, !files.empty());
    g_front_end = this;
    struct sigaction sa {};
    sa.sa_handler = on_interrupt;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);
    InputLimits limits;
    if (o_.timeout > 0) limits.timeout = std::chrono::seconds(o_.timeout);
    if (o_.rss_limit_mb > 0) limits.rss_limit_mb = static_cast<std::uint64_t>(o_.rss_limit_mb);
    start_input_watchdog(limits);
    enable_malloc_limit(static_cast<std::uint64_t>(
        o_.malloc_limit_mb > 0 ? o_.malloc_limit_mb : std::max<std::int64_t>(o_.rss_limit_mb, 0)));
    engine_.emplace(test_, *f_, shm_);
    engine_->check_const_input(true);

    if (o_.minimize_crash_internal_step && units.size() == 1) {
      auto entry = entry_of_unit(units[0].second, types_, raw_, units[0].second.size());
      if (!entry) {
        std::fprintf(stderr, "ERROR: %s: not a `go test fuzz v1` file for %s\n", units[0].first.c_str(),
                     test_.name.c_str());
        return 1;
      }
      return minimize_crash_step(
          *entry, [&](const corpus::Entry& candidate) { run_once(candidate); },
          [&] { return out_of_time() || (o_.runs > 0 && execs_ >= static_cast<std::uint64_t>(o_.runs)); });
    }
    if (!files.empty()) return run_files(units);
    if (o_.merge_inner != 0) {
      return merge_inner(o_, max_len_, [&](const std::string& bytes) {
        std::vector<std::uint32_t> features;
        auto entry = entry_of_unit(bytes, types_, raw_, max_len_);
        if (!entry) return features;  // not a unit of this test: adds nothing
        run_once(*entry);
        return core::Corpus::features_of(shm_.snapshot(), geometry_.counters_capacity);
      });
    }
    if (!dirs.empty()) output_dir_ = dirs[0];
    start_session(seed, user_words);
    initial_runs(units);
    seeds_done_ = true;
    fuzz();
    say_status("DONE  ");
    print_recommended_dictionary();
    say("Done " + std::to_string(execs_) + " runs in " + std::to_string(elapsed_seconds()) + " second(s)");
    print_final_stats();
    return 0;
  }

 private:
  // Read first and counted as libFuzzer counts them (FuzzerDriver.cpp prints this line
  // before anything else). False: a file did not parse (said).
  bool read_dictionaries(std::vector<std::string>* user_words) {
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

  // The command line's inputs: files to run, or corpus directories and their units. False:
  // one is missing, or both kinds were given (said).
  bool read_inputs(std::vector<fs::path>* files, std::vector<fs::path>* dirs,
                   std::vector<std::pair<std::string, std::string>>* units) {
    for (const auto& in : o_.inputs) {
      std::error_code ec;
      if (fs::is_directory(in, ec)) {
        dirs->emplace_back(in);
      } else if (fs::exists(in, ec)) {
        files->emplace_back(in);
      } else {
        std::fprintf(stderr, "ERROR: %s: no such file or directory\n", in.c_str());
        return false;
      }
    }
    if (!files->empty() && !dirs->empty()) {
      std::fprintf(stderr, "ERROR: give either corpus directories or input files, not both\n");
      return false;
    }
    if (!files->empty()) {
      for (const auto& p : *files) units->emplace_back(p.string(), read_unit(p));
    } else if (o_.merge_inner == 0) {  // a merge's inner process reads the control file's units
      for (const auto& d : *dirs) {
        std::vector<fs::path> inside = unit_files(d);
        for (const auto& p : inside) {
          std::error_code ec;
          if (fs::exists(p, ec)) units->emplace_back(p.string(), read_unit(p));  // another process may remove one
        }
        char line[64];
        std::snprintf(line, sizeof line, "INFO: %8zu files found in ", inside.size());
        say(line + d.string());
      }
    }
    return true;
  }

  // How failures are reported and their artifacts written (libfuzzer_report.h).
  // `files`: the inputs are files to run, not corpus directories.
  void install_reports(int report_fd, bool files) {
    ArtifactSettings a;
    a.prefix = o_.artifact_prefix;
    a.exact_path = o_.exact_artifact_path;
    a.error_exitcode = o_.error_exitcode;
    a.timeout_exitcode = o_.timeout_exitcode;
    a.timeout_secs = o_.timeout;
    a.rss_limit_mb = o_.rss_limit_mb;
    a.report_fd = report_fd;
    a.raw_unit = raw_;
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
  void start_session(std::uint64_t seed, const std::vector<std::string>& user_words) {
    core::FuzzSession::Settings search;
    search.counters = geometry_.counters_capacity;
    search.max_len = max_len_;
    search.len_control = static_cast<std::uint64_t>(std::max<std::int64_t>(o_.len_control, 0));
    search.master_seed = seed;
    search.repeatable = core::repeatable_calls(o_.seed != 0, o_.runs >= 0);
    search.only_ascii = o_.only_ascii;
    session_.emplace(search);
    session_->dictionary().add_user_words(user_words);
  }

  void close_fds() {
    int null = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (null < 0) return;
    if ((o_.close_fd_mask & 1) != 0) dup2(null, 1);
    if ((o_.close_fd_mask & 2) != 0) dup2(null, 2);
    ::close(null);
  }

  void say(const std::string& line) {
    std::fflush(stdout);
    std::fprintf(stderr, "%s\n", line.c_str());
  }

  std::uint64_t elapsed_seconds() const {
    return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::seconds>(Clock::now() - start_).count());
  }

  // The instrumented modules' counters and PC tables, as libFuzzer lists them. The
  // runtime's own counters (the stack-depth and value-profile features) are not a module.
  void print_modules() {
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
      std::snprintf(range, sizeof range, "[%p,%p), ", static_cast<const void*>(t.begin),
                    static_cast<const void*>(t.end));
      ranges += std::to_string(n) + " " + range;
      pcs += n;
    }
    say("INFO: Loaded " + std::to_string(cov.pc_table_count) + " PC tables (" + std::to_string(pcs) +
        " PCs): " + ranges);
  }

  void map_region(std::uint64_t slot_capacity) {
    shm_ = map_private_region(slot_capacity, static_cast<std::uint32_t>(types_.size()), &geometry_);
  }

  // A failure the engine returned (the process is still alive): reported, then the end.
  [[noreturn]] void fail() {
    std::fflush(stdout);
    int status = report_libfuzzer_failure(shm_.header().failure);
    std::fflush(nullptr);
    _exit(status);
  }

  // Adds finished executions to the run's count. The engine's count of the call in progress
  // goes back to 0: the final stats of a process that dies mid-call add that count, so it
  // must only ever hold executions not counted here.
  void count_executions(std::uint64_t n) {
    execs_ += n;
    shm_.header().exec_count.store(0, std::memory_order_relaxed);
  }

  // Runs one input as it is; a failure ends the process. Its bucketed counters are left in
  // the snapshot area.
  rpc::ExecResult run_once(const corpus::Entry& entry) {
    core::store_entry(shm_.base(), entry, geometry_.input_area_size);
    rpc::ExecResult r = engine_->exec();
    count_executions(1);
    slowest_ns_ = std::max(slowest_ns_, r.duration_ns);
    if (r.status == rpc::Status::Failure) fail();
    return r;
  }

  int run_files(const std::vector<std::pair<std::string, std::string>>& units) {
    std::int64_t runs = std::max<std::int64_t>(o_.runs, 1);
    say(std::string(program_) + ": Running " + std::to_string(units.size()) + " inputs " + std::to_string(runs) +
        " time(s) each.");
    for (const auto& [name, bytes] : units) {
      say("Running: " + name);
      auto entry = entry_of_unit(bytes, types_, raw_, bytes.size());
      if (!entry) {
        std::fprintf(stderr, "ERROR: %s: not a `go test fuzz v1` file for %s(%s)\n", name.c_str(), test_.name.c_str(),
                     corpus::format_type_list(types_).c_str());
        return 1;
      }
      auto t0 = Clock::now();
      for (std::int64_t i = 0; i < runs; ++i) run_once(*entry);
      auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0).count();
      say("Executed " + name + " in " + std::to_string(ms) + " ms");
    }
    say("***\n*** NOTE: fuzzing was not performed, you have only\n***       executed the target code on a fixed set of "
        "inputs.\n***");
    print_final_stats();
    return 0;
  }

  // Every corpus unit runs once, smallest first; those with coverage no smaller one had
  // join the corpus (libFuzzer's INITED).
  void initial_runs(std::vector<std::pair<std::string, std::string>> units) {
    std::stable_sort(units.begin(), units.end(),
                     [](const auto& a, const auto& b) { return a.second.size() < b.second.size(); });
    std::uint64_t total = 0, smallest = UINT64_MAX, biggest = 0;
    for (const auto& u : units) {
      total += u.second.size();
      smallest = std::min<std::uint64_t>(smallest, u.second.size());
      biggest = std::max<std::uint64_t>(biggest, u.second.size());
    }
    // The empty input first, run once and never kept, as libFuzzer does (and counts).
    corpus::Entry zero;
    for (auto t : types_) zero.push_back(corpus::zero_value(t));
    run_once(zero);
    if (units.empty()) {
      say("INFO: A corpus is not provided, starting from an empty corpus");
      run_initial(zero, "");
    } else {
      say("INFO: seed corpus: files: " + std::to_string(units.size()) + " min: " + std::to_string(smallest) +
          "b max: " + std::to_string(biggest) + "b total: " + std::to_string(total) +
          "b rss: " + std::to_string(peak_rss_mb()) + "Mb");
      for (const auto& [name, bytes] : units) {
        if (bytes.empty()) continue;  // libFuzzer runs no empty unit (the first run was one)
        auto entry = entry_of_unit(bytes, types_, raw_, max_len_);
        if (!entry) {
          say("INFO: skipping " + name + ": not a `go test fuzz v1` file for " + test_.name);
          continue;
        }
        run_initial(*entry, fs::path(name).filename().string());
      }
      for (const auto& u : units) known_units_.insert(fs::path(u.first).filename().string());
    }
    session_->begin_fuzzing(types_);  // from the zero values when nothing was kept
    if (covered_counters() == 0) {
      say("ERROR: no interesting inputs were found. Is the code instrumented for coverage? Exiting.");
      std::fflush(nullptr);
      _exit(1);
    }
    say_status("INITED");
  }

  void run_initial(const corpus::Entry& entry, const std::string& name) {
    set_libfuzzer_mutation_source(nullptr, nullptr, nullptr);  // a unit as it is: "MS: 0 ;"
    if (run_once(entry).status == rpc::Status::Skipped) return;
    keep_if_new(entry, name, false);
  }

  // Adds an input whose bucketed counters are in the snapshot area, if they add to the
  // mask; writes it to the output corpus directory when it is new to this run. `parent`:
  // the entry whose fuzz call found it.
  bool keep_if_new(const corpus::Entry& entry, const std::string& name, bool write,
                   std::optional<std::size_t> parent = std::nullopt) {
    std::size_t n = geometry_.counters_capacity;
    core::CorpusEntry e = core::make_corpus_entry(name, write ? core::Origin::Found : core::Origin::Testdata, entry);
    std::string unit = raw_ ? raw_bytes(entry) : corpus::encode(entry);
    if (e.name.empty()) {
      char hex[core::kSha1HexSize + 1];
      core::sha1_hex(reinterpret_cast<const std::uint8_t*>(unit.data()), unit.size(), hex);
      e.name = hex;
    }
    std::string file_name = e.name;
    if (!session_->admit(std::move(e), shm_.snapshot(), execs_, parent)) return false;
    // Before the NEW line, as libFuzzer prints them; the seeds' functions are only noted.
    for (const auto& line : new_functions_->observe(shm_.snapshot(), n, !seeds_done_)) say(line);
    corpus_bytes_ += unit.size();
    if (write && !output_dir_.empty()) {
      write_unit(output_dir_ / file_name, unit);
      known_units_.insert(file_name);
    }
    return true;
  }

  // -reload: units other processes (-jobs, -fork, another run) wrote to the output corpus
  // directory since the last look run once, and join the corpus if they add coverage. The
  // directory is listed only when its modification time moved.
  void reload() {
    if (o_.reload <= 0 || output_dir_.empty() || Clock::now() < next_reload_) return;
    next_reload_ = Clock::now() + std::chrono::seconds(o_.reload);
    std::error_code ec;
    auto mtime = fs::last_write_time(output_dir_, ec);
    if (ec || mtime == output_mtime_) return;
    output_mtime_ = mtime;
    std::size_t before = session_->corpus().size();
    for (const auto& path : unit_files(output_dir_)) {
      std::string name = path.filename().string();
      if (!known_units_.insert(name).second) continue;
      std::string bytes;
      try {
        bytes = read_unit(path);
      } catch (const std::string&) {
        continue;  // gone meanwhile
      }
      auto entry = bytes.empty() ? std::nullopt : entry_of_unit(bytes, types_, raw_, max_len_);
      if (entry) run_initial(*entry, name);
    }
    if (session_->corpus().size() != before) say_status("RELOAD");
  }

  // libFuzzer's cov: the modules' counters (edges) reached, not the runtime's own
  // (stack depth, value profile), which count only as features.
  std::size_t covered_counters() const {
    const std::vector<std::uint8_t>& mask = session_->mask();
    const auto& cov = coverage_registry();
    std::size_t n = 0;
    for (std::size_t r = 0; r < cov.region_count; ++r) {
      const core::CounterRegion& region = cov.regions[r];
      if (is_stack_depth_region(region) || is_value_profile_region(region)) continue;
      std::size_t end = std::min(region.offset + region.size, geometry_.counters_capacity);
      for (std::size_t i = region.offset; i < end; ++i) n += mask[i] != 0;
    }
    return n;
  }
  std::size_t features() const {
    const std::vector<std::uint8_t>& mask = session_->mask();
    return core::count_bits(mask.data(), mask.size());
  }

  // "#N\tNEW    cov: C ft: F corp: U/S exec/s: E rss: RMb", as libFuzzer prints it (cov
  // and ft only when not 0): ClusterFuzz counts these lines as the engine's.
  void say_status(const char* what, const std::string& extra = "") {
    std::uint64_t secs = elapsed_seconds();
    std::string line = "#" + std::to_string(execs_) + "\t" + what;
    if (std::size_t c = covered_counters(); c != 0) line += " cov: " + std::to_string(c);
    if (std::size_t f = features(); f != 0) line += " ft: " + std::to_string(f);
    const core::Corpus& corpus = session_->corpus();
    if (!corpus.empty()) line += " corp: " + std::to_string(corpus.size()) + "/" + size_text(corpus_bytes_);
    // libFuzzer's INITED line has no lim: (its limit is set after the line).
    if (o_.len_control > 0 && session_->len_limit() != 0 && std::string_view(what) != "INITED")
      line += " lim: " + std::to_string(session_->len_limit());
    line += " exec/s: " + std::to_string(secs == 0 ? 0 : execs_ / secs) + " rss: " + std::to_string(peak_rss_mb()) +
            "Mb" + extra;
    say(line);
  }

  bool out_of_time() const {
    return o_.max_total_time > 0 && Clock::now() - start_ >= std::chrono::seconds(o_.max_total_time);
  }

  void fuzz() {
    // libFuzzer's pulse: at every power of two of the executions, once the run is 2 s old.
    // A call stops at the next one, so the line comes at that count.
    std::uint64_t next_pulse = 1;
    while (next_pulse <= execs_) next_pulse *= 2;
    while (!(o_.runs >= 0 && execs_ >= static_cast<std::uint64_t>(o_.runs)) && !out_of_time()) {
      core::FuzzCall call = session_->next_call(execs_);
      const core::CorpusEntry& base = session_->corpus().at(call.plan.entry);
      core::store_entry(shm_.base(), base.values, geometry_.input_area_size);
      note_base_unit(base.values);  // here: reload() below may grow the corpus under `base`
      if (call.plan.splice != call.plan.entry) {
        core::store_entry(shm_.splice(), session_->corpus().at(call.plan.splice).values, geometry_.input_area_size);
      } else {
        shm_.splice().count = 0;
      }
      rpc::FuzzParams& p = call.params;
      if (o_.runs >= 0) {
        std::uint64_t left = static_cast<std::uint64_t>(o_.runs) - execs_;
        p.limit = p.limit != 0 ? std::min(p.limit, left) : left;
      }
      if (o_.verbosity > 0) p.limit = p.limit != 0 ? std::min(p.limit, next_pulse - execs_) : next_pulse - execs_;
      reload();
      // The engine tells new coverage by the mask area (as a worker's, set before each call).
      std::copy(session_->mask().begin(), session_->mask().end(), shm_.mask());
      rpc::FuzzResult r = engine_->fuzz(p);
      count_executions(r.execs);
      session_->absorb(call, r);
      if (r.status == rpc::Status::Failure) fail();
      if (r.status == rpc::Status::Interesting) {
        std::string mutations = mutation_sequence(r.useful_words);  // before minimizing runs other inputs
        corpus::Entry found = minimize_interesting(core::load_entry(shm_.current(), geometry_.input_area_size));
        std::uint64_t len = core::entry_size(found);
        if (keep_if_new(found, "", true, call.plan.entry)) {
          say_status("NEW   ", " L: " + std::to_string(len) + "/" + std::to_string(max_len_) + " MS: " + mutations);
        }
      }
      if (execs_ >= next_pulse) {
        // A minimization that went past the power of two skips that pulse.
        if (execs_ == next_pulse && o_.verbosity > 0 && elapsed_seconds() >= 2) say_status("pulse ");
        while (next_pulse <= execs_) next_pulse *= 2;
      }
    }
  }

  // libFuzzer's "2 EraseBytes-DictInsert- DE: \"key\"-": the mutations that made the new
  // unit, and the dictionary words its chain of mutations used.
  std::string mutation_sequence(const std::vector<std::string>& words) const {
    char ops[core::Mutator::kMaxSequence * 24 + 24];
    engine_->mutator().describe_sequence(ops, sizeof ops);
    std::string text = ops;
    if (words.empty()) return text;
    if (text.back() == ' ') text.pop_back();  // "0 ": no mutation (the base unit itself)
    text += " DE: ";
    for (const auto& w : words) text += "\"" + escaped_word(w) + "\"-";
    return text;
  }

  // A word as libFuzzer prints dictionary entries (escape_libfuzzer_byte).
  static std::string escaped_word(const std::string& w) {
    std::string out;
    for (unsigned char ch : w) {
      char e[4];
      out.append(e, escape_libfuzzer_byte(ch, e));
    }
    return out;
  }

  // The automatic dictionary's words that found new coverage, as libFuzzer recommends its
  // own for -dict (between the DONE line and "Done N runs").
  void print_recommended_dictionary() {
    auto words = session_->dictionary().recommended();
    if (words.empty()) return;
    say("###### Recommended dictionary. ######");
    for (const auto& [word, uses] : words) say("\"" + escaped_word(word) + "\" # Uses: " + std::to_string(uses));
    say("###### End of recommended dictionary. ######");
  }

  // The crash line's "base unit": the unit a fuzz call mutates, named as its file would be.
  void note_base_unit(const corpus::Entry& base) {
    std::string unit = raw_ ? raw_bytes(base) : corpus::encode(base);
    char hex[core::kSha1HexSize + 1];
    core::sha1_hex(reinterpret_cast<const std::uint8_t*>(unit.data()), unit.size(), hex);
    set_libfuzzer_mutation_source(&engine_->mutator(), &engine_->words(), hex);
  }

  // As `cfuzz run` does (and Go): an input with new coverage is shrunk to the smallest
  // input keeping that new coverage, within a small budget, before it joins the corpus.
  // Leaves the bucketed counters of the input it returns in the snapshot area.
  corpus::Entry minimize_interesting(const corpus::Entry& found) {
    std::size_t n = geometry_.counters_capacity;
    std::vector<std::uint8_t> keep = session_->new_coverage(shm_.snapshot()).keep;
    std::vector<std::uint8_t> found_snapshot(shm_.snapshot(), shm_.snapshot() + n);
    // Within -runs too: one execution is kept back for the result's own coverage.
    std::uint64_t budget = session_->shrink_grant(execs_);
    if (o_.runs >= 0) {
      std::uint64_t left = static_cast<std::uint64_t>(o_.runs) - std::min<std::uint64_t>(execs_, o_.runs);
      budget = std::min(budget, left > 0 ? left - 1 : 0);
    }
    if (budget == 0) return found;  // the snapshot area still holds its coverage
    core::Minimizer m(found);
    ShrinkGoal goal;
    goal.keep = keep.data();
    goal.counters = n;
    ShrinkOutcome o = shrink_input(*engine_, m, goal, budget, core::kInterestingMinimizeMillis);
    count_executions(o.execs);
    if (o.end == ShrinkOutcome::End::Failure) {
      shm_.header().failure = o.failure;
      fail();  // a new failure found while shrinking: reported as any other
    }
    session_->shrink_spent(o.execs);
    if (corpus::same_entry(m.best(), found)) {
      std::copy(found_snapshot.begin(), found_snapshot.end(), shm_.snapshot());
      return found;
    }
    // The smaller input's own coverage is what joins the mask.
    rpc::ExecResult r = run_once(m.best());
    if (r.status == rpc::Status::Ok && core::covers(shm_.snapshot(), keep.data(), n)) return m.best();
    std::copy(found_snapshot.begin(), found_snapshot.end(), shm_.snapshot());
    return found;
  }

  void print_final_stats() {
    std::fflush(stdout);
    print_final_stats_to(2);
  }

 public:
  // Also called when a failure ends the process (libFuzzer prints them then too), so it
  // formats into a buffer on the stack and writes once.
  void print_final_stats_to(int fd) const {
    if (!o_.print_final_stats) return;
    // With the executions of a call a failure cut short (count_executions).
    std::uint64_t execs = execs_ + shm_.header().exec_count.load(std::memory_order_relaxed);
    double secs = std::chrono::duration<double>(Clock::now() - start_).count();
    char buf[512];
    int n = std::snprintf(buf, sizeof buf,
                          "stat::number_of_executed_units: %llu\n"
                          "stat::average_exec_per_sec:     %llu\n"
                          "stat::new_units_added:          %llu\n"
                          "stat::slowest_unit_time_sec:    %llu\n"
                          "stat::peak_rss_mb:              %llu\n",
                          static_cast<unsigned long long>(execs),
                          static_cast<unsigned long long>(secs > 0 ? static_cast<double>(execs) / secs : 0),
                          static_cast<unsigned long long>(session_ ? session_->admitted(core::Origin::Found) : 0),
                          static_cast<unsigned long long>(slowest_ns_ / 1000000000ULL),
                          static_cast<unsigned long long>(peak_rss_mb()));
    if (n > 0) (void)!::write(fd, buf, static_cast<std::size_t>(std::min<int>(n, sizeof buf - 1)));
  }

 private:
  const LibFuzzerOptions& o_;
  const RegisteredTest& test_;
  const char* program_;
  Clock::time_point start_;
  std::unique_ptr<detail::TestState> f_;
  std::vector<corpus::Type> types_;
  bool raw_ = true;
  std::uint64_t max_len_ = core::kDefaultMaxLen;
  core::ShmGeometry geometry_{};
  core::ShmView shm_{nullptr, core::ShmGeometry{}};
  std::optional<FuzzEngine> engine_;
  std::optional<NewFunctions> new_functions_;
  bool seeds_done_ = false;                   // NEW_FUNC lines from here on
  std::optional<core::FuzzSession> session_;  // the search (core/fuzz_session.h), once the region is mapped
  fs::path output_dir_;
  std::unordered_set<std::string> known_units_;  // file names in the output directory
  fs::file_time_type output_mtime_{};
  Clock::time_point next_reload_{};
  std::uint64_t execs_ = 0;
  std::uint64_t corpus_bytes_ = 0;
  std::uint64_t slowest_ns_ = 0;
};

void print_final_stats_on_exit(int fd) {
  if (g_front_end != nullptr) g_front_end->print_final_stats_to(fd);
}

}  // namespace

int run_libfuzzer_front_end(const LibFuzzerOptions& options, const RegisteredTest& test, int argc, char** argv) {
  try {
    // The outer process of a merge runs no input itself.
    if (options.merge && options.merge_inner == 0) return merge_outer(options, argc, argv);
    if (options.minimize_crash && !options.minimize_crash_internal_step) return minimize_crash(options, argc, argv);
    if (options.cleanse_crash) return cleanse_crash(options, argc, argv);
    if (options.fork > 0) return run_fork(options, argc, argv);
    if (options.jobs > 0) {
      if (int status = run_jobs(options, argc, argv); status >= 0) return status;
    }
    // Never destroyed, as libFuzzer's own: LeakSanitizer's check at exit reports through it
    // (the final stats), after this returns.
    return (new FrontEnd(options, test, argv[0]))->run();
  } catch (const std::string& e) {
    std::fprintf(stderr, "ERROR: %s\n", e.c_str());
    return 1;
  }
}

}  // namespace fuzzer::cfuzz
