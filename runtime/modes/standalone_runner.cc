#include "runtime/modes/standalone_runner.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/shm_layout.h"
#include "core/value_shape.h"
#include "corpus_format/codec.h"
#include "corpus_format/corpus_dir.h"
#include "runtime/engine/executor.h"
#include "runtime/engine/registry.h"
#include "runtime/engine/test_body.h"
#include "runtime/failure/crash_handler.h"
#include "runtime/failure/input_limits.h"
#include "runtime/failure/leak_check.h"
#include "runtime/modes/testdata.h"
#include "runtime/worker/rpc_guard.h"

namespace fuzzer::cfuzz {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// Thrown for errors that end the run with exit code 2 (usage, unreadable or malformed
// corpus files), caught in run_standalone.
struct SetupError {
  std::string message;
};

std::string seconds(Clock::duration d) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2fs", std::chrono::duration<double>(d).count());
  return buf;
}

struct NamedInput {
  std::string name;
  corpus::Entry values;
};

// The files of testdata/fuzz/<Name>/, sorted by name; sub-directories are ignored, as Go
// ignores them.
std::vector<NamedInput> load_corpus_files(const std::string& dir, const std::vector<corpus::Type>& types,
                                          const detail::Shapes& shapes) {
  std::vector<NamedInput> inputs;
  std::vector<fs::path> files;
  try {
    files = corpus::list_corpus_files(dir);
  } catch (const corpus::CorpusError& e) {
    throw SetupError{e.what()};
  }
  for (const auto& path : files) {
    try {
      corpus::Entry entry = corpus::read_file(path.string());
      corpus::check_types(entry, types, path.string());
      core::check_shapes(entry, shapes, path.string());
      inputs.push_back(NamedInput{path.filename().string(), std::move(entry)});
    } catch (const corpus::CorpusError& e) {
      throw SetupError{e.what()};
    }
  }
  return inputs;
}

struct SubResult {
  std::string name;
  RunResult result;
  Clock::duration took;
  std::string log;  // as printed under the result line
};

void print_sub(const SubResult& s, bool verbose) {
  if (!verbose && s.result != RunResult::Fail) return;
  const char* word = s.result == RunResult::Fail ? "FAIL" : s.result == RunResult::Skip ? "SKIP" : "PASS";
  std::printf("    --- %s: %s (%s)\n%s", word, s.name.c_str(), seconds(s.took).c_str(), s.log.c_str());
}

std::string indent_block(const std::string& text, int spaces) {
  std::string pad(static_cast<std::size_t>(spaces), ' ');
  std::string out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) out += pad + line + "\n";
  return out;
}

// Runs one input and prints its "=== RUN" line first in verbose mode; the crash handler
// names it if the process dies.
SubResult run_input(Executor& ex, InputBuffers& buffers, const std::string& test_name, const std::string& input_name,
                    const corpus::Entry& values, bool verbose) {
  std::string full = test_name + "/" + input_name;
  if (verbose) std::printf("=== RUN   %s\n", full.c_str());
  std::fflush(stdout);
  detail::ArgView args[core::kMaxValues];
  Executor::views_of(values, buffers, args);
  core::FailureRecord failure{};
  execution_state().input_name = full.c_str();
  auto start = Clock::now();
  RunResult r;
  {
    // Fds 3 and 4 carry cfuzz's RPC while fuzzing; an input that touches them fails here
    // too, so that its saved file reproduces the failure.
    RpcGuard guard;
    leak_tracking_begin();
    begin_execution();
    r = ex.run(args, input_name, &failure);
    end_execution();
    leak_tracking_end();
    if (r != RunResult::Fail && input_leaked()) {
      std::fflush(stdout);
      fail_input_for_leak();
    }
    if (!guard.intact() && r != RunResult::Fail) {
      r = RunResult::Fail;
      core::failure_clear(failure);
      failure.kind = static_cast<std::uint32_t>(core::FailureKind::RpcCorrupted);
      core::failure_set(failure.detail, "rpc-corrupted");
      core::failure_set(failure.message,
                        "the target wrote to, closed or replaced file descriptor 3 or 4, which "
                        "carry cfuzz's RPC while fuzzing");
    }
  }
  auto took = Clock::now() - start;
  execution_state().input_name = nullptr;

  SubResult s{full, r, took, {}};
  if (r == RunResult::Fail && failure.kind != static_cast<std::uint32_t>(core::FailureKind::Returned)) {
    // An exception or a sanitizer report: what happened first, then what the input logged.
    s.log = indent_block(core::failure_summary(failure), 8);
    if (failure.kind == static_cast<std::uint32_t>(core::FailureKind::Exception)) {
      s.log = indent_block(std::string("uncaught exception ") + failure.detail +
                               (failure.message[0] != '\0' ? std::string(": ") + failure.message : ""),
                           8);
    }
  } else if (r == RunResult::Fail || verbose) {
    s.log = ex.last_input().format_log(8);
  }
  return s;
}

