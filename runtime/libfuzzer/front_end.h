// The libFuzzer front end's own process: the run a libFuzzer-style command line asks for
// when it fuzzes in process (`./target -runs=N CORPUS`), runs input files, takes one step of
// -minimize_crash or is the inner process of a -merge. It holds the search
// (core::FuzzSession) and executes with the fuzz engine (runtime/engine/fuzz_engine.h) over a
// private region; what it prints and writes is libFuzzer's (status_line.h, final_stats.h,
// output_corpus.h, libfuzzer_report.h), where the run stops is stop_conditions.h.
// run_libfuzzer_front_end (libfuzzer_front_end.h) chooses it among the modes that run the
// binary again; the class is here so that a test can run it over a harness.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/fuzz_session.h"
#include "core/rpc.h"
#include "core/shm_layout.h"
#include "corpus_format/value.h"
#include "runtime/engine/engine_namespace.h"
#include "runtime/engine/fuzz_engine.h"
#include "runtime/engine/registry.h"
#include "runtime/engine/test_state.h"
#include "runtime/libfuzzer/libfuzzer_options.h"
#include "runtime/libfuzzer/libfuzzer_units.h"
#include "runtime/libfuzzer/new_functions.h"
#include "runtime/libfuzzer/output_corpus.h"
#include "runtime/libfuzzer/stop_conditions.h"

namespace fuzzer::cfuzz {

class FrontEnd {
 public:
  // `o` and `test` outlive the front end; `program` is argv[0], for the file runs' line.
  FrontEnd(const LibFuzzerOptions& o, const RegisteredTest& test, const char* program);

  // Runs what the options ask for and returns the exit status; a failing input ends the
  // process with libFuzzer's report and exit code. Once per process: it installs the crash
  // handlers, the input limits and SIGINT and SIGTERM's handler, which reach this object.
  int run();

  // -print_final_stats's lines to `fd`; also from the crash handler when a failure ends the
  // process, so it allocates nothing.
  void print_final_stats_to(int fd) const;

 private:
  // The inputs of the command line: unit files to run, or corpus directories.
  struct Inputs {
    std::vector<std::filesystem::path> files, dirs;
    std::vector<std::pair<std::string, std::string>> units;  // name, bytes
    std::uint64_t longest() const;                           // of the units
  };
  // The run's figures that status lines and the final stats report.
  struct Tally {
    std::uint64_t execs = 0;  // finished executions (count_executions)
    std::uint64_t slowest_ns = 0;
    std::uint64_t corpus_bytes = 0;  // the corpus's units
  };

  // Set-up, in the order libFuzzer prints its lines.
  bool read_dictionaries(std::vector<std::string>* user_words);
  std::uint64_t choose_seed();
  bool run_body();
  void print_modules();
  bool read_inputs(Inputs* in);
  void choose_max_len(const Inputs& in);
  void install_reports(int report_fd, bool files);
  void start_engine();
  void start_session(std::uint64_t seed, const std::vector<std::string>& user_words);
  int run_mode(Inputs& in, std::uint64_t seed, const std::vector<std::string>& user_words);
  void close_fds();

  // Running inputs and keeping them.
  [[noreturn]] void fail();
  void count_executions(std::uint64_t n);
  core::rpc::ExecResult run_once(const corpus::Entry& entry);
  int run_files(const std::vector<std::pair<std::string, std::string>>& units);
  void initial_runs(std::vector<std::pair<std::string, std::string>> units);
  void run_initial(const corpus::Entry& entry, const std::string& name);
  bool keep_if_new(const corpus::Entry& entry, const std::string& name, bool write,
                   std::optional<std::size_t> parent = std::nullopt);
  void reload();

  // The fuzz loop.
  void fuzz();
  void fuzz_call(std::uint64_t pulse_limit);
  void note_base_unit(const corpus::Entry& base);
  std::string mutation_sequence(const std::vector<std::string>& words) const;
  corpus::Entry minimize_interesting(const corpus::Entry& found, std::size_t base);

  // Output.
  void say(const std::string& line);
  void say_status(const char* what, const std::string& extra = "");
  std::size_t covered_counters() const;
  void print_recommended_dictionary();
  void print_final_stats();

  const LibFuzzerOptions& o_;
  const RegisteredTest& test_;
  const char* program_;
  StopConditions stop_;
  std::unique_ptr<detail::TestState> f_;
  std::optional<UnitForm> form_;  // once the test's body has run
  std::uint64_t max_len_ = 0;
  core::ShmGeometry geometry_{};
  core::ShmView shm_{nullptr, core::ShmGeometry{}};
  std::optional<FuzzEngine> engine_;
  std::optional<NewFunctions> new_functions_;
  bool seeds_done_ = false;                   // NEW_FUNC lines from here on
  std::optional<core::FuzzSession> session_;  // the search, once the region is mapped
  OutputCorpus output_;
  Tally tally_;
};

}  // namespace fuzzer::cfuzz