int run_seeds(const StandaloneOptions& o) {
  auto start = Clock::now();
  bool any_failed = false;
  std::string root = testdata_root(o.srcdir);
  for (const auto& test : registered_tests()) {
    if (!o.run.matches_test(test.name)) continue;
    auto test_start = Clock::now();
    if (o.verbose) std::printf("=== RUN   %s\n", test.name.c_str());
    auto f = run_test_body(test);
    std::vector<SubResult> subs;
    if (f->fuzz_function()) {
      const auto& types = f->fuzz_function()->types;
      std::vector<NamedInput> inputs;
      for (std::size_t i = 0; i < f->seeds().size(); ++i) {
        inputs.push_back(NamedInput{"seed#" + std::to_string(i), f->seeds()[i].values});
      }
      for (auto& file : load_corpus_files(corpus_dir(root, test.name), types, f->fuzz_function()->shapes)) {
        inputs.push_back(std::move(file));
      }
      Executor ex(*f);
      InputBuffers buffers;
      for (const auto& in : inputs) {
        if (!o.run.matches_input(in.name)) continue;
        subs.push_back(run_input(ex, buffers, test.name, in.name, in.values, o.verbose));
      }
    }
    f->run_cleanups();
    bool failed = f->failed() ||
                  std::any_of(subs.begin(), subs.end(), [](const SubResult& s) { return s.result == RunResult::Fail; });
    any_failed |= failed;
    const char* word = failed ? "FAIL" : f->skipped() ? "SKIP" : "PASS";
    if (failed || o.verbose) {
      std::printf("--- %s: %s (%s)\n%s", word, test.name.c_str(), seconds(Clock::now() - test_start).c_str(),
                  f->format_log(4).c_str());
      for (const auto& s : subs) print_sub(s, o.verbose);
    }
  }
  std::string took = seconds(Clock::now() - start);
  if (any_failed) {
    std::printf("FAIL\nFAIL\t%s\t%s\n", o.program.c_str(), took.c_str());
  } else {
    std::printf("PASS\nok  \t%s\t%s\n", o.program.c_str(), took.c_str());
  }
  // Out before anything that runs at exit (LeakSanitizer's check ends the process with
  // _exit, and stdout may be a pipe) can lose it.
  std::fflush(stdout);
  return any_failed ? 1 : 0;
}

}  // namespace

int run_standalone(const StandaloneOptions& options) {
  install_crash_handlers();
  start_input_watchdog(options.limits);
  enable_leak_detection();
  try {
    if (options.list) {
      for (const auto& t : registered_tests()) {
        if (options.run.matches_test(t.name)) std::printf("%s\n", t.name.c_str());
      }
      return 0;
    }
    return run_seeds(options);
  } catch (const SetupError& e) {
    std::fflush(stdout);
    std::fprintf(stderr, "%s: %s\n", options.program.c_str(), e.message.c_str());
    return 2;
  }
}

}  // namespace fuzzer::cfuzz
